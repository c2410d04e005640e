/* x86_cpu.c - the run-time feature check of the x86 variants.
 *
 * A vector width counts only when both the CPU (CPUID) and the operating
 * system (the XCR0 register, read with XGETBV where CPUID says OSXSAVE)
 * have it: a kernel that does not save the AVX or AVX-512 registers on a
 * context switch makes those instructions fault.  AVX needs XCR0's SSE and
 * AVX state bits, AVX-512 also the opmask and the two upper-ZMM bits.
 *
 * This replaces __builtin_cpu_supports, whose library code carries the
 * tables of every CPU model gcc knows (5.5 KB in a static binary).  It is
 * read afresh on each call: the variants ask a few times per run.
 */
#if defined(__x86_64__) || defined(__i386__)
#include "x86_cpu.h"

#include <cpuid.h>
#include <stdint.h>

#define XCR0_AVX    0x06u   /* SSE and AVX state */
#define XCR0_AVX512 0xe6u   /* those, opmask, ZMM0-15 upper, ZMM16-31 */

static uint32_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	return lo;
}

/* The XCR0 bits the OS enables, 0 when the CPU cannot tell. */
static uint32_t os_state(unsigned ecx1)
{
	if (!((ecx1 >> 27) & 1))   /* OSXSAVE */
		return 0;
	return xcr0();
}

static int leaf7(unsigned *ebx)
{
	unsigned a, c, d;

	if (__get_cpuid_max(0, 0) < 7)
		return 0;
	__cpuid_count(7, 0, a, *ebx, c, d);
	return 1;
}

static int has_ext(enum x86_feature f)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return 0;
	if (f == X86_MMXEXT)
		return (d >> 22) & 1;
	if (f == X86_3DNOW)
		return (d >> 31) & 1;
	return ((d >> 31) & 1) | ((c >> 8) & 1);   /* 3DNow! or PREFETCHW */
}

/* AVX and wider: the CPUID bits, and the OS saving the registers. */
static int has_vector(enum x86_feature f, unsigned ecx1)
{
	uint32_t os = os_state(ecx1);
	unsigned b7 = 0;

	if (!((ecx1 >> 28) & 1) || (os & XCR0_AVX) != XCR0_AVX)
		return 0;
	if (f == X86_AVX)
		return 1;
	if (!leaf7(&b7))
		return 0;
	if (f == X86_AVX2)
		return (b7 >> 5) & 1;
	if ((os & XCR0_AVX512) != XCR0_AVX512)
		return 0;
	return f == X86_AVX512F ? (b7 >> 16) & 1 : (b7 >> 30) & 1;
}

int x86_has(enum x86_feature f)
{
	unsigned a, b, c, d;

	if (f >= X86_MMXEXT)
		return has_ext(f);
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	if (f == X86_MMX)
		return (d >> 23) & 1;
	if (f == X86_SSE)
		return (d >> 25) & 1;
	if (f == X86_SSE2)
		return (d >> 26) & 1;
	return has_vector(f, c);
}
#endif
