/* test_mem_render.c - unit tests for the mem applet's text
 * (src/applets/mem/mem_render.c), linked from the applet's own objects:
 * a tot result of two variants renders the kernel report's comparison
 * table (the baseline first, the improvement after the values, the
 * average then the best), n/a where a variant has no code, and three
 * variants get an improvement block instead of the column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "applets/mem/mem_applet.h"
#include "core/results.h"

/* A tot result: tot_memcpy for each variant (avg and best as given). */
static struct bb_run *tot_run(const char *variants, const double *avg, const double *best, int n)
{
	struct bb_run *run = calloc(1, sizeof *run);
	struct bb_result *r = bb_run_add_result(run, "mem");
	char list[128], *save = NULL;
	int k = 0;

	bb_kv_str(&r->params, "mode", "tot");
	bb_kv_str(&r->params, "ops", "memcpy");
	bb_kv_str(&r->params, "variants", variants);
	bb_kv_str(&r->params, "baseline", "libc");
	bb_kv_int(&r->params, "repeat", 4);
	snprintf(list, sizeof list, "%s", variants);
	for (char *v = strtok_r(list, ",", &save); v && k < n; v = strtok_r(NULL, ",", &save), k++) {
		struct bb_series *s = bb_result_add_series(r, MEM_TOT_PREFIX "memcpy", v, "ticks",
							   1e6, "bytes");
		bb_kv_num(&s->values, "avg", avg[k]);
		bb_kv_num(&s->values, "best", best[k]);
	}
	bb_result_set_status(r, 1, "");
	return run;
}

static char *render(const struct bb_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	mem_render(f, run->results[0]);
	fclose(f);
	return buf;
}

static void test_two_variants_classic_table(void **state)
{
	const double avg[] = { 4635754, 4360040 }, best[] = { 4600000, 4140000 };
	struct bb_run *run = tot_run("libc,words", avg, best, 2);
	char *out = render(run);

	(void)state;
	assert_non_null(strstr(out, "tot, the average of 4 passes (as the report printed it):\n"));
	assert_non_null(strstr(out, "                  libc   words  improvement\n"));
	assert_non_null(strstr(out, "tot_memcpy     4635754 4360040  5.9%\n"));
	assert_non_null(strstr(out, "tot, the best of the 4 passes:\n"));
	assert_non_null(strstr(out, "tot_memcpy     4600000 4140000 10.0%\n"));
	assert_null(strstr(out, "n/a"));
	free(out);
	bb_run_free(run);
}

static void test_missing_variant_is_na(void **state)
{
	const double avg[] = { 1000 }, best[] = { 900 };
	struct bb_run *run = tot_run("libc,mmx", avg, best, 1);   /* mmx has no memcpy */
	char *out = render(run);

	(void)state;
	assert_non_null(strstr(out, "n/a"));
	assert_non_null(strstr(out, "n/a: the variant has no code for that operation.\n"));
	free(out);
	bb_run_free(run);
}

static void test_three_variants_improvement_block(void **state)
{
	const double avg[] = { 1000, 800, 500 }, best[] = { 1000, 750, 400 };
	struct bb_run *run = tot_run("libc,words,avx2", avg, best, 3);
	char *out = render(run);

	(void)state;
	assert_null(strstr(out, "improvement\n"));
	assert_non_null(strstr(out, "improvement against libc:\n"));
	assert_non_null(strstr(out, "25.0%"));   /* words, best */
	assert_non_null(strstr(out, "60.0%"));   /* avx2, best */
	free(out);
	bb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_variants_classic_table),
		cmocka_unit_test(test_missing_variant_is_na),
		cmocka_unit_test(test_three_variants_improvement_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
