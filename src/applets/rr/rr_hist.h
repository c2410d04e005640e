/* rr_hist.h - the figures of a request/response latency test: a fine log
 * histogram of every transaction, a uniform subset of the samples when
 * there are too many to keep, and percentiles by nearest rank.
 *
 * The histogram (HdrHistogram's layout) has BB_RR_SUB buckets per doubling
 * of nanoseconds: below BB_RR_SUB ns each bucket is 1 ns wide, above it a
 * bucket [lo, hi) is at most lo / BB_RR_SUB wide (0.78%).  A percentile
 * read from it is its bucket's middle, clamped to the observed min and max,
 * so it is within 0.4% of the exact nearest-rank value.
 *
 * Percentile p (0..100) of n values is the nearest-rank one: the smallest
 * value with at least ceil(p/100 x n) values at or below it (p 0 is the
 * minimum, p 100 the maximum). */
#ifndef BB_NET_RR_HIST_H
#define BB_NET_RR_HIST_H

#include <stddef.h>
#include <stdint.h>

#define BB_RR_SUB_BITS 7
#define BB_RR_SUB (1u << BB_RR_SUB_BITS)            /* buckets per doubling */
#define BB_RR_BUCKETS ((64 - BB_RR_SUB_BITS + 1) * BB_RR_SUB)

struct bb_rr_hist {
	uint64_t count[BB_RR_BUCKETS];
	uint64_t n, min_ns, max_ns;
	double sum_ns;
};

void bb_rr_hist_init(struct bb_rr_hist *h);
size_t bb_rr_hist_index(uint64_t ns);
uint64_t bb_rr_hist_lower(size_t i);     /* the bucket's first nanosecond */
uint64_t bb_rr_hist_width(size_t i);     /* its width in nanoseconds */
void bb_rr_hist_add(struct bb_rr_hist *h, uint64_t ns);
/* Percentile p of the values added, in ns (0 when there are none). */
double bb_rr_hist_percentile(const struct bb_rr_hist *h, double p);

/* Percentile p of n sorted values (n > 0). */
double bb_rr_percentile_sorted(const double *sorted, size_t n, double p);

/* A uniform random subset of at most cap values (Vitter's algorithm R,
 * with a fixed xorshift generator so a run is repeatable): every value
 * while fewer than cap have come. */
struct bb_rr_keep {
	double *v;
	size_t n, cap;
	uint64_t seen;
	uint64_t rng;
};

void bb_rr_keep_init(struct bb_rr_keep *k, size_t cap);
void bb_rr_keep_add(struct bb_rr_keep *k, double x);
void bb_rr_keep_free(struct bb_rr_keep *k);

/* The figures a report quotes, in seconds. */
struct bb_rr_figures {
	uint64_t n;
	double min, p50, p90, p99, p999, max, mean;
	int exact;       /* 1: from every sample; 0: from the histogram */
};

/* From the samples when they are all of them (k->seen == k->n), else from
 * the histogram; min, max and mean always come from the histogram's exact
 * running figures.  Returns 0, or -1 when there is no value. */
int bb_rr_figures(const struct bb_rr_keep *k, const struct bb_rr_hist *h,
		  struct bb_rr_figures *f);

#endif
