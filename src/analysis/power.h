/* power.h - the test `compare` uses on per-run medians, and what a set of
 * runs could have found.
 *
 * - Welch's t-test on log values: B/A as the ratio of geometric means,
 *   its interval from Student's t with the Welch-Satterthwaite degrees of
 *   freedom, the two-sided p-value.  Continuous, so unlike the exact rank
 *   test on 5 runs a side (whose p cannot go below 2/252) it can pass the
 *   smaller levels the suite-wide control (multi.h) asks of each metric.
 * - Power: the smallest change a two-sided t-test at level `level` finds
 *   with 80% probability (the noncentral t, integrated numerically),
 *   given the spread of log values and the runs a side; and the runs a
 *   side needed to find a given change.
 * Student's t comes from the regularized incomplete beta function
 * (continued fraction, modified Lentz). */
#ifndef BB_TOOLS_POWER_H
#define BB_TOOLS_POWER_H

#include <stddef.h>

#define BB_POWER 0.80          /* the power the "detectable change" is quoted at */

struct bb_welch {
	double ratio;          /* geometric mean of B over that of A */
	double mean_a, mean_b; /* the geometric means themselves */
	double lo, hi;         /* its interval at 1 - alpha */
	double t, df, p;       /* p two-sided; 1 when both sides are constant and equal */
	double sd;             /* pooled standard deviation of the log values */
};

/* P(|T| >= t) for Student's t with df degrees of freedom (df > 0). */
double bb_t_sf2(double t, double df);

/* t with P(|T| >= t) = p, for 0 < p < 1. */
double bb_t_quantile2(double p, double df);

/* Welch's test on the logs of positive values; at least 2 a side.
 * Returns 0, or -1 when a side is too small or a value is not a positive
 * finite number. */
int bb_welch_log(const double *a, size_t na, const double *b, size_t nb, double alpha,
		 struct bb_welch *out);

/* The smallest change (a fraction: 0.04 for 4%) that a test at `level`
 * finds with BB_POWER probability with na and nb runs of log spread sd. */
double bb_detectable(double sd, size_t na, size_t nb, double level);

/* Runs a side (2..max) needed to find `change` (a fraction) at `level`
 * with BB_POWER probability, or 0 when more than max would be. */
size_t bb_runs_needed(double sd, double change, double level, size_t max);

#endif
