/* abstats.h - the statistics behind `compare`: is B different from A, by
 * how much, and is the difference more than noise?
 *
 * - Mann-Whitney U, two-sided.  Exact when there are no ties and
 *   C(na + nb, na) <= 2^50 (about 25 samples a side), so every count of the
 *   null distribution is an exact integer in a double; otherwise the normal
 *   approximation with the tie correction and a continuity correction of
 *   1/2.  p-values follow the usual convention: twice the smaller tail,
 *   at most 1.
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
	BB_V_COUNT
};

struct bb_mwu {
	double u;          /* U of A: pairs with a > b, ties counted 1/2 */
	double p;          /* two-sided */
	int exact;         /* 1: exact null distribution, 0: normal approximation */
};

struct bb_ab {
	size_t na, nb;
	double ratio;      /* Hodges-Lehmann estimate of B/A */
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
