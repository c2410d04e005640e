/* csum_arm64.c - AArch64 checksum variant `neon` (AdvSIMD is baseline on
 * AArch64, so it is always supported); the loop is in csum_neon.h. */
#if defined(__aarch64__)
#define CSUM_NEON_ATTR
#include "csum_neon.h"
#include "csum_impl.h"

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed);

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t sum = csum_native_seed(seed, 0);
	size_t done;

	sum = csum_add64(sum, csum_neon_vectors(p, len, &done));
	sum = csum_add64(sum, csum_native_tail(p + done, len - done));
	return csum_native_result(csum_fold64(sum), 0);
}

#else
typedef int csum_arm64_unused;   /* ISO C forbids an empty translation unit */
#endif
