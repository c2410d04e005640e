/* test_multi.c - unit tests for the suite-wide control of false claims
 * (src/analysis/multi.c) and the test and power arithmetic behind it
 * (src/analysis/power.c): Student's t against tabled values, the gate, the
 * Benjamini-Hochberg cutoff, twins and rows outside the control,
 * decisions that do not depend on the order of the rows, and, over
 * synthetic suites of 150 metrics drawn with a fixed seed
 * (bench/sim_suite.h): A/A comparisons claim anything at most about 1 time
 * in 20, a 5% shift of one applet at CV 2% is found most of the time, and
 * the "detectable change" is found about 80% of the time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../bench/sim_suite.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void assert_close(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (tolerance %.3g)", got, want, tol);
}

/* ---- Student's t ---- */

/* Two-sided 5% and 1% points of t from the usual tables. */
static void test_t_tables(void **state)
{
	static const struct {
		double df, t05, t01;
	} tab[] = { { 1, 12.706, 63.657 }, { 2, 4.303, 9.925 }, { 4, 2.776, 4.604 },
		    { 8, 2.306, 3.355 }, { 30, 2.042, 2.750 }, { 1e6, 1.960, 2.576 } };

	(void)state;
	for (size_t i = 0; i < N_OF(tab); i++) {
		assert_close(bb_t_sf2(tab[i].t05, tab[i].df), 0.05, 2e-4);
		assert_close(bb_t_sf2(tab[i].t01, tab[i].df), 0.01, 1e-4);
		assert_close(bb_t_quantile2(0.05, tab[i].df), tab[i].t05, 2e-3 * tab[i].t05);
		assert_close(bb_t_quantile2(0.01, tab[i].df), tab[i].t01, 2e-3 * tab[i].t01);
	}
	assert_close(bb_t_sf2(0, 5), 1, 1e-12);
	assert_close(bb_t_sf2(INFINITY, 5), 0, 0);
}

static void test_welch_edges(void **state)
{
	const double a[] = { 2, 2, 2 }, b[] = { 3, 3, 3 }, c[] = { 1, -1 };
	struct bb_welch w;

	(void)state;
	assert_int_equal(bb_welch_log(a, 3, b, 3, 0.05, &w), 0);
	assert_close(w.ratio, 1.5, 1e-12);
	assert_close(w.p, 0, 0);          /* both constant and different: sure */
	assert_int_equal(bb_welch_log(a, 3, a, 3, 0.05, &w), 0);
	assert_close(w.p, 1, 0);
	assert_int_equal(bb_welch_log(a, 1, b, 3, 0.05, &w), -1);
	assert_int_equal(bb_welch_log(a, 3, c, 2, 0.05, &w), -1);
}

/* The detectable change shrinks with more runs, the runs needed for it
 * agree, and more spread needs more runs. */
static void test_power_arithmetic(void **state)
{
	double d5 = bb_detectable(0.02, 5, 5, 0.005), d10 = bb_detectable(0.02, 10, 10, 0.005);

	(void)state;
	assert_true(d5 > d10 && d10 > 0);
	assert_true(bb_runs_needed(0.02, d5, 0.005, 1000) <= 5);
	assert_true(bb_runs_needed(0.02, d10 / 2, 0.005, 1000) > 10);
	assert_true(bb_runs_needed(0.04, 0.02, 0.005, 1000) > bb_runs_needed(0.02, 0.02, 0.005, 1000));
	assert_int_equal(bb_runs_needed(1.0, 0.001, 0.005, 50), 0);
	assert_true(isnan(bb_detectable(0.02, 1, 5, 0.005)));
}

/* ---- the control ---- */

static struct bb_fam_item item(const char *applet, double p, int headline)
{
	return (struct bb_fam_item){ .applet = applet, .p = p, .headline = headline };
}

/* Two applets share alpha 0.05: a = 0.025 each.  The headline opens the
 * gate at a/2; behind it, Benjamini-Hochberg at a over 4 members. */
static void test_gate_and_cutoff(void **state)
{
	struct bb_fam_item it[] = {
		item("x", 0.010, 1), item("x", 0.012, 0), item("x", 0.02, 0), item("x", 0.9, 0),
		item("y", 0.013, 1), item("y", 0.2, 0), item("y", 0.3, 0),
	};
	struct bb_fam_applet ap[2];

	(void)state;
	assert_int_equal(bb_fam_decide(it, N_OF(it), 0.05, ap, 2), 2);
	assert_close(ap[0].a, 0.025, 1e-15);
	assert_int_equal(ap[0].gate, 1);             /* 0.010 <= 0.0125 */
	/* BH at 0.025 over 4: 0.02 <= 0.025 * 3/4 = 0.01875? no; 0.012 <= 0.0125 yes */
	assert_close(ap[0].cutoff, 0.012, 0);
	assert_true(it[0].significant && it[1].significant);
	assert_false(it[2].significant || it[3].significant);
	assert_int_equal(ap[1].gate, 0);             /* 0.013 > 0.0125, Simes fails too */
	for (size_t i = 4; i < N_OF(it); i++)
		assert_false(it[i].significant);
	assert_close(it[0].level, 0.0125, 1e-15);    /* a headline alone: a/2 */
	assert_close(it[1].level, 0.0125 / 4, 1e-15);
}

/* Without a headline row, Simes at the whole a opens the gate. */
static void test_simes_gate(void **state)
{
	struct bb_fam_item it[] = { item("x", 0.04, 0), item("x", 0.045, 0), item("x", 0.049, 0) };
	struct bb_fam_applet ap;

	(void)state;
	bb_fam_decide(it, N_OF(it), 0.05, &ap, 1);
	assert_int_equal(ap.gate, 2);                /* 0.049 <= 0.05 * 3/3 */
	assert_true(it[0].significant && it[1].significant && it[2].significant);
	it[2].p = 0.06;                              /* 0.06 > 0.05, 0.045 > 0.05 * 2/3, 0.04 > 0.05/3 */
	bb_fam_decide(it, N_OF(it), 0.05, &ap, 1);
	assert_int_equal(ap.gate, 0);
	assert_false(it[0].significant || it[1].significant || it[2].significant);
	it[0].p = 0.01;                              /* 0.01 <= 0.05/3 */
	bb_fam_decide(it, N_OF(it), 0.05, &ap, 1);
	assert_int_equal(ap.gate, 2);
	assert_close(ap.cutoff, 0.01, 0);
	assert_true(it[0].significant);
	assert_false(it[1].significant || it[2].significant);
}

/* Twins are never claimed and take no part in the family; rows outside
 * the control keep the plain alpha and take no share of it. */
static void test_twin_and_outside(void **state)
{
	struct bb_fam_item it[] = { item("x", 0.001, 1), item("x", 0.0008, 0), item("x", 0.002, 0),
				    item("calib", 0.03, 0), item("z", 0.04, 0) };
	struct bb_fam_applet ap;

	(void)state;
	it[1].twin = 1;
	it[3].outside = 1;
	it[4].twin = 1;                              /* an applet of twins only */
	assert_int_equal(bb_fam_decide(it, N_OF(it), 0.05, &ap, 1), 1);
	assert_int_equal(ap.members, 2);             /* x's headline and row 2 */
	assert_true(it[0].significant);
	assert_false(it[1].significant);             /* a twin: its p counts for nothing */
	assert_true(it[2].significant);              /* BH over 2 members: 0.002 <= 0.05 */
	assert_true(it[3].significant);              /* 0.03 < 0.05, outside */
	assert_false(it[4].significant);
}

/* p = 0 (constant sides that differ) is claimed by the cutoff too. */
static void test_zero_p(void **state)
{
	struct bb_fam_item it[] = { item("x", 0, 1), item("x", 0, 0), item("x", 0, 0) };
	struct bb_fam_applet ap;

	(void)state;
	bb_fam_decide(it, N_OF(it), 0.05, &ap, 1);
	assert_int_equal(ap.gate, 1);
	assert_close(ap.cutoff, 0, 0);
	assert_true(it[0].significant && it[1].significant && it[2].significant);
}

/* A NaN p (too few samples) is no member and never claimed. */
static void test_no_p(void **state)
{
	struct bb_fam_item it[] = { item("x", NAN, 1), item("x", 0.0001, 0) };
	struct bb_fam_applet ap;

	(void)state;
	bb_fam_decide(it, N_OF(it), 0.05, &ap, 1);
	assert_int_equal(ap.members, 1);
	assert_false(it[0].significant);
	assert_true(it[1].significant);              /* Simes at a: 0.0001 <= 0.05 */
}

/* Reversing the rows changes no decision. */
static void test_order_free(void **state)
{
	struct bb_fam_item it[12], rev[12];

	(void)state;
	sim_seed(7);
	for (size_t i = 0; i < N_OF(it); i++) {
		it[i] = item(i % 3 ? "m" : "s", pow(sim_uniform(), 3) * 0.1, i == 0 || i == 1);
		rev[N_OF(it) - 1 - i] = it[i];
	}
	bb_fam_decide(it, N_OF(it), 0.05, NULL, 0);
	bb_fam_decide(rev, N_OF(rev), 0.05, NULL, 0);
	for (size_t i = 0; i < N_OF(it); i++) {
		assert_int_equal(it[i].significant, rev[N_OF(it) - 1 - i].significant);
		assert_close(it[i].level, rev[N_OF(it) - 1 - i].level, 0);
	}
}

/* ---- whole synthetic suites ---- */

static const struct sim_cfg suite = { .applets = 5, .metrics = { 4, 70, 30, 42, 4 }, .runs = 5,
				      .cv = 0.02, .rho = 0.5, .shifted = -1, .shift = 1.05,
				      .alpha = 0.05, .threshold = 0.02 };

/* 400 A/A comparisons of 150 metrics: the goal is at most 1 in 20 with
 * any claim; 8% leaves room for the sampling error of 400 draws (the
 * expected count is at most 20, its standard deviation about 4.4). */
static void test_aa_suites(void **state)
{
	struct sim_cfg c = suite;
	size_t any = 0;

	(void)state;
	sim_seed(1);
	for (double rho = 0; rho <= 0.5; rho += 0.5) {
		c.rho = rho;
		for (int i = 0; i < 200; i++) {
			struct sim_out o;
			sim_suite(&c, &o);
			any += o.claims > 0;
		}
	}
	print_message("A/A: %zu of 400 suites claimed anything\n", any);
	assert_true(any <= 32);
}

/* A 5% shift of the 4-metric applet at CV 2%, 5 runs a side: found in
 * most comparisons (about 2 in 3 by bench/compare_sim.c), 10% nearly
 * always. */
static void test_shift_found(void **state)
{
	struct sim_cfg c = suite;
	size_t found5 = 0, found10 = 0;

	(void)state;
	sim_seed(2);
	c.shifted = 0;
	for (int i = 0; i < 200; i++) {
		struct sim_out o;
		c.shift = 1.05;
		sim_suite(&c, &o);
		found5 += o.found;
		c.shift = 0.90;
		sim_suite(&c, &o);
		found10 += o.found;
	}
	print_message("5%%: found in %zu of 200; 10%%: %zu of 200\n", found5, found10);
	assert_true(found5 >= 100);
	assert_true(found10 >= 190);
}

/* One metric tested alone at level L with the spread sd: a change of
 * bb_detectable(sd, 5, 5, L) is found about 80% of the time. */
static void test_detectable_is_eighty_percent(void **state)
{
	const double sd = 0.02, level = 0.01;
	double d = bb_detectable(sd, 5, 5, level), a[5], b[5];
	int found = 0, n = 2000;

	(void)state;
	sim_seed(3);
	for (int i = 0; i < n; i++) {
		struct bb_welch w;
		for (int j = 0; j < 5; j++) {
			a[j] = exp(sd * sim_gauss());
			b[j] = (1 + d) * exp(sd * sim_gauss());
		}
		bb_welch_log(a, 5, b, 5, 0.05, &w);
		found += w.p <= level && w.ratio > 1;
	}
	print_message("detectable %.2f%%: found %d of %d\n", 100 * d, found, n);
	assert_true(found >= 0.70 * n && found <= 0.90 * n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_tables),
		cmocka_unit_test(test_welch_edges),
		cmocka_unit_test(test_power_arithmetic),
		cmocka_unit_test(test_gate_and_cutoff),
		cmocka_unit_test(test_zero_p),
		cmocka_unit_test(test_simes_gate),
		cmocka_unit_test(test_twin_and_outside),
		cmocka_unit_test(test_no_p),
		cmocka_unit_test(test_order_free),
		cmocka_unit_test(test_aa_suites),
		cmocka_unit_test(test_shift_found),
		cmocka_unit_test(test_detectable_is_eighty_percent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
