/* stats.c - min/median/mean/max/stddev/CV, numerically careful (Welford). */
#include "stats.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bb_median(const double *x, size_t n)
{
	double *tmp, m;

	if (n == 0)
		return NAN;
	tmp = bb_xmalloc(n * sizeof *tmp);
	memcpy(tmp, x, n * sizeof *tmp);
	qsort(tmp, n, sizeof *tmp, cmp_double);
	m = (n & 1) ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
	free(tmp);
	return m;
}

int bb_stats_compute(const double *x, size_t n, struct bb_stats *out)
{
	double mean = 0, m2 = 0;

	memset(out, 0, sizeof *out);
	if (n == 0)
		return -1;
	out->min = out->max = x[0];
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -1;
		double d = x[i] - mean;
		mean += d / (double)(i + 1);
		m2 += d * (x[i] - mean);
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	out->n = n;
	out->mean = mean;
	out->median = bb_median(x, n);
	out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
	out->cv = mean != 0 ? out->stddev / fabs(mean) : 0.0;
	return 0;
}
