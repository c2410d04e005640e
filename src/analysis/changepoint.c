/* changepoint.c - E-Divisive means located, Welch-tested binary
 * segmentation, the lab-wide Benjamini-Yekutieli control and the
 * confirmation on samples (see changepoint.h and docs/history.md). */
#include "analysis/changepoint.h"
#include "core/error.h"
#include "analysis/power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- E-Divisive: sums of |z_i - z_k| over growing sets ---- */

/* A Fenwick tree over ranks: count and sum of the values added so far. */
struct fen {
	size_t n;
	double *cnt, *sum;
};

static void fen_add(struct fen *f, size_t r, double v)
{
	for (size_t i = r + 1; i <= f->n; i += i & -i) {
		f->cnt[i] += 1;
		f->sum[i] += v;
	}
}

/* Count and sum of the values of rank <= r. */
static void fen_query(const struct fen *f, size_t r, double *cnt, double *sum)
{
	*cnt = *sum = 0;
	for (size_t i = r + 1; i > 0; i -= i & -i) {
		*cnt += f->cnt[i];
		*sum += f->sum[i];
	}
}

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	return (a->v > b->v) - (a->v < b->v);
}

/* rank[i]: where z[i] falls among all of z (ties in any order). */
static size_t *ranks(const double *z, size_t n)
{
	struct ranked *r = bb_xmalloc(n * sizeof *r);
	size_t *rank = bb_xmalloc(n * sizeof *rank);

	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ z[i], i };
	qsort(r, n, sizeof *r, cmp_ranked);
	for (size_t i = 0; i < n; i++)
		rank[r[i].i] = i;
	free(r);
	return rank;
}

/* within[t] = sum over pairs among the first t values taken in `order`
 * (1: z[0], z[1], ...; -1: z[n-1], z[n-2], ...) of |z_i - z_k|. */
static void within_sums(const double *z, const size_t *rank, size_t n, int order, double *within)
{
	struct fen f = { n, bb_xcalloc(n + 1, sizeof(double)), bb_xcalloc(n + 1, sizeof(double)) };
	double total_cnt = 0, total_sum = 0;

	within[0] = 0;
	for (size_t t = 0; t < n; t++) {
		size_t i = order > 0 ? t : n - 1 - t;
		double c, s;
		fen_query(&f, rank[i], &c, &s);
		/* below: z_i - s over c values; above: the rest minus z_i */
		double d = c * z[i] - s + (total_sum - s) - (total_cnt - c) * z[i];
		within[t + 1] = within[t] + d;
		fen_add(&f, rank[i], z[i]);
		total_cnt += 1;
		total_sum += z[i];
	}
	free(f.cnt);
	free(f.sum);
}

/* Q(tau) from the sums: the energy distance of the two sides (alpha = 1)
 * times tau (n - tau) / n. */
static double edq(double cross, double left, double right, size_t n, size_t tau)
{
	double a = (double)tau, b = (double)(n - tau);
	double e = 2 * cross / (a * b) - 2 * left / (a * (a - 1)) - 2 * right / (b * (b - 1));
	return a * b / (double)n * e;
}

size_t bb_edivisive(const double *z, size_t n, size_t min_seg, double *q)
{
	size_t best = 0;

	if (min_seg < 2)
		min_seg = 2;
	for (size_t t = 0; t <= n; t++)
		q[t] = NAN;
	if (n < 2 * min_seg)
		return 0;
	size_t *rank = ranks(z, n);
	double *left = bb_xmalloc((n + 1) * sizeof *left), *right = bb_xmalloc((n + 1) * sizeof *right);
	within_sums(z, rank, n, 1, left);
	within_sums(z, rank, n, -1, right);
	for (size_t tau = min_seg; tau + min_seg <= n; tau++) {
		double cross = left[n] - left[tau] - right[n - tau];
		q[tau] = edq(cross, left[tau], right[n - tau], n, tau);
		if (!best || q[tau] > q[best])
			best = tau;
	}
	free(rank);
	free(left);
	free(right);
	return best;
}

double bb_edivisive_direct(const double *z, size_t n, size_t tau)
{
	double cross = 0, left = 0, right = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++) {
			double d = fabs(z[i] - z[k]);
			if (k < tau)
				left += d;
			else if (i >= tau)
				right += d;
			else
				cross += d;
		}
	return edq(cross, left, right, n, tau);
}

/* ---- binary segmentation ---- */

double bb_geomean(const double *v, size_t lo, size_t hi)
{
	double s = 0;

	if (hi <= lo)
		return NAN;
	for (size_t i = lo; i < hi; i++)
		s += log(v[i]);
	return exp(s / (double)(hi - lo));
}

struct seg {
	size_t lo, hi;
	long parent;
};

struct finder {
	const double *v;
	double *z, *q;
	size_t min_seg;
	double level;
	struct bb_cp *out;
	size_t n, max, tests;
};

/* Tests the best split of [lo, hi); 1 and a candidate when it passes. */
static int try_split(struct finder *f, struct seg s)
{
	size_t n = s.hi - s.lo, tau;
	struct bb_welch w;

	tau = bb_edivisive(f->z + s.lo, n, f->min_seg, f->q);
	if (!tau)
		return 0;
	f->tests++;
	if (bb_welch_log(f->v + s.lo, tau, f->v + s.lo + tau, n - tau, 0.05, &w))
		return 0;
	double p = fmin(1, w.p * (double)(n - 2 * f->min_seg + 1));
	if (!(p <= f->level) || f->n == f->max)
		return 0;
	f->out[f->n++] = (struct bb_cp){
		.at = s.lo + tau, .lo = s.lo, .hi = s.hi, .stat = f->q[tau], .p = p,
		.ratio = w.ratio, .parent = s.parent,
	};
	return 1;
}

size_t bb_cp_find(const double *v, size_t n, size_t min_seg, double level, struct bb_cp *out,
		  size_t max, size_t *tests)
{
	struct finder f = { v, NULL, NULL, min_seg < 2 ? 2 : min_seg, level, out, 0, max, 0 };
	struct seg *stack;
	size_t depth = 0;

	*tests = 0;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]))
			return 0;
	f.z = bb_xmalloc((n + 1) * sizeof *f.z);
	f.q = bb_xmalloc((n + 1) * sizeof *f.q);
	stack = bb_xmalloc((n + 1) * sizeof *stack);
	for (size_t i = 0; i < n; i++)
		f.z[i] = log(v[i]);
	stack[depth++] = (struct seg){ 0, n, -1 };
	while (depth) {
		struct seg s = stack[--depth];
		if (!try_split(&f, s))
			continue;
		long me = (long)f.n - 1;
		size_t at = f.out[me].at;
		stack[depth++] = (struct seg){ at, s.hi, me };
		stack[depth++] = (struct seg){ s.lo, at, me };
	}
	free(f.z);
	free(f.q);
	free(stack);
	*tests = f.tests;
	return f.n;
}

/* ---- the lab-wide control ---- */

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Benjamini and Yekutieli's constant: the sum of 1/i up to m. */
double bb_by_constant(size_t m)
{
	double c = 0;

	for (size_t i = m; i >= 1; i--)     /* smallest terms first */
		c += 1.0 / (double)i;
	return c;
}

double bb_cp_control(struct bb_cp *cp, size_t n, size_t m, double q)
{
	double *p = bb_xmalloc((n ? n : 1) * sizeof *p), cutoff = 0;
	double level = m ? q / bb_by_constant(m) : 0;

	for (size_t i = 0; i < n; i++)
		p[i] = cp[i].p;
	qsort(p, n, sizeof *p, cmp_double);
	for (size_t k = 1; k <= n && k <= m; k++)
		if (p[k - 1] <= level * (double)k / (double)m)
			cutoff = p[k - 1];
	free(p);
	/* parents come before their children in the order found */
	for (size_t i = 0; i < n; i++)
		cp[i].accepted = n && cutoff > 0 && cp[i].p <= cutoff &&
				 (cp[i].parent < 0 || cp[cp[i].parent].accepted);
	return cutoff;
}

/* ---- the confirmation on samples ---- */

void bb_cp_sides(const size_t *at, size_t n, size_t k, size_t units, size_t max, size_t *lo,
		 size_t *hi)
{
	*lo = k > 0 ? at[k - 1] : 0;
	*hi = k + 1 < n ? at[k + 1] : units;
	if (max && at[k] - *lo > max)
		*lo = at[k] - max;
	if (max && *hi - at[k] > max)
		*hi = at[k] + max;
}

/* x thinned evenly to at most max values (a copy). */
static double *thin(const double *x, size_t n, size_t max, size_t *out)
{
	size_t k = n < max ? n : max;
	double *t = bb_xmalloc((k ? k : 1) * sizeof *t);

	for (size_t i = 0; i < k; i++)
		t[i] = x[(size_t)((double)i * (double)n / (double)k)];
	*out = k;
	return t;
}

int bb_cp_confirm(const double *before, size_t nb, const double *after, size_t na, double ratio,
		  double alpha, struct bb_ab *out)
{
	size_t kb, ka;
	double *b = thin(before, nb, BB_CP_CONFIRM_MAX, &kb);
	double *a = thin(after, na, BB_CP_CONFIRM_MAX, &ka);
	int rc = bb_ab_compare(b, kb, a, ka, alpha, out);

	free(a);
	free(b);
	if (rc)
		return -1;
	if (!(out->mwu.p <= alpha) || !(out->lo > 1 || out->hi < 1))
		return 0;
	return (out->ratio > 1) == (ratio > 1);
}
