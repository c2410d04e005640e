/* cli.c - shared option handling and output-file writing for applets. */
#include "cli.h"
#include "emit.h"
#include "error.h"
#include "outfile.h"
#include "parse.h"
#include "stop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bb_cli_begin(void)
{
	optind = 0;   /* glibc and musl: full re-initialisation */
	opterr = 0;
}

void bb_die_value(const char *opt, const char *val, const char *expect)
{
	bb_die_usage("invalid value '%s' for %s (%s)", val, opt, expect);
}

uint64_t bb_size_arg(const char *opt, const char *arg, uint64_t min, uint64_t max,
		     const char *expect)
{
	uint64_t v;

	if (bb_parse_size(arg, &v) || v < min || v > max)
		bb_die_value(opt, arg, expect);
	return v;
}

const char *bb_cli_output(const char *opt, const char *path)
{
	char err[512];

	switch (bb_outfile_check(path, err, sizeof err)) {
	case 0: return path;
	case 2: bb_die_value(opt, path, err);
	default: bb_die("cannot write %s '%s': %s", opt, path, err);
	}
}

const char *bb_cli_nonempty(const char *opt, const char *arg, const char *expect)
{
	if (!arg[0])
		bb_die_value(opt, arg, expect);
	return arg;
}

static struct bb_kvlist user_facts;

const struct bb_kvlist *bb_cli_facts(void)
{
	return &user_facts;
}

void bb_cli_facts_reset(void)
{
	bb_kv_free(&user_facts);
}

/* --fact NAME=PATH or NAME=mmio:ADDR[:WIDTH[:MASK]]: the syntax here, the
 * reading where the facts are collected. */
static void fact_option(const char *arg)
{
	char name[64], spec[256];
	struct bb_mmio m;

	if (bb_parse_label(arg, name, sizeof name, spec, sizeof spec) || !spec[0])
		bb_die_value("--fact", arg, "expected NAME=PATH or NAME=mmio:ADDR[:WIDTH[:MASK]], "
			     "NAME of [A-Za-z0-9_.-]");
	if (strncmp(spec, "mmio:", 5) == 0 && bb_parse_mmio(spec + 5, &m))
		bb_die_value("--fact", arg, "expected mmio:ADDR[:WIDTH[:MASK]]: WIDTH 8, 16, 32 or 64 "
			     "bits, ADDR a multiple of WIDTH/8, MASK not 0 and within WIDTH");
	if (bb_kv_get(&user_facts, name))
		bb_die_value("--fact", arg, "a NAME given twice");
	bb_kv_str(&user_facts, name, spec);
}

int bb_cli_common(int opt, const char *arg, struct bb_cli *cli)
{
	char key[64], val[256];

	switch (opt) {
	case BB_OPT_JSON:
		cli->json = bb_cli_output("--json", arg);
		return 1;
	case BB_OPT_CSV:
		cli->csv = bb_cli_output("--csv", arg);
		return 1;
	case BB_OPT_LABEL:
		if (bb_parse_label(arg, key, sizeof key, val, sizeof val))
			bb_die_value("--label", arg,
				     "expected KEY=VALUE, KEY of [A-Za-z0-9_.-], printable VALUE");
		bb_kv_str(&cli->labels, key, val);
		return 1;
	case BB_OPT_FACT:
		fact_option(arg);
		return 1;
	default:
		return 0;
	}
}

void bb_cli_bad(int opt, char **argv)
{
	const char *text = optind > 0 ? argv[optind - 1] : NULL;
	int is_long;

	/* musl's getopt steps optind past the end when the last argument is
	 * a short option without its value: argv[optind - 1] is then the NULL
	 * after the arguments, and the option the one before it. */
	if (!text && optind > 1)
		text = argv[optind - 2];
	if (!text)
		text = "?";
	/* getopt reports a long option by its value, which may be a letter
	 * the applet has no short option for: name it as it was typed. */
	is_long = strncmp(text, "--", 2) == 0;

	if (opt == ':') {
		if (optopt > 0 && optopt < 0x100 && !is_long)
			bb_die_usage("option '-%c' needs a value (see --help)", optopt);
		bb_die_usage("option '%s' needs a value (see --help)", text);
	}
	if (optopt > 0 && optopt < 0x100 && !is_long)
		bb_die_usage("unknown option '-%c' (see --help)", optopt);
	bb_die_usage("unknown option '%s' (see --help)", text);
}

void bb_cli_no_operands(int argc, char **argv)
{
	if (optind < argc)
		bb_die_usage("unexpected argument '%s' (see --help)", argv[optind]);
}

void bb_cli_apply_labels(struct bb_run *run, const struct bb_cli *cli)
{
	for (size_t i = 0; i < cli->labels.n; i++)
		bb_kv_str(&run->labels, cli->labels.v[i].key, cli->labels.v[i].s);
}

static int write_one(const char *what, const char *path, bb_emit_fn fn, struct bb_run *run)
{
	char err[256];

	if (!path)
		return 0;
	if (bb_write_atomic(path, fn, run, err, sizeof err) == 0)
		return 0;
	bb_warn("cannot write %s file '%s': %s", what, path, err);
	return 1;
}

int bb_cli_finish(struct bb_run *run, struct bb_cli *cli)
{
	int rc = 0;

	bb_cli_apply_labels(run, cli);
	rc |= write_one("JSON", cli->json, bb_emit_json, run);
	rc |= write_one("CSV", cli->csv, bb_emit_csv, run);
	return rc;
}

/* After a SIGINT/SIGTERM: one line saying what was kept and where. */
static void bb_stop_warn(const struct bb_run *run, const struct bb_cli *cli, int failed)
{
	char where[512];

	if (!cli->json && !cli->csv)
		snprintf(where, sizeof where, "on stdout only (no --json or --csv given)");
	else
		snprintf(where, sizeof where, "in %s%s%s%s", failed ? "(not all written: see above) " : "",
			 cli->json ? cli->json : cli->csv, cli->json && cli->csv ? " and " : "",
			 cli->json && cli->csv ? cli->csv : "");
	bb_run_warn_stopped(run, where);
}

int bb_cli_report(struct bb_run *run, struct bb_cli *cli)
{
	int rc;

	bb_emit_text(stdout, run);
	fflush(stdout);
	rc = bb_cli_finish(run, cli);
	if (bb_stopped())
		bb_stop_warn(run, cli, rc);
	rc |= bb_stopped() != 0;
	for (size_t i = 0; i < run->n; i++)
		if (!run->results[i]->ok) {
			if (!run->results[i]->interrupted)
				bb_warn("%s", run->results[i]->message ? run->results[i]->message : "failed");
			rc = 1;
		}
	bb_run_free(run);
	bb_cli_free(cli);
	return rc;
}

void bb_cli_free(struct bb_cli *cli)
{
	bb_kv_free(&cli->labels);
}
