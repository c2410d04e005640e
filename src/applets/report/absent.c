/* absent.c - `report` in a binary built without cJSON (no libcjson for
 * this compiler, or CJSON=0): options are still checked as in a full build
 * (--help works, a bad option exits 2), then the applet says plainly that
 * it is not in this binary and exits 1. */
#include "applets/compare/toolopts.h"
#include "core/error.h"

int report_main(int argc, char **argv)
{
	struct report_opts o;

	report_parse(argc, argv, &o);
	bb_die("this binary was built without cJSON (libcjson-dev), so it cannot read "
	       "results files; build boardbench on a host with libcjson to compare and report");
}
