/* x86_cpu.h - what this x86 CPU and its kernel let the variants use,
 * from CPUID and XGETBV (x86_cpu.c). */
#ifndef BB_X86_CPU_H
#define BB_X86_CPU_H

#if defined(__x86_64__) || defined(__i386__)
enum x86_feature {
	X86_MMX, X86_SSE, X86_SSE2, X86_AVX, X86_AVX2, X86_AVX512F, X86_AVX512BW,
	X86_MMXEXT, X86_3DNOW, X86_3DNOWPREFETCH
};

int x86_has(enum x86_feature f);
#endif

#endif
