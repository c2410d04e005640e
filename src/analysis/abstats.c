/* abstats.c - Mann-Whitney U, the Hodges-Lehmann ratio and its interval,
 * and the verdict rule of `compare` (see abstats.h for the methods). */
#include "analysis/abstats.h"
#include "core/error.h"
#include "core/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Exact counts stay exact integers in a double up to 2^53; keep a margin. */
#define EXACT_LOG2_LIMIT 50.0

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;
	return (a > b) - (a < b);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Rank sum of A (mid-ranks for ties) and the tie term sum(t^3 - t). */
static void rank_sum(const double *a, size_t na, const double *b, size_t nb,
		     double *ra, double *ties)
{
	size_t n = na + nb;
	struct ranked *r = bb_xmalloc(n * sizeof *r);

	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (size_t j = 0; j < nb; j++)
		r[na + j] = (struct ranked){ b[j], 0 };
	qsort(r, n, sizeof *r, cmp_ranked);
	*ra = 0;
	*ties = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		double t = (double)(j - i), mid = 0.5 * (double)(i + 1 + j);
		for (size_t k = i; k < j; k++)
			if (r[k].from_a)
				*ra += mid;
		*ties += t * t * t - t;
	}
	free(r);
}

static double log2_choose(size_t n, size_t k)
{
	return (lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1)) /
	       log(2.0);
}

static int exact_possible(size_t na, size_t nb, double ties)
{
	return ties == 0 && log2_choose(na + nb, na) <= EXACT_LOG2_LIMIT;
}

/* c[u] for u = 0..na*nb: the number of orderings of na A's and nb B's with
 * U = u.  These are the coefficients of the Gaussian binomial
 * [na+nb choose m]_q, built as prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). */
static double *u_counts(size_t na, size_t nb)
{
	size_t m = na < nb ? na : nb, n = na < nb ? nb : na, top = m * n;
	double *c = bb_xcalloc(top + 1, sizeof *c);

	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t s = n + i;
		for (size_t k = top; k >= s && s <= top; k--)
			c[k] -= c[k - s];
		for (size_t k = i; k <= top; k++)
			c[k] += c[k - i];
	}
	return c;
}

/* P(U <= u) under the exact null distribution. */
static double exact_cdf(const double *c, size_t top, double u)
{
	double below = 0, total = 0;

	for (size_t k = 0; k <= top; k++) {
		total += c[k];
		if ((double)k <= u)
			below += c[k];
	}
	return below / total;
}

static double normal_sf(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

double bb_normal_quantile(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = 0.5 * (lo + hi);
		if (1.0 - normal_sf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static double u_sigma(size_t na, size_t nb, double ties)
{
	double n = (double)(na + nb);
	double v = (double)na * (double)nb / 12.0 * ((n + 1) - ties / (n * (n - 1)));
	return v > 0 ? sqrt(v) : 0;
}

int bb_mwu(const double *a, size_t na, const double *b, size_t nb, struct bb_mwu *out)
{
	double ra, ties, prod = (double)na * (double)nb;

	memset(out, 0, sizeof *out);
	if (!na || !nb)
		return -1;
	rank_sum(a, na, b, nb, &ra, &ties);
	out->u = ra - (double)na * ((double)na + 1) / 2;
	double umax = out->u > prod - out->u ? out->u : prod - out->u;
	if (exact_possible(na, nb, ties)) {
		double *c = u_counts(na, nb);
		out->exact = 1;
		out->p = 2 * exact_cdf(c, na * nb, prod - umax);   /* symmetric: P(U >= umax) */
		free(c);
	} else {
		double s = u_sigma(na, nb, ties);
		out->p = s > 0 ? 2 * normal_sf((umax - prod / 2 - 0.5) / s) : 1;
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

/* ---- the k-th smallest pairwise difference b_j - a_i ---- */

/* Doubles mapped to integers in the same order, so bisection is exact. */
static int64_t ordered(double x)
{
	int64_t i;
	memcpy(&i, &x, sizeof i);
	return i < 0 ? INT64_MIN - i : i;
}

static double unordered(int64_t i)
{
	double x;
	if (i < 0)
		i = INT64_MIN - i;
	memcpy(&x, &i, sizeof x);
	return x;
}

/* Pairs with b_j - a_i <= x; a and b sorted ascending. */
static double count_le(const double *a, size_t na, const double *b, size_t nb, double x)
{
	double count = 0;
	size_t i = 0;

	for (size_t j = 0; j < nb; j++) {
		while (i < na && b[j] - a[i] > x)
			i++;
		count += (double)(na - i);
	}
	return count;
}

/* The k-th (1-based) smallest of the na*nb differences b_j - a_i. */
static double kth_diff(const double *a, size_t na, const double *b, size_t nb, double k)
{
	int64_t lo = ordered(b[0] - a[na - 1]), hi = ordered(b[nb - 1] - a[0]);

	if (count_le(a, na, b, nb, unordered(lo)) >= k)
		return unordered(lo);
	/* count(lo) < k <= count(hi); unsigned steps: hi - lo may exceed INT64_MAX */
	while ((uint64_t)hi - (uint64_t)lo > 1) {
		int64_t mid = (int64_t)((uint64_t)lo + ((uint64_t)hi - (uint64_t)lo) / 2);
		if (count_le(a, na, b, nb, unordered(mid)) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return unordered(hi);
}

/* The rank k of the interval [d_(k), d_(N+1-k)] at level 1 - alpha. */
static double interval_rank(size_t na, size_t nb, double ties, double alpha)
{
	double prod = (double)na * (double)nb, k;

	if (exact_possible(na, nb, ties)) {
		double *c = u_counts(na, nb), total = 0, cum = 0;
		size_t top = na * nb, u;
		for (size_t i = 0; i <= top; i++)
			total += c[i];
		for (u = 0; u <= top && (cum + c[u]) / total <= alpha / 2; u++)
			cum += c[u];
		free(c);
		k = (double)u;           /* largest u with P(U <= u - 1) <= alpha/2 */
	} else {
		/* P(U <= k - 1) <= alpha/2 with the continuity correction */
		k = floor(prod / 2 - bb_normal_quantile(1 - alpha / 2) * u_sigma(na, nb, ties) + 0.5);
	}
	return k < 1 ? 1 : k;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = bb_xmalloc(n * sizeof *s);
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	return s;
}

int bb_hl_shift(const double *a, size_t na, const double *b, size_t nb, double alpha,
		double *est, double *lo, double *hi)
{
	double ra, ties, prod = (double)na * (double)nb;

	if (!na || !nb)
		return -1;
	rank_sum(a, na, b, nb, &ra, &ties);
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
	double k = interval_rank(na, nb, ties, alpha), mid = floor((prod + 1) / 2);
	*est = kth_diff(sa, na, sb, nb, mid);
	if (fmod(prod, 2) == 0)
		*est = 0.5 * (*est + kth_diff(sa, na, sb, nb, mid + 1));
	*lo = kth_diff(sa, na, sb, nb, k);
	*hi = kth_diff(sa, na, sb, nb, prod + 1 - k);
	free(sa);
	free(sb);
	return 0;
}

static double *logs(const double *x, size_t n)
{
	double *l = bb_xmalloc((n ? n : 1) * sizeof *l);

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i])) {
			free(l);
			return NULL;
		}
		l[i] = log(x[i]);
	}
	return l;
}

int bb_ab_compare(const double *a, size_t na, const double *b, size_t nb, double alpha,
		  struct bb_ab *out)
{
	double *la = logs(a, na), *lb = logs(b, nb), est, lo, hi;
	int rc = -1;

	memset(out, 0, sizeof *out);
	out->na = na;
	out->nb = nb;
	if (la && lb && na && nb) {
		bb_hl_shift(la, na, lb, nb, alpha, &est, &lo, &hi);
		bb_mwu(la, na, lb, nb, &out->mwu);
		out->ratio = exp(est);
		out->lo = exp(lo);
		out->hi = exp(hi);
		out->have_p = na >= BB_AB_MIN_N && nb >= BB_AB_MIN_N;
		rc = 0;
	}
	free(la);
	free(lb);
	return rc;
}

/* P(X <= k) for X ~ Binomial(n, 1/2): the terms from k down, each from the
 * one above it, until they no longer count. */
static double binom_half_cdf(size_t n, size_t k)
{
	double t, sum = 0;

	if (k >= n)
		return 1;
	t = exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
		(double)n * log(2.0));
	for (size_t j = k + 1; j-- > 0;) {
		sum += t;
		if (t < sum * 1e-17)
			break;
		t *= (double)j / (double)(n - j + 1);
	}
	return fmin(1, sum);
}

double bb_median_se(const double *x, size_t n)
{
	const double z = 1.959963984540054;
	double c, p;
	size_t k;

	if (n < 2)
		return NAN;
	c = floor(((double)n - z * sqrt((double)n)) / 2 + 0.5);
	k = c < 1 ? 1 : (size_t)c;
	p = binom_half_cdf(n, k - 1);
	return (x[n - k] - x[k - 1]) / (2 * bb_normal_quantile(1 - p));
}

int bb_median_ratio(const double *a, size_t na, const double *b, size_t nb, double alpha,
		    struct bb_ab *out)
{
	double *sa, *sb, ma, mb, sl, z;

	memset(out, 0, sizeof *out);
	out->na = na;
	out->nb = nb;
	if (!na || !nb)
		return -1;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	ma = bb_median(sa, na);
	mb = bb_median(sb, nb);
	if (!(ma > 0) || !(mb > 0) || !isfinite(ma) || !isfinite(mb) || !(sa[0] >= 0) ||
	    !(sb[0] >= 0) || !isfinite(sa[na - 1]) || !isfinite(sb[nb - 1])) {
		free(sa);
		free(sb);
		return -1;
	}
	out->ratio = mb / ma;
	sl = hypot(bb_median_se(sa, na) / ma, bb_median_se(sb, nb) / mb);
	z = bb_normal_quantile(1 - alpha / 2);
	out->lo = isfinite(sl) ? out->ratio * exp(-z * sl) : NAN;
	out->hi = isfinite(sl) ? out->ratio * exp(z * sl) : NAN;
	bb_mwu(a, na, b, nb, &out->mwu);
	out->have_p = na >= BB_AB_MIN_N && nb >= BB_AB_MIN_N;
	free(sa);
	free(sb);
	return 0;
}

/* Significant (p < alpha), then the size of the change (bb_size_verdict). */
enum bb_verdict bb_ab_verdict(const struct bb_ab *r, int better, double alpha, double threshold)
{
	if (!r->have_p)
		return BB_V_FEW;
	if (!(r->mwu.p < alpha))
		return BB_V_SAME;
	return bb_size_verdict(r, better, threshold);
}

/* The estimated change exceeds the noise threshold, and the interval's
 * near end either clears the threshold too or is at least a third of the
 * estimate away from no change (the change is at least a third of what is
 * printed).  An interval clearing 2% alone needs about 25 samples a side
 * to see a 3% change at CV 1%; with the second way 10 do
 * (tests/unit/test_abstats.c).  On a log scale, so a threshold is
 * symmetric between faster and slower. */
enum bb_verdict bb_size_verdict(const struct bb_ab *r, int better, double threshold)
{
	double g, glo, ghi, t = log1p(threshold);

	g = log(r->ratio);
	glo = log(r->lo);
	ghi = log(r->hi);
	if (better == BB_BETTER_LOWER) {
		double tmp = -glo;
		g = -g;
		glo = -ghi;
		ghi = tmp;
	}
	if (g > t && (glo > t || glo >= g / 3))
		return better ? BB_V_IMPROVED : BB_V_DIFFERS;
	if (g < -t && (ghi < -t || ghi <= g / 3))
		return better ? BB_V_REGRESSED : BB_V_DIFFERS;
	return BB_V_NOISE;
}

const char *bb_verdict_name(enum bb_verdict v)
{
	static const char *const names[BB_V_COUNT] = {
		[BB_V_FEW] = "too few samples",
		[BB_V_SAME] = "no significant change",
		[BB_V_NOISE] = "within noise",
		[BB_V_IMPROVED] = "improved",
		[BB_V_REGRESSED] = "regressed",
		[BB_V_DIFFERS] = "differs",
		[BB_V_TWIN] = "-",
	};
	return (unsigned)v < BB_V_COUNT ? names[v] : "?";
}

double bb_group_spread(const double *v, size_t n, size_t group)
{
	double lo = INFINITY, hi = 0;

	if (group == 0 || n / group < 2)
		return 0;
	for (size_t i = 0; i + group <= n; i += group) {
		double m = bb_median(v + i, group);
		if (!(m > 0) || !isfinite(m))
			return 0;
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	return hi / lo - 1;
}
