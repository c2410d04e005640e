/* test_x86_cpu.c - the variants' own CPU feature check (kernels/x86_cpu.c)
 * says what gcc's __builtin_cpu_supports says, feature by feature, on
 * whatever x86 CPU runs the test; and what x86-64 guarantees holds.  Built
 * for x86 targets only (the Makefile leaves it out elsewhere). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernels/x86_cpu.h"

static void test_agrees_with_gcc(void **state)
{
	(void)state;
	__builtin_cpu_init();
	assert_int_equal(x86_has(X86_MMX), !!__builtin_cpu_supports("mmx"));
	assert_int_equal(x86_has(X86_SSE), !!__builtin_cpu_supports("sse"));
	assert_int_equal(x86_has(X86_SSE2), !!__builtin_cpu_supports("sse2"));
	assert_int_equal(x86_has(X86_AVX), !!__builtin_cpu_supports("avx"));
	assert_int_equal(x86_has(X86_AVX2), !!__builtin_cpu_supports("avx2"));
	assert_int_equal(x86_has(X86_AVX512F), !!__builtin_cpu_supports("avx512f"));
	assert_int_equal(x86_has(X86_AVX512BW), !!__builtin_cpu_supports("avx512bw"));
}

/* Wider implies narrower: a kernel that saves AVX-512 state saves AVX's. */
static void test_implications(void **state)
{
	(void)state;
	if (x86_has(X86_AVX2) || x86_has(X86_AVX512F))
		assert_true(x86_has(X86_AVX));
	if (x86_has(X86_AVX))
		assert_true(x86_has(X86_SSE2));
	if (x86_has(X86_SSE2))
		assert_true(x86_has(X86_SSE) && x86_has(X86_MMX));
	if (x86_has(X86_3DNOW))
		assert_true(x86_has(X86_3DNOWPREFETCH));
#if defined(__x86_64__)
	assert_true(x86_has(X86_SSE2));   /* part of the x86-64 baseline */
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees_with_gcc),
		cmocka_unit_test(test_implications),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
