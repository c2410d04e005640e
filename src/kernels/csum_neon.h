/* csum_neon.h - the NEON checksum loop, shared by ARM32 (csum_arm.c) and
 * AArch64 (csum_arm64.c), which include it after defining CSUM_NEON_ATTR
 * (the target attribute, if the build needs one).
 *
 * vpadalq_u16 adds the eight 16-bit words of a vector pairwise into four
 * 32-bit lanes: each lane gains at most 2 * 0xffff, so a lane holds 32768
 * of them; then vpadalq_u32 widens into 64-bit lanes.  Loads are vld1q_u8,
 * which takes any address; words are native order, paired from the buffer
 * start, so no alignment prologue is needed (csum_impl.h).
 */
#ifndef BB_KERNELS_CSUM_NEON_H
#define BB_KERNELS_CSUM_NEON_H

#include "neon_arm.h"
#if defined(__arm__) && !BB_ARM_NEON
#error "csum_neon.h: this ARM build cannot carry NEON code (see neon_arm.h)"
#endif
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "csum_impl.h"

#define CSUM_NEON_SPAN 32768   /* iterations before the 32-bit lanes could wrap */

#define CSUM_NEON_WORDS(p) vreinterpretq_u16_u8(vld1q_u8(p))

/* Native sum of the whole 16-byte vectors at p; *done gets the bytes. */
CSUM_NEON_ATTR static uint64_t csum_neon_vectors(const unsigned char *p, size_t len, size_t *done)
{
	size_t iters = len / 64, i = 0;
	uint64x2_t wide = vdupq_n_u64(0);

	while (i < iters) {
		size_t end = iters - i < CSUM_NEON_SPAN ? iters : i + CSUM_NEON_SPAN;
		uint32x4_t a0 = vdupq_n_u32(0), a1 = a0, a2 = a0, a3 = a0;
		for (; i < end; i++, p += 64) {
			a0 = vpadalq_u16(a0, CSUM_NEON_WORDS(p));
			a1 = vpadalq_u16(a1, CSUM_NEON_WORDS(p + 16));
			a2 = vpadalq_u16(a2, CSUM_NEON_WORDS(p + 32));
			a3 = vpadalq_u16(a3, CSUM_NEON_WORDS(p + 48));
		}
		wide = vpadalq_u32(wide, a0);
		wide = vpadalq_u32(wide, a1);
		wide = vpadalq_u32(wide, a2);
		wide = vpadalq_u32(wide, a3);
	}
	*done = iters * 64;
	for (; len - *done >= 16; *done += 16, p += 16)
		wide = vpadalq_u32(wide, vpaddlq_u16(CSUM_NEON_WORDS(p)));
	return vgetq_lane_u64(wide, 0) + vgetq_lane_u64(wide, 1);
}

/* The partial sum of buf with seed: the vectors, then the tail bytes. */
static uint32_t csum_neon_partial(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t sum = csum_native_seed(seed, 0);
	size_t done;

	sum = csum_add64(sum, csum_neon_vectors(p, len, &done));
	sum = csum_add64(sum, csum_native_tail(p + done, len - done));
	return csum_native_result(csum_fold64(sum), 0);
}

#endif
