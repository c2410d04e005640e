/* test_abstats.c - unit tests for src/analysis/abstats.c, the statistics of
 * `compare`: Mann-Whitney U statistics and p-values (exact and normal with
 * ties) against fixtures computed by hand, the Hodges-Lehmann shift and
 * its interval, the verdict rule, and its behaviour over many synthetic
 * A/B pairs drawn with a fixed seed: the false-positive rate of A/A pairs
 * at CV 1-5%, a 3% shift at CV 1% with 10 samples a side detected, and a
 * 1% shift at CV 5% not claimed.  (tests/integration/test_compare_scipy.sh
 * checks the p-values against SciPy as well.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "analysis/abstats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (tolerance %.3g)", got, want, tol);
}

/* ---- Mann-Whitney U against hand-computed fixtures ---- */

/* Every b above every a: U_A = 0; exact, only 1 of the C(6,3) = 20
 * orderings is this extreme on each side: p = 2/20. */
static void test_mwu_separated(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct bb_mwu r;

	(void)state;
	assert_int_equal(bb_mwu(a, 3, b, 3, &r), 0);
	assert_true(r.exact);
	assert_close(r.u, 0, 0);
	assert_close(r.p, 0.1, 1e-15);
	assert_int_equal(bb_mwu(b, 3, a, 3, &r), 0);
	assert_close(r.u, 9, 0);                /* the mirror image */
	assert_close(r.p, 0.1, 1e-15);
}

/* a = 1 3 5, b = 2 4 6: U_A counts (3>2), (5>2), (5>4) = 3.  The counts of
 * U for 3 and 3 are 1 1 2 3 3 3 3 2 1 1 (u = 0..9); max(U, 9 - U) = 6 and
 * P(U >= 6) = (3+2+1+1)/20, so p = 2 * 7/20 = 0.7. */
static void test_mwu_interleaved(void **state)
{
	const double a[] = { 5, 1, 3 }, b[] = { 6, 2, 4 };
	struct bb_mwu r;

	(void)state;
	assert_int_equal(bb_mwu(a, 3, b, 3, &r), 0);
	assert_close(r.u, 3, 0);
	assert_close(r.p, 0.7, 1e-15);
	assert_true(r.exact);
}

/* 5 and 5 separated: p = 2 / C(10,5) = 2/252. */
static void test_mwu_five_a_side(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct bb_mwu r;

	(void)state;
	assert_int_equal(bb_mwu(a, 5, b, 5, &r), 0);
	assert_close(r.p, 2.0 / 252.0, 1e-15);
}

/* With ties the normal approximation is used.  a = 1 2 2 3 4, b = 2 3 4 5 5:
 * mid-ranks 1 | 3 3 3 | 5.5 5.5 | 7.5 7.5 | 9.5 9.5, so R_A = 1+3+3+5.5+7.5 = 20
 * and U_A = 20 - 15 = 5.  Tie groups of 3, 2, 2, 2: sum(t^3 - t) = 42.
 * sigma^2 = 25/12 * (11 - 42/90) = 21.9444, sigma = 4.684490;
 * z = (max(5, 20) - 12.5 - 0.5) / sigma = 1.494293, p = erfc(z / sqrt 2)
 * = 0.1350991. */
static void test_mwu_ties_normal(void **state)
{
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 4, 5, 5 };
	struct bb_mwu r;

	(void)state;
	assert_int_equal(bb_mwu(a, 5, b, 5, &r), 0);
	assert_false(r.exact);
	assert_close(r.u, 5, 0);
	assert_close(r.p, 0.13509906945732136, 1e-12);
}

/* All values equal: no evidence of anything, p = 1. */
static void test_mwu_all_equal(void **state)
{
	const double a[] = { 7, 7, 7, 7, 7 }, b[] = { 7, 7, 7, 7, 7, 7 };
	struct bb_mwu r;

	(void)state;
	assert_int_equal(bb_mwu(a, 5, b, 6, &r), 0);
	assert_close(r.u, 15, 0);            /* every rank 6: R_A = 30, U = 30 - 15 */
	assert_close(r.p, 1, 0);
	assert_int_equal(bb_mwu(a, 0, b, 6, &r), -1);
}

/* 30 a side is past the exact limit (C(60,30) > 2^50): the normal
 * approximation even without ties. */
static void test_mwu_large_normal(void **state)
{
	double a[30], b[30];
	struct bb_mwu r;

	(void)state;
	for (int i = 0; i < 30; i++) {
		a[i] = 2 * i;
		b[i] = 2 * i + 1;
	}
	assert_int_equal(bb_mwu(a, 30, b, 30, &r), 0);
	assert_false(r.exact);
	assert_close(r.u, 435, 0);     /* a_i > b_j for j < i: 0+1+...+29 */
	/* max(U, 900 - U) - 450 - 0.5 = 14.5, sigma = sqrt(900 * 61 / 12) = 67.6387,
	 * z = 0.214374, p = erfc(z / sqrt 2) = 0.8302553 */
	assert_close(r.p, 0.8302552839111963, 1e-12);
}

/* ---- Hodges-Lehmann ---- */

/* b - a over all pairs of 1 2 3 and 4 5 6: 1 2 2 3 3 3 4 4 5, median 3.
 * For 3 and 3, P(U <= 0) = 1/20 > 0.025, so the 95% interval is the whole
 * range [1, 5]. */
static void test_hl_small(void **state)
{
	const double a[] = { 3, 1, 2 }, b[] = { 6, 4, 5 };
	double est, lo, hi;

	(void)state;
	assert_int_equal(bb_hl_shift(a, 3, b, 3, 0.05, &est, &lo, &hi), 0);
	assert_close(est, 3, 0);
	assert_close(lo, 1, 0);
	assert_close(hi, 5, 0);
}

/* a = 1..5, b = 11..15: differences 10 + (j - i) take 6..14 with counts
 * 1 2 3 4 5 4 3 2 1.  For 5 and 5, P(U <= 2) = 4/252 <= 0.025 < P(U <= 3)
 * = 7/252, so k = 3: the interval is [d(3), d(23)] = [7, 13]. */
static void test_hl_interval_exact(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	double est, lo, hi;

	(void)state;
	assert_int_equal(bb_hl_shift(a, 5, b, 5, 0.05, &est, &lo, &hi), 0);
	assert_close(est, 10, 0);
	assert_close(lo, 7, 0);
	assert_close(hi, 13, 0);
}

/* An even number of pairs: the mean of the two middle differences.
 * a = 0 1, b = 0 10: differences -1 0 9 10, median (0 + 9) / 2. */
static void test_hl_even(void **state)
{
	const double a[] = { 0, 1 }, b[] = { 0, 10 };
	double est, lo, hi;

	(void)state;
	assert_int_equal(bb_hl_shift(a, 2, b, 2, 0.05, &est, &lo, &hi), 0);
	assert_close(est, 4.5, 0);
	assert_close(lo, -1, 0);
	assert_close(hi, 10, 0);
}

/* The ratio of B = 1.1 x A, whatever the spread of A. */
static void test_ratio(void **state)
{
	const double a[] = { 100, 101, 103, 104, 110, 99 };
	double b[N_OF(a)];
	struct bb_ab r;

	(void)state;
	for (size_t i = 0; i < N_OF(a); i++)
		b[i] = 1.1 * a[i];
	assert_int_equal(bb_ab_compare(a, N_OF(a), b, N_OF(b), 0.05, &r), 0);
	assert_close(r.ratio, 1.1, 1e-12);
	assert_true(r.lo < 1.1 && r.hi > 1.1);
	assert_true(r.have_p);
	assert_true(r.mwu.p < 0.05);
	b[0] = 0;
	assert_int_equal(bb_ab_compare(a, N_OF(a), b, N_OF(b), 0.05, &r), -1);
	b[0] = NAN;
	assert_int_equal(bb_ab_compare(a, N_OF(a), b, N_OF(b), 0.05, &r), -1);
}

/* Differences that overflow to infinity must not upset the bisection:
 * -inf 0 0 +inf, median 0. */
static void test_hl_extreme(void **state)
{
	const double a[] = { -1e308, 1e308 }, b[] = { -1e308, 1e308 };
	double est, lo, hi;

	(void)state;
	assert_int_equal(bb_hl_shift(a, 2, b, 2, 0.05, &est, &lo, &hi), 0);
	assert_close(est, 0, 0);
	assert_true(isinf(lo) && lo < 0);
	assert_true(isinf(hi) && hi > 0);
}

static void test_normal_quantile(void **state)
{
	(void)state;
	assert_close(bb_normal_quantile(0.975), 1.959963984540054, 1e-9);
	assert_close(bb_normal_quantile(0.5), 0, 1e-12);
	assert_close(bb_normal_quantile(0.05), -1.6448536269514722, 1e-9);
}

/* ---- the verdict rule ---- */

static struct bb_ab ab(double p, double ratio, double lo, double hi)
{
	struct bb_ab r = { .na = 10, .nb = 10, .ratio = ratio, .lo = lo, .hi = hi, .have_p = 1 };
	r.mwu.p = p;
	return r;
}

static void test_verdicts(void **state)
{
	struct bb_ab r = ab(0.001, 1.05, 1.03, 1.07);

	(void)state;
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_IMPROVED);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_LOWER, 0.05, 0.02), BB_V_REGRESSED);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_UNKNOWN, 0.05, 0.02), BB_V_DIFFERS);
	r = ab(0.001, 0.95, 0.93, 0.97);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_REGRESSED);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_LOWER, 0.05, 0.02), BB_V_IMPROVED);
	r = ab(0.2, 1.05, 0.99, 1.10);                /* not significant */
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_SAME);
	r = ab(0.01, 1.01, 1.005, 1.015);             /* significant, below 2% */
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_NOISE);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.005), BB_V_IMPROVED);
	r = ab(0.04, 1.05, 1.01, 1.09);               /* 5%, but could be 1% */
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_NOISE);
	r = ab(0.04, 1.05, 1.02, 1.09);               /* at least 2%: over a third */
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_IMPROVED);
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.01, 0.02), BB_V_SAME);
	r.have_p = 0;
	assert_int_equal(bb_ab_verdict(&r, BB_BETTER_HIGHER, 0.05, 0.02), BB_V_FEW);
	assert_string_equal(bb_verdict_name(BB_V_SAME), "no significant change");
	assert_string_equal(bb_verdict_name(BB_V_NOISE), "within noise");
}

/* ---- synthetic A/B pairs, fixed seed ---- */

struct rng {
	uint64_t s;
};

static uint64_t next_u64(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(struct rng *r)
{
	return ((double)(next_u64(r) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(struct rng *r)
{
	return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

/* n bandwidth samples around mean with relative spread cv; with
 * interference, one sample in 20 is also slowed by 10-30%. */
static void draw(struct rng *r, double *x, int n, double mean, double cv, int interference)
{
	for (int i = 0; i < n; i++) {
		x[i] = mean * (1 + cv * gauss(r));
		if (interference && uniform(r) < 0.05)
			x[i] /= 1.1 + 0.2 * uniform(r);
	}
}

struct rates {
	int pairs, claimed, improved, significant;
};

/* pairs of A (mean 1000) and B (1000 * shift), n a side, bandwidth. */
static struct rates trial(uint64_t seed, int pairs, int n, double cv, double shift, int interference)
{
	struct rng r = { seed };
	struct rates t = { .pairs = pairs };
	double a[64], b[64];

	for (int k = 0; k < pairs; k++) {
		struct bb_ab res;
		enum bb_verdict v;
		draw(&r, a, n, 1000, cv, interference);
		draw(&r, b, n, 1000 * shift, cv, interference);
		assert_int_equal(bb_ab_compare(a, (size_t)n, b, (size_t)n, 0.05, &res), 0);
		v = bb_ab_verdict(&res, BB_BETTER_HIGHER, 0.05, 0.02);
		t.claimed += v == BB_V_IMPROVED || v == BB_V_REGRESSED;
		t.improved += v == BB_V_IMPROVED;
		t.significant += res.mwu.p < 0.05;
	}
	return t;
}

/* A/A: at most 5% of pairs may claim a change, at every CV from 1 to 5%,
 * with and without interference; and the test itself is calibrated (about
 * 5% of p-values under 0.05). */
static void test_aa_false_positives(void **state)
{
	const double cvs[] = { 0.01, 0.02, 0.03, 0.04, 0.05 };
	int claimed = 0, significant = 0, pairs = 0;

	(void)state;
	for (size_t i = 0; i < N_OF(cvs); i++)
		for (int noisy = 0; noisy <= 1; noisy++) {
			struct rates t = trial(1000 + i * 2 + (size_t)noisy, 400, 10, cvs[i], 1.0, noisy);
			print_message("# A/A CV %.0f%%%s: %d of %d claimed, %d with p < 0.05\n",
				      100 * cvs[i], noisy ? " + interference" : "", t.claimed, t.pairs,
				      t.significant);
			assert_true(t.claimed <= t.pairs / 20);
			claimed += t.claimed;
			significant += t.significant;
			pairs += t.pairs;
		}
	assert_true(claimed <= pairs / 20);
	assert_true(significant >= pairs / 50 && significant <= pairs * 8 / 100);
}

/* B 3% faster at CV 1%, 10 samples a side: found improved in at least 95%
 * of pairs (the estimate is 3% +- 0.46%, p is tiny; about 98% here). */
static void test_detects_three_percent(void **state)
{
	struct rates t = trial(42, 1000, 10, 0.01, 1.03, 0);

	(void)state;
	print_message("# 3%% at CV 1%%, n = 10: %d of %d improved\n", t.improved, t.pairs);
	assert_true(t.improved >= t.pairs * 95 / 100);
	assert_int_equal(t.claimed, t.improved);
}

/* B 1% faster at CV 5%, 10 samples a side: the noise is five times the
 * effect, so it is not claimed (at most 2% of pairs; p < 0.05 alone would
 * claim it in about 7%). */
static void test_ignores_one_percent_in_noise(void **state)
{
	struct rates t = trial(7, 1000, 10, 0.05, 1.01, 0);

	(void)state;
	print_message("# 1%% at CV 5%%, n = 10: %d of %d claimed (%d with p < 0.05)\n", t.claimed,
		      t.pairs, t.significant);
	assert_true(t.claimed <= t.pairs / 50);
}

/* The spread of group medians: one slow sample is not a slow machine, a
 * slow group is. */
static void test_group_spread(void **state)
{
	const double steady[] = { 1, 1.01, 0.99, 1, 1, 1.02 };
	const double one_slow[] = { 1, 3, 1, 1, 1, 1 };
	const double slow_group[] = { 1, 1, 1, 2, 2.1, 1.9, 1, 1, 1 };
	const double bad[] = { 1, 1, 1, 0, 0, 0 };

	(void)state;
	assert_true(fabs(bb_group_spread(steady, 6, 3) - 0) < 1e-12);
	assert_true(fabs(bb_group_spread(one_slow, 6, 3) - 0) < 1e-12);
	assert_true(fabs(bb_group_spread(slow_group, 9, 3) - 1.0) < 1e-12);
	assert_true(fabs(bb_group_spread(slow_group, 8, 3) - 1.0) < 1e-12);  /* the tail is dropped */
	assert_true(bb_group_spread(slow_group, 5, 3) == 0);   /* one whole group */
	assert_true(bb_group_spread(slow_group, 9, 0) == 0);
	assert_true(bb_group_spread(bad, 6, 3) == 0);
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median's standard error from order statistics, on the example the
 * method's authors publish with their R package statpsych (ci.median):
 * 19 scores, median 20.7, SE 4.292277. */
static void test_median_se(void **state)
{
	double y[] = { 30.2, 20.4, 15.1, 10.2, 10.5, 60.8, 20.8, 25.0, 20.7, 30.9,
		       10.8, 5.1, 50.9, 40.0, 20.9, 10.8, 0, 20.5, 50.8 };
	size_t n = sizeof y / sizeof y[0];

	(void)state;
	qsort(y, n, sizeof y[0], cmp_d);
	assert_close(bb_median(y, n), 20.7, 1e-12);
	assert_close(bb_median_se(y, n), 4.292277, 1e-6);
	assert_true(isnan(bb_median_se(y, 1)));
}

/* Pooled samples: the ratio is the medians' ratio, the interval is even on
 * a log scale around it, the p-value is Mann-Whitney's. */
static void test_median_ratio(void **state)
{
	double a[] = { 100, 101, 99, 102, 98, 100.5, 99.5 };
	double b[] = { 110, 111, 109, 112, 108, 110.5, 109.5 };
	struct bb_ab r;
	struct bb_mwu u;

	(void)state;
	assert_int_equal(bb_median_ratio(a, 7, b, 7, 0.05, &r), 0);
	assert_close(r.ratio, 1.1, 1e-12);
	assert_true(r.lo < r.ratio && r.ratio < r.hi);
	assert_close(log(r.hi / r.ratio), log(r.ratio / r.lo), 1e-12);
	assert_true(r.lo > 1);                       /* a 10% shift with 1% noise is resolved */
	assert_int_equal(bb_mwu(a, 7, b, 7, &u), 0);
	assert_close(r.mwu.p, u.p, 1e-15);
	assert_true(r.have_p);
	a[0] = 0;                                    /* a count of 0 is a value */
	assert_int_equal(bb_median_ratio(a, 7, b, 7, 0.05, &r), 0);
	a[0] = -1;
	assert_int_equal(bb_median_ratio(a, 7, b, 7, 0.05, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_separated),
		cmocka_unit_test(test_mwu_interleaved),
		cmocka_unit_test(test_mwu_five_a_side),
		cmocka_unit_test(test_mwu_ties_normal),
		cmocka_unit_test(test_mwu_all_equal),
		cmocka_unit_test(test_mwu_large_normal),
		cmocka_unit_test(test_hl_small),
		cmocka_unit_test(test_hl_interval_exact),
		cmocka_unit_test(test_hl_even),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_hl_extreme),
		cmocka_unit_test(test_normal_quantile),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_group_spread),
		cmocka_unit_test(test_aa_false_positives),
		cmocka_unit_test(test_median_se),
		cmocka_unit_test(test_median_ratio),
		cmocka_unit_test(test_detects_three_percent),
		cmocka_unit_test(test_ignores_one_percent_in_noise),
	};

	return cmocka_run_group_tests_name("abstats", tests, NULL, NULL);
}
