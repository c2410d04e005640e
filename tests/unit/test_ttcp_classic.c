/* test_ttcp_classic.c - unit tests for src/net/classic.c and units.c:
 * classic ttcp's rate units (Mbit = 2^20 bits), its msec/call with the
 * 1024 factor, its rusage line, checked against the classic report's own
 * numbers; and the SI bit-rate parser behind --rate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net/classic.h"
#include "net/units.h"

static void assert_close(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* The seed: 16777216 bytes at 2048 calls/7268.57 calls/s took 0.28177 s
 * and printed 454.29 Mbit/sec and msec/call = 0.14. */
static void test_seed_rate_line(void **state)
{
	char buf[64];
	double real = 2048 / 7268.57;

	(void)state;
	bb_ttcp_fmt_rate(buf, sizeof buf, 'm', 16777216 / real);
	assert_string_equal(buf, "454.29 Mbit");
	assert_close(bb_ttcp_msec_per_call(real, 2048), 0.1409, 1e-3);
	snprintf(buf, sizeof buf, "%.2f", bb_ttcp_msec_per_call(real, 2048));
	assert_string_equal(buf, "0.14");
}

static void test_units_are_binary(void **state)
{
	(void)state;
	assert_close(bb_ttcp_fmt_scale('m', 131072), 1.0, 1e-15);   /* 2^20 bits */
	assert_close(bb_ttcp_fmt_scale('k', 128), 1.0, 1e-15);
	assert_close(bb_ttcp_fmt_scale('g', 134217728), 1.0, 1e-15);
	assert_close(bb_ttcp_fmt_scale('K', 1024), 1.0, 1e-15);
	assert_close(bb_ttcp_fmt_scale('M', 1048576), 1.0, 1e-15);
	assert_close(bb_ttcp_fmt_scale('G', 1073741824), 1.0, 1e-15);
	assert_string_equal(bb_ttcp_fmt_unit('m'), "Mbit");
	assert_string_equal(bb_ttcp_fmt_unit('M'), "MB");
	assert_string_equal(bb_ttcp_fmt_unit('K'), "KB");
	assert_string_equal(bb_ttcp_fmt_unit('x'), "KB");            /* classic default */
}

static void test_fmt_valid(void **state)
{
	(void)state;
	for (const char *c = "kKmMgG"; *c; c++)
		assert_true(bb_ttcp_fmt_valid(*c));
	assert_false(bb_ttcp_fmt_valid('x'));
	assert_false(bb_ttcp_fmt_valid('b'));
	assert_false(bb_ttcp_fmt_valid(0));
}

static void test_msec_per_call_edges(void **state)
{
	(void)state;
	assert_close(bb_ttcp_msec_per_call(1.0, 1024), 1.0, 1e-15);   /* the 1024 factor */
	assert_true(bb_ttcp_msec_per_call(1.0, 0) == 0);
	assert_close(bb_ttcp_clamp_time(0), 0.001, 1e-15);
	assert_close(bb_ttcp_clamp_time(-1), 0.001, 1e-15);
	assert_close(bb_ttcp_clamp_time(2.5), 2.5, 1e-15);
}

/* The seed's line: 0.0user 0.1sys 0:00real 60% 0i+0d 0maxrss 0+2pf 3+1506csw */
static void test_seed_rusage_line(void **state)
{
	struct bb_ttcp_ru ru = { .utime_us = 30000, .stime_us = 140000, .real_us = 281770,
				 .minflt = 2, .nvcsw = 3, .nivcsw = 1506 };
	char buf[256];

	(void)state;
	bb_ttcp_rusage_line(buf, sizeof buf, &ru);
	assert_string_equal(buf, "0.0user 0.1sys 0:00real 60% 0i+0d 0maxrss 0+2pf 3+1506csw");
}

static void test_rusage_line_long_and_maxrss(void **state)
{
	struct bb_ttcp_ru ru = { .utime_us = 61500000, .stime_us = 2000000,
				 .real_us = 3725000000LL, .maxrss_kib = 2000, .majflt = 1 };
	char buf[256];

	(void)state;
	bb_ttcp_rusage_line(buf, sizeof buf, &ru);
	/* elapsed as H:MM:SS, maxrss halved as classic ttcp prints it */
	assert_string_equal(buf, "61.5user 2.0sys 1:02:05real 1% 0i+0d 1000maxrss 1+0pf 0+0csw");
}

static void test_rusage_line_zero_time(void **state)
{
	struct bb_ttcp_ru ru = { 0 };
	char buf[256];

	(void)state;
	bb_ttcp_rusage_line(buf, sizeof buf, &ru);
	assert_string_equal(buf, "0.0user 0.0sys 0:00real 0% 0i+0d 0maxrss 0+0pf 0+0csw");
	bb_ttcp_rusage_line(buf, 8, &ru);                           /* truncates safely */
	assert_int_equal(strlen(buf), 7);
}

static void test_parse_rate(void **state)
{
	double v = -1;

	(void)state;
	assert_int_equal(bb_parse_rate("100M", &v), 0);
	assert_close(v, 1e8, 1e-15);
	assert_int_equal(bb_parse_rate("1.5g", &v), 0);
	assert_close(v, 1.5e9, 1e-15);
	assert_int_equal(bb_parse_rate("250k", &v), 0);
	assert_close(v, 2.5e5, 1e-15);
	assert_int_equal(bb_parse_rate("64000", &v), 0);
	assert_close(v, 64000, 1e-15);
	v = -1;
	const char *bad[] = { "", "M", "0", "0M", "-1M", "1e13", "2000G", "abc", "10MB",
			      "nan", "inf", " 1M", "1M ", "1x" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (bb_parse_rate(bad[i], &v) != -1)
			fail_msg("'%s' was accepted", bad[i]);
		assert_true(v == -1);
	}
}

static void test_si_format(void **state)
{
	char buf[48];

	(void)state;
	bb_fmt_si_rate(buf, sizeof buf, 943.72e6);
	assert_string_equal(buf, "943.72 Mbit/s");
	bb_fmt_si_rate(buf, sizeof buf, 12);
	assert_string_equal(buf, "12.00 bit/s");
	bb_fmt_si_rate(buf, sizeof buf, 14.5e9);
	assert_string_equal(buf, "14.50 Gbit/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_rate_line),
		cmocka_unit_test(test_units_are_binary),
		cmocka_unit_test(test_fmt_valid),
		cmocka_unit_test(test_msec_per_call_edges),
		cmocka_unit_test(test_seed_rusage_line),
		cmocka_unit_test(test_rusage_line_long_and_maxrss),
		cmocka_unit_test(test_rusage_line_zero_time),
		cmocka_unit_test(test_parse_rate),
		cmocka_unit_test(test_si_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
