/* mem_neon.h - the shape the NEON memory primitives of ARM32 (mem_arm.c,
 * `neon`) and AArch64 (mem_arm64.c, `ldp-q`) share, written once as a
 * macro (as mem_x86.c writes its vector variants), each arch giving its
 * own 64-byte step and the moves below one step:
 *   - memcpy and memset: a first 16-byte move, the body from a 16-byte-
 *     aligned destination, and a last step that overlaps the body instead
 *     of a byte loop;
 *   - copy_page and clear_page: whole steps;
 *   - read: a byte sum, vpadal into 16-bit lanes, widened every 32
 *     32-byte steps (each lane gains at most 2 * 255 * 2 a step), long
 *     before a lane could overflow.
 * The including file has <arm_neon.h>, mem.h and MEM_PAGE in scope.
 *
 * MEM_NEON_VARIANT(PFX, STEP, step, fill, copy_small, set_small) defines
 * PFX_memcpy, PFX_memset, PFX_copy_page, PFX_clear_page and PFX_read from
 *   step(d, s)              STEP bytes from s to d
 *   fill(d, v)              STEP bytes of the vector v at d
 *   copy_small(d, s, n)     n < STEP bytes
 *   set_small(d, v, n)      n < STEP bytes of v's byte */
#ifndef BB_KERNELS_MEM_NEON_H
#define BB_KERNELS_MEM_NEON_H

#define MEM_NEON_VARIANT(PFX, STEP, step, fill, copy_small, set_small)                   \
	void *PFX##_memcpy(void *restrict dst, const void *restrict src, size_t n)       \
	{                                                                                \
		unsigned char *d = dst;                                                  \
		const unsigned char *s = src;                                            \
		size_t adv;                                                              \
		if (n < (STEP)) {                                                        \
			copy_small(d, s, n);                                             \
			return dst;                                                      \
		}                                                                        \
		vst1q_u8(d, vld1q_u8(s));                                                \
		adv = 16 - ((uintptr_t)d & 15);                                          \
		d += adv, s += adv, n -= adv;                                            \
		for (; n >= (STEP); n -= (STEP), d += (STEP), s += (STEP))               \
			step(d, s);                                                      \
		if (n)                                                                   \
			step(d + n - (STEP), s + n - (STEP));                            \
		return dst;                                                              \
	}                                                                                \
	void *PFX##_memset(void *dst, int c, size_t n)                                   \
	{                                                                                \
		unsigned char *d = dst;                                                  \
		uint8x16_t v = vdupq_n_u8((uint8_t)c);                                   \
		size_t adv;                                                              \
		if (n < (STEP)) {                                                        \
			set_small(d, v, n);                                              \
			return dst;                                                      \
		}                                                                        \
		vst1q_u8(d, v);                                                          \
		adv = 16 - ((uintptr_t)d & 15);                                          \
		d += adv, n -= adv;                                                      \
		for (; n >= (STEP); n -= (STEP), d += (STEP))                            \
			fill(d, v);                                                      \
		if (n)                                                                   \
			fill(d + n - (STEP), v);                                         \
		return dst;                                                              \
	}                                                                                \
	void PFX##_copy_page(void *restrict dst, const void *restrict src)               \
	{                                                                                \
		for (size_t i = 0; i < MEM_PAGE; i += (STEP))                            \
			step((unsigned char *)dst + i, (const unsigned char *)src + i);  \
	}                                                                                \
	void PFX##_clear_page(void *dst)                                                 \
	{                                                                                \
		uint8x16_t z = vdupq_n_u8(0);                                            \
		for (size_t i = 0; i < MEM_PAGE; i += (STEP))                            \
			fill((unsigned char *)dst + i, z);                               \
	}                                                                                \
	uint64_t PFX##_read(const void *src, size_t n)                                   \
	{                                                                                \
		const unsigned char *s = src;                                            \
		uint64x2_t total = vdupq_n_u64(0);                                       \
		uint64_t sum;                                                            \
		while (n >= 32) {                                                        \
			size_t steps = n / 32 < 32 ? n / 32 : 32;                        \
			uint16x8_t acc = vdupq_n_u16(0);                                 \
			n -= steps * 32;                                                 \
			for (; steps; steps--, s += 32) {                                \
				acc = vpadalq_u8(acc, vld1q_u8(s));                      \
				acc = vpadalq_u8(acc, vld1q_u8(s + 16));                 \
			}                                                                \
			total = vpadalq_u32(total, vpaddlq_u16(acc));                    \
		}                                                                        \
		sum = vgetq_lane_u64(total, 0) + vgetq_lane_u64(total, 1);               \
		while (n--)                                                              \
			sum += *s++;                                                     \
		return sum;                                                              \
	}

#endif
