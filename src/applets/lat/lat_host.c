/* lat_host.c - how the analysis engine reads lat's results
 * (analysis/host.h): a key per working-set size ("lat.65536.latency", with
 * the order when it is not random), ns per dependent load on a log scale
 * against the size, and the cache levels lat found (those sysfs names) as
 * labelled lines on the chart. */
#include "analysis/host.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LAT_RULE .how = BB_HOW_PER_WORK, .quantity = "latency", .base = "s/load",   \
	.disp = "ns/load", .scale = 1e9, .better = BB_BETTER_LOWER, .chart = "lat",    \
	.title = "lat: latency against working-set size (ns per dependent load)",     \
	.xlabel = "working set (bytes)", .xcap = 1, .category = "$1", .logy = 1

static const struct bb_key_rule rules[] = {
	{ .pattern = "*", .variant = "random", .key = "lat.$1.latency", LAT_RULE },
	{ .pattern = "*", .key = "lat.$v.$1.latency", LAT_RULE },
};

/* The levels lat found (params levelN_name, levelN_last_bytes), but main
 * memory and a cliff the machine names no cache for (sysfs ""). */
static size_t level_marks(const struct bb_rresult *res, double *x, const char **label,
			  size_t max)
{
	int levels = (int)fmin(fmax(bb_rkv_num(&res->params, "levels", 0), 0), 16);
	size_t n = 0;

	for (int i = 1; i <= levels && n < max; i++) {
		char key[64];
		const char *name, *sysfs;
		snprintf(key, sizeof key, "level%d_name", i);
		name = bb_rkv_str(&res->params, key);
		snprintf(key, sizeof key, "level%d_sysfs", i);
		sysfs = bb_rkv_str(&res->params, key);
		if (!name || strcmp(name, "memory") == 0 || (sysfs && !sysfs[0]))
			continue;
		snprintf(key, sizeof key, "level%d_last_bytes", i);
		x[n] = bb_rkv_num(&res->params, key, NAN);
		label[n++] = name;
	}
	return n;
}

static const char *const facts[] = {
	"memory.", "devfreq.", "cache.", "firmware.", "product.", "transparent_hugepage",
	"mem_total_bytes", "caches", "kernel_cflags", NULL,
};

const struct bb_host bb_host_lat = {
	.applet = "lat",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.facts = facts,
	.chart_rank = 4,
	.marks = level_marks,
};
