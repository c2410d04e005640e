/* stream_host.c - how the analysis engine reads stream's results
 * (analysis/host.h): a key per kernel, variant and quantity
 * ("stream.triad.c.bandwidth"), the four kernels as bars per variant. */
#include "analysis/host.h"

static const struct bb_key_rule rules[] = {
	{ .pattern = "*", .key = "stream.$1.$v.$q", .chart = "stream",
	  .title = "STREAM kernels (bar: median, whisker: slowest to fastest sample)",
	  .category = "$1", .xlabel = "STREAM kernel" },
};

static const char *const facts[] = {
	"memory.", "devfreq.", "cache.", "firmware.", "product.", "transparent_hugepage",
	"mem_total_bytes", "caches", "cpu.", "cpu_model", "kernel_cflags", NULL,
};

const struct bb_host bb_host_stream = {
	.applet = "stream",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.facts = facts,
	.chart_rank = 1,
};
