/* test_mem.c - unit tests for the memory primitive kernels
 * (src/kernels/mem_*.c) and their checker (mem_check.c): the registry, the
 * byte-sum reference, every supported variant of every operation through
 * the checker, and - to prove the checker can fail - deliberately broken
 * variants compiled only into this test: a dropped last byte, a write past
 * the end and before the start, an over-read into the guard page, a wrong
 * return value, memset without the unsigned char conversion, a byte sum
 * that overflows, a half-cleared page and a copy_page that writes its
 * source.  Each must be caught with the right reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/mem.h"
#include "kernels/mem_check.h"

/* ---- the registry and the reference ---- */

static void test_registry(void **state)
{
	static const char *const always[] = { "libc", "bytes", "words" };

	(void)state;
	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++) {
		const struct mem_variant *v = mem_variant_find(always[i]);
		assert_non_null(v);
		assert_true(v->supported());
		assert_non_null(v->copy);
		assert_non_null(v->set);
		assert_non_null(v->copy_page);
		assert_non_null(v->clear_page);
	}
	assert_null(mem_variant_find("no-such-variant"));
	for (size_t i = 0; i < mem_nvariants; i++) {
		int ops = 0;
		for (int op = 0; op < MEM_NOPS; op++)
			ops += mem_variant_has(&mem_variants[i], (enum mem_op)op);
		assert_true(ops > 0);
		for (size_t j = i + 1; j < mem_nvariants; j++)
			assert_string_not_equal(mem_variants[i].name, mem_variants[j].name);
		assert_ptr_equal(mem_variant_find(mem_variants[i].name), &mem_variants[i]);
	}
}

static void test_op_names(void **state)
{
	(void)state;
	for (int op = 0; op < MEM_NOPS; op++)
		assert_int_equal(mem_op_parse(mem_op_name((enum mem_op)op)), op);
	assert_int_equal(mem_op_parse("memmove"), -1);
	assert_int_equal(mem_op_parse(""), -1);
}

static void test_ref_sum(void **state)
{
	enum { N = 100000 };
	unsigned char *buf = malloc(N);
	static const unsigned char small[] = { 1, 2, 3, 250 };

	(void)state;
	assert_non_null(buf);
	memset(buf, 0xff, N);
	assert_true(mem_ref_sum(buf, N) == 255ull * N);
	assert_true(mem_ref_sum(small, 4) == 256);
	assert_true(mem_ref_sum(small, 0) == 0);
	/* the SWAR words sum must survive long runs of 0xff bytes */
	assert_true(mem_variant_find("words")->read(buf + 1, N - 1) == 255ull * (N - 1));
	free(buf);
}

/* The Geode report's 3dnow row: in every x86 build, with memcpy,
 * copy_page and clear_page; 32-bit code, so never supported on x86-64; on
 * i386 test_every_variant_passes checks it wherever CPUID allows. */
static void test_3dnow_row(void **state)
{
	(void)state;
#if defined(__x86_64__) || defined(__i386__)
	const struct mem_variant *v = mem_variant_find("3dnow");

	assert_non_null(v);
	assert_true(mem_variant_has(v, MEM_MEMCPY));
	assert_false(mem_variant_has(v, MEM_MEMSET));
	assert_true(mem_variant_has(v, MEM_COPY_PAGE));
	assert_true(mem_variant_has(v, MEM_CLEAR_PAGE));
	assert_false(mem_variant_has(v, MEM_READ));
#if defined(__x86_64__)
	assert_false(v->supported());
#endif
#else
	assert_null(mem_variant_find("3dnow"));
#endif
}

/* ---- every supported variant passes the checker ---- */

static void test_every_variant_passes(void **state)
{
	struct mem_check res;

	(void)state;
	for (size_t i = 0; i < mem_nvariants; i++) {
		const struct mem_variant *v = &mem_variants[i];
		if (!v->supported())
			continue;
		for (int op = 0; op < MEM_NOPS; op++) {
			if (!mem_variant_has(v, (enum mem_op)op))
				continue;
			long fl = mem_check_op(v, (enum mem_op)op, &res);
			if (fl != 0)
				fail_msg("%s %s: %s", v->name, mem_op_name((enum mem_op)op),
					 res.first);
			if (op == MEM_COPY_PAGE || op == MEM_CLEAR_PAGE)
				assert_true(res.checks >= 9);   /* 3 x 3 page layouts */
			else
				assert_true(res.checks > MEM_CHECK_MAX_SIZE);   /* every size */
		}
	}
}

/* ---- broken variants, compiled only into this test ---- */

static int yes(void)
{
	return 1;
}

static void *copy_drops_last(void *restrict dst, const void *restrict src, size_t n)
{
	return memcpy(dst, src, n % 64 == 37 ? n - 1 : n);
}

static void *copy_writes_past_end(void *restrict dst, const void *restrict src, size_t n)
{
	memcpy(dst, src, n);
	if (n == 100)
		((unsigned char *)dst)[n] = 0;
	return dst;
}

static void *copy_writes_before_start(void *restrict dst, const void *restrict src, size_t n)
{
	memcpy(dst, src, n);
	if (n == 200 && ((uintptr_t)dst & 63) == 5)
		((unsigned char *)dst)[-1] = 0;
	return dst;
}

static void *copy_over_reads(void *restrict dst, const void *restrict src, size_t n)
{
	const volatile unsigned char *s = src;

	memcpy(dst, src, n);
	(void)s[n];   /* one byte too far: the guard page after the source */
	return dst;
}

static void *copy_returns_null(void *restrict dst, const void *restrict src, size_t n)
{
	memcpy(dst, src, n);
	return n == 1000 ? NULL : dst;
}

static void *set_without_uchar(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = (unsigned char)(c & 0x7f);   /* wrong for c >= 128 and c < 0 */
	return dst;
}

static uint64_t read_overflows(const void *src, size_t n)
{
	const unsigned char *s = src;
	uint16_t sum = 0;   /* too narrow for long runs of 0xff */

	for (size_t i = 0; i < n; i++)
		sum = (uint16_t)(sum + s[i]);
	return sum;
}

static void clear_half_page(void *dst)
{
	memset(dst, 0, MEM_PAGE / 2);
}

static void copy_page_writes_source(void *restrict dst, const void *restrict src)
{
	memcpy(dst, src, MEM_PAGE);
	*(volatile unsigned char *)(uintptr_t)src = 0;   /* the source is read-only */
}

/* Checks one broken function and expects a failure whose text has why. */
static void expect_caught(const struct mem_variant *v, enum mem_op op, const char *why)
{
	struct mem_check res;
	long fl = mem_check_op(v, op, &res);

	if (fl <= 0 || !strstr(res.first, why))
		fail_msg("%s: %ld failures, first '%s'; wanted '%s'", v->name, fl, res.first, why);
}

#define BROKEN(name, field, fn) \
	{ name, "deliberately broken", yes, .field = fn }

static void test_dropped_byte_caught(void **state)
{
	static const struct mem_variant v = BROKEN("drops-last", copy, copy_drops_last);
	(void)state;
	expect_caught(&v, MEM_MEMCPY, "n=37 src+");
	expect_caught(&v, MEM_MEMCPY, "differs from the source");
}

static void test_write_past_end_caught(void **state)
{
	static const struct mem_variant v = BROKEN("past-end", copy, copy_writes_past_end);
	struct mem_check res;

	(void)state;
	expect_caught(&v, MEM_MEMCPY, "n=100 src+");
	expect_caught(&v, MEM_MEMCPY, "guard byte after the destination");
	/* at the guard page, the same write faults, and the check survives it */
	assert_true(mem_check_op(&v, MEM_MEMCPY, &res) >= 2);
}

static void test_write_before_start_caught(void **state)
{
	static const struct mem_variant v = BROKEN("before", copy, copy_writes_before_start);
	(void)state;
	expect_caught(&v, MEM_MEMCPY, "guard byte before the destination");
}

static void test_over_read_caught(void **state)
{
	static const struct mem_variant v = BROKEN("over-read", copy, copy_over_reads);
	(void)state;
	expect_caught(&v, MEM_MEMCPY, "fault");
	expect_caught(&v, MEM_MEMCPY, "ending at a guard page");
}

static void test_return_value_caught(void **state)
{
	static const struct mem_variant v = BROKEN("null", copy, copy_returns_null);
	(void)state;
	expect_caught(&v, MEM_MEMCPY, "did not return the destination");
}

static void test_memset_conversion_caught(void **state)
{
	static const struct mem_variant v = BROKEN("no-uchar", set, set_without_uchar);
	(void)state;
	expect_caught(&v, MEM_MEMSET, "not (unsigned char)c");
}

static void test_read_overflow_caught(void **state)
{
	static const struct mem_variant v = BROKEN("overflow", read, read_overflows);
	(void)state;
	expect_caught(&v, MEM_READ, "sum differs");
}

static void test_half_clear_caught(void **state)
{
	static const struct mem_variant v = BROKEN("half", clear_page, clear_half_page);
	(void)state;
	expect_caught(&v, MEM_CLEAR_PAGE, "not all zero");
}

static void test_source_write_caught(void **state)
{
	static const struct mem_variant v =
		BROKEN("writes-src", copy_page, copy_page_writes_source);
	(void)state;
	expect_caught(&v, MEM_COPY_PAGE, "fault");
}

#if defined(__i386__) || defined(__x86_64__)
/* An MMX copy that forgets emms: the x87 stack is left full. */
__attribute__((target("mmx"))) static void clear_page_no_emms(void *dst)
{
	memset(dst, 0, MEM_PAGE);
	__asm__ __volatile__("pxor %%mm0, %%mm0" : : : "mm0");
}

static void test_missing_emms_caught(void **state)
{
	static const struct mem_variant v = BROKEN("no-emms", clear_page, clear_page_no_emms);
	(void)state;
	expect_caught(&v, MEM_CLEAR_PAGE, "no emms or femms");
	__asm__ __volatile__("emms");
}
#endif

/* After the faults above, the normal variants still check clean. */
static void test_checker_recovers(void **state)
{
	struct mem_check res;

	(void)state;
	assert_int_equal(mem_check_op(mem_variant_find("words"), MEM_MEMCPY, &res), 0);
	assert_string_equal(res.first, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_op_names),
		cmocka_unit_test(test_ref_sum),
		cmocka_unit_test(test_3dnow_row),
		cmocka_unit_test(test_every_variant_passes),
		cmocka_unit_test(test_dropped_byte_caught),
		cmocka_unit_test(test_write_past_end_caught),
		cmocka_unit_test(test_write_before_start_caught),
		cmocka_unit_test(test_over_read_caught),
		cmocka_unit_test(test_return_value_caught),
		cmocka_unit_test(test_memset_conversion_caught),
		cmocka_unit_test(test_read_overflow_caught),
		cmocka_unit_test(test_half_clear_caught),
		cmocka_unit_test(test_source_write_caught),
#if defined(__i386__) || defined(__x86_64__)
		cmocka_unit_test(test_missing_emms_caught),
#endif
		cmocka_unit_test(test_checker_recovers),
	};

	return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
