/* csum_arm.c - ARM32 checksum variant `neon`.  Debian's armhf and most
 * ARMv7 builds do not assume NEON, so with gcc the loop (csum_neon.h) is
 * compiled for NEON by a target attribute and chosen at run time from
 * AT_HWCAP; clang builds carry it only when NEON is enabled for the build,
 * and ARMv5/v6 or soft-float builds (armel) never (neon_arm.h). */
#include "neon_arm.h"
#if BB_ARM_NEON
#if defined(__ARM_NEON)
#define CSUM_NEON_ATTR
#else
#define CSUM_NEON_ATTR __attribute__((target("fpu=neon")))
#endif
#include "csum_neon.h"
#include "csum_impl.h"

#include <sys/auxv.h>

#ifndef HWCAP_NEON
#define HWCAP_NEON (1 << 12)   /* linux/arch/arm/include/uapi/asm/hwcap.h */
#endif

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed);
int csum_neon_supported(void);

int csum_neon_supported(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_NEON) != 0;
}

uint32_t csum_neon(const void *buf, size_t len, uint32_t seed)
{
	return csum_neon_partial(buf, len, seed);
}

#else
typedef int csum_arm_unused;   /* ISO C forbids an empty translation unit */
#endif
