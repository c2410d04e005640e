/* toolopts.c - option parsing and help for `compare` and `report` (see
 * toolopts.h).  Bad usage exits 2 with one line, like every applet. */
#include "tools/toolopts.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/outfile.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stands in for the "--" between the two sides while getopt runs: it is
 * not an option, so getopt keeps it in place among the operands. */
static char side_mark[] = "\x1f(sides)";

const char compare_help[] =
	"usage: boardbench compare [options] A.json B.json\n"
	"       boardbench compare [options] A1.json A2.json... -- B1.json B2.json...\n"
	"       boardbench compare [options] DIR_A DIR_B\n"
	"       boardbench compare [options] DIR... --by KEY [--base VALUE]\n"
	"       boardbench compare --variants [options] RUN.json... VARIANT_A VARIANT_B\n"
	"\n"
	"Says whether B is faster than A, metric by metric, only when the runs say\n"
	"so.  Metrics are matched by key (e.g. stream.triad.c.bandwidth,\n"
	"mem.tot.memcpy.libc, csum.1500.avx2).  With 3 or more runs a side (run\n"
	"--repeat N) each metric is tested on the runs' medians with Welch's t on\n"
	"their logs, so that noise from run to run counts; with fewer, the samples\n"
	"are pooled (Mann-Whitney U) and the noise threshold rises to how far the\n"
	"CPU's own speed moved within a side.  A change is B relative to A in the\n"
	"metric's own unit; faster or slower follows the metric (higher is better\n"
	"for bandwidth and throughput, lower for time, latency, cycles, ticks).\n"
	"\n"
	"False claims over a whole suite: the 5% (--alpha) is the chance that a\n"
	"comparison of two identical setups claims anything at all, not the\n"
	"chance per metric.  It is shared among the applets; an applet shows a\n"
	"change when its headline (Triad, ttcp's throughput, the tot_memcpy\n"
	"total, ...) or its metrics together (Simes) pass their share, and only\n"
	"then are its metrics claimed one by one (Benjamini-Hochberg).  A claim\n"
	"also needs the change beyond the noise threshold (--threshold).\n"
	"\n"
	"Power: for each applet with nothing claimed, the summary says the\n"
	"smallest change of its headline these runs would have found 4 times in\n"
	"5, from the spread between runs and the number of runs, and how many\n"
	"runs a side would find a change of the threshold's size.  \"No change\n"
	"larger than 4%\" means a change that large would most likely have been\n"
	"found; a smaller one may still be there.\n"
	"\n"
	"Output: a summary line per applet first, then the claimed and headline\n"
	"metrics (--all: every metric), then notes.  --filter and --only choose\n"
	"what is printed; the verdicts are decided over every metric first.\n"
	"\n"
	"      --by KEY             split the runs by the label KEY (run --label\n"
	"                           KEY=VALUE): each value against the base\n"
	"      --base VALUE         the value of KEY that is A (default: the first\n"
	"                           in sort order)\n"
	"      --alpha P            the suite's chance of any false claim,\n"
	"                           0.000001..0.5 (default 0.05)\n"
	"      --threshold PCT      noise threshold in percent, 0..100 (default 2)\n"
	"      --fail-on-regression exit 1 when any metric is claimed regressed\n"
	"      --variants           compare VARIANT_B against VARIANT_A\n"
	"      --all                print every metric, not only claims and headlines\n"
	"      --filter TEXT        print only metrics whose key contains TEXT\n"
	"      --only LIST          print only these applets, e.g. --only stream,ttcp\n"
	"      --csv FILE           write every metric printed or not (after --filter\n"
	"                           and --only) as CSV, with its test and level\n"
	"  -h, --help               show this help\n"
	"\n"
	"Exit status: 0 compared (whatever the verdicts), 1 something regressed and\n"
	"--fail-on-regression was given, or an output file failed; 2 bad usage or\n"
	"a result file that is not valid (one line naming the file and the key).\n";

const char report_help[] =
	"usage: boardbench report [options] RUN.json|DIR... -o report.html\n"
	"       boardbench report [options] A... -- B... -o report.html\n"
	"\n"
	"Writes one self-contained HTML file (inline SVG, no scripts, nothing\n"
	"fetched) with a chart per measurement and one series per run or label:\n"
	"STREAM kernels as bars with the spread of the samples, mem sweep\n"
	"bandwidth and lat latency against size on log2 axes (lat with the cache\n"
	"levels it found), csum time per call against length per variant, ttcp\n"
	"throughput, and a table of each run's host, CPU, kernel, labels and\n"
	"compiler.\n"
	"\n"
	"  -o, --output FILE    the HTML file (required)\n"
	"      --svg DIR        also write each chart alone as DIR/<chart>.svg\n"
	"      --csv FILE       also write every metric of every run as CSV\n"
	"      --title TEXT     the report's title (default: boardbench report)\n"
	"      --by KEY         split the runs by the label KEY (run --label KEY=VALUE)\n"
	"                       and open with B against A as compare --by decides it:\n"
	"                       a verdict per applet and a forest plot of B/A\n"
	"      --base VALUE     with --by: the runs with KEY=VALUE are A (default: the\n"
	"                       first value in sort order)\n"
	"  A... -- B...         the same with the runs before -- as A, after it as B\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 written, 1 an output file could not be written, 2 bad usage\n"
	"or a result file that is not valid.\n";

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
			fputs(compare_help, stdout);
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
		case 'h': fputs(report_help, stdout); exit(0);
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
