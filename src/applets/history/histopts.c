/* histopts.c - the command line of `history` (src/applets/history/help.txt):
 *   boardbench history VERB [DB] [OPERANDS] [options]
 * DB is an SQLite file or a postgresql:// URL, also given as --db DB;
 * without either it is results/history.sqlite.  Kept apart from the code
 * that uses a database so that a binary built without SQLite still
 * answers --help and refuses bad options exactly as a full one. */
#include "applets/history/history.h"
#include "core/applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(history);

#define HIST_DEFAULT_DB "results/history.sqlite"

enum {
	OPT_DB = BB_OPT_FIRST_APPLET,
	OPT_JSON,
	OPT_BOARD,
	OPT_LABEL,
	OPT_SINCE,
	OPT_MIN_SEG,
	OPT_FDR,
	OPT_RUNS,
	OPT_ONLY,
};

static const struct {
	const char *verb;
	int min, max;     /* operands after DB */
	const char *usage;
} verbs[] = {
	{ "add", 1, -1, "add [DB] FILE|DIR..." },
	{ "list", 0, 0, "list [DB]" },
	{ "show", 1, 1, "show [DB] METRIC [--board B] [--label K=V]" },
	{ "changes", 0, 0, "changes [DB] [--since T]" },
	{ "report", 0, 0, "report [DB] -o FILE" }, /* the word, not the applet */
	{ "bisect-script", 1, 1, "bisect-script [DB] METRIC [--board B] [--runs N] [-o FILE]" },
};
#define NVERBS (sizeof verbs / sizeof verbs[0])

static int option(int opt, const char *arg, struct hist_opts *o)
{
	uint64_t u;
	char k[128], v[256];

	switch (opt) {
	case OPT_DB: o->db = bb_cli_nonempty("--db", arg, "expected an SQLite file or a postgresql:// URL"); return 1;
	case OPT_JSON: o->json = 1; return 1;
	case OPT_BOARD: o->board = bb_cli_nonempty("--board", arg, "expected a board (board.id or hostname)"); return 1;
	case OPT_LABEL:
		if (bb_parse_label(arg, k, sizeof k, v, sizeof v))
			bb_die_value("--label", arg, "expected KEY=VALUE");
		o->label = arg;
		return 1;
	case OPT_SINCE: o->since = bb_cli_nonempty("--since", arg, "expected a UTC time, e.g. 2026-01-31"); return 1;
	case 'o': o->out = bb_cli_output("--output", arg); return 1;
	case OPT_MIN_SEG:
		if (bb_parse_u64(arg, 2, 1000, &u))
			bb_die_value("--min-segment", arg, "expected units from 2 to 1000");
		o->min_seg = (size_t)u;
		return 1;
	case OPT_FDR:
		if (bb_parse_double(arg, 1e-9, 0.5, &o->q))
			bb_die_value("--fdr", arg, "expected a level from 0.000000001 to 0.5");
		return 1;
	case OPT_RUNS:
		if (bb_parse_u64(arg, 3, 100, &u))
			bb_die_value("--runs", arg, "expected runs a side from 3 to 100");
		o->runs = (int)u;
		return 1;
	case OPT_ONLY: o->only = bb_cli_nonempty("--only", arg, "expected applet names, e.g. stream,mem"); return 1;
	default: return 0;
	}
}

static int looks_like_db(const char *s)
{
	static const char *const ext[] = { ".sqlite", ".sqlite3", ".db" };
	size_t n = strlen(s);
	char head[16] = { 0 };
	FILE *f;

	if (!strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11))
		return 1;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (n > strlen(ext[i]) && !strcmp(s + n - strlen(ext[i]), ext[i]))
			return 1;
	if ((f = fopen(s, "rb")) != NULL) {
		size_t got = fread(head, 1, sizeof head, f);
		fclose(f);
		return got == sizeof head && !memcmp(head, "SQLite format 3", 16);
	}
	return 0;
}

/* DB and the verb's operands from what getopt left. */
static void operands(struct hist_opts *o, char **ops, int n, int v)
{
	int db_given = 0;

	if (!o->db) {
		if (verbs[v].max < 0 ? n > 1 && looks_like_db(ops[0]) : n > verbs[v].max)
			db_given = 1;
		o->db = db_given ? ops[0] : HIST_DEFAULT_DB;
	}
	ops += db_given;
	n -= db_given;
	if (n < verbs[v].min || (verbs[v].max >= 0 && n > verbs[v].max))
		bb_die_usage("usage: history %s (see --help)", verbs[v].usage);
	o->paths = ops;
	o->npaths = n;
	if (!strcmp(o->verb, "show") || !strcmp(o->verb, "bisect-script"))
		o->metric = ops[0];
	if (!strcmp(o->verb, "report") && !o->out) /* the word, not the applet */
		bb_die_usage("report: missing -o FILE, where to write the HTML page (see --help)");
}

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "board", required_argument, NULL, OPT_BOARD },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "output", required_argument, NULL, 'o' },
	{ "min-segment", required_argument, NULL, OPT_MIN_SEG },
	{ "fdr", required_argument, NULL, OPT_FDR },
	{ "runs", required_argument, NULL, OPT_RUNS },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options of argv[1..]: those before the verb (shortopts "+...":
 * getopt stops at the verb), or all after it. */
static void options(int argc, char **argv, const char *shortopts, struct hist_opts *o)
{
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (option(opt, optarg, o))
			continue;
		if (opt == 'h') {
			bb_help_print(&bb_help_history);
			exit(0);
		}
		bb_cli_bad(opt, argv);
	}
}

void hist_parse(int argc, char **argv, struct hist_opts *o)
{
	size_t v;

	memset(o, 0, sizeof *o);
	o->min_seg = BB_CP_MIN_SEG;
	o->q = BB_CP_Q;
	o->alpha = 0.05;
	o->runs = 5;
	options(argc, argv, "+:o:h", o);
	if (optind >= argc)
		bb_die_usage("expected a verb: add, list, show, changes, report or bisect-script "
			     "(see --help)");
	int base = optind;      /* the verb: argv[base] is the new argv[0] */
	o->verb = argv[base];
	for (v = 0; v < NVERBS && strcmp(verbs[v].verb, o->verb); v++)
		;
	if (v == NVERBS)
		bb_die_usage("unknown verb '%s': add, list, show, changes, report or bisect-script",
			     o->verb);
	argc -= base;
	argv += base;
	options(argc, argv, ":o:h", o);
	operands(o, argv + optind, argc - optind, (int)v);
}

const struct bb_applet bb_applet_history = {
	.name = "history",
	.summary = "a lab's results in SQLite or PostgreSQL: change points, their causes, trends",
	.main = history_main,
};
