/* csum_arm64.c - AArch64 checksum variant `neon` (AdvSIMD is baseline on
 * AArch64, so it is always supported); the loop is in csum_neon.h. */
#if defined(__aarch64__)
#define CSUM_NEON_ATTR
#include "csum_neon.h"
#include "csum_impl.h"

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed);

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed)
{
	return csum_neon_partial(buf, len, seed);
}

#else
typedef int csum_arm64_unused;   /* ISO C forbids an empty translation unit */
#endif
