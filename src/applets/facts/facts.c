/* facts.c - the `facts` applet: prints what tells this board apart (the
 * keys every results file records under `system`, src/facts/facts.h), one
 * "key: value" line each in the order collected, or with --json one flat
 * JSON object.  BB_SYSROOT=DIR reads a fixture tree instead of the live
 * system (tests/fixtures/boards/).  Its --help is src/applets/facts/help.txt. */
#include "core/applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"
#include "core/json.h"
#include "facts/facts.h"

#include <stdio.h>
#include <stdlib.h>

BB_HELP_TEXT(facts);

static void print_text(const struct bb_kvlist *kv)
{
	for (size_t i = 0; i < kv->n; i++)
		printf("%s: %s\n", kv->v[i].key, kv->v[i].s ? kv->v[i].s : "");
}

static void print_json(const struct bb_kvlist *kv)
{
	struct bb_json j;

	bb_json_init(&j, stdout, 1);
	bb_json_obj_begin(&j);
	for (size_t i = 0; i < kv->n; i++)
		bb_json_kstr(&j, kv->v[i].key, kv->v[i].s ? kv->v[i].s : "");
	bb_json_obj_end(&j);
}

static int facts_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bb_kvlist kv = { 0 };
	int json = 0, opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'h':
			bb_help_print(&bb_help_facts);
			return 0;
		default: bb_cli_bad(opt, argv);
		}
	}
	bb_cli_no_operands(argc, argv);
	bb_facts_collect(&kv);
	if (json)
		print_json(&kv);
	else
		print_text(&kv);
	bb_kv_free(&kv);
	return 0;
}

const struct bb_applet bb_applet_facts = {
	.name = "facts",
	.summary = "what tells this board apart: device tree, SoC revision, CPU, kernel config",
	.main = facts_main,
};
