/* changepoint.h - change points in a history of one metric on one board,
 * and the control of false ones over a whole lab (docs/history.md).
 *
 * Input: one positive value per unit of replication in time order (a
 * boot's geometric mean of its runs' medians, or a run's median when the
 * runs record no boot).  The method:
 *   1. E-Divisive means (Matteson and James 2014, alpha = 1) on the log
 *      values locates the best split of a segment: the energy distance
 *      between the two sides, scaled by tau (n - tau) / n, over every split
 *      leaving at least min_seg units a side (O(n log n): Fenwick trees
 *      over the ranks);
 *   2. the split is tested with Welch's t on the log values of the two
 *      sides (analysis/power.h), the p-value multiplied by the number of
 *      splits the search looked at (Bonferroni: the split was chosen
 *      because it looked best);
 *   3. binary segmentation: a split with p <= level is a candidate and
 *      both sides are searched again;
 *   4. the candidates of every series are then decided together
 *      (bb_cp_control): Benjamini-Yekutieli at q over every test made in
 *      the lab (m counts the tests that found nothing too; the step-up of
 *      Benjamini-Hochberg at q / (1 + 1/2 + ... + 1/m), which holds
 *      whatever the dependence: the metrics of one board share each run's
 *      noise), and a candidate found inside a side of a rejected one is
 *      rejected with it;
 *   5. each accepted point is confirmed on the samples of the runs next to
 *      it (bb_cp_confirm): Mann-Whitney and the Hodges-Lehmann interval of
 *      after/before (analysis/abstats.h) must agree that it moved, the same
 *      way as the unit values.
 * Everything is deterministic: no resampling. */
#ifndef BB_ANALYSIS_CHANGEPOINT_H
#define BB_ANALYSIS_CHANGEPOINT_H

#include <stddef.h>

#include "analysis/abstats.h"

#define BB_CP_MIN_SEG 5        /* default units a side of a split */
#define BB_CP_Q 0.05           /* default false-discovery level over the lab */
#define BB_CP_CONFIRM_MAX 2000 /* samples a side in the confirmation (evenly thinned) */

struct bb_cp {
	size_t at;             /* first unit after the change */
	size_t lo, hi;         /* the segment it split: units [lo, hi) */
	double stat;           /* E-Divisive statistic of the split */
	double p;              /* Welch's p on the log units, times the splits tried */
	double ratio;          /* geometric mean of the side after over the side before */
	long parent;           /* the candidate whose side it was found in, -1 for none */
	int accepted;          /* after bb_cp_control */
};

/* The E-Divisive statistic of every split tau of z[0..n) (log values) into
 * q[tau] for min_seg <= tau <= n - min_seg (others NaN); returns the best
 * tau, or 0 when n < 2 min_seg.  min_seg is at least 2. */
size_t bb_edivisive(const double *z, size_t n, size_t min_seg, double *q);

/* The same by the definition, O(n^2) (for the tests). */
double bb_edivisive_direct(const double *z, size_t n, size_t tau);

/* Binary segmentation of v[0..n) (positive values) as above: candidates
 * into out (at most max), in the order found; *tests counts the tests made
 * (including those that found nothing).  Returns the number of candidates,
 * or 0 when a value is not a positive finite number. */
size_t bb_cp_find(const double *v, size_t n, size_t min_seg, double level, struct bb_cp *out,
		  size_t max, size_t *tests);

/* Benjamini-Yekutieli at q over m tests, of which the n candidates in cp
 * are those with p <= q (no other test can pass): the largest k with
 * p(k) <= q k / (m c(m)), c(m) = bb_by_constant(m); sets accepted on the
 * candidates at or below p(k) whose parent passed (cp[i].parent indexes
 * this same array, or is -1; a caller joining several series' candidates
 * offsets them).  Returns the cutoff p(k) (0: nothing passed). */
double bb_by_constant(size_t m);
double bb_cp_control(struct bb_cp *cp, size_t n, size_t m, double q);

/* The after/before comparison on samples: Mann-Whitney and the
 * Hodges-Lehmann ratio with its 1 - alpha interval (abstats.h), each side
 * thinned evenly to at most BB_CP_CONFIRM_MAX samples.  Returns 1 when the
 * interval excludes 1 and p <= alpha with the ratio on the same side of 1
 * as `ratio` (the unit-level change), 0 when not, -1 when a side is empty
 * or a sample is not positive. */
int bb_cp_confirm(const double *before, size_t nb, const double *after, size_t na, double ratio,
		  double alpha, struct bb_ab *out);

/* The units beside the k-th of a series' accepted points (at[], sorted,
 * n of them, in a series of `units` units): [*lo, at[k]) before and
 * [at[k], *hi) after, within the neighbouring points and at most `max`
 * units a side (max 0: no limit). */
#define BB_CP_CONFIRM_UNITS 8  /* units a side whose samples confirm a point */
void bb_cp_sides(const size_t *at, size_t n, size_t k, size_t units, size_t max, size_t *lo,
		 size_t *hi);

/* The geometric mean of v[lo..hi); NaN when empty. */
double bb_geomean(const double *v, size_t lo, size_t hi);

#endif
