/* install.c - the facts floor's hooks under the results model (see
 * install.h): the heat watch's end prints the one warning line of a
 * result whose machine throttled. */
#include "facts/install.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/results.h"
#include "facts/heat.h"
#include "facts/load.h"
#include "facts/sysinfo.h"

#include <stdlib.h>

static void *heat_start(struct bb_kvlist *params)
{
	return bb_heat_watch_start(params);
}

/* The end of a measurement: sampled again; one line when it throttled. */
static void heat_end(void *w, struct bb_kvlist *params)
{
	char why[512], line[1024];

	if (!bb_heat_watch_end(w, params, why, sizeof why))
		return;
	bb_escape(line, sizeof line, why);   /* zone names come from sysfs */
	bb_note("warning: the machine throttled during the measurement (%s): compare this "
		"result with care", line);
}

static void heat_release(void *w)
{
	bb_heat_watch_free(w);
}

static void *load_start(struct bb_kvlist *params)
{
	(void)params;
	return bb_load_watch_start();
}

static void load_end(void *w, struct bb_kvlist *params)
{
	bb_load_watch_end(w, params);
}

static const struct bb_watch heat = { heat_start, heat_end, heat_release };
static const struct bb_watch load = { load_start, load_end, free };

void bb_facts_install(void)
{
	const struct bb_run_hooks h = { bb_sysinfo_collect, { &heat, &load } };

	bb_run_hooks_install(&h);
}
