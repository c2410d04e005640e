/* absent.c - `compare` in a binary built without cJSON (no libcjson for
 * this compiler, or CJSON=0): options are still checked as in a full build
 * (--help works, a bad option exits 2), then the applet says plainly that
 * it is not in this binary and exits 1. */
#include "applets/compare/toolopts.h"
#include "core/error.h"

#include <stdlib.h>

int compare_main(int argc, char **argv)
{
	struct compare_opts o;

	compare_parse(argc, argv, &o);
	free(o.args);
	bb_die("this binary was built without cJSON (libcjson-dev), so it cannot read "
	       "results files; build boardbench on a host with libcjson to compare and report");
}
