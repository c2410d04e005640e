/* test_csum.c - unit tests for the checksum kernels (src/kernels/csum_*.c):
 * the reference and fold against known answers, the registries, every
 * supported variant through the checker, and - to prove the checker can
 * fail - deliberately broken variants compiled only into this test: a
 * dropped end-around carry, a missing byte swap for odd starts, a tail
 * over-read, a read of the byte before an odd start, a "negative zero",
 * an accumulator that overflows on big buffers, and broken ip_fast_csum
 * and csum-and-copy routines.  Each must be caught, by the right family. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/csum.h"
#include "kernels/csum_impl.h"

/* Shorter lengths than selftest's 4100 keep the sanitizer build quick;
 * the broken variants below fail well inside them. */
static const struct csum_check_opts quick = { 1100, 1 };

/* ---- known answers and helpers ---- */

static void test_reference_known_answers(void **state)
{
	static const unsigned char rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	static const unsigned char ip[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
	};
	static const unsigned char zeros[9], one = 0xab;

	(void)state;
	assert_int_equal(csum_fold(csum_reference(rfc, 8, 0)), 0xddf2);
	assert_int_equal(csum_fold(csum_reference(ip, 20, 0)), 0xffff);
	assert_int_equal(csum_fold(csum_reference(zeros, 9, 0)), 0);
	assert_int_equal(csum_fold(csum_reference(&one, 1, 0)), 0xab00);   /* odd byte is high */
	assert_int_equal(csum_fold(csum_reference(zeros, 0, 0xffffffffu)), 0xffff);
}

static void test_fold(void **state)
{
	(void)state;
	assert_int_equal(csum_fold(0), 0);
	assert_int_equal(csum_fold(0xffff), 0xffff);
	assert_int_equal(csum_fold(0x10000), 1);
	assert_int_equal(csum_fold(0x1fffe), 0xffff);
	assert_int_equal(csum_fold(0xffffffffu), 0xffff);
	assert_int_equal(csum_fold(0xffff0000u), 0xffff);
}

/* Rotating a partial sum by 8 bits is a byte swap modulo 0xffff. */
static void test_rot8_is_a_swap(void **state)
{
	static const uint32_t x[] = { 1, 0x1234, 0xff00, 0xdeadbeef, 0xffffffff, 0x80000000 };

	(void)state;
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
		uint16_t f = csum_fold(x[i]);
		assert_int_equal(csum_fold(csum_rot8(x[i])), (uint16_t)((f << 8) | (f >> 8)));
	}
	assert_int_equal(csum_rot8(0), 0);
}

/* ---- registries ---- */

static void test_registry(void **state)
{
	const char *names[96];
	size_t n = 0;

	(void)state;
	assert_true(csum_nvariants >= 4);
	assert_string_equal(csum_variants[0].name, "ref16");
	assert_non_null(csum_variant_find("generic32"));
	assert_non_null(csum_variant_find("unrolled32"));
	assert_non_null(csum_variant_find("c64"));
	assert_null(csum_variant_find("nosuch"));
	assert_non_null(csum_ip_variant_find("ip-generic"));
	assert_non_null(csum_copy_variant_find("copy-c64"));
	for (size_t i = 0; i < csum_nvariants; i++)
		names[n++] = csum_variants[i].name;
	for (size_t i = 0; i < csum_ip_nvariants; i++)
		names[n++] = csum_ip_variants[i].name;
	for (size_t i = 0; i < csum_copy_nvariants; i++)
		names[n++] = csum_copy_variants[i].name;
	for (size_t i = 0; i < n; i++)   /* one namespace for --variant */
		for (size_t j = i + 1; j < n; j++)
			assert_string_not_equal(names[i], names[j]);
}

/* The Geode report's i386 shapes: rows of every x86 build, run by 32-bit
 * ones (plain i386 code: every CPU), never by x86-64 ones. */
static void test_i386_rows(void **state)
{
	static const char *const names[] = { "i386-generic", "i386-ppro" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		const struct csum_variant *v = csum_variant_find(names[i]);
#if defined(__i386__)
		assert_non_null(v);
		assert_true(v->supported());
#elif defined(__x86_64__)
		assert_non_null(v);
		assert_false(v->supported());
#else
		assert_null(v);
#endif
	}
}

/* ---- every real variant passes ---- */

static void test_sum_variants_pass(void **state)
{
	(void)state;
	for (size_t i = 0; i < csum_nvariants; i++) {
		const struct csum_variant *v = &csum_variants[i];
		long checks = 0;
		if (!v->supported())
			continue;
		assert_int_equal(csum_check_variant(v->name, v->fn, &quick, stderr, &checks), 0);
		assert_true(checks > 100000);
	}
}

static void test_ip_and_copy_variants_pass(void **state)
{
	(void)state;
	for (size_t i = 0; i < csum_ip_nvariants; i++)
		if (csum_ip_variants[i].supported())
			assert_int_equal(csum_check_ip(csum_ip_variants[i].name, csum_ip_variants[i].fn,
						       stderr, NULL), 0);
	for (size_t i = 0; i < csum_copy_nvariants; i++)
		if (csum_copy_variants[i].supported())
			assert_int_equal(csum_check_copy(csum_copy_variants[i].name,
							 csum_copy_variants[i].fn, &quick, stderr,
							 NULL), 0);
}

/* The API's promises, stated directly: odd addresses change nothing, and
 * a partial sum seeds the next call at an even split. */
static void test_api_promises(void **state)
{
	_Alignas(16) unsigned char buf[301];

	(void)state;
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 37 + 11);
	for (size_t i = 0; i < csum_nvariants; i++) {
		csum_fn fn = csum_variants[i].fn;
		if (!csum_variants[i].supported())
			continue;
		uint16_t whole = csum_fold(fn(buf, 300, 7));
		assert_int_equal(whole, csum_fold(fn(buf + 100, 200, fn(buf, 100, 7))));
		memmove(buf + 1, buf, 300);
		assert_int_equal(whole, csum_fold(fn(buf + 1, 300, 7)));
		memmove(buf, buf + 1, 300);
	}
}

/* ---- deliberately broken variants: the checker must catch each ---- */

/* Correct network-order sum of the data plus seed, as a 64-bit integer. */
static uint64_t plain_sum(const unsigned char *p, size_t len, uint32_t seed)
{
	uint64_t s = seed;
	for (size_t i = 0; i < len; i++)
		s += (i & 1) ? p[i] : (uint64_t)p[i] << 8;
	return s;
}

/* Folds without adding the carries back: a dropped end-around carry. */
static uint32_t broken_no_carry(const void *buf, size_t len, uint32_t seed)
{
	uint64_t s = plain_sum(buf, len, seed);
	uint32_t x = (uint32_t)(s & 0xffff) + (uint32_t)((s >> 16) & 0xffff) +
		     (uint32_t)(s >> 32);
	return x & 0xffff;
}

/* generic32's shape with the final byte swap for odd starts forgotten. */
static uint32_t broken_odd_swap(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint64_t sum = csum_native_seed(seed, odd);

	if (odd && len) {
		sum += csum_byte_second(*p);
		p++;
		len--;
	}
	sum = csum_add64(sum, csum_native_tail(p, len));
	return csum_native_result(csum_fold64(sum), 0);   /* bug: 0, not odd */
}

/* Reads the tail a whole 8-byte word at a time and masks the extra bytes:
 * the right answer, but it reads past the end of the buffer. */
static uint32_t broken_overread(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t s = seed;

	for (size_t i = 0; i < len; i += 8) {
		unsigned char w[8];
		memcpy(w, p + i, 8);
		for (size_t k = 0; k < 8 && i + k < len; k++)
			s += ((i + k) & 1) ? w[k] : (uint64_t)w[k] << 8;
	}
	return csum_fold64(s);
}

/* For an odd start, adds the byte before the buffer too (an aligned-down
 * first load whose mask is wrong). */
static uint32_t broken_underread(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t s = plain_sum(p, len, seed);

	if (((uintptr_t)p & 1) && len)
		s += p[-1];
	return csum_fold64(s);
}

/* Gives 0xffff for all-zero data ("negative zero"). */
static uint32_t broken_negative_zero(const void *buf, size_t len, uint32_t seed)
{
	uint32_t s = csum_fold64(plain_sum(buf, len, seed));
	return s ? s : 0xffff;
}

/* A 32-bit accumulator that is never folded inside the loop: exact up to
 * 128 KiB, wraps on bigger buffers of 0xFF. */
static uint32_t broken_overflow(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint32_t s = csum_fold(seed);
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (i < len)
		s += (uint32_t)p[i] << 8;
	return s;
}

/* Runs the checker on a broken variant; returns what it printed. */
static char *check_broken(const char *name, csum_fn fn, long *failed)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*failed = csum_check_variant(name, fn, &quick, f, NULL);
	fclose(f);
	return text;
}

static void expect_caught(const char *name, csum_fn fn, const char *needle)
{
	long failed;
	char *text = check_broken(name, fn, &failed);

	if (failed == 0 || !strstr(text, needle))
		fail_msg("%s: %ld failures, wanted one mentioning '%s'; got:\n%s", name, failed,
			 needle, text);
	free(text);
}

static void test_catches_dropped_carry(void **state)
{
	(void)state;
	expect_caught("no-carry", broken_no_carry, "all 0xFF");
	expect_caught("no-carry", broken_no_carry, "all 0x04");
}

static void test_catches_missing_odd_swap(void **state)
{
	(void)state;
	expect_caught("odd-swap", broken_odd_swap, "offset=1");
	expect_caught("odd-swap", broken_odd_swap, "RFC 1071 example");
}

static void test_catches_overread(void **state)
{
	(void)state;
	expect_caught("over-read", broken_overread, "read outside the buffer");
}

static void test_catches_underread(void **state)
{
	(void)state;
	expect_caught("under-read", broken_underread, "offset=1");
}

static void test_catches_negative_zero(void **state)
{
	(void)state;
	expect_caught("negative-zero", broken_negative_zero, "all zero");
}

static void test_catches_overflow(void **state)
{
	(void)state;
	expect_caught("overflow", broken_overflow, "big buffer of 0xFF");
}

/* ip_fast_csum that forgets the last word, and csum-and-copy routines that
 * copy one byte short or write one byte too many. */
static uint16_t broken_ip_short(const void *iph, unsigned ihl)
{
	return (uint16_t)~csum_fold(csum_reference(iph, 4 * ihl - 4, 0));
}

static uint32_t broken_copy_short(void *dst, const void *src, size_t len, uint32_t seed)
{
	if (len)
		memcpy(dst, src, len - 1);
	return csum_reference(src, len, seed);
}

static uint32_t broken_copy_long(void *dst, const void *src, size_t len, uint32_t seed)
{
	memcpy(dst, src, len);
	((unsigned char *)dst)[len] = 0;
	return csum_reference(src, len, seed);
}

static void test_catches_broken_ip_and_copy(void **state)
{
	(void)state;
	assert_true(csum_check_ip("ip-short", broken_ip_short, NULL, NULL) > 0);
	assert_true(csum_check_copy("copy-short", broken_copy_short, &quick, NULL, NULL) > 0);
	assert_true(csum_check_copy("copy-long", broken_copy_long, &quick, NULL, NULL) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_known_answers),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_rot8_is_a_swap),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_i386_rows),
		cmocka_unit_test(test_sum_variants_pass),
		cmocka_unit_test(test_ip_and_copy_variants_pass),
		cmocka_unit_test(test_api_promises),
		cmocka_unit_test(test_catches_dropped_carry),
		cmocka_unit_test(test_catches_missing_odd_swap),
		cmocka_unit_test(test_catches_overread),
		cmocka_unit_test(test_catches_underread),
		cmocka_unit_test(test_catches_negative_zero),
		cmocka_unit_test(test_catches_overflow),
		cmocka_unit_test(test_catches_broken_ip_and_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
