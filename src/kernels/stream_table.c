/* stream_table.c - the STREAM variant registry: one X-macro list per
 * architecture; adding a variant is one line here and one kernel file. */
#include "stream.h"

#include <string.h>

/* X(prefix, name, description, tuned, nt): nt = 1 for non-temporal stores,
 * which skip the write-allocate read of each destination line. */
#define STREAM_COMMON(X) \
	X(stream_c, "c", "standard STREAM loops in plain C (compiled as stream.c is; -O3 may turn Copy into memcpy)", 0, 0)

#define NT_NOTE "; skips the write-allocate reads: not a faster memory"

#if defined(__x86_64__) || defined(__i386__)
#define STREAM_ARCH(X)                                                                     \
	X(stream_avx2, "avx2", "AVX2, 64 bytes a step, ordinary aligned stores", 1, 0)       \
	X(stream_avx512, "avx512", "AVX-512F, 64 bytes a step, ordinary aligned stores", 1, 0) \
	X(stream_sse2nt, "nt-sse2", "SSE2 with non-temporal stores (movntpd)" NT_NOTE, 1, 1) \
	X(stream_avxnt, "nt-avx", "AVX with non-temporal stores (vmovntpd)" NT_NOTE, 1, 1)  \
	X(stream_avx2nt, "nt-avx2", "AVX2, 64 bytes a step, non-temporal stores (vmovntpd)"  \
	  NT_NOTE, 1, 1)                                                                     \
	X(stream_avx512nt, "nt-avx512", "AVX-512F, 64 bytes a step, non-temporal stores"     \
	  NT_NOTE, 1, 1)
#elif defined(__aarch64__)
#define STREAM_ARCH(X)                                                                    \
	X(stream_neon, "neon", "AdvSIMD, 64 bytes a step, ordinary stores (ldp/stp of q)", 1, 0) \
	X(stream_stnp, "nt-stnp", "NEON with non-temporal store pairs (stnp); a hint only: "  \
	  "cores that honour it skip the write-allocate reads, not a faster memory", 1, 1)
#elif defined(__powerpc64__) && defined(__VSX__) && defined(__LITTLE_ENDIAN__)
#define STREAM_ARCH(X) \
	X(stream_vsx, "vsx", "VSX (POWER8+), 64 bytes a step, ordinary stores", 1, 0)
#else
#define STREAM_ARCH(X)
#endif

#define DECLARE(pfx, name, desc, tuned, nt) STREAM_DECLARE(pfx)
STREAM_COMMON(DECLARE)
STREAM_ARCH(DECLARE)

#define ROW(pfx, name, desc, tuned, nt) \
	{ name, desc, tuned, nt, pfx##_supported, pfx##_copy, pfx##_scale, pfx##_add, pfx##_triad },

const struct stream_variant stream_variants[] = {
	STREAM_COMMON(ROW)
	STREAM_ARCH(ROW)
};

const size_t stream_nvariants = sizeof stream_variants / sizeof stream_variants[0];

const struct stream_variant *stream_variant_find(const char *name)
{
	for (size_t i = 0; i < stream_nvariants; i++)
		if (strcmp(stream_variants[i].name, name) == 0)
			return &stream_variants[i];
	return NULL;
}
