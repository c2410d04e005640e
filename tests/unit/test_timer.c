/* test_timer.c - unit tests for src/core/timer.c: the CLOCK_MONOTONIC
 * readings every sample is timed with, STREAM-style granularity and
 * overhead calibration, and the minimum sample duration derived from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>

#include "core/timer.h"

static void test_monotonic(void **state)
{
	uint64_t prev = bb_now_ns();
	double prevs = bb_now();

	(void)state;
	for (int i = 0; i < 10000; i++) {
		uint64_t t = bb_now_ns();
		double s = bb_now();
		assert_true(t >= prev);
		assert_true(s >= prevs);
		prev = t;
		prevs = s;
	}
}

/* bb_now() and bb_now_ns() read the same clock. */
static void test_seconds_match_nanoseconds(void **state)
{
	uint64_t a = bb_now_ns();
	double s = bb_now();
	uint64_t b = bb_now_ns();

	(void)state;
	assert_true(s >= (double)a * 1e-9 - 1e-6);
	assert_true(s <= (double)b * 1e-9 + 1e-6);
}

static void test_sleep_is_measured(void **state)
{
	struct timespec req = { 0, 2000000 };   /* 2 ms */
	uint64_t t0 = bb_now_ns(), t1;

	(void)state;
	assert_int_equal(nanosleep(&req, NULL), 0);
	t1 = bb_now_ns();
	assert_true(t1 - t0 >= 2000000);
	assert_true(t1 - t0 < 30000000000ull);   /* only a hang: a loaded machine may not wake us soon */
}

static void test_calibrate(void **state)
{
	struct bb_timer_info ti = { -1, -1, -1 };

	(void)state;
	bb_timer_calibrate(&ti);
	assert_true(ti.granularity_s > 0);
	assert_true(ti.granularity_s < 1.0);
	assert_true(ti.resolution_s > 0);
	assert_true(ti.resolution_s < 1.0);
	assert_true(ti.overhead_s > 0);
	assert_true(ti.overhead_s < 1e-3);
}

static void test_min_sample(void **state)
{
	struct bb_timer_info ti;
	struct bb_timer_info coarse = { 1e-2, 1e-2, 1e-6 };  /* a 100 Hz clock */
	struct bb_timer_info fine = { 1e-9, 1e-9, 2e-8 };

	(void)state;
	bb_timer_calibrate(&ti);
	assert_true(bb_timer_min_sample(&ti) >= 1e-3);
	assert_true(bb_timer_min_sample(&ti) >= 20 * ti.granularity_s);
	assert_float_equal(bb_timer_min_sample(&coarse), 0.2, 1e-12);
	assert_float_equal(bb_timer_min_sample(&fine), 1e-3, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_seconds_match_nanoseconds),
		cmocka_unit_test(test_sleep_is_measured),
		cmocka_unit_test(test_calibrate),
		cmocka_unit_test(test_min_sample),
	};

	return cmocka_run_group_tests_name("timer", tests, NULL, NULL);
}
