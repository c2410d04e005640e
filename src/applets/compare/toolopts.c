/* toolopts.c - option parsing and help for `compare` and `report` (see
 * toolopts.h).  Bad usage exits 2 with one line, like every applet.  The
 * help texts are src/help/compare.txt and src/help/report.txt. */
#include "applets/compare/toolopts.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"
#include "core/outfile.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	OPT_SVG,
	OPT_TITLE,
	OPT_ALL,
	OPT_ONLY,
	OPT_BY,
	OPT_BASE,
	OPT_MIXED_BOARDS,
};

/* A copy of argv with the first "--" replaced by side_mark. */
static char **mark_sides(int argc, char **argv)
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

/* core/outfile.h says which files can be written; "-" is stdout. */
static const char *output_file(const char *opt, const char *arg)
{
	char err[512];

	switch (bb_outfile_check(arg, err, sizeof err)) {
	case 0: return arg;
	case 2: bb_die_value(opt, arg, err);
	default: bb_die("cannot write %s '%s': %s", opt, arg, err);
	}
}

static const char *nonempty(const char *opt, const char *arg, const char *expect)
{
	if (!arg[0])
		bb_die_value(opt, arg, expect);
	return arg;
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
	case OPT_CSV: o->csv = output_file("--csv", arg); return 1;
	case OPT_ALL: o->all = 1; return 1;
	case OPT_ONLY:
		o->only = nonempty("--only", arg, "expected applet names, e.g. stream,ttcp");
		return 1;
	case OPT_BY: o->by = nonempty("--by", arg, "expected a label key, e.g. PMU"); return 1;
	case OPT_BASE: o->base = nonempty("--base", arg, "expected a value of the --by label"); return 1;
	case OPT_MIXED_BOARDS: o->mixed_boards = 1; return 1;
	default: return 0;
	}
}

static int find_mark(char **ops, int n)
{
	for (int i = 0; i < n; i++)
		if (ops[i] == side_mark)
			return i;
	return -1;
}

/* Splits the operands into the two sides (or runs and two variants). */
static void compare_operands(char **ops, int n, struct compare_opts *o)
{
	int mark = find_mark(ops, n);

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
	char **args = mark_sides(argc, argv);
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
			bb_help_print(BB_HELP_COMPARE);
			exit(0);
		}
		bb_cli_bad(opt, args);
	}
	if (o->base && !o->by)
		bb_die_usage("--base needs --by KEY (see --help)");
	compare_operands(args + optind, argc - optind, o);
}

void report_parse(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "by", required_argument, NULL, OPT_BY },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **args = mark_sides(argc, argv);
	int opt, mark;

	memset(o, 0, sizeof *o);
	o->args = args;
	o->title = "boardbench report";
	bb_cli_begin();
	while ((opt = getopt_long(argc, args, ":o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': o->out = output_file("--output", optarg); break;
		case OPT_SVG:
			if (!optarg[0])
				bb_die_value("--svg", optarg, "expected a directory");
			o->svg_dir = optarg;
			break;
		case OPT_CSV: o->csv = output_file("--csv", optarg); break;
		case OPT_TITLE: o->title = optarg; break;
		case OPT_BY:
			if (!optarg[0])
				bb_die_value("--by", optarg, "expected a label key");
			o->by = optarg;
			break;
		case OPT_BASE: o->base = optarg; break;
		case 'h': bb_help_print(BB_HELP_REPORT); exit(0);
		default: bb_cli_bad(opt, args);
		}
	}
	if (!o->out)
		bb_die_usage("missing -o FILE: where to write the HTML report (see --help)");
	if (o->base && !o->by)
		bb_die_usage("--base needs --by KEY (see --help)");
	if (optind >= argc)
		bb_die_usage("expected results files or directories to report on (see --help)");
	o->in = args + optind;
	o->nin = argc - optind;
	mark = find_mark(o->in, o->nin);
	if (mark >= 0 && (o->by || mark == 0 || mark == o->nin - 1))
		bb_die_usage(o->by ? "--by needs results files or directories, without -- (see --help)"
				   : "'--' needs the runs of A before it and of B after it (see --help)");
	o->nin_a = mark;
}
