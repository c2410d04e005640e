/* rr_hist.c - the latency histogram, the kept subset of samples and the
 * percentiles of a request/response test (see rr_hist.h). */
#include "rr_hist.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bb_rr_hist_init(struct bb_rr_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min_ns = UINT64_MAX;
}

static int msb(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

size_t bb_rr_hist_index(uint64_t ns)
{
	int shift;

	if (ns < BB_RR_SUB)
		return (size_t)ns;
	shift = msb(ns) - BB_RR_SUB_BITS;
	return (size_t)(shift + 1) * BB_RR_SUB + (size_t)((ns >> shift) - BB_RR_SUB);
}

uint64_t bb_rr_hist_lower(size_t i)
{
	size_t shift;

	if (i < BB_RR_SUB)
		return i;
	shift = i / BB_RR_SUB - 1;
	return (uint64_t)(BB_RR_SUB + i % BB_RR_SUB) << shift;
}

uint64_t bb_rr_hist_width(size_t i)
{
	return i < BB_RR_SUB ? 1 : (uint64_t)1 << (i / BB_RR_SUB - 1);
}

void bb_rr_hist_add(struct bb_rr_hist *h, uint64_t ns)
{
	h->count[bb_rr_hist_index(ns)]++;
	h->n++;
	h->sum_ns += (double)ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* The nearest rank of percentile p among n values: 1..n.  (99.9 is not
 * exact in binary: 99.9 x 1000 / 100 comes out a hair above 999, which
 * must not round up to the 1000th.) */
static uint64_t rank_of(double p, uint64_t n)
{
	double x = p * (double)n / 100.0, r = ceil(x - x * 1e-12);

	if (!(r >= 1))
		return 1;
	return r >= (double)n ? n : (uint64_t)r;
}

double bb_rr_hist_percentile(const struct bb_rr_hist *h, double p)
{
	uint64_t want, cum = 0;
	double mid;
	size_t i;

	if (!h->n)
		return 0;
	want = rank_of(p, h->n);
	for (i = 0; i < BB_RR_BUCKETS; i++) {
		cum += h->count[i];
		if (cum >= want)
			break;
	}
	if (i == BB_RR_BUCKETS)
		return (double)h->max_ns;
	mid = (double)bb_rr_hist_lower(i) + (double)(bb_rr_hist_width(i) - 1) / 2.0;
	if (mid < (double)h->min_ns)
		mid = (double)h->min_ns;
	if (mid > (double)h->max_ns)
		mid = (double)h->max_ns;
	return mid;
}

double bb_rr_percentile_sorted(const double *sorted, size_t n, double p)
{
	return sorted[rank_of(p, n) - 1];
}

/* ---- the kept subset ---- */

void bb_rr_keep_init(struct bb_rr_keep *k, size_t cap)
{
	memset(k, 0, sizeof *k);
	k->cap = cap;
	k->rng = 0x9e3779b97f4a7c15u;
}

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

void bb_rr_keep_add(struct bb_rr_keep *k, double x)
{
	k->seen++;
	if (k->n < k->cap) {
		if (!k->v)
			k->v = bb_xmalloc(k->cap * sizeof *k->v);
		k->v[k->n++] = x;
		return;
	}
	uint64_t j = xorshift64(&k->rng) % k->seen;
	if (j < k->cap)
		k->v[j] = x;
}

void bb_rr_keep_free(struct bb_rr_keep *k)
{
	free(k->v);
	memset(k, 0, sizeof *k);
}

/* ---- the figures ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int bb_rr_figures(const struct bb_rr_keep *k, const struct bb_rr_hist *h,
		  struct bb_rr_figures *f)
{
	static const double pct[4] = { 50, 90, 99, 99.9 };
	double *out[4] = { &f->p50, &f->p90, &f->p99, &f->p999 };

	memset(f, 0, sizeof *f);
	if (!h->n)
		return -1;
	f->n = h->n;
	f->min = (double)h->min_ns * 1e-9;
	f->max = (double)h->max_ns * 1e-9;
	f->mean = h->sum_ns / (double)h->n * 1e-9;
	f->exact = k && k->n && k->seen == k->n && k->seen == h->n;
	if (f->exact) {
		double *s = bb_xmalloc(k->n * sizeof *s);
		memcpy(s, k->v, k->n * sizeof *s);
		qsort(s, k->n, sizeof *s, cmp_double);
		for (int i = 0; i < 4; i++)
			*out[i] = bb_rr_percentile_sorted(s, k->n, pct[i]);
		free(s);
	} else {
		for (int i = 0; i < 4; i++)
			*out[i] = bb_rr_hist_percentile(h, pct[i]) * 1e-9;
	}
	return 0;
}
