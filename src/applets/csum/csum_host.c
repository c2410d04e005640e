/* csum_host.c - how the analysis engine reads csum's results
 * (analysis/host.h): a key per length and variant ("csum.1500.generic32"),
 * time per call in ns with the ticks or cycles of the same samples as its
 * twin, the --latency series apart, and the Total of each variant as the
 * checksum's classic table sums its time column. */
#include "analysis/host.h"
#include "csum_applet.h"
#include "core/error.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSUM_TIME .how = BB_HOW_PER_VALUE, .per_value = "calls", .quantity = "time",   \
	.base = "s/call", .disp = "ns/call", .scale = 1e9, .better = BB_BETTER_LOWER,    \
	.xlabel = "bytes per call", .xcap = 1, .category = "$1", .logy = 1
#define CSUM_COUNT .how = BB_HOW_PER_VALUE, .per_value = "calls", .quantity = "counter", \
	.base = "$u/call", .disp = "$u/call", .scale = 1, .better = BB_BETTER_LOWER,     \
	.chart = ""
#define LATENCY CSUM_LATENCY " " CSUM_BYTES "*"

static const struct bb_key_rule rules[] = {
	{ .pattern = LATENCY CSUM_COUNTER, .key = "csum.latency.$1.$v.counter", CSUM_COUNT,
	  .twin = "csum.latency.$1.$v" },
	{ .pattern = LATENCY, .key = "csum.latency.$1.$v", CSUM_TIME, .chart = "csum.latency",
	  .title = "csum --latency: time per call against length (each result feeds the next)" },
	{ .pattern = CSUM_BYTES "*" CSUM_COUNTER, .key = "csum.$1.$v.counter", CSUM_COUNT,
	  .twin = "csum.$1.$v" },
	{ .pattern = CSUM_BYTES "*", .key = "csum.$1.$v", CSUM_TIME, .chart = "csum",
	  .title = "csum: time per call against length, per variant" },
};

/* ---- the Total ---- */

/* "csum.<bytes>.<variant>": a checksum time per call at one length. */
static int length_time(const struct bb_metric *m)
{
	const char *k = m->key;

	if (strcmp(m->applet, "csum") || m->twin || m->bad ||
	    strncmp(k, "csum.", 5) || !isdigit((unsigned char)k[5]))
		return 0;
	k += 5 + strspn(k + 5, "0123456789");
	return *k == '.' && !strchr(k + 1, '.') && !strcmp(m->quantity, "time");
}

static void add_total(struct bb_metrics *ms, size_t from, size_t first)
{
	const struct bb_metric *f = &ms->m[first];
	struct bb_metric t = *f;
	size_t len = strlen(f->variant) + 16;

	t.key = bb_xmalloc(len);
	snprintf(t.key, len, "csum.total.%s", f->variant);
	t.group = bb_xstrdup("csum.total.*");
	t.quantity = bb_xstrdup(f->quantity);
	t.unit = bb_xstrdup(f->unit);
	t.disp_unit = bb_xstrdup(f->disp_unit);
	t.chart = bb_xstrdup("");
	t.chart_title = bb_xstrdup("");
	t.category = bb_xstrdup("");
	t.legend = bb_xstrdup("");
	t.x = NAN;
	t.v = bb_xcalloc(f->n, sizeof *t.v);
	for (size_t i = from; i < ms->n; i++)
		if (length_time(&ms->m[i]) && !strcmp(ms->m[i].variant, f->variant))
			for (size_t j = 0; j < f->n; j++)
				t.v[j] += ms->m[i].v[j];
	bb_metrics_append(ms, &t);
}

/* The variant's lengths all have n samples (rounds of one run), n > 0. */
static int totals_align(const struct bb_metrics *ms, size_t from, size_t end, const char *variant,
			size_t n)
{
	for (size_t i = from; i < end; i++)
		if (length_time(&ms->m[i]) && !strcmp(ms->m[i].variant, variant) && ms->m[i].n != n)
			return 0;
	return n > 0;
}

/* "csum.total.<variant>": sample i is the sum of sample i of every length
 * (the lengths alternate round by round); a variant whose lengths kept
 * different numbers of samples gets none. */
static void add_totals(struct bb_metrics *ms, size_t from)
{
	size_t end = ms->n;

	for (size_t i = from; i < end; i++) {
		const struct bb_metric *m = &ms->m[i];
		size_t j;
		if (!length_time(m))
			continue;
		for (j = from; j < i && !(length_time(&ms->m[j]) &&
					  !strcmp(ms->m[j].variant, m->variant)); j++)
			;
		if (j == i && totals_align(ms, from, end, m->variant, m->n))
			add_total(ms, from, i);   /* the first length of this variant */
	}
}

static const char *const facts[] = {
	"cache.", "caches", "kernel.config.", "cpu.", "cpu_model", "kernel_cflags", NULL,
};

const struct bb_host bb_host_csum = {
	.applet = "csum",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.derive = add_totals,
	.facts = facts,
	.chart_rank = 3,
};
