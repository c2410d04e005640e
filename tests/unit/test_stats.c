/* test_stats.c - unit tests for src/core/stats.c: summary statistics over
 * raw samples, checked against data sets whose answers are known by hand,
 * plus the error cases (no samples, non-finite samples) and numerical
 * stability when the samples sit on a large offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/stats.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* |got - want| within rel of |want| (or within rel when want is 0). */
static void assert_close(double got, double want, double rel)
{
	double tol = rel * (fabs(want) > 1 ? fabs(want) : 1);

	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (tolerance %.3g)", got, want, tol);
}

static void test_odd_count(void **state)
{
	const double x[] = { 5, 1, 3 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_int_equal(st.n, 3);
	assert_close(st.min, 1, 1e-15);
	assert_close(st.max, 5, 1e-15);
	assert_close(st.mean, 3, 1e-15);
	assert_close(st.median, 3, 1e-15);
	assert_close(st.stddev, 2, 1e-14);        /* (4 + 4 + 0) / (3 - 1) = 4 */
	assert_close(st.cv, 2.0 / 3.0, 1e-14);
}

static void test_even_count(void **state)
{
	const double x[] = { 4, 1, 3, 2 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_int_equal(st.n, 4);
	assert_close(st.median, 2.5, 1e-15);      /* mean of the middle two */
	assert_close(st.mean, 2.5, 1e-15);
	assert_close(st.stddev, sqrt(5.0 / 3.0), 1e-14);
	assert_close(st.cv, sqrt(5.0 / 3.0) / 2.5, 1e-14);
}

/* The textbook set: population sd 2, sample sd sqrt(32/7). */
static void test_sample_stddev(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_close(st.mean, 5, 1e-15);
	assert_close(st.median, 4.5, 1e-15);
	assert_close(st.stddev, sqrt(32.0 / 7.0), 1e-14);
	assert_true(fabs(st.stddev - 2.0) > 0.1);  /* not the population sd */
	assert_close(st.min, 2, 0);
	assert_close(st.max, 9, 0);
}

static void test_single_sample(void **state)
{
	const double x[] = { 7.25 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, 1, &st), 0);
	assert_int_equal(st.n, 1);
	assert_true(st.min == 7.25 && st.max == 7.25);
	assert_true(st.mean == 7.25 && st.median == 7.25);
	assert_true(st.stddev == 0.0);
	assert_true(st.cv == 0.0);
}

static void test_no_samples(void **state)
{
	const double x[] = { 1.0 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, 0, &st), -1);
	assert_true(isnan(bb_median(x, 0)));
}

static void test_non_finite_rejected(void **state)
{
	const double first_nan[] = { NAN, 1, 2 };
	const double mid_nan[] = { 1, NAN, 3 };
	const double last_inf[] = { 1, 2, INFINITY };
	const double neg_inf[] = { -INFINITY, 2 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(first_nan, N_OF(first_nan), &st), -1);
	assert_int_equal(bb_stats_compute(mid_nan, N_OF(mid_nan), &st), -1);
	assert_int_equal(bb_stats_compute(last_inf, N_OF(last_inf), &st), -1);
	assert_int_equal(bb_stats_compute(neg_inf, N_OF(neg_inf), &st), -1);
}

static void test_input_not_modified(void **state)
{
	double x[] = { 9, 3, 7, 1, 8, 2, 6, 4, 5 };
	double copy[N_OF(x)];
	struct bb_stats st;

	(void)state;
	memcpy(copy, x, sizeof x);
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_memory_equal(x, copy, sizeof x);
	assert_close(st.median, 5, 0);
	assert_close(bb_median(x, N_OF(x)), 5, 0);
	assert_memory_equal(x, copy, sizeof x);
}

/* Naive sum-of-squares loses every digit here; a careful method does not. */
static void test_large_offset(void **state)
{
	const double base = 1e12;
	const double x[] = { base + 4, base + 7, base + 13, base + 16 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_close(st.mean, base + 10, 1e-15);
	assert_close(st.median, base + 10, 1e-15);
	assert_close(st.stddev, sqrt(30.0), 1e-6);   /* (36+9+9+36)/3 */
	assert_close(st.cv, sqrt(30.0) / (base + 10), 1e-6);
}

static void test_constant_samples(void **state)
{
	double x[100];
	struct bb_stats st;

	(void)state;
	for (size_t i = 0; i < N_OF(x); i++)
		x[i] = 0.1;
	assert_int_equal(bb_stats_compute(x, N_OF(x), &st), 0);
	assert_close(st.mean, 0.1, 1e-15);
	assert_true(st.stddev < 1e-15);
	assert_true(st.cv < 1e-14);
}

static void test_zero_and_negative_mean(void **state)
{
	const double zero[] = { -1, 1 };
	const double neg[] = { -2, -4 };
	struct bb_stats st;

	(void)state;
	assert_int_equal(bb_stats_compute(zero, N_OF(zero), &st), 0);
	assert_close(st.mean, 0, 1e-15);
	assert_close(st.stddev, sqrt(2.0), 1e-14);
	assert_true(st.cv == 0.0);                   /* defined as 0, not inf */
	assert_int_equal(bb_stats_compute(neg, N_OF(neg), &st), 0);
	assert_close(st.median, -3, 0);
	assert_close(st.cv, sqrt(2.0) / 3.0, 1e-14);  /* spread is never negative */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_count),
		cmocka_unit_test(test_even_count),
		cmocka_unit_test(test_sample_stddev),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_non_finite_rejected),
		cmocka_unit_test(test_input_not_modified),
		cmocka_unit_test(test_large_offset),
		cmocka_unit_test(test_constant_samples),
		cmocka_unit_test(test_zero_and_negative_mean),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
