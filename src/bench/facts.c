/* facts.c - the `facts` applet: prints what tells this board apart (the
 * keys every results file records under `system`, src/facts/facts.h), one
 * "key: value" line each in the order collected, or with --json one flat
 * JSON object.  BB_SYSROOT=DIR reads a fixture tree instead of the live
 * system (tests/fixtures/boards/). */
#include "applets.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/json.h"
#include "facts/facts.h"

#include <stdio.h>
#include <stdlib.h>

static const char facts_help[] =
	"usage: boardbench facts [--json]\n"
	"\n"
	"Prints the facts that tell boards and setups apart, as every results file\n"
	"records them under \"system\": device tree model and compatible, SoC and\n"
	"silicon revision, CPU by architecture (PowerPC PVR, ARM core types, x86\n"
	"family/model/stepping/microcode and the flags that decide variants),\n"
	"kernel release, command line, preemption model and the configuration\n"
	"options that move these measurements, firmware (DMI, device tree /chosen)\n"
	"and memory controllers (EDAC).  What the system does not expose is left out.\n"
	"\n"
	"  --json       one flat JSON object of string values on standard output\n"
	"  -h, --help   show this help\n";

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

int facts_main(int argc, char **argv)
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
			fputs(facts_help, stdout);
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
