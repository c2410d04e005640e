/* mem_table.c - the memory primitive registry: one X-macro list per
 * architecture.  A row is X(prefix, name, description, C, S, P, Z, R) where
 * the flags say whether the variant has memcpy, memset, copy_page,
 * clear_page and read; adding a variant is one line here plus its kernels. */
#include "mem.h"
#include "neon_arm.h"

#include <string.h>

#define MEM_COMMON(X)                                                                 \
	X(mem_libc, "libc", "the C library's memcpy/memset (called, never inlined)",     \
	  1, 1, 1, 1, 0)                                                              \
	X(mem_bytes, "bytes", "a plain byte loop, compiled without auto-vectorisation", \
	  1, 1, 1, 1, 1)                                                              \
	X(mem_words, "words", "an unrolled size_t loop in integer registers",          \
	  1, 1, 1, 1, 1)

#if defined(__x86_64__)
#define MEM_WORDS_X(X) \
	X(mem_movsq, "movsq", "rep movsq / rep stosq, then rep movsb for the tail", 1, 1, 1, 1, 0)
#elif defined(__i386__)
#define MEM_WORDS_X(X) \
	X(mem_movsq, "movsl", "rep movsl / rep stosl, then rep movsb for the tail", 1, 1, 1, 1, 0)
#endif

#if defined(__x86_64__) || defined(__i386__)
#define MEM_X86(X)                                                                       \
	X(mem_movsb, "movsb", "rep movsb / rep stosb (fast with ERMS/FSRM)", 1, 1, 1, 1, 0) \
	MEM_WORDS_X(X)                                                                   \
	X(mem_sse2, "sse2", "SSE2 16-byte loads and aligned stores", 1, 1, 1, 1, 1)         \
	X(mem_avx2, "avx2", "AVX2 32-byte loads and aligned stores", 1, 1, 1, 1, 1)         \
	X(mem_avx512, "avx512", "AVX-512 (F+BW) 64-byte loads and aligned stores",        \
	  1, 1, 1, 1, 1)                                                                 \
	X(mem_ntsse2, "nt-sse2", "SSE2 non-temporal stores (movntdq) + sfence", 1, 1, 1, 1, 0) \
	X(mem_ntavx2, "nt-avx2", "AVX2 non-temporal stores (vmovntdq) + sfence", 1, 1, 1, 1, 0)
#else
#define MEM_X86(X)
#endif

/* The Geode report's "w/ 3DNOW" column (mem_i686.c): 32-bit code, listed
 * as unsupported on x86-64 builds. */
#if defined(__x86_64__) || defined(__i386__)
#define MEM_3DNOW(X)                                                                  \
	X(mem_mmx3dnow, "3dnow", "the i386 kernel's 3DNow! memcpy: movsl below 512 B, "   \
	  "else MMX 64-byte blocks + prefetch; Geode copy/clear_page (32-bit x86)",       \
	  1, 0, 1, 1, 0)
#endif

#if defined(__i386__)
#define MEM_I686(X)                                                                       \
	X(mem_mmx, "mmx", "MMX movq, 64 bytes a step, 3DNow! prefetch (kernel mmx_32.c era)", \
	  1, 0, 1, 1, 0)                                                                  \
	X(mem_mmxnt, "mmx-nt", "MMX movntq page clear/copy + sfence (Athlon/Geode style)", \
	  0, 0, 1, 1, 0)                                                                  \
	MEM_3DNOW(X)
#elif defined(__x86_64__)
#define MEM_I686(X) MEM_3DNOW(X)
#else
#define MEM_I686(X)
#endif

#if defined(__aarch64__)
#define MEM_ARCH(X)                                                                    \
	X(mem_ldpq, "ldp-q", "ldp/stp of q registers, 64 bytes a step", 1, 1, 1, 1, 1) \
	X(mem_dczva, "dc-zva", "dc zva clear_page (block size from DCZID_EL0)", 0, 0, 0, 1, 0)
#elif defined(__arm__) && BB_ARM_NEON
#define MEM_ARCH(X)                                                                 \
	X(mem_neon, "neon", "NEON vld1/vst1, 64 bytes a step", 1, 1, 1, 1, 1)          \
	X(mem_ldm, "ldm", "ldm/stm of 8 registers, 32 bytes a step", 1, 1, 1, 1, 0)
#elif defined(__arm__)
#define MEM_ARCH(X) \
	X(mem_ldm, "ldm", "ldm/stm of 8 registers, 32 bytes a step", 1, 1, 1, 1, 0)
#elif defined(__powerpc__) || defined(__powerpc64__)
#define MEM_ARCH(X)                                                                     \
	X(mem_dcbz, "dcbz", "dcbz clear_page, one cache line at a time", 0, 0, 0, 1, 0)    \
	X(mem_dcbt, "dcbt", "word loop with dcbt prefetch of the source", 1, 0, 1, 0, 0)
#else
#define MEM_ARCH(X)
#endif

#define DECLARE(pfx, name, desc, C, S, P, Z, R) MEM_DECLARE(pfx, C, S, P, Z, R)
MEM_COMMON(DECLARE)
MEM_X86(DECLARE)
MEM_I686(DECLARE)
MEM_ARCH(DECLARE)

#define ROW(pfx, name, desc, C, S, P, Z, R)                                    \
	{ name, desc, pfx##_supported, MEM_OR_NULL_##C(pfx##_memcpy),           \
	  MEM_OR_NULL_##S(pfx##_memset), MEM_OR_NULL_##P(pfx##_copy_page),      \
	  MEM_OR_NULL_##Z(pfx##_clear_page), MEM_OR_NULL_##R(pfx##_read) },

const struct mem_variant mem_variants[] = {
	MEM_COMMON(ROW)
	MEM_X86(ROW)
	MEM_I686(ROW)
	MEM_ARCH(ROW)
};

const size_t mem_nvariants = sizeof mem_variants / sizeof mem_variants[0];

const struct mem_variant *mem_variant_find(const char *name)
{
	for (size_t i = 0; i < mem_nvariants; i++)
		if (strcmp(mem_variants[i].name, name) == 0)
			return &mem_variants[i];
	return NULL;
}

static const char *const op_names[MEM_NOPS] = {
	"memcpy", "memset", "copy_page", "clear_page", "read",
};

const char *mem_op_name(enum mem_op op)
{
	return op < MEM_NOPS ? op_names[op] : "?";
}

int mem_op_parse(const char *name)
{
	for (int i = 0; i < MEM_NOPS; i++)
		if (strcmp(op_names[i], name) == 0)
			return i;
	return -1;
}

int mem_variant_has(const struct mem_variant *v, enum mem_op op)
{
	switch (op) {
	case MEM_MEMCPY: return v->copy != NULL;
	case MEM_MEMSET: return v->set != NULL;
	case MEM_COPY_PAGE: return v->copy_page != NULL;
	case MEM_CLEAR_PAGE: return v->clear_page != NULL;
	case MEM_READ: return v->read != NULL;
	default: return 0;
	}
}

uint64_t mem_ref_sum(const void *src, size_t n)
{
	const unsigned char *s = src;
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += s[i];
	return sum;
}
