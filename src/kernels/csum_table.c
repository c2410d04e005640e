/* csum_table.c - the checksum variant registries: partial sums, the
 * ip_fast_csum header checksum and checksum-and-copy.  One X-macro list
 * per architecture; adding a variant is one line here and one function.
 * Rows: X(function, name, description, supported). */
#include "csum.h"
#include "neon_arm.h"

#include <string.h>

#define CSUM_COMMON(X)                                                                   \
	X(csum_ref16, "ref16", "RFC 1071 16-bit loop, kept scalar (the baseline)",        \
	  csum_always)                                                                    \
	X(csum_generic32, "generic32", "aligned 32-bit words, carries counted, alignment " \
	  "prologue", csum_always)                                                        \
	X(csum_unrolled32, "unrolled32", "16-word block entered by a computed jump "       \
	  "(Duff's device), PPro shape", csum_always)                                     \
	X(csum_c64, "c64", "64-bit words, 4 accumulators, carries counted", csum_always)

#define CSUM_IP_COMMON(X) \
	X(csum_ip_generic, "ip-generic", "ip_fast_csum: 32-bit words, portable C", csum_always)

#define CSUM_COPY_COMMON(X)                                                               \
	X(csum_copy_memcpy, "copy-memcpy", "memcpy, then c64 over the copy (two passes)", \
	  csum_always)                                                                     \
	X(csum_copy_c64, "copy-c64", "one pass: 64-bit load, store and add", csum_always)

#if defined(__x86_64__) || defined(__i386__)
#if defined(__x86_64__)
#define CSUM_ADC(X) \
	X(csum_adc64, "adc64", "inline asm add/adc over 128-byte blocks, two chains", csum_always)
#else
#define CSUM_ADC(X) \
	X(csum_adc32, "adc32", "inline asm adcl loop, one carry chain (i686)", csum_always)
#endif
/* The Geode report's two i386 shapes (csum_i386.c): 32-bit code, listed as
 * unsupported on x86-64 builds. */
#define CSUM_I386(X)                                                                      \
	X(csum_i386_generic, "i386-generic", "Linux i386 generic shape: movl+adcl pairs, "  \
	  "32 bytes a loop (32-bit x86)", csum_i386_supported)                              \
	X(csum_i386_ppro, "i386-ppro", "Linux i386 PPro shape: computed jump into 32 "     \
	  "memory-operand adcl, 128 bytes a loop (32-bit x86)", csum_i386_supported)
#define CSUM_ARCH(X)                                                                      \
	CSUM_ADC(X)                                                                        \
	CSUM_I386(X)                                                                       \
	X(csum_sse2, "sse2", "SSE2 pmaddwd of biased words, 3 ops per vector", csum_sse2_supported) \
	X(csum_avx2, "avx2", "AVX2 pmaddwd of biased words, 3 ops per vector", csum_avx2_supported) \
	X(csum_avx2q, "avx2-q", "AVX2 64-bit lane adds, high halves apart: no multiply, " \
	  "8 vectors a step", csum_avx2_supported)                                     \
	X(csum_avx512, "avx512", "AVX-512BW pmaddwd of biased words",         \
	  csum_avx512_supported)
#define CSUM_IP_ARCH(X) \
	X(csum_ip_adc, "ip-adc", "ip_fast_csum: inline asm adcl chain", csum_always)
#define CSUM_COPY_ARCH(X) \
	X(csum_copy_avx2, "copy-avx2", "one pass with AVX2", csum_avx2_supported)
#elif defined(__aarch64__)
#define CSUM_ARCH(X) \
	X(csum_neon, "neon", "AdvSIMD pairwise add-accumulate (vpadal)", csum_always)
#elif BB_ARM_NEON
#define CSUM_ARCH(X) \
	X(csum_neon, "neon", "NEON pairwise add-accumulate (vpadal)", csum_neon_supported)
#elif defined(__powerpc__) || defined(__powerpc64__)
#define CSUM_ARCH(X) \
	X(csum_adde, "adde", "inline asm addc/adde chain over aligned words", csum_always)
#endif

#ifndef CSUM_ARCH
#define CSUM_ARCH(X)
#endif
#ifndef CSUM_IP_ARCH
#define CSUM_IP_ARCH(X)
#endif
#ifndef CSUM_COPY_ARCH
#define CSUM_COPY_ARCH(X)
#endif

#define DECLARE(fn, name, desc, sup) \
	uint32_t fn(const void *buf, size_t len, uint32_t seed); int sup(void);
#define DECLARE_IP(fn, name, desc, sup) uint16_t fn(const void *iph, unsigned ihl); int sup(void);
#define DECLARE_COPY(fn, name, desc, sup) \
	uint32_t fn(void *dst, const void *src, size_t len, uint32_t seed); int sup(void);
CSUM_COMMON(DECLARE)
CSUM_ARCH(DECLARE)
CSUM_IP_COMMON(DECLARE_IP)
CSUM_IP_ARCH(DECLARE_IP)
CSUM_COPY_COMMON(DECLARE_COPY)
CSUM_COPY_ARCH(DECLARE_COPY)

#define ROW(fn, name, desc, sup) { name, desc, sup, fn },

const struct csum_variant csum_variants[] = {
	CSUM_COMMON(ROW)
	CSUM_ARCH(ROW)
};
const size_t csum_nvariants = sizeof csum_variants / sizeof csum_variants[0];

const struct csum_ip_variant csum_ip_variants[] = {
	CSUM_IP_COMMON(ROW)
	CSUM_IP_ARCH(ROW)
};
const size_t csum_ip_nvariants = sizeof csum_ip_variants / sizeof csum_ip_variants[0];

const struct csum_copy_variant csum_copy_variants[] = {
	CSUM_COPY_COMMON(ROW)
	CSUM_COPY_ARCH(ROW)
};
const size_t csum_copy_nvariants = sizeof csum_copy_variants / sizeof csum_copy_variants[0];

/* The three tables share a namespace: a name is unique across them. */
#define FIND(table, n)                                        \
	for (size_t i = 0; i < n; i++)                        \
		if (strcmp(table[i].name, name) == 0)         \
			return &table[i];                     \
	return NULL

const struct csum_variant *csum_variant_find(const char *name)
{
	FIND(csum_variants, csum_nvariants);
}

const struct csum_ip_variant *csum_ip_variant_find(const char *name)
{
	FIND(csum_ip_variants, csum_ip_nvariants);
}

const struct csum_copy_variant *csum_copy_variant_find(const char *name)
{
	FIND(csum_copy_variants, csum_copy_nvariants);
}
