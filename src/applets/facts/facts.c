/* facts.c - the `facts` applet: prints what tells this board apart (the
 * keys every results file records under `system`, src/facts/facts.h), one
 * "key: value" line each in the order collected.  --json FILE writes a
 * results file as every applet does (the facts under `system`, one result
 * "facts" with no series), so that `compare` can say how two boards
 * differ; --csv FILE writes key,value,labels rows; --fact adds the user's
 * own.  BB_SYSROOT=DIR reads a fixture tree instead of the live system
 * (tests/fixtures/boards/).  Its --help is src/applets/facts/help.txt. */
#include "core/applet.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/help.h"
#include "facts/facts.h"

#include <stdio.h>
#include <stdlib.h>

BB_HELP_TEXT(facts);

static void print_text(const struct bb_kvlist *kv)
{
	for (size_t i = 0; i < kv->n; i++)
		printf("%s: %s\n", kv->v[i].key, kv->v[i].s ? kv->v[i].s : "");
}

/* key,value,labels: one row per fact, labels as KEY=VALUE;KEY=VALUE. */
static int facts_csv(FILE *f, const struct bb_run *run)
{
	const struct bb_kvlist *l = &run->labels;
	char labels[2048];
	size_t n = 0;

	labels[0] = '\0';
	for (size_t i = 0; i < l->n && n < sizeof labels; i++)
		n += (size_t)snprintf(labels + n, sizeof labels - n, "%s%s=%s", i ? ";" : "",
				      l->v[i].key, l->v[i].s);
	fputs("key,value,labels\n", f);
	for (size_t i = 0; i < run->sys.facts.n; i++) {
		bb_csv_field(f, run->sys.facts.v[i].key);
		fputc(',', f);
		bb_csv_field(f, run->sys.facts.v[i].s ? run->sys.facts.v[i].s : "");
		fputc(',', f);
		bb_csv_field(f, labels);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* With --json or --csv: a run like any applet's, its one result "facts". */
static int write_files(int argc, char **argv, struct bb_cli *cli)
{
	struct bb_run *run = bb_run_new(argc, argv);
	char err[256];
	int rc = 0;

	run->watch_heat = 0;   /* nothing is measured */
	bb_result_set_status(bb_run_add_result(run, "facts"), 1,
			     "the system facts are recorded under system");
	print_text(&run->sys.facts);
	fflush(stdout);
	bb_cli_apply_labels(run, cli);
	if (cli->csv && bb_write_atomic(cli->csv, facts_csv, run, err, sizeof err)) {
		bb_warn("cannot write CSV file '%s': %s", cli->csv, err);
		rc = 1;
	}
	cli->csv = NULL;
	return bb_cli_report(run, cli) | rc;
}

static int facts_main(int argc, char **argv)
{
	static const struct option longopts[] = { BB_COMMON_LONGOPTS, { NULL, 0, NULL, 0 } };
	struct bb_cli cli = { 0 };
	struct bb_kvlist kv = { 0 };
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, &cli))
			continue;
		if (opt != 'h')
			bb_cli_bad(opt, argv);
		bb_help_print(&bb_help_facts);
		return 0;
	}
	bb_cli_no_operands(argc, argv);
	if (cli.json || cli.csv)
		return write_files(argc, argv, &cli);
	bb_facts_collect(&kv);
	print_text(&kv);
	bb_kv_free(&kv);
	bb_cli_free(&cli);
	return 0;
}

const struct bb_applet bb_applet_facts = {
	.name = "facts",
	.summary = "what tells this board apart: device tree, SoC revision, CPU, kernel config",
	.main = facts_main,
};
