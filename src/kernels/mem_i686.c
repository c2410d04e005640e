/* mem_i686.c - MMX memory primitives for i686 builds, the Geode/Athlon
 * class of the seed report: `mmx` moves 64 bytes a step through mm0-mm3
 * with movq and prefetches ahead with 3DNow! `prefetch` (the shape of the
 * kernel's mmx_32.c memcpy and page functions); `mmx-nt` clears and copies
 * pages with non-temporal movntq stores and an sfence.
 *
 * CPUID decides at run time: MMX, plus 3DNow! or 3DNowPrefetch for the
 * prefetch, plus SSE or AMD's MMX extensions for movntq and sfence.
 */
#if defined(__i386__)
#include "mem.h"

#include <cpuid.h>

MEM_DECLARE(mem_mmx, 1, 0, 1, 1, 0)
MEM_DECLARE(mem_mmxnt, 0, 0, 1, 1, 0)

MEM_KERNELS_BEGIN

#define MMX_STEP 64
#define PREFETCH_AHEAD "320"   /* bytes: five steps ahead, as the kernel did */

struct x86_features {
	int mmx, sse, mmxext, prefetch3dnow;
};

static struct x86_features features(void)
{
	struct x86_features f = { 0, 0, 0, 0 };
	unsigned a, b, c, d;

	if (__get_cpuid(1, &a, &b, &c, &d)) {
		f.mmx = (d >> 23) & 1;
		f.sse = (d >> 25) & 1;
	}
	if (__get_cpuid(0x80000001, &a, &b, &c, &d)) {
		f.mmxext = (d >> 22) & 1;
		/* 3DNow! (EDX 31) or 3DNowPrefetch / PREFETCHW (ECX 8) */
		f.prefetch3dnow = ((d >> 31) & 1) | ((c >> 8) & 1);
	}
	return f;
}

int mem_mmx_supported(void)
{
	struct x86_features f = features();
	return f.mmx && f.prefetch3dnow;
}

int mem_mmxnt_supported(void)
{
	struct x86_features f = features();
	return f.mmx && f.prefetch3dnow && (f.sse || f.mmxext);
}

/* One 64-byte step: prefetch ahead, four movq loads and stores, twice.
 * A prefetch never faults, even beyond the end of the buffer. */
__attribute__((target("mmx"))) static inline void mmx_step(unsigned char *d, const unsigned char *s)
{
	__asm__ __volatile__(
		"prefetch " PREFETCH_AHEAD "(%1)\n\t"
		"movq (%1), %%mm0\n\tmovq 8(%1), %%mm1\n\t"
		"movq 16(%1), %%mm2\n\tmovq 24(%1), %%mm3\n\t"
		"movq %%mm0, (%0)\n\tmovq %%mm1, 8(%0)\n\t"
		"movq %%mm2, 16(%0)\n\tmovq %%mm3, 24(%0)\n\t"
		"movq 32(%1), %%mm0\n\tmovq 40(%1), %%mm1\n\t"
		"movq 48(%1), %%mm2\n\tmovq 56(%1), %%mm3\n\t"
		"movq %%mm0, 32(%0)\n\tmovq %%mm1, 40(%0)\n\t"
		"movq %%mm2, 48(%0)\n\tmovq %%mm3, 56(%0)"
		: : "r"(d), "r"(s) : "memory", "mm0", "mm1", "mm2", "mm3");
}

__attribute__((target("mmx"))) static inline void mmx_nt_step(unsigned char *d,
							       const unsigned char *s)
{
	__asm__ __volatile__(
		"prefetch " PREFETCH_AHEAD "(%1)\n\t"
		"movq (%1), %%mm0\n\tmovq 8(%1), %%mm1\n\t"
		"movq 16(%1), %%mm2\n\tmovq 24(%1), %%mm3\n\t"
		"movntq %%mm0, (%0)\n\tmovntq %%mm1, 8(%0)\n\t"
		"movntq %%mm2, 16(%0)\n\tmovntq %%mm3, 24(%0)\n\t"
		"movq 32(%1), %%mm0\n\tmovq 40(%1), %%mm1\n\t"
		"movq 48(%1), %%mm2\n\tmovq 56(%1), %%mm3\n\t"
		"movntq %%mm0, 32(%0)\n\tmovntq %%mm1, 40(%0)\n\t"
		"movntq %%mm2, 48(%0)\n\tmovntq %%mm3, 56(%0)"
		: : "r"(d), "r"(s) : "memory", "mm0", "mm1", "mm2", "mm3");
}

__attribute__((target("mmx"))) static inline void mmx_end(void)
{
	__asm__ __volatile__("emms" : : : "memory");
}

__attribute__((target("mmx"))) void *mem_mmx_memcpy(void *restrict dst, const void *restrict src,
						    size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= MMX_STEP) {
		for (; n >= MMX_STEP; n -= MMX_STEP, d += MMX_STEP, s += MMX_STEP)
			mmx_step(d, s);
		mmx_end();
	}
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");   /* tail */
	return dst;
}

__attribute__((target("mmx"))) void mem_mmx_copy_page(void *restrict dst,
						      const void *restrict src)
{
	for (size_t i = 0; i < MEM_PAGE; i += MMX_STEP)
		mmx_step((unsigned char *)dst + i, (const unsigned char *)src + i);
	mmx_end();
}

__attribute__((target("mmx"))) void mem_mmx_clear_page(void *dst)
{
	unsigned char *d = dst;

	for (size_t i = 0; i < MEM_PAGE; i += MMX_STEP)
		__asm__ __volatile__(
			"pxor %%mm0, %%mm0\n\t"
			"movq %%mm0, (%0)\n\tmovq %%mm0, 8(%0)\n\t"
			"movq %%mm0, 16(%0)\n\tmovq %%mm0, 24(%0)\n\t"
			"movq %%mm0, 32(%0)\n\tmovq %%mm0, 40(%0)\n\t"
			"movq %%mm0, 48(%0)\n\tmovq %%mm0, 56(%0)"
			: : "r"(d + i) : "memory", "mm0");
	mmx_end();
}

__attribute__((target("mmx"))) void mem_mmxnt_copy_page(void *restrict dst,
							const void *restrict src)
{
	for (size_t i = 0; i < MEM_PAGE; i += MMX_STEP)
		mmx_nt_step((unsigned char *)dst + i, (const unsigned char *)src + i);
	__asm__ __volatile__("sfence" : : : "memory");
	mmx_end();
}

__attribute__((target("mmx"))) void mem_mmxnt_clear_page(void *dst)
{
	unsigned char *d = dst;

	for (size_t i = 0; i < MEM_PAGE; i += MMX_STEP)
		__asm__ __volatile__(
			"pxor %%mm0, %%mm0\n\t"
			"movntq %%mm0, (%0)\n\tmovntq %%mm0, 8(%0)\n\t"
			"movntq %%mm0, 16(%0)\n\tmovntq %%mm0, 24(%0)\n\t"
			"movntq %%mm0, 32(%0)\n\tmovntq %%mm0, 40(%0)\n\t"
			"movntq %%mm0, 48(%0)\n\tmovntq %%mm0, 56(%0)"
			: : "r"(d + i) : "memory", "mm0");
	__asm__ __volatile__("sfence" : : : "memory");
	mmx_end();
}

MEM_KERNELS_END

#else
typedef int mem_i686_unused;   /* ISO C forbids an empty translation unit */
#endif
