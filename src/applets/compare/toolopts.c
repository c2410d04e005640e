/* toolopts.c - compare's command line (see toolopts.h), and the pieces
 * report's shares with it: the "--" between A and B, output files.  Bad
 * usage exits 2 with one line, like every applet.  The help text is
 * src/applets/compare/help.txt. */
#include "applets/compare/toolopts.h"
#include "core/applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(compare);

/* Stands in for the "--" between the two sides while getopt runs: it is
 * not an option, so getopt keeps it in place among the operands. */
static char side_mark[] = "\x1f(sides)";

enum {
	OPT_ALPHA = BB_OPT_FIRST_APPLET,
	OPT_THRESHOLD,
	OPT_FAIL,
	OPT_VARIANTS,
	OPT_FILTER,
	OPT_CSV,
	OPT_ALL,
	OPT_ONLY,
	OPT_BY,
	OPT_BASE,
	OPT_MIXED_BOARDS,
};

char **tool_mark_sides(int argc, char **argv)
{
	char **args = bb_xcalloc((size_t)argc + 1, sizeof *args);
	int marked = 0;

	for (int i = 0; i < argc; i++) {
		args[i] = argv[i];
		if (i > 0 && !marked && strcmp(argv[i], "--") == 0) {
			args[i] = side_mark;
			marked = 1;
		}
	}
	return args;
}

static double parse_threshold(const char *arg)
{
	char buf[64];
	size_t n = strlen(arg);
	double pct;

	snprintf(buf, sizeof buf, "%s", arg);
	if (n && n < sizeof buf && buf[n - 1] == '%')
		buf[n - 1] = '\0';
	if (n >= sizeof buf || bb_parse_double(buf, 0, 100, &pct) || pct >= 100)
		bb_die_value("--threshold", arg, "expected a percentage from 0 to below 100");
	return pct / 100;
}

static int compare_option(int opt, const char *arg, struct compare_opts *o)
{
	switch (opt) {
	case OPT_ALPHA:
		if (bb_parse_double(arg, 1e-6, 0.5, &o->alpha))
			bb_die_value("--alpha", arg, "expected a number from 0.000001 to 0.5");
		return 1;
	case OPT_THRESHOLD: o->threshold = parse_threshold(arg); return 1;
	case OPT_FAIL: o->fail_on_regression = 1; return 1;
	case OPT_VARIANTS: o->variants = 1; return 1;
	case OPT_FILTER: o->filter = arg; return 1;
	case OPT_CSV: o->csv = bb_cli_output("--csv", arg); return 1;
	case OPT_ALL: o->all = 1; return 1;
	case OPT_ONLY:
		o->only = bb_cli_nonempty("--only", arg, "expected applet names, e.g. stream,ttcp");
		return 1;
	case OPT_BY: o->by = bb_cli_nonempty("--by", arg, "expected a label key, e.g. PMU"); return 1;
	case OPT_BASE: o->base = bb_cli_nonempty("--base", arg, "expected a value of the --by label"); return 1;
	case OPT_MIXED_BOARDS: o->mixed_boards = 1; return 1;
	default: return 0;
	}
}

int tool_find_mark(char **ops, int n)
{
	for (int i = 0; i < n; i++)
		if (ops[i] == side_mark)
			return i;
	return -1;
}

/* Splits the operands into the two sides (or runs and two variants). */
static void compare_operands(char **ops, int n, struct compare_opts *o)
{
	int mark = tool_find_mark(ops, n);

	if (o->by) {
		if (o->variants || mark >= 0 || n < 1)
			bb_die_usage("--by needs results files or directories, without -- or "
				     "--variants (see --help)");
		o->a = ops;
		o->na = n;
	} else if (o->variants) {
		if (mark >= 0 || n < 3)
			bb_die_usage("--variants needs RUN.json... VARIANT_A VARIANT_B (see --help)");
		o->a = ops;
		o->na = n - 2;
		o->va = ops[n - 2];
		o->vb = ops[n - 1];
	} else if (mark >= 0) {
		if (mark == 0 || mark == n - 1)
			bb_die_usage("'--' needs the runs of A before it and of B after it (see --help)");
		o->a = ops;
		o->na = mark;
		o->b = ops + mark + 1;
		o->nb = n - mark - 1;
	} else {
		if (n != 2)
			bb_die_usage("expected two results files or directories, A and B, or "
				     "A... -- B... (see --help)");
		o->a = ops;
		o->b = ops + 1;
		o->na = o->nb = 1;
	}
}

void compare_parse(int argc, char **argv, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "fail-on-regression", no_argument, NULL, OPT_FAIL },
		{ "variants", no_argument, NULL, OPT_VARIANTS },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "by", required_argument, NULL, OPT_BY },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "mixed-boards", no_argument, NULL, OPT_MIXED_BOARDS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **args = tool_mark_sides(argc, argv);
	int opt;

	memset(o, 0, sizeof *o);
	o->args = args;
	o->alpha = 0.05;
	o->threshold = 0.02;
	bb_cli_begin();
	while ((opt = getopt_long(argc, args, ":h", longopts, NULL)) != -1) {
		if (compare_option(opt, optarg, o))
			continue;
		if (opt == 'h') {
			bb_help_print(&bb_help_compare);
			exit(0);
		}
		bb_cli_bad(opt, args);
	}
	if (o->base && !o->by)
		bb_die_usage("--base needs --by KEY (see --help)");
	compare_operands(args + optind, argc - optind, o);
}

const struct bb_applet bb_applet_compare = {
	.name = "compare",
	.summary = "is B faster than A? per metric: change, interval, p, verdict; what else differed",
	.main = compare_main,
};
