/* test_mathx.c - unit tests for src/core/mathx.c: bb_exp, bb_exp2 and
 * bb_log against libm's exp, exp2 and log (this test links -lm) over
 * their whole ranges and the ranges boardbench uses, in ulps; exact
 * powers of two; NaN, infinities, zero, negatives, subnormals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/mathx.h"

#define MAX_ULP 2
#define DRAWS 200000

/* The distance between two finite doubles of the same sign, in ulps
 * (steps between neighbouring doubles, subnormals included). */
static uint64_t ulps(double a, double b)
{
	uint64_t ua, ub;

	if (a == b)
		return 0;
	if ((a < 0) != (b < 0) || !isfinite(a) || !isfinite(b))
		return UINT64_MAX;
	memcpy(&ua, &a, sizeof ua);
	memcpy(&ub, &b, sizeof ub);
	return ua > ub ? ua - ub : ub - ua;
}

/* A fixed xorshift64 stream: the same values on every run. */
static uint64_t next_u64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Uniform in [lo, hi). */
static double uniform(uint64_t *s, double lo, double hi)
{
	return lo + (hi - lo) * (double)(next_u64(s) >> 11) * 0x1p-53;
}

typedef double (*fn1)(double);

/* Worst ulp distance of ours from libm's over DRAWS values in [lo, hi). */
static uint64_t worst_uniform(fn1 ours, fn1 ref, double lo, double hi)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, worst = 0;

	for (int i = 0; i < DRAWS; i++) {
		double x = uniform(&s, lo, hi);
		uint64_t d = ulps(ours(x), ref(x));
		if (d > worst) {
			worst = d;
			if (d > MAX_ULP)
				fprintf(stderr, "x = %a: %a, libm %a\n", x, ours(x), ref(x));
		}
	}
	return worst;
}

static void test_exp_against_libm(void **state)
{
	(void)state;
	assert_true(worst_uniform(bb_exp, exp, -1, 1) <= MAX_ULP);
	assert_true(worst_uniform(bb_exp, exp, -20, 20) <= MAX_ULP);
	assert_true(worst_uniform(bb_exp, exp, -700, 709.7) <= MAX_ULP);
	assert_true(worst_uniform(bb_exp, exp, -745, -700) <= MAX_ULP);   /* subnormal */
	assert_true(worst_uniform(bb_exp, exp, -1e-10, 1e-10) <= MAX_ULP);
}

static void test_exp2_against_libm(void **state)
{
	(void)state;
	assert_true(worst_uniform(bb_exp2, exp2, 0, 30) <= MAX_ULP);   /* lat, mem sweep */
	assert_true(worst_uniform(bb_exp2, exp2, -1, 1) <= MAX_ULP);
	assert_true(worst_uniform(bb_exp2, exp2, -1022, 1023.9) <= MAX_ULP);
	assert_true(worst_uniform(bb_exp2, exp2, -1075, -1022) <= MAX_ULP);
}

static void test_log_against_libm(void **state)
{
	(void)state;
	assert_true(worst_uniform(bb_log, log, 0.5, 2) <= MAX_ULP);
	assert_true(worst_uniform(bb_log, log, 0.99, 1.01) <= MAX_ULP);
	assert_true(worst_uniform(bb_log, log, 1e-9, 1e9) <= MAX_ULP);   /* latencies */
	assert_true(worst_uniform(bb_log, log, 1, DBL_MAX) <= MAX_ULP);
}

/* log over every binade, normal and subnormal, from random bit patterns. */
static void test_log_all_binades(void **state)
{
	uint64_t s = 12345, worst = 0;

	(void)state;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t u = next_u64(&s) & 0x7fffffffffffffffull;
		double x;
		memcpy(&x, &u, sizeof x);
		if (!isfinite(x) || x == 0)
			continue;
		uint64_t d = ulps(bb_log(x), log(x));
		if (d > worst)
			worst = d;
	}
	assert_true(worst <= MAX_ULP);
}

/* The values lat and mem sweep take: 2^(k/ppd) for the points per
 * doubling they use; an integer exponent gives the power exactly. */
static void test_exp2_sizes(void **state)
{
	static const int ppd[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64 };

	(void)state;
	for (size_t i = 0; i < sizeof ppd / sizeof ppd[0]; i++)
		for (int k = 0; k <= 40 * ppd[i]; k++) {
			double x = (double)k / ppd[i];
			assert_true(ulps(bb_exp2(x), exp2(x)) <= 1);
			assert_true(ulps(bb_exp2(x), pow(2.0, x)) <= 1);
		}
	for (int k = -1074; k <= 1023; k++)
		assert_true(bb_exp2(k) == ldexp(1.0, k));
}

static void test_specials(void **state)
{
	(void)state;
	assert_true(isnan(bb_exp(NAN)) && isnan(bb_exp2(NAN)) && isnan(bb_log(NAN)));
	assert_true(bb_exp(INFINITY) == INFINITY && bb_exp2(INFINITY) == INFINITY);
	assert_true(bb_exp(-INFINITY) == 0 && bb_exp2(-INFINITY) == 0);
	assert_true(bb_exp(0) == 1 && bb_exp(-0.0) == 1 && bb_exp2(0) == 1);
	assert_true(bb_exp(710) == INFINITY && bb_exp(1e300) == INFINITY);
	assert_true(bb_exp(-746) == 0 && bb_exp(-1e300) == 0);
	assert_true(bb_exp(709.78) == exp(709.78) && isfinite(bb_exp(709.78)));
	assert_true(bb_exp2(1024) == INFINITY && bb_exp2(-1076) == 0);
	assert_true(bb_exp2(-1074) == 0x1p-1074);
	assert_true(bb_exp2(-1074.5) == exp2(-1074.5));
	assert_true(bb_log(1) == 0 && !signbit(bb_log(1)));
	assert_true(bb_log(0) == -INFINITY && bb_log(-0.0) == -INFINITY);
	assert_true(bb_log(INFINITY) == INFINITY);
	assert_true(isnan(bb_log(-1)) && isnan(bb_log(-INFINITY)) && isnan(bb_log(-0x1p-1074)));
	assert_true(bb_log(0x1p-1074) == log(0x1p-1074));
	assert_true(bb_log(DBL_MAX) == log(DBL_MAX));
	assert_true(bb_log(2) == log(2.0) && ulps(bb_log(M_E), 1.0) <= 1);
}

/* What the plateau finder computes: a rise per point from a rise per
 * doubling, and log ratios back and forth. */
static void test_plateau_ratios(void **state)
{
	(void)state;
	for (int ppd = 1; ppd <= 64; ppd++)
		assert_true(ulps(bb_exp(bb_log(1.35) / ppd), pow(1.35, 1.0 / ppd)) <= MAX_ULP);
	for (double r = 1.001; r < 1000; r *= 1.07)
		assert_true(ulps(bb_exp(bb_log(r)), r) <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exp_against_libm),
		cmocka_unit_test(test_exp2_against_libm),
		cmocka_unit_test(test_log_against_libm),
		cmocka_unit_test(test_log_all_binades),
		cmocka_unit_test(test_exp2_sizes),
		cmocka_unit_test(test_specials),
		cmocka_unit_test(test_plateau_ratios),
	};

	return cmocka_run_group_tests_name("mathx", tests, NULL, NULL);
}
