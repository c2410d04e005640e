/* mem_host.c - how the analysis engine reads mem's results
 * (analysis/host.h): tot's counts per variant ("mem.tot.memcpy.libc", as
 * the kernel's tot_memcpy table measures them), page's ticks per 4 KiB
 * page by page state, and sweep's bandwidth against size. */
#include "analysis/host.h"
#include "mem_applet.h"

static const struct bb_key_rule rules[] = {
	{ .pattern = MEM_TOT_PREFIX "*", .key = "mem.tot.$1.$v", .chart = "mem.tot.$1",
	  .title = "mem tot_$1, as the kernel's tot_memcpy table measures it (lower is better)",
	  .category = "$v", .legend = "", .xlabel = "variant" },
	{ .pattern = "*" MEM_SWEEP_SEP "*", .key = "mem.sweep.$1.$2.$v.$q", .disp = "GB/s",
	  .scale = 1e-9, .chart = "mem.sweep.$1", .title = "mem sweep: $1 bandwidth against size",
	  .xlabel = "size (bytes)", .xcap = 2, .category = "$2" },
	{ .pattern = "*" MEM_PAGE_SEP "*", .key = "mem.page.$1.$2.$v", .chart = "mem.page.$1",
	  .title = "mem page: $1 per 4 KiB page (lower is better)", .category = "$2",
	  .xlabel = "page state" },
};

static const char *const facts[] = {
	"memory.", "devfreq.", "cache.", "firmware.", "product.", "transparent_hugepage",
	"mem_total_bytes", "caches", "kernel.config.", "cpu.", "cpu_model", "libc",
	"glibc_tunables", "kernel_cflags", NULL,
};

const struct bb_host bb_host_mem = {
	.applet = "mem",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.facts = facts,
	.chart_rank = 2,
};
