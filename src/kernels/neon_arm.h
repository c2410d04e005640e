/* neon_arm.h - whether this ARM32 build can carry NEON code at all.
 *
 * BB_ARM_NEON is 1 when the build assumes NEON (__ARM_NEON), or when gcc
 * can compile NEON functions by a target attribute or pragma for a CPU the
 * build does not assume: ARMv7 or later with a floating-point ABI that
 * passes vectors (hard or softfp).  ARMv5/v6 (Debian's armel) and the
 * soft-float ABI cannot, and there the NEON variants are left out of the
 * tables, so `--list` never offers them.  Which CPU has NEON is decided at
 * run time (AT_HWCAP); this only says whether the code can exist. */
#ifndef BB_KERNELS_NEON_ARM_H
#define BB_KERNELS_NEON_ARM_H

#if defined(__arm__) && \
	(defined(__ARM_NEON) || \
	 (defined(__GNUC__) && !defined(__clang__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 && \
	  !defined(__SOFTFP__)))
#define BB_ARM_NEON 1
#else
#define BB_ARM_NEON 0
#endif

#endif
