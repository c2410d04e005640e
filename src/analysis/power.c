/* power.c - Welch's t-test on log values, Student's t distribution, and
 * the power arithmetic of `compare` (see power.h). */
#include "analysis/power.h"

#include <math.h>
#include <string.h>

/* The continued fraction of the incomplete beta function (modified
 * Lentz), valid for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = fabs(d) < tiny ? 1 / tiny : 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num;
		for (int odd = 0; odd < 2; odd++) {
			num = odd ? -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
				  : m * (b - m) * x / ((a + m2 - 1) * (a + m2));
			d = 1 + num * d;
			c = 1 + num / c;
			d = fabs(d) < tiny ? 1 / tiny : 1 / d;
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
		}
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double bb_t_sf2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

double bb_t_quantile2(double p, double df)
{
	double lo = 0, hi = 1;

	while (bb_t_sf2(hi, df) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (bb_t_sf2(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* Mean and sample variance of the logs; -1 on a value that is not a
 * positive finite number. */
static int log_moments(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -1;
		s += log(x[i]);
	}
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
	*var = ss / (double)(n - 1);
	return 0;
}

int bb_welch_log(const double *a, size_t na, const double *b, size_t nb, double alpha,
		 struct bb_welch *out)
{
	double ma, va, mb, vb, sa, sb, se, d, q;

	memset(out, 0, sizeof *out);
	if (na < 2 || nb < 2 || log_moments(a, na, &ma, &va) || log_moments(b, nb, &mb, &vb))
		return -1;
	sa = va / (double)na;
	sb = vb / (double)nb;
	se = sqrt(sa + sb);
	d = mb - ma;
	out->ratio = exp(d);
	out->mean_a = exp(ma);
	out->mean_b = exp(mb);
	out->sd = sqrt((va * (double)(na - 1) + vb * (double)(nb - 1)) / (double)(na + nb - 2));
	if (se == 0) {         /* both sides constant: a sure difference, or none */
		out->df = (double)(na + nb - 2);
		out->p = d == 0 ? 1 : 0;
		out->t = d == 0 ? 0 : copysign(INFINITY, d);
		out->lo = out->hi = out->ratio;
		return 0;
	}
	out->df = (sa + sb) * (sa + sb) /
		  (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->t = d / se;
	out->p = bb_t_sf2(out->t, out->df);
	q = bb_t_quantile2(alpha, out->df);
	out->lo = exp(d - q * se);
	out->hi = exp(d + q * se);
	return 0;
}

/* Power of the two-sided t-test with df degrees of freedom and critical
 * value c when the true shift is delta standard errors: P(|T'| >= c) for the
 * noncentral t T' = (Z + delta) / sqrt(V / df), V chi-square with df
 * degrees of freedom, integrated over V (Simpson's rule). */
static double t_power(double delta, double df, double c)
{
	const int steps = 400;
	double top = df + 12 * sqrt(2 * df) + 12, h = top / steps;
	double norm = lgamma(df / 2) + df / 2 * log(2.0), sum = 0;

	for (int i = 0; i <= steps; i++) {
		double v = i * h, dens, s, p;
		if (v == 0)
			dens = df == 2 ? 0.5 : 0;
		else
			dens = exp((df / 2 - 1) * log(v) - v / 2 - norm);
		s = c * sqrt(v / df);
		p = 0.5 * erfc((s - delta) / sqrt(2.0)) + 0.5 * erfc((s + delta) / sqrt(2.0));
		sum += (i == 0 || i == steps ? 1 : i % 2 ? 4 : 2) * dens * p;
	}
	return sum * h / 3;
}

/* Welch's test spends about one degree of freedom on the two variances
 * being estimated apart: with na + nb - 3 the quoted 80% matches what the
 * Welch test finds in simulation (tests/unit/test_multi.c; with the
 * pooled na + nb - 2 it found 75% at 5 runs a side). */
double bb_detectable(double sd, size_t na, size_t nb, double level)
{
	double df = (double)(na + nb - 3), lo = 0, hi = 1, c;

	if (na < 2 || nb < 2 || !(sd >= 0))
		return NAN;
	c = bb_t_quantile2(level, df);
	while (t_power(hi, df, c) < BB_POWER && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 40; i++) {
		double mid = 0.5 * (lo + hi);
		if (t_power(mid, df, c) < BB_POWER)
			lo = mid;
		else
			hi = mid;
	}
	return expm1(hi * sd * sqrt(1.0 / (double)na + 1.0 / (double)nb));
}

size_t bb_runs_needed(double sd, double change, double level, size_t max)
{
	double want = log1p(fabs(change));
	size_t lo = 1, hi = max;   /* the detectable change shrinks as runs grow */

	if (max < 2 || log1p(bb_detectable(sd, max, max, level)) > want)
		return 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (log1p(bb_detectable(sd, mid, mid, level)) <= want)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
