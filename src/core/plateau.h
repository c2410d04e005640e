/* plateau.h - finds the flat stretches ("plateaus") of a noisy curve sampled
 * at evenly spaced points on a log scale, and so the steps between them.
 *
 * `lat` uses it on the median latency against working-set size: each
 * plateau is one level of the memory hierarchy, and the last point of a
 * plateau is the largest working set that still runs at that level's
 * latency.  Only ratios of values are used, so the unit and scale of the
 * curve do not matter; the values must be positive.
 *
 * A plateau grows point by point while each point stays within join_ratio
 * of the plateau's running median; up to max_gap stray points are skipped
 * when the curve comes back to the level after them.  A candidate must
 * have min_points points on the level and no trend steeper than
 * max_rise_per_point (a Theil-Sen slope, so the inside of a slow transition
 * is not taken for a level).  Neighbouring plateaus are merged when their
 * levels are closer than min_jump, when the curve between them rises no
 * faster than max_rise_per_point (one level that drifts, as when a smaller
 * cache still holds part of the working set), or when the later one is
 * lower (levels only rise: the higher stretch was noise).  Finally each plateau's edges
 * are trimmed where they leave its robust (Theil-Sen) line by more than
 * edge_ratio towards the neighbouring levels.  The curve ends on the last
 * plateau when neither a new level nor a rise towards one follows it: a
 * tail of more than max_gap points must have its median, and that of its
 * last max_gap points, less than min_jump above the level; a shorter tail
 * (strays the growth could not test) must leave the median of the curve's
 * last max_gap + 1 points less than join_ratio above it.
 */
#ifndef BB_PLATEAU_H
#define BB_PLATEAU_H

#include <stddef.h>

struct bb_plateau {
	size_t first, last;   /* index range of the curve, inclusive */
	double level;         /* median of the values in [first, last] */
	int reaches_end;      /* the curve ends on it (then last is the last point) */
};

struct bb_plateau_opts {
	double join_ratio;          /* a point within this ratio of the level joins it */
	size_t max_gap;             /* stray points skipped inside a plateau */
	size_t min_points;          /* points on the level a plateau needs */
	double max_rise_per_point;  /* largest trend, as a ratio per point */
	double min_jump;            /* levels closer than this ratio are one */
	double edge_ratio;          /* edge points farther than this are trimmed */
};

/* Defaults for a curve with points_per_doubling points per doubling of x. */
void bb_plateau_defaults(struct bb_plateau_opts *o, double points_per_doubling);

/* Finds the plateaus of y[0..n) in order and writes at most max of them to
 * out.  Returns how many there are (may exceed max); 0 when n is 0 or a
 * value is not a positive finite number. */
size_t bb_plateaus_find(const double *y, size_t n, const struct bb_plateau_opts *o,
			struct bb_plateau *out, size_t max);

#endif
