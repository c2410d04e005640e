/* test_parse.c - unit tests for src/core/parse.c: the strict parsers every
 * option value goes through (counts, sizes with K/M/G, seconds, labels).
 * Each bad input must be rejected with -1 and leave the output untouched.
 * bb_strtod is compared with the C library's strtod (value, end, errno),
 * and bb_scan_field with the /proc lines it reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aull

/* Parse s with bb_parse_u64 over the whole range; returns the value and
 * asserts success. */
static uint64_t u64_ok(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = SENTINEL;

	assert_int_equal(bb_parse_u64(s, min, max, &v), 0);
	return v;
}

static void u64_bad(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = SENTINEL;

	assert_int_equal(bb_parse_u64(s, min, max, &v), -1);
	assert_true(v == SENTINEL);
}

static void test_u64_decimal_ranges(void **state)
{
	(void)state;
	assert_int_equal(u64_ok("0", 0, 10), 0);
	assert_int_equal(u64_ok("42", 1, 100), 42);
	assert_int_equal(u64_ok("1", 1, 100), 1);      /* min is inclusive */
	assert_int_equal(u64_ok("100", 1, 100), 100);  /* max is inclusive */
	assert_int_equal(u64_ok("000123", 0, 1000), 123);
	u64_bad("0", 1, 100);
	u64_bad("101", 1, 100);
	u64_bad("1", 2, 100000);
	u64_bad("100001", 2, 100000);
}

static void test_u64_hex(void **state)
{
	(void)state;
	assert_int_equal(u64_ok("0x10", 0, UINT64_MAX), 16);
	assert_int_equal(u64_ok("0XfF", 0, UINT64_MAX), 255);
	assert_int_equal(u64_ok("0xDeadBeef", 0, UINT64_MAX), 0xdeadbeefu);
	assert_true(u64_ok("0xffffffffffffffff", 0, UINT64_MAX) == UINT64_MAX);
	assert_true(u64_ok("0x00000000000000000001", 0, UINT64_MAX) == 1);
	u64_bad("0x", 0, UINT64_MAX);
	u64_bad("0x1g", 0, UINT64_MAX);
	u64_bad("0x10000000000000000", 0, UINT64_MAX);  /* 2^64 */
	u64_bad("0x100", 0, 255);
	u64_bad("x10", 0, UINT64_MAX);
	u64_bad("0x-1", 0, UINT64_MAX);
}

static void test_u64_overflow(void **state)
{
	(void)state;
	assert_true(u64_ok("18446744073709551615", 0, UINT64_MAX) == UINT64_MAX);
	assert_true(u64_ok("18446744073709551610", 0, UINT64_MAX) ==
		    UINT64_MAX - 5);
	u64_bad("18446744073709551616", 0, UINT64_MAX);  /* 2^64 */
	u64_bad("18446744073709551620", 0, UINT64_MAX);
	u64_bad("99999999999999999999", 0, UINT64_MAX);
	u64_bad("184467440737095516150", 0, UINT64_MAX);
}

static void test_u64_junk(void **state)
{
	static const char *const bad[] = {
		"", "abc", "a", "12abc", "1.0", "1e3", "-1", "-0", "+1",
		" 1", "1 ", "\t1", "1\n", "1,000", "1_000", "0b101", "12K",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		u64_bad(bad[i], 0, UINT64_MAX);
	u64_bad(NULL, 0, UINT64_MAX);
}

static uint64_t size_ok(const char *s)
{
	uint64_t v = SENTINEL;

	assert_int_equal(bb_parse_size(s, &v), 0);
	return v;
}

static void size_bad(const char *s)
{
	uint64_t v = SENTINEL;

	assert_int_equal(bb_parse_size(s, &v), -1);
	assert_true(v == SENTINEL);
}

static void test_size_suffixes(void **state)
{
	(void)state;
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("7"), 7);
	assert_int_equal(size_ok("4K"), 4096);
	assert_int_equal(size_ok("4k"), 4096);
	assert_int_equal(size_ok("2M"), 2u << 20);
	assert_int_equal(size_ok("2m"), 2u << 20);
	assert_true(size_ok("3G") == 3ull << 30);
	assert_true(size_ok("3g") == 3ull << 30);
	assert_int_equal(size_ok("0K"), 0);
	assert_int_equal(size_ok("0x10K"), 16 << 10);
}

static void test_size_long_forms(void **state)
{
	(void)state;
	assert_int_equal(size_ok("4KiB"), 4096);
	assert_int_equal(size_ok("4Ki"), 4096);
	assert_int_equal(size_ok("4kib"), 4096);
	assert_int_equal(size_ok("4kb"), 4096);
	assert_int_equal(size_ok("4KB"), 4096);
	assert_int_equal(size_ok("1MiB"), 1u << 20);
	assert_true(size_ok("1GiB") == 1ull << 30);
}

static void test_size_overflow(void **state)
{
	(void)state;
	/* the largest multipliers that still fit in 64 bits */
	assert_true(size_ok("18014398509481983K") == (UINT64_MAX >> 10) << 10);
	assert_true(size_ok("17592186044415M") == (UINT64_MAX >> 20) << 20);
	assert_true(size_ok("17179869183G") == (UINT64_MAX >> 30) << 30);
	assert_true(size_ok("18446744073709551615") == UINT64_MAX);
	size_bad("18014398509481984K");
	size_bad("17592186044416M");
	size_bad("17179869184G");
	size_bad("18446744073709551616");
	size_bad("0xffffffffffffffffK");
}

static void test_size_bad_suffix(void **state)
{
	static const char *const bad[] = {
		"", "K", "KiB", "4T", "4X", "4KK", "4Kx", "4KiBB", "4KBi", "4 K",
		"4K ", " 4K", "-4K", "+4K", "4i", "4iB", "4.5K", "4e3",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		size_bad(bad[i]);
	size_bad(NULL);
}

static double double_ok(const char *s, double min, double max)
{
	double v = -12345.0;

	assert_int_equal(bb_parse_double(s, min, max, &v), 0);
	return v;
}

static void double_bad(const char *s, double min, double max)
{
	double v = -12345.0;

	assert_int_equal(bb_parse_double(s, min, max, &v), -1);
	assert_true(v == -12345.0);
}

static void test_double_valid(void **state)
{
	(void)state;
	assert_true(double_ok("1.5", 0, 10) == 1.5);
	assert_true(double_ok("0", 0, 10) == 0.0);
	assert_true(double_ok("10", 0, 10) == 10.0);
	assert_true(double_ok("1e-3", 0, 10) == 1e-3);
	assert_true(double_ok(".25", 0, 10) == 0.25);
	assert_true(double_ok("-2.5", -5, 5) == -2.5);
}

static void test_double_invalid(void **state)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "1x", "1.5s", "nan", "NAN", "inf", "-inf",
		"infinity", "1e999", "-1e999", "1e-400", "--1", ".", "e3",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		double_bad(bad[i], -1e300, 1e300);
	double_bad(NULL, 0, 10);
	double_bad("-1", 0, 10);     /* below min */
	double_bad("10.5", 0, 10);   /* above max */
	double_bad("-0.001", 0, 10);
}

/* What strtod also accepts, and bb_parse_double still does. */
static void test_double_forms(void **state)
{
	(void)state;
	assert_true(double_ok("+1.5", 0, 10) == 1.5);
	assert_true(double_ok("1.", 0, 10) == 1.0);
	assert_true(double_ok("1E1", 0, 100) == 10.0);
	assert_true(double_ok("2.5e+1", 0, 100) == 25.0);
	assert_true(double_ok("0.000001", 0, 1) == 1e-6);
	assert_true(double_ok("0e99999999999", 0, 1) == 0.0);
	assert_true(double_ok("86400", 1e-3, 86400) == 86400.0);
	assert_true(double_ok("0.05", 1e-6, 0.5) == 0.05);
	assert_true(double_ok("100000000000000000000000000000e-29", 0, 10) == 1.0);
}

/* Refused with the same -1 (so the same one-line usage error) as any
 * malformed value: hex, exponents without digits, subnormals. */
static void test_double_refused(void **state)
{
	static const char *const bad[] = {
		"0x10", "0x1p3", "0X1", "1e", "1e+", "1e-", "1.2.3", "1..2", "+", "-",
		"+-1", "1e1.5", "e", "1 e3", "1e99999999999999999999", "1e-310",
		"nan(1)", "Infinity", "1,5", "\xef\xbc\x91",
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		double_bad(bad[i], -1e300, 1e300);
}

/* A fixed xorshift64 stream: the same strings on every run. */
static uint64_t next_u64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random decimal in buf: optional '-', ndig digits with a '.' somewhere
 * (or none), an exponent in [-emax, emax]. */
static void random_decimal(uint64_t *st, char *buf, int maxdig, int emax)
{
	int ndig = 1 + (int)(next_u64(st) % (uint64_t)maxdig);
	int point = (int)(next_u64(st) % (uint64_t)(ndig + 1)), k = 0;

	if (next_u64(st) & 1)
		buf[k++] = '-';
	for (int j = 0; j < ndig; j++) {
		if (j == point)
			buf[k++] = '.';
		buf[k++] = (char)('0' + next_u64(st) % 10);
	}
	snprintf(buf + k, 16, "e%d", (int)(next_u64(st) % (uint64_t)(2 * emax + 1)) - emax);
}

/* bb_strtod and strtod on s: the same end, and values within tol
 * (relative; 0: identical). */
static void like_strtod(const char *s, double tol)
{
	char *e1, *e2;
	double a = strtod(s, &e1), b = bb_strtod(s, &e2);

	if (e1 != e2 || !(a == b || fabs(a - b) <= tol * fabs(a)))
		fail_msg("'%s': strtod %a (%td chars), bb_strtod %a (%td chars)", s, a,
			 e1 - s, b, e2 - s);
}

/* Up to 15 significant digits and a decimal exponent within +-22 (7 in
 * the exponent, up to 15 from the point): exactly strtod's value. */
static void test_strtod_exact_range(void **state)
{
	uint64_t st = 0x2545f4914f6cdd1dull;
	char buf[64];

	(void)state;
	for (int i = 0; i < 300000; i++) {
		random_decimal(&st, buf, 15, 7);
		like_strtod(buf, 0);
	}
}

/* More digits and exponents up to the edges of the range: close. */
static void test_strtod_beyond(void **state)
{
	uint64_t st = 0x853c49e6748fea9bull;
	char buf[96];

	(void)state;
	for (int i = 0; i < 300000; i++) {
		random_decimal(&st, buf, 40, 290);
		like_strtod(buf, 1e-14);
	}
}

static void test_strtod_ends(void **state)
{
	static const char *const same[] = {
		"0", "-0", "1.5s", "  42x", "\t-7.25e2,", "1e", "1e+", "1E-x", ".5",
		"5.", "-.5e-1x", "00012.5000", "1.2.3", "+.e1", ".", "+", "-", "",
		"abc", "e5", "1e400", "1e-400", "123456789012345678901234567890",
		"0.000000000000000000000000000000000001234", "9007199254740993",
		"1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324e",
	};

	(void)state;
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
		like_strtod(same[i], 1e-15);
	like_strtod("0.1", 0);
	like_strtod("3.14159265358979", 0);
	like_strtod("1e22", 0);
	like_strtod("1e23", 0);
}

/* Where bb_strtod stops short of strtod, on purpose: no hex, inf or NaN. */
static void test_strtod_no_hex_inf_nan(void **state)
{
	char *end;

	(void)state;
	assert_true(bb_strtod("0x10", &end) == 0.0 && *end == 'x');
	assert_true(bb_strtod("inf", &end) == 0.0 && *end == 'i');
	assert_true(bb_strtod("-nan", &end) == 0.0 && *end == '-');
	assert_true(bb_strtod("12", NULL) == 12.0);
}

static void test_strtod_errno(void **state)
{
	(void)state;
	errno = 0;
	assert_true(bb_strtod("1e309", NULL) == HUGE_VAL && errno == ERANGE);
	errno = 0;
	assert_true(bb_strtod("-1e99999", NULL) == -HUGE_VAL && errno == ERANGE);
	errno = 0;
	assert_true(bb_strtod("1e-400", NULL) == 0.0 && errno == ERANGE);
	errno = 0;
	assert_true(bb_strtod("1e-310", NULL) < DBL_MIN && errno == ERANGE);
	errno = 0;
	assert_true(fabs(bb_strtod("1e308", NULL) - 1e308) <= 1e-15 * 1e308 && errno == 0);
	assert_true(bb_strtod("0e-99999", NULL) == 0.0 && errno == 0);
	assert_true(bb_strtod("2.2250738585072014e-308", NULL) == DBL_MIN && errno == 0);
}

static void test_scan_field(void **state)
{
	unsigned long long v = 7;

	(void)state;
	assert_int_equal(bb_scan_field("MemTotal:       16303640 kB\n", "MemTotal:", &v), 0);
	assert_true(v == 16303640);
	assert_int_equal(bb_scan_field("Hugepagesize:\t2048 kB", "Hugepagesize:", &v), 0);
	assert_true(v == 2048);
	assert_int_equal(bb_scan_field("MemAvailable:0", "MemAvailable:", &v), 0);
	assert_true(v == 0);
	assert_int_equal(bb_scan_field("X: 99999999999999999999999", "X:", &v), 0);
	assert_true(v == ULLONG_MAX);
	v = 7;
	assert_int_equal(bb_scan_field("MemTotal: x kB", "MemTotal:", &v), -1);
	assert_int_equal(bb_scan_field("MemTotal:", "MemTotal:", &v), -1);
	assert_int_equal(bb_scan_field("MemTotal: -5 kB", "MemTotal:", &v), -1);
	assert_int_equal(bb_scan_field("MemFree: 5 kB", "MemTotal:", &v), -1);
	assert_int_equal(bb_scan_field("memtotal: 5 kB", "MemTotal:", &v), -1);
	assert_int_equal(bb_scan_field("", "MemTotal:", &v), -1);
	assert_true(v == 7);
}

/* Parse a label into generous buffers; returns rc. */
static int label(const char *s, char *key, char *val)
{
	return bb_parse_label(s, key, 64, val, 256);
}

/* --fact NAME=mmio:ADDR[:WIDTH[:MASK]]: what follows "mmio:". */
static void test_mmio(void **state)
{
	static const char *const bad[] = {
		"", ":", "0x1000:", "0x1000::0xff", "x", "0x1002", "0x1001:16", "0x1004:64",
		"0x1000:12", "0x1000:0", "0x1000:128", "0x1000:8:0", "0x1000:8:0x100",
		"0x1000:32:0x1:1", "0x1000:32:zz", "-4", "0x1000 ", "18446744073709551616",
	};
	struct bb_mmio m;

	(void)state;
	assert_int_equal(bb_parse_mmio("0x3d400000", &m), 0);
	assert_true(m.addr == 0x3d400000 && m.width == 32 && m.mask == 0xffffffffu);
	assert_int_equal(bb_parse_mmio("4096:8", &m), 0);
	assert_true(m.addr == 4096 && m.width == 8 && m.mask == 0xff);
	assert_int_equal(bb_parse_mmio("0x1001:8:0x80", &m), 0);
	assert_true(m.addr == 0x1001 && m.width == 8 && m.mask == 0x80);
	assert_int_equal(bb_parse_mmio("0xfffffffffffffff8:64:0xffffffffffffffff", &m), 0);
	assert_true(m.width == 64 && m.mask == UINT64_MAX);
	assert_int_equal(bb_parse_mmio("0x1002:16:0x100", &m), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (bb_parse_mmio(bad[i], &m) != -1)
			fail_msg("accepted mmio:%s", bad[i]);
	assert_int_equal(bb_parse_mmio(NULL, &m), -1);
}

static void test_label_valid(void **state)
{
	char key[64], val[256];

	(void)state;
	assert_int_equal(label("PMU=0", key, val), 0);
	assert_string_equal(key, "PMU");
	assert_string_equal(val, "0");
	assert_int_equal(label("a=b=c", key, val), 0);
	assert_string_equal(key, "a");
	assert_string_equal(val, "b=c");
	assert_int_equal(label("k=", key, val), 0);
	assert_string_equal(key, "k");
	assert_string_equal(val, "");
	assert_int_equal(label("A_z.9-x=rev C, 400 MHz", key, val), 0);
	assert_string_equal(key, "A_z.9-x");
	assert_string_equal(val, "rev C, 400 MHz");
	assert_int_equal(label("board=caf\xc3\xa9", key, val), 0);
	assert_string_equal(val, "caf\xc3\xa9");
}

static void test_label_bad_key(void **state)
{
	static const char *const bad[] = {
		"PMU", "", "=v", "=", "bad key=v", "k/x=v", "k:x=v", "k\"=v",
		"k\xc3\xa9=v", "\tk=v", "k\n=v",
	};
	char key[64] = "untouched", val[256] = "untouched";

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(label(bad[i], key, val), -1);
	assert_int_equal(label(NULL, key, val), -1);
	assert_string_equal(key, "untouched");
	assert_string_equal(val, "untouched");
}

static void test_label_control_chars(void **state)
{
	char key[64], val[256], in[8];

	(void)state;
	for (int c = 1; c < 0x20; c++) {
		snprintf(in, sizeof in, "k=a%cb", c);
		assert_int_equal(label(in, key, val), -1);
	}
	assert_int_equal(label("k=\x7f", key, val), -1);
	assert_int_equal(label("k=a\x1b[31m", key, val), -1);
}

/* Fill buf with KEY=VALUE of the given lengths. */
static void make_label(char *buf, int klen, int vlen)
{
	memset(buf, 'k', (size_t)klen);
	buf[klen] = '=';
	memset(buf + klen + 1, 'v', (size_t)vlen);
	buf[klen + 1 + vlen] = '\0';
}

static void test_label_lengths(void **state)
{
	char in[400], key[64], val[256];

	(void)state;
	make_label(in, 63, 255);
	assert_int_equal(label(in, key, val), 0);
	assert_int_equal(strlen(key), 63);
	assert_int_equal(strlen(val), 255);
	make_label(in, 64, 1);
	assert_int_equal(label(in, key, val), -1);
	make_label(in, 1, 256);
	assert_int_equal(label(in, key, val), -1);
}

static void test_label_small_buffers(void **state)
{
	char key[4], val[4];

	(void)state;
	assert_int_equal(bb_parse_label("abc=xyz", key, 4, val, 4), 0);
	assert_string_equal(key, "abc");
	assert_string_equal(val, "xyz");
	assert_int_equal(bb_parse_label("abcd=x", key, 4, val, 4), -1);
	assert_int_equal(bb_parse_label("a=wxyz", key, 4, val, 4), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_decimal_ranges),
		cmocka_unit_test(test_u64_hex),
		cmocka_unit_test(test_u64_overflow),
		cmocka_unit_test(test_u64_junk),
		cmocka_unit_test(test_size_suffixes),
		cmocka_unit_test(test_size_long_forms),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_size_bad_suffix),
		cmocka_unit_test(test_double_valid),
		cmocka_unit_test(test_double_invalid),
		cmocka_unit_test(test_double_forms),
		cmocka_unit_test(test_double_refused),
		cmocka_unit_test(test_strtod_exact_range),
		cmocka_unit_test(test_strtod_beyond),
		cmocka_unit_test(test_strtod_ends),
		cmocka_unit_test(test_strtod_no_hex_inf_nan),
		cmocka_unit_test(test_strtod_errno),
		cmocka_unit_test(test_scan_field),
		cmocka_unit_test(test_mmio),
		cmocka_unit_test(test_label_valid),
		cmocka_unit_test(test_label_bad_key),
		cmocka_unit_test(test_label_control_chars),
		cmocka_unit_test(test_label_lengths),
		cmocka_unit_test(test_label_small_buffers),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
