/* test_changepoint.c - unit tests for the change-point method of the
 * history (src/analysis/changepoint.c) and the cause finder
 * (src/analysis/causes.c): the O(n log n) E-Divisive statistic against
 * its definition, a step found where it is, flat and single-outlier
 * series left alone, the minimum segment, the lab-wide
 * Benjamini-Yekutieli control (a child of a rejected point goes with it),
 * the confirmation on samples, and causes that changed at the point told
 * from facts that vary every run.  Series are drawn with a fixed seed
 * (bench/sim_suite.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/sim_suite.h"
#include "analysis/causes.h"
#include "analysis/changepoint.h"
#include "analysis/reader.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* n values around 1 with log spread sd, times factor from index at on. */
static void series(double *v, size_t n, double sd, size_t at, double factor)
{
	for (size_t i = 0; i < n; i++)
		v[i] = exp(sd * sim_gauss()) * (i >= at ? factor : 1);
}

static void test_edivisive_matches_definition(void **state)
{
	double z[37], q[38];
	(void)state;

	sim_seed(1);
	for (size_t i = 0; i < N_OF(z); i++)
		z[i] = sim_gauss() + (i >= 20 ? 1.5 : 0) + (i % 7 == 0 ? 0.25 : 0);
	z[5] = z[6];        /* a tie */
	size_t best = bb_edivisive(z, N_OF(z), 3, q);
	double top = -INFINITY;
	size_t arg = 0;
	for (size_t tau = 3; tau + 3 <= N_OF(z); tau++) {
		double d = bb_edivisive_direct(z, N_OF(z), tau);
		if (fabs(q[tau] - d) > 1e-9 * fmax(1, fabs(d)))
			fail_msg("tau %zu: %.17g, by the definition %.17g", tau, q[tau], d);
		if (d > top) {
			top = d;
			arg = tau;
		}
	}
	assert_int_equal(best, arg);
	assert_int_equal(best, 20);
	assert_true(isnan(q[2]) && isnan(q[35]));
	assert_int_equal(bb_edivisive(z, 5, 3, q), 0);       /* too short for two sides */
}

static void test_step_found(void **state)
{
	double v[40];
	struct bb_cp cp[40];
	size_t tests;
	(void)state;

	sim_seed(2);
	series(v, 40, 0.01, 25, 1.05);
	size_t n = bb_cp_find(v, 40, 5, 0.05, cp, 40, &tests);
	assert_true(n >= 1);
	assert_int_equal(cp[0].at, 25);
	assert_int_equal(cp[0].parent, -1);
	assert_true(cp[0].p < 1e-6);
	assert_true(fabs(cp[0].ratio - 1.05) < 0.01);
	assert_true(tests >= 1);
}

static void test_two_steps_nested(void **state)
{
	double v[60];
	struct bb_cp cp[60];
	size_t tests;
	(void)state;

	sim_seed(3);
	series(v, 60, 0.005, 20, 1.10);
	for (size_t i = 40; i < 60; i++)
		v[i] *= 1.10;
	size_t n = bb_cp_find(v, 60, 5, 0.05, cp, 60, &tests);
	assert_int_equal(n, 2);
	assert_int_equal(cp[1].parent, 0);                    /* found inside a side of the first */
	size_t a = cp[0].at < cp[1].at ? cp[0].at : cp[1].at, b = cp[0].at ^ cp[1].at ^ a;
	assert_int_equal(a, 20);
	assert_int_equal(b, 40);
}

static void test_flat_and_outlier(void **state)
{
	double v[50];
	struct bb_cp cp[50];
	size_t tests, found = 0;
	(void)state;

	/* 200 flat series at the lab level: the family is held to 5% */
	sim_seed(4);
	for (int s = 0; s < 200; s++) {
		series(v, 50, 0.02, 50, 1);
		found += bb_cp_find(v, 50, 5, 0.05 / 200, cp, 50, &tests);
	}
	assert_true(found <= 2);
	/* one run 30% slow is not a change */
	series(v, 50, 0.01, 50, 1);
	v[30] *= 0.7;
	assert_int_equal(bb_cp_find(v, 50, 5, 0.05, cp, 50, &tests), 0);
	/* a non-positive value: nothing is tested */
	v[3] = 0;
	assert_int_equal(bb_cp_find(v, 50, 5, 0.05, cp, 50, &tests), 0);
	assert_int_equal(tests, 0);
}

static void test_min_segment(void **state)
{
	double v[30];
	struct bb_cp cp[30];
	size_t tests;
	(void)state;

	sim_seed(5);
	series(v, 30, 0.005, 27, 1.2);                /* a step 3 runs from the end */
	size_t n = bb_cp_find(v, 30, 5, 0.05, cp, 30, &tests);
	for (size_t i = 0; i < n; i++)
		assert_true(cp[i].at >= 5 && cp[i].at <= 25);
	n = bb_cp_find(v, 30, 3, 0.05, cp, 30, &tests);
	assert_true(n >= 1 && cp[0].at == 27);
	assert_int_equal(bb_cp_find(v, 9, 5, 0.05, cp, 30, &tests), 0);   /* 9 < 2 x 5 */
	assert_int_equal(tests, 0);
}

static void test_control(void **state)
{
	/* m = 10 tests: Benjamini-Yekutieli at 0.05 passes p(k) <= 0.05 k / (10 c),
	 * c = 1 + 1/2 + ... + 1/10, so 0.001707 k */
	struct bb_cp cp[4] = {
		{ .p = 0.0003, .parent = -1 },
		{ .p = 0.0030, .parent = -1 },    /* k = 3 (0.0030 <= 0.00512) */
		{ .p = 0.0012, .parent = 1 },
		{ .p = 0.0100, .parent = 0 },     /* Benjamini-Hochberg would pass it (<= 0.02), not this */
	};
	(void)state;

	assert_true(fabs(bb_by_constant(10) - 7381.0 / 2520) < 1e-12);
	double cut = bb_cp_control(cp, 4, 10, 0.05);
	assert_true(fabs(cut - 0.0030) < 1e-12);
	assert_true(cp[0].accepted && cp[1].accepted && cp[2].accepted && !cp[3].accepted);
	/* a rejected parent takes its child with it */
	cp[1].p = 0.5;
	bb_cp_control(cp, 4, 10, 0.05);
	assert_true(cp[0].accepted && !cp[1].accepted && !cp[2].accepted);
	/* more tests, a stricter cut */
	cp[1].p = 0.0030;
	bb_cp_control(cp, 4, 1000, 0.05);
	assert_true(!cp[0].accepted && !cp[1].accepted);
	assert_true(bb_cp_control(cp, 0, 10, 0.05) == 0);
}

static void test_confirm(void **state)
{
	double a[60], b[60];
	struct bb_ab ab;
	(void)state;

	sim_seed(6);
	for (size_t i = 0; i < 60; i++) {
		a[i] = 1 + 0.01 * sim_gauss();
		b[i] = 1.05 * (1 + 0.01 * sim_gauss());
	}
	assert_int_equal(bb_cp_confirm(a, 60, b, 60, 1.05, 0.05, &ab), 1);
	assert_true(ab.lo > 1.03 && ab.hi < 1.07);
	assert_int_equal(bb_cp_confirm(a, 60, b, 60, 0.95, 0.05, &ab), 0);   /* the other way */
	assert_int_equal(bb_cp_confirm(a, 30, a + 30, 30, 1.05, 0.05, &ab), 0);
	assert_int_equal(bb_cp_confirm(a, 0, b, 60, 1.05, 0.05, &ab), -1);
	b[3] = -1;
	assert_int_equal(bb_cp_confirm(a, 60, b, 60, 1.05, 0.05, &ab), -1);
	assert_true(fabs(bb_geomean((double[]){ 1, 4 }, 0, 2) - 2) < 1e-12);
	assert_true(isnan(bb_geomean(a, 3, 3)));
}

/* ---- causes ---- */

static void run_of(struct bb_rrun *r, const char *kcflags, const char *night, const char *threads)
{
	const char *k[] = { "tool.kernel_cflags", "label.night", "system.governor",
			    "param.stream.threads", "caches" };
	const char *v[] = { kcflags, night, "performance", threads, "L1d 32K" };
	bb_rrun_from_facts(r, k, v, N_OF(k));
}

static void test_causes(void **state)
{
	struct bb_rrun rb[3], ra[3];
	struct bb_runs before = { rb, 3, 3 }, after = { ra, 3, 3 };
	struct bb_causes cs;
	char night[8];
	(void)state;

	for (int i = 0; i < 3; i++) {
		snprintf(night, sizeof night, "%d", i);
		run_of(&rb[i], "-O3", night, "2");
		snprintf(night, sizeof night, "%d", i + 3);
		run_of(&ra[i], "-O0", night, i == 2 ? "4" : "2");
	}
	assert_string_equal(bb_rkv_str(&rb[0].tool, "kernel_cflags"), "-O3");
	assert_string_equal(rb[0].results[0].applet, "stream");
	bb_causes_find(&before, &after, "stream", &cs);
	assert_int_equal(cs.n, 3);
	/* first what changed at the point, then what varies anyway */
	assert_string_equal(cs.v[0].field, "compiler flags of the measured kernels");
	assert_true(cs.v[0].steady && cs.v[0].explains);
	assert_string_equal(cs.v[0].before, "-O3");
	assert_string_equal(cs.v[0].after, "-O0");
	for (size_t i = 1; i < cs.n; i++)
		assert_false(cs.v[i].steady);
	bb_causes_free(&cs);
	for (int i = 0; i < 3; i++) {
		bb_rrun_free(&rb[i]);
		bb_rrun_free(&ra[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edivisive_matches_definition),
		cmocka_unit_test(test_step_found),
		cmocka_unit_test(test_two_steps_nested),
		cmocka_unit_test(test_flat_and_outlier),
		cmocka_unit_test(test_min_segment),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_confirm),
		cmocka_unit_test(test_causes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
