/* report_opts.c - report's command line (see compare/toolopts.h, which
 * its options share with compare's): bad usage exits 2 with one line, like
 * every applet.  The help text is src/applets/report/help.txt. */
#include "applets/compare/toolopts.h"
#include "core/applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"

#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(report);

enum {
	OPT_SVG = BB_OPT_FIRST_APPLET,
	OPT_CSV,
	OPT_TITLE,
	OPT_BY,
	OPT_BASE,
};

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
	char **args = tool_mark_sides(argc, argv);
	int opt, mark;

	memset(o, 0, sizeof *o);
	o->args = args;
	o->title = "boardbench report";
	bb_cli_begin();
	while ((opt = getopt_long(argc, args, ":o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': o->out = bb_cli_output("--output", optarg); break;
		case OPT_SVG:
			if (!optarg[0])
				bb_die_value("--svg", optarg, "expected a directory");
			o->svg_dir = optarg;
			break;
		case OPT_CSV: o->csv = bb_cli_output("--csv", optarg); break;
		case OPT_TITLE: o->title = optarg; break;
		case OPT_BY:
			if (!optarg[0])
				bb_die_value("--by", optarg, "expected a label key");
			o->by = optarg;
			break;
		case OPT_BASE: o->base = optarg; break;
		case 'h': bb_help_print(&bb_help_report); exit(0);
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
	mark = tool_find_mark(o->in, o->nin);
	if (mark >= 0 && (o->by || mark == 0 || mark == o->nin - 1))
		bb_die_usage(o->by ? "--by needs results files or directories, without -- (see --help)"
				   : "'--' needs the runs of A before it and of B after it (see --help)");
	o->nin_a = mark;
}

const struct bb_applet bb_applet_report = {
	.name = "report",
	.summary = "one self-contained HTML report: inline SVG charts and run metadata",
	.main = report_main,
};
