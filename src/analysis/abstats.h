/* abstats.h - the statistics behind `compare`: is B different from A, by
 * how much, and is the difference more than noise?
 *
 * - Mann-Whitney U, two-sided.  Exact when there are no ties and
 *   C(na + nb, na) <= 2^50 (about 25 samples a side), so every count of the
 *   null distribution is an exact integer in a double; otherwise the normal
 *   approximation with the tie correction and a continuity correction of
 *   1/2.  p-values follow the usual convention: twice the smaller tail,
 *   at most 1.
 * - The ratio of medians B/A with a distribution-free interval (Price and
 *   Bonett): what `compare` prints on pooled samples.
 * - Hodges-Lehmann estimate of the ratio B/A: exp of the median of all
 *   pairwise differences log(b_j) - log(a_i), with the distribution-free
 *   interval of those differences whose ranks come from the same U
 *   distribution (exact or normal as above).  Deterministic: no resampling.
 * - The verdict rule of `compare` (bb_ab_verdict; docs/json-schema.md,
 *   "Comparing runs"). */
#ifndef BB_ABSTATS_H
#define BB_ABSTATS_H

#include <stddef.h>

#define BB_AB_MIN_N 5          /* samples a side before a p-value is given */

enum bb_better { BB_BETTER_LOWER = -1, BB_BETTER_UNKNOWN = 0, BB_BETTER_HIGHER = 1 };

enum bb_verdict {
	BB_V_FEW,          /* fewer than BB_AB_MIN_N samples on a side: no test */
	BB_V_SAME,         /* p >= alpha */
	BB_V_NOISE,        /* significant, but not resolved beyond the threshold */
	BB_V_IMPROVED,
	BB_V_REGRESSED,
	BB_V_DIFFERS,      /* significant and large, direction of "better" unknown */
	BB_V_TWIN,         /* the same samples as a tested key: no verdict of its own */
	BB_V_COUNT
};

struct bb_mwu {
	double u;          /* U of A: pairs with a > b, ties counted 1/2 */
	double p;          /* two-sided */
	int exact;         /* 1: exact null distribution, 0: normal approximation */
};

struct bb_ab {
	size_t na, nb;
	double ratio;      /* the estimate of B/A (Hodges-Lehmann, or the estimator named) */
	double lo, hi;     /* its interval at level 1 - alpha */
	int have_p;        /* both sides have at least BB_AB_MIN_N samples */
	struct bb_mwu mwu;
};

/* Returns 0, or -1 when a side is empty. */
int bb_mwu(const double *a, size_t na, const double *b, size_t nb, struct bb_mwu *out);

/* Hodges-Lehmann shift of b against a (b - a) with its 1 - alpha interval.
 * Returns 0, or -1 when a side is empty. */
int bb_hl_shift(const double *a, size_t na, const double *b, size_t nb, double alpha,
		double *est, double *lo, double *hi);

/* Both of the above on positive samples (the shift on log values, so the
 * estimate and interval are ratios B/A).  Returns 0, or -1 when a side is
 * empty or a sample is not a positive finite number. */
int bb_ab_compare(const double *a, size_t na, const double *b, size_t nb, double alpha,
		  struct bb_ab *out);

/* The standard error of the median of n sorted values (n >= 2), from two
 * order statistics (Price and Bonett, 2001): with k = round((n - 1.96
 * sqrt(n)) / 2), at least 1, and p = P(Binomial(n, 1/2) < k),
 * (x[n-k+1] - x[k]) / (2 z(1 - p)), 1-based.  Distribution-free; NaN for
 * n < 2. */
double bb_median_se(const double *sorted, size_t n);

/* The estimator of `compare` on pooled samples: the ratio of the medians
 * B/A, its 1 - alpha interval from the standard errors of the log medians
 * (bb_median_se over the median, added in quadrature: Price and Bonett,
 * 2002), and Mann-Whitney U on the same samples for the p-value.  Returns
 * 0, or -1 when a side is empty, holds a value that is negative or not
 * finite, or has a median of 0. */
int bb_median_ratio(const double *a, size_t na, const double *b, size_t nb, double alpha,
		    struct bb_ab *out);

/* The verdict for a comparison whose metric is better when higher (or
 * lower, or unknown): significance at alpha, then the size of the change
 * against the noise threshold (a fraction, 0.02 for 2%). */
enum bb_verdict bb_ab_verdict(const struct bb_ab *r, int better, double alpha, double threshold);

/* The verdict of a change already found significant: improved, regressed
 * or differs when it is resolved beyond the threshold, else within noise. */
enum bb_verdict bb_size_verdict(const struct bb_ab *r, int better, double threshold);
const char *bb_verdict_name(enum bb_verdict v);

/* The standard normal quantile: x with P(Z <= x) = p, for 0 < p < 1. */
double bb_normal_quantile(double p);

/* How far a steady quantity moved: v in consecutive groups of `group`
 * samples (one timing each), the largest group median over the smallest,
 * less one.  A single slow sample does not count; a slow group does.  0
 * with fewer than two whole groups or a value that is not positive. */
double bb_group_spread(const double *v, size_t n, size_t group);

#endif
