/* absent.c - `history` in a binary built without SQLite (libsqlite3-dev)
 * or without cJSON: options are still checked as in a full build (--help
 * works, a bad option exits 2), then the applet says plainly what this
 * binary lacks and exits 1. */
#include "applets/history/history.h"
#include "core/error.h"

#ifndef BB_HIST_LACKS
#define BB_HIST_LACKS "SQLite (libsqlite3-dev) or cJSON (libcjson-dev)"
#endif

int history_main(int argc, char **argv)
{
	struct hist_opts o;

	hist_parse(argc, argv, &o);
	bb_die("this binary was built without %s, so it keeps no history; build boardbench "
	       "on a host with libsqlite3-dev and libcjson-dev", BB_HIST_LACKS);
}
