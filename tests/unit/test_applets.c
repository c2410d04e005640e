/* test_applets.c - unit tests for the applet table (src/applets/list.c,
 * core/applet.h) and the analysis engine's hosts (analysis/host.h): every
 * applet of the build has a name, a summary and a way to run (its own main
 * or every step of the generic one); every applet in the quick suite has a
 * headline with a LAVA test case, whose name is safe for LAVA, for a result
 * that failed as for one that went well; each applet's help text is in the
 * binary; each host belongs to an applet of the build and has rules.  (The
 * shell side, test_tree.sh, checks the folders, man page and completion.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "applets_built.h"
#include "core/applet.h"
#include "core/help.h"
#if BB_ANALYSIS
#include "analysis/host.h"
#endif

static void test_every_applet_runs(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; bb_applets[i]; i++, n++) {
		const struct bb_applet *a = bb_applets[i];
		assert_true(a->name && a->name[0] && a->summary && a->summary[0]);
		assert_ptr_equal(bb_applet_find(a->name), a);
		if (!a->main) {
			assert_true(a->opts_size > 0);
			assert_non_null(a->defaults);
			assert_non_null(a->parse);
			assert_non_null(a->execute);
		}
	}
	assert_true(n > 0);
	assert_null(bb_applet_find("no-such-applet"));
}

/* LAVA's test case names: [A-Za-z0-9._/-], not empty. */
static int lava_safe(const char *s)
{
	if (!s[0])
		return 0;
	for (; *s; s++)
		if (!strchr("._-/", *s) && !(*s >= '0' && *s <= '9') && !(*s >= 'a' && *s <= 'z') &&
		    !(*s >= 'A' && *s <= 'Z'))
			return 0;
	return 1;
}

static void test_quick_applets_have_headlines(void **state)
{
	struct bb_run *run;
	struct bb_result *r;
	size_t quick = 0;

	(void)state;
	for (size_t i = 0; bb_applets[i]; i++) {
		const struct bb_applet *a = bb_applets[i];
		char name[96];
		if (!a->quick)
			continue;
		quick++;
		assert_non_null(a->headline);
		assert_non_null(a->headline->lava);
		assert_non_null(a->headline->lava_name);
		assert_true(a->headline->keys[0] || a->headline->last);
		run = calloc(1, sizeof *run);
		assert_non_null(run);
		r = bb_run_add_result(run, a->name);
		bb_result_set_status(r, 0, "failed");
		a->headline->lava_name(name, sizeof name, r);
		assert_true(lava_safe(name));
		assert_true(strncmp(name, a->name, strlen(a->name)) == 0);
		bb_run_free(run);
	}
	assert_true(quick > 0);
}

static void test_every_applet_has_its_help(void **state)
{
	(void)state;
	for (size_t i = 0; bb_applets[i]; i++) {
		char path[128];
		size_t k;
		snprintf(path, sizeof path, "src/applets/%s/help.txt", bb_applets[i]->name);
		for (k = 0; bb_help_files[k].path && strcmp(bb_help_files[k].path, path); k++)
			;
		assert_non_null(bb_help_files[k].path);
	}
}

#if BB_ANALYSIS
static void test_hosts_belong_to_applets(void **state)
{
	(void)state;
	for (size_t i = 0; bb_hosts[i]; i++) {
		const struct bb_host *h = bb_hosts[i];
		assert_non_null(bb_applet_find(h->applet));
		assert_ptr_equal(bb_host_find(h->applet), h);
		assert_true(h->nrules > 0 && h->rules);
		for (size_t k = 0; k < h->nrules; k++)
			assert_non_null(h->rules[k].pattern);
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_applet_runs),
		cmocka_unit_test(test_quick_applets_have_headlines),
		cmocka_unit_test(test_every_applet_has_its_help),
#if BB_ANALYSIS
		cmocka_unit_test(test_hosts_belong_to_applets),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
