/* applet.c - the generic main of applet.h: one shape for every measuring
 * applet, so that none repeats the steps around its measurement. */
#include "core/applet.h"
#include "core/calib.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/stop.h"

#include <stdlib.h>

static int generic_main(const struct bb_applet *a, int argc, char **argv)
{
	struct bb_cli cli = { 0 };
	void *opts = bb_xcalloc(1, a->opts_size);
	struct bb_run *run;
	int rc;

	a->defaults(opts);
	a->parse(argc, argv, opts, &cli);
	rc = a->before ? a->before(argc, argv, opts, &cli) : -1;
	if (rc >= 0) {
		bb_cli_free(&cli);
		free(opts);
		return rc;
	}
	run = bb_run_new(argc, argv);
	bb_stop_install();
	bb_progress_enable(1);
	bb_calib_sample(run);
	a->execute(run, opts);
	bb_calib_finish(run);
	rc = bb_cli_report(run, &cli);   /* results may point into opts */
	free(opts);
	return rc;
}

int bb_applet_main(const struct bb_applet *a, int argc, char **argv)
{
	return a->main ? a->main(argc, argv) : generic_main(a, argc, argv);
}
