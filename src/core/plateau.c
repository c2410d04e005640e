/* plateau.c - plateau detection on noisy log-spaced curves (see plateau.h):
 * grow candidates around a running median, skip short excursions, reject
 * candidates that trend, merge neighbours at the same level or joined by a
 * gentle drift, trim edges that leave the plateau's robust line. */
#include "plateau.h"
#include "error.h"
#include "mathx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rise per doubling of x that still counts as flat, the join tolerance,
 * the smallest step between two levels (levels of a memory hierarchy differ
 * by 1.5x and more) and the edge tolerance; all ratios of the values. */
#define FLAT_PER_DOUBLING 1.35
#define JOIN_RATIO 1.15
#define MIN_JUMP 1.4
#define EDGE_RATIO 1.12
/* Theil-Sen works on at most this many points (evenly thinned). */
#define TREND_POINTS 64

void bb_plateau_defaults(struct bb_plateau_opts *o, double points_per_doubling)
{
	double ppd = points_per_doubling >= 1 ? points_per_doubling : 1;

	o->join_ratio = JOIN_RATIO;
	o->max_gap = ppd >= 2 ? (size_t)(ppd / 2) : 1;
	o->min_points = (size_t)(ppd * 3 / 4) + 1;   /* 3/4 of a doubling */
	if (o->min_points < 2)
		o->min_points = 2;
	o->max_rise_per_point = bb_exp(bb_log(FLAT_PER_DOUBLING) / ppd);
	o->min_jump = MIN_JUMP;
	o->edge_ratio = EDGE_RATIO;
}

static double ratio(double a, double b)
{
	return a > b ? a / b : b / a;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of v[0..n), sorting v in place. */
static double median_inplace(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n & 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Working memory for one search, sized for the whole curve. */
struct scan {
	const double *y;
	size_t n;
	const struct bb_plateau_opts *o;
	size_t *mem;      /* indices of the points on the current candidate */
	size_t nmem;
	double *tmp;      /* n + TREND_POINTS^2 / 2 doubles */
};

static double members_median(struct scan *s)
{
	for (size_t i = 0; i < s->nmem; i++)
		s->tmp[i] = s->y[s->mem[i]];
	return median_inplace(s->tmp, s->nmem);
}

/* First index in (j, j + max_gap] whose value is within join_ratio of
 * level, or 0 when there is none. */
static size_t comes_back(const struct scan *s, size_t j, double level)
{
	for (size_t k = j + 1; k < s->n && k <= j + s->o->max_gap; k++)
		if (ratio(s->y[k], level) <= s->o->join_ratio)
			return k;
	return 0;
}

/* Grows a candidate from start into s->mem; returns its level. */
static double grow(struct scan *s, size_t start)
{
	double level = s->y[start];
	size_t j = start + 1;

	s->mem[0] = start;
	s->nmem = 1;
	while (j < s->n) {
		if (ratio(s->y[j], level) > s->o->join_ratio) {
			j = comes_back(s, j, level);
			if (!j)
				break;
		}
		s->mem[s->nmem++] = j++;
		level = members_median(s);
	}
	return level;
}

/* Theil-Sen slope of log(y) against index over the points idx[0..n), as
 * a log-ratio per point; the points are thinned to TREND_POINTS. */
static double slope(struct scan *s, const size_t *idx, size_t n)
{
	size_t step = (n + TREND_POINTS - 1) / TREND_POINTS, np = 0;
	double *slopes = s->tmp;

	for (size_t a = 0; a < n; a += step)
		for (size_t b = a + step; b < n; b += step)
			slopes[np++] = (bb_log(s->y[idx[b]]) - bb_log(s->y[idx[a]])) /
				       (double)(idx[b] - idx[a]);
	return np ? median_inplace(slopes, np) : 0.0;
}

/* The candidate's trend as a ratio per point (>= 1). */
static double trend(struct scan *s)
{
	return bb_exp(fabs(slope(s, s->mem, s->nmem)));
}

static double span_median(struct scan *s, size_t first, size_t last)
{
	memcpy(s->tmp, s->y + first, (last - first + 1) * sizeof *s->tmp);
	return median_inplace(s->tmp, last - first + 1);
}

/* Candidates that are long enough and flat enough, in order. */
static size_t find_candidates(struct scan *s, struct bb_plateau *out)
{
	size_t count = 0, i = 0;

	while (i < s->n) {
		double level = grow(s, i);
		if (s->nmem < s->o->min_points || trend(s) > s->o->max_rise_per_point) {
			i++;
			continue;
		}
		out[count].first = s->mem[0];
		out[count].last = s->mem[s->nmem - 1];
		out[count].level = level;
		out[count].reaches_end = 0;
		i = out[count++].last + 1;
	}
	return count;
}

/* Rise per point across the junction of neighbouring plateaus a and b,
 * between the medians of a's last and b's first few points. */
static double junction_rise(struct scan *s, const struct bb_plateau *a, const struct bb_plateau *b)
{
	size_t k = s->o->min_points, ka, kb;
	double ma, mb, dist;

	ka = a->last - a->first + 1 < k ? a->last - a->first + 1 : k;
	kb = b->last - b->first + 1 < k ? b->last - b->first + 1 : k;
	ma = span_median(s, a->last + 1 - ka, a->last);
	mb = span_median(s, b->first, b->first + kb - 1);
	dist = ((double)b->first + (double)(kb - 1) / 2) - ((double)a->last - (double)(ka - 1) / 2);
	return bb_exp(fabs(bb_log(mb / ma)) / (dist > 1 ? dist : 1));
}

/* Joins neighbouring plateaus at the same level, joined by a rise no
 * steeper than a plateau may drift (one level whose latency creeps up), or
 * where the later one is lower: levels only rise, so a higher stretch
 * before a lower one is noise within one level. */
static size_t merge_levels(struct scan *s, struct bb_plateau *p, size_t count)
{
	size_t out = 0;

	for (size_t i = 0; i < count; i++) {
		struct bb_plateau *prev = out ? &p[out - 1] : NULL;
		if (prev && (ratio(p[i].level, prev->level) < s->o->min_jump ||
			     p[i].level < prev->level ||
			     junction_rise(s, prev, &p[i]) <= s->o->max_rise_per_point)) {
			prev->last = p[i].last;
			prev->level = span_median(s, prev->first, prev->last);
			continue;
		}
		p[out++] = p[i];
	}
	return out;
}

/* A robust line log(y) = a + b * index through a plateau's points. */
struct line {
	double a, b;
};

static struct line fit_span(struct scan *s, const struct bb_plateau *p)
{
	size_t n = p->last - p->first + 1;
	struct line l;

	for (size_t i = 0; i < n; i++)
		s->mem[i] = p->first + i;
	l.b = slope(s, s->mem, n);
	for (size_t i = 0; i < n; i++)
		s->tmp[i] = bb_log(s->y[p->first + i]) - l.b * (double)(p->first + i);
	l.a = median_inplace(s->tmp, n);
	return l;
}

/* How far point i lies above (+) or below (-) the line, in edge_ratios. */
static double off_line(const struct scan *s, const struct line *l, size_t i)
{
	return (bb_log(s->y[i]) - (l->a + l->b * (double)i)) / bb_log(s->o->edge_ratio);
}

/* Drops edge points that leave the plateau's robust line by more than
 * edge_ratio towards the neighbouring levels: below it at the head (coming
 * from a faster level), above it at the tail (rising to a slower one). */
static void trim_edges(struct scan *s, struct bb_plateau *p)
{
	struct line l = fit_span(s, p);

	while (p->first < p->last && off_line(s, &l, p->first) < -1)
		p->first++;
	while (p->last > p->first && off_line(s, &l, p->last) > 1)
		p->last--;
	p->level = span_median(s, p->first, p->last);
}

static int values_ok(const double *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(y[i]) || y[i] <= 0)
			return 0;
	return 1;
}

/* Merges and trims until no two neighbours merge any more: trimming moves
 * levels, so neighbours can come within min_jump only afterwards. */
static size_t settle(struct scan *s, struct bb_plateau *p, size_t count)
{
	size_t before;

	do {
		before = count;
		count = merge_levels(s, p, count);
		for (size_t i = 0; i < count; i++)
			trim_edges(s, &p[i]);
	} while (count < before);
	return count;
}

/* Does the curve end on the last plateau p, with no new level and no rise
 * towards one after it?  A tail of at most max_gap points is strays the
 * growth could not test (the curve ended inside the window it looks
 * ahead): the median of the curve's last max_gap + 1 points must then be
 * less than join_ratio above the level.  A longer tail must have its
 * median, and that of its last max_gap points, less than min_jump above. */
static int ends_on(struct scan *s, const struct bb_plateau *p)
{
	size_t n = s->n, k = s->o->max_gap, tail = n - 1 - p->last;

	if (tail == 0)
		return 1;
	if (tail <= k)
		return span_median(s, n - 1 - k, n - 1) / p->level <= s->o->join_ratio;
	return span_median(s, p->last + 1, n - 1) / p->level < s->o->min_jump &&
	       span_median(s, n - k, n - 1) / p->level < s->o->min_jump;
}

/* When the curve ends on the last plateau, it runs to the end. */
static void close_end(struct scan *s, struct bb_plateau *p)
{
	if (!ends_on(s, p))
		return;
	p->reaches_end = 1;
	p->last = s->n - 1;
	p->level = span_median(s, p->first, p->last);
}

size_t bb_plateaus_find(const double *y, size_t n, const struct bb_plateau_opts *o,
			struct bb_plateau *out, size_t max)
{
	struct scan s = { .y = y, .n = n, .o = o };
	struct bb_plateau *found;
	size_t count;

	if (n == 0 || !values_ok(y, n))
		return 0;
	s.mem = bb_xmalloc(n * sizeof *s.mem);
	s.tmp = bb_xmalloc((n + TREND_POINTS * TREND_POINTS / 2) * sizeof *s.tmp);
	found = bb_xmalloc(n * sizeof *found);
	count = settle(&s, found, find_candidates(&s, found));
	if (count)
		close_end(&s, &found[count - 1]);
	for (size_t i = 0; i < count && i < max; i++)
		out[i] = found[i];
	free(s.mem);
	free(s.tmp);
	free(found);
	return count;
}
