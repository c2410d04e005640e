/* stream_table.c - the STREAM variant registry: one X-macro list per
 * architecture; adding a variant is one line here and one kernel file. */
#include "stream.h"

#include <string.h>

#define STREAM_COMMON(X) \
	X(stream_c, "c", "standard STREAM loops in plain C (compiled as stream.c is; -O3 may turn Copy into memcpy)", 0)

#if defined(__x86_64__) || defined(__i386__)
#define STREAM_ARCH(X)                                                            \
	X(stream_sse2nt, "nt-sse2", "SSE2 with non-temporal stores (movntpd)", 1) \
	X(stream_avxnt, "nt-avx", "AVX with non-temporal stores (vmovntpd)", 1)
#elif defined(__aarch64__)
#define STREAM_ARCH(X) \
	X(stream_stnp, "nt-stnp", "NEON with non-temporal store pairs (stnp)", 1)
#else
#define STREAM_ARCH(X)
#endif

#define DECLARE(pfx, name, desc, tuned) STREAM_DECLARE(pfx)
STREAM_COMMON(DECLARE)
STREAM_ARCH(DECLARE)

#define ROW(pfx, name, desc, tuned) \
	{ name, desc, tuned, pfx##_supported, pfx##_copy, pfx##_scale, pfx##_add, pfx##_triad },

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
