/* lava.c - `run --lava FILE`: the headline of each applet of the quick
 * suite as a LAVA test case, one shell line each, for the test definition
 * in packaging/lava/ to run on the board.  Each applet defines its
 * headline in its own folder (core/applet.h, struct bb_headline): the
 * metric compare heads the applet with and the figure compare takes for
 * one run, so that the geometric mean of a LAVA measurement over runs is
 * the A or B figure compare prints.  The names stay the same from board to
 * board, so LAVA can chart a metric across jobs (docs/json-schema.md,
 * "LAVA").  A result that failed or was cut short gives `--result fail`
 * and no measurement; an applet the suite did not run gives no line. */
#include "applets/run/lava.h"
#include "core/applet.h"
#include "core/headline.h"

#include <string.h>

#define NAME_MAX_LEN 96

int bb_emit_lava(FILE *f, const struct bb_run *run)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct bb_result *r = run->results[i];
		const struct bb_applet *a = bb_applet_find(r->applet);
		char name[NAME_MAX_LEN];
		if (!a || !a->headline || !a->headline->lava)
			continue;
		if (r->ok) {
			a->headline->lava(f, r);
		} else {
			a->headline->lava_name(name, sizeof name, r);
			bb_lava_fail(f, name);
		}
	}
	return ferror(f) ? -1 : 0;
}
