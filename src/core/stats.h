/* stats.h - summary statistics over raw samples (which callers keep). */
#ifndef BB_STATS_H
#define BB_STATS_H

#include <stddef.h>

struct bb_stats {
	size_t n;
	double min, max, mean, median;
	double stddev;  /* sample standard deviation (n - 1); 0 when n < 2 */
	double cv;      /* stddev / mean; 0 when mean is 0 */
};

/* Returns 0, or -1 when n is 0 or a sample is not finite. Does not modify x. */
int bb_stats_compute(const double *x, size_t n, struct bb_stats *out);

/* Median of x (copied, not modified); NaN when n is 0. */
double bb_median(const double *x, size_t n);

#endif
