/* mem_i686.c - MMX memory primitives for 32-bit x86 builds, the
 * Geode/Athlon class of the classic report:
 *
 *   mmx     64 bytes a step through mm0-mm3 with movq, prefetching ahead
 *           with 3DNow! `prefetch` (the shape of the kernel's mmx_32.c)
 *   mmx-nt  pages cleared and copied with non-temporal movntq and sfence
 *   3dnow   the report's "w/ 3DNOW" column, in the shape a kernel built with
 *           CONFIG_X86_USE_3DNOW for a CPU without K7 streaming stores
 *           (Geode GX/LX, K6-2/III) gave memcpy, copy_page and clear_page:
 *           - memcpy: below 512 bytes the plain copy (rep movsl, then movsb
 *             for the tail: the `movsl` row, the report's "No 3DNOW"
 *             column); from 512 bytes, 64-byte MMX blocks, the first five
 *             blocks prefetched before the loop and each later one 320
 *             bytes (five blocks) ahead, so no prefetch reaches past the
 *             source; the n % 64 bytes left go through the plain copy;
 *           - copy_page: the same block loop over the 4096 bytes;
 *           - clear_page: mm0 zeroed once, then sixteen movq stores (128
 *             bytes) a step.
 *
 * The MMX registers alias the x87 stack: every MMX run ends with femms
 * (3DNow!'s fast form) where CPUID reports 3DNow!, else with emms (a CPU
 * with only 3DNowPrefetch need not know femms), so the x87 code after it
 * (the timing's doubles) finds an empty stack.
 *
 * CPUID decides at run time: MMX, plus 3DNow! or 3DNowPrefetch for the
 * prefetch, plus SSE or AMD's MMX extensions for movntq and sfence.  An
 * x86-64 build lists `3dnow` too, as unsupported: the report's variants
 * are 32-bit code, measured on 32-bit builds only.
 */
#if defined(__i386__)
#include "mem.h"
#include "x86_cpu.h"

#include <stdatomic.h>

MEM_DECLARE(mem_mmx, 1, 0, 1, 1, 0)
MEM_DECLARE(mem_mmxnt, 0, 0, 1, 1, 0)
MEM_DECLARE(mem_mmx3dnow, 1, 0, 1, 1, 0)
MEM_DECLARE(mem_movsq, 1, 1, 1, 1, 0)   /* the plain copy: mem_x86.c */

MEM_KERNELS_BEGIN

#define MMX_STEP 64
#define PREFETCH_AHEAD "320"   /* bytes: five steps ahead, as the kernel did */

/* MMX, and 3DNow! or 3DNowPrefetch for the prefetch. */
static int mmx_prefetch(void)
{
	return x86_has(X86_MMX) && x86_has(X86_3DNOWPREFETCH);
}

int mem_mmx_supported(void)
{
	return mmx_prefetch();
}

int mem_mmxnt_supported(void)
{
	return mmx_prefetch() && (x86_has(X86_SSE) || x86_has(X86_MMXEXT));
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

/* ---- 3dnow: the kernel's shapes, as the Geode report measured them ---- */

#define ESCAPE_BELOW 512   /* bytes: the plain copy below this */
#define AHEAD_BLOCKS 5     /* prefetch distance in 64-byte blocks (320 bytes) */
#define CLEAR_STEP 128

/* How an MMX run ends: 0 not yet known, 1 emms, 2 femms. */
static _Atomic int mmx_exit;

int mem_mmx3dnow_supported(void)
{
	atomic_store_explicit(&mmx_exit, x86_has(X86_3DNOW) ? 2 : 1, memory_order_relaxed);
	return mmx_prefetch();
}

__attribute__((target("mmx"), always_inline)) static inline void mmx3dnow_end(void)
{
	int how = atomic_load_explicit(&mmx_exit, memory_order_relaxed);

	if (!how) {
		how = x86_has(X86_3DNOW) ? 2 : 1;
		atomic_store_explicit(&mmx_exit, how, memory_order_relaxed);
	}
	if (how == 2)
		__asm__ __volatile__("femms" : : : "memory");
	else
		__asm__ __volatile__("emms" : : : "memory");
}

#define MOVE_BLOCK                                                    \
	"movq (%1), %%mm0\n\tmovq 8(%1), %%mm1\n\t"                    \
	"movq 16(%1), %%mm2\n\tmovq 24(%1), %%mm3\n\t"                 \
	"movq %%mm0, (%0)\n\tmovq %%mm1, 8(%0)\n\t"                    \
	"movq %%mm2, 16(%0)\n\tmovq %%mm3, 24(%0)\n\t"                 \
	"movq 32(%1), %%mm0\n\tmovq 40(%1), %%mm1\n\t"                 \
	"movq 48(%1), %%mm2\n\tmovq 56(%1), %%mm3\n\t"                 \
	"movq %%mm0, 32(%0)\n\tmovq %%mm1, 40(%0)\n\t"                 \
	"movq %%mm2, 48(%0)\n\tmovq %%mm3, 56(%0)"

/* nblocks >= AHEAD_BLOCKS blocks of 64 bytes: the first AHEAD_BLOCKS
 * prefetched up front, then each block moved with the one AHEAD_BLOCKS
 * further on prefetched, the last AHEAD_BLOCKS with no prefetch; the MMX
 * run is ended. */
__attribute__((target("mmx"), always_inline)) static inline void
mmx3dnow_blocks(unsigned char *d, const unsigned char *s, size_t nblocks)
{
	__asm__ __volatile__("prefetch (%0)\n\tprefetch 64(%0)\n\tprefetch 128(%0)\n\t"
			     "prefetch 192(%0)\n\tprefetch 256(%0)"
			     : : "r"(s) : "memory");
	for (; nblocks > AHEAD_BLOCKS; nblocks--, d += MMX_STEP, s += MMX_STEP)
		__asm__ __volatile__("prefetch " PREFETCH_AHEAD "(%1)\n\t" MOVE_BLOCK
				     : : "r"(d), "r"(s) : "memory", "mm0", "mm1", "mm2", "mm3");
	for (; nblocks; nblocks--, d += MMX_STEP, s += MMX_STEP)
		__asm__ __volatile__(MOVE_BLOCK
				     : : "r"(d), "r"(s) : "memory", "mm0", "mm1", "mm2", "mm3");
	mmx3dnow_end();
}

__attribute__((target("mmx"))) void *mem_mmx3dnow_memcpy(void *restrict dst,
							 const void *restrict src, size_t n)
{
	size_t head = n & ~(size_t)(MMX_STEP - 1);

	if (n < ESCAPE_BELOW)
		return mem_movsq_memcpy(dst, src, n);
	mmx3dnow_blocks(dst, src, n / MMX_STEP);
	mem_movsq_memcpy((unsigned char *)dst + head, (const unsigned char *)src + head,
			 n - head);
	return dst;
}

__attribute__((target("mmx"))) void mem_mmx3dnow_copy_page(void *restrict dst,
							   const void *restrict src)
{
	mmx3dnow_blocks(dst, src, MEM_PAGE / MMX_STEP);
}

/* One asm for the whole page: mm0 must stay zero from the pxor on. */
__attribute__((target("mmx"))) void mem_mmx3dnow_clear_page(void *dst)
{
	unsigned char *d = dst;
	size_t steps = MEM_PAGE / CLEAR_STEP;

	__asm__ __volatile__(
		"pxor %%mm0, %%mm0\n"
		"1:\n\t"
		"movq %%mm0, (%0)\n\tmovq %%mm0, 8(%0)\n\t"
		"movq %%mm0, 16(%0)\n\tmovq %%mm0, 24(%0)\n\t"
		"movq %%mm0, 32(%0)\n\tmovq %%mm0, 40(%0)\n\t"
		"movq %%mm0, 48(%0)\n\tmovq %%mm0, 56(%0)\n\t"
		"movq %%mm0, 64(%0)\n\tmovq %%mm0, 72(%0)\n\t"
		"movq %%mm0, 80(%0)\n\tmovq %%mm0, 88(%0)\n\t"
		"movq %%mm0, 96(%0)\n\tmovq %%mm0, 104(%0)\n\t"
		"movq %%mm0, 112(%0)\n\tmovq %%mm0, 120(%0)\n\t"
		"lea 128(%0), %0\n\t"
		"dec %1\n\t"
		"jnz 1b"
		: "+r"(d), "+r"(steps) : : "memory", "cc", "mm0");
	mmx3dnow_end();
}

MEM_KERNELS_END

#elif defined(__x86_64__)
/* x86-64 lists the 3dnow row as unsupported (see the top of the file):
 * supported() says no, so these are never called. */
#include "mem.h"

#include <stdlib.h>

MEM_DECLARE(mem_mmx3dnow, 1, 0, 1, 1, 0)

int mem_mmx3dnow_supported(void)
{
	return 0;
}

void *mem_mmx3dnow_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	(void)dst, (void)src, (void)n;
	abort();
}

void mem_mmx3dnow_copy_page(void *restrict dst, const void *restrict src)
{
	(void)dst, (void)src;
	abort();
}

void mem_mmx3dnow_clear_page(void *dst)
{
	(void)dst;
	abort();
}

#else
typedef int mem_i686_unused;   /* ISO C forbids an empty translation unit */
#endif
