/* mem_arm64.c - AArch64 memory primitives: `ldp-q` moves 64 bytes a step
 * with ldp/stp of q registers (the shape of the kernel's and the Arm
 * optimized-routines' copies) and sums with NEON pairwise adds; `dc-zva`
 * clears a page one DC ZVA block at a time, with the block size and the
 * permission bit read from DCZID_EL0. */
#if defined(__aarch64__)
#include "mem.h"

#include <arm_neon.h>
#include <string.h>

MEM_DECLARE(mem_ldpq, 1, 1, 1, 1, 1)
MEM_DECLARE(mem_dczva, 0, 0, 0, 1, 0)

MEM_KERNELS_BEGIN

#define STEP 64

int mem_ldpq_supported(void)
{
	return 1;   /* AdvSIMD is baseline AArch64 */
}

/* 64 bytes through q0-q3; neither address needs to be aligned. */
static inline void ldp_step(unsigned char *d, const unsigned char *s)
{
	__asm__ __volatile__("ldp q0, q1, [%1]\n\t"
			     "ldp q2, q3, [%1, #32]\n\t"
			     "stp q0, q1, [%0]\n\t"
			     "stp q2, q3, [%0, #32]"
			     : : "r"(d), "r"(s) : "memory", "v0", "v1", "v2", "v3");
}

static inline void stp_step(unsigned char *d, uint8x16_t v)
{
	__asm__ __volatile__("stp %q1, %q1, [%0]\n\t"
			     "stp %q1, %q1, [%0, #32]"
			     : : "r"(d), "w"(v) : "memory");
}

/* n < 64: two overlapping moves of the largest size that fits. */
static void copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= 32) {
		uint8x16_t a = vld1q_u8(s), b = vld1q_u8(s + 16);
		uint8x16_t c = vld1q_u8(s + n - 32), e = vld1q_u8(s + n - 16);
		vst1q_u8(d, a);
		vst1q_u8(d + 16, b);
		vst1q_u8(d + n - 32, c);
		vst1q_u8(d + n - 16, e);
	} else if (n >= 16) {
		uint8x16_t a = vld1q_u8(s), b = vld1q_u8(s + n - 16);
		vst1q_u8(d, a);
		vst1q_u8(d + n - 16, b);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}

static void set_small(unsigned char *d, uint8x16_t v, size_t n)
{
	if (n >= 32) {
		vst1q_u8(d, v);
		vst1q_u8(d + 16, v);
		vst1q_u8(d + n - 32, v);
		vst1q_u8(d + n - 16, v);
	} else if (n >= 16) {
		vst1q_u8(d, v);
		vst1q_u8(d + n - 16, v);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = vgetq_lane_u8(v, 0);
	}
}

/* A first 16-byte move, the body from a 16-byte-aligned destination, and a
 * last 64-byte step that overlaps the body instead of a byte loop. */
void *mem_ldpq_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t adv;

	if (n < STEP) {
		copy_small(d, s, n);
		return dst;
	}
	vst1q_u8(d, vld1q_u8(s));
	adv = 16 - ((uintptr_t)d & 15);
	d += adv, s += adv, n -= adv;
	for (; n >= STEP; n -= STEP, d += STEP, s += STEP)
		ldp_step(d, s);
	if (n)
		ldp_step(d + n - STEP, s + n - STEP);
	return dst;
}

void *mem_ldpq_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint8x16_t v = vdupq_n_u8((uint8_t)c);
	size_t adv;

	if (n < STEP) {
		set_small(d, v, n);
		return dst;
	}
	vst1q_u8(d, v);
	adv = 16 - ((uintptr_t)d & 15);
	d += adv, n -= adv;
	for (; n >= STEP; n -= STEP, d += STEP)
		stp_step(d, v);
	if (n)
		stp_step(d + n - STEP, v);
	return dst;
}

void mem_ldpq_copy_page(void *restrict dst, const void *restrict src)
{
	for (size_t i = 0; i < MEM_PAGE; i += STEP)
		ldp_step((unsigned char *)dst + i, (const unsigned char *)src + i);
}

void mem_ldpq_clear_page(void *dst)
{
	uint8x16_t z = vdupq_n_u8(0);

	for (size_t i = 0; i < MEM_PAGE; i += STEP)
		stp_step((unsigned char *)dst + i, z);
}

/* Byte sum: uadalp folds byte pairs into 16-bit lanes; each lane gains at
 * most 2 * 255 * 2 per 32-byte step, so lanes are widened every 32 steps. */
uint64_t mem_ldpq_read(const void *src, size_t n)
{
	const unsigned char *s = src;
	uint64x2_t total = vdupq_n_u64(0);
	uint64_t sum;

	while (n >= 32) {
		size_t steps = n / 32 < 32 ? n / 32 : 32;
		uint16x8_t acc = vdupq_n_u16(0);
		n -= steps * 32;
		for (; steps; steps--, s += 32) {
			acc = vpadalq_u8(acc, vld1q_u8(s));
			acc = vpadalq_u8(acc, vld1q_u8(s + 16));
		}
		total = vpadalq_u32(total, vpaddlq_u16(acc));
	}
	sum = vgetq_lane_u64(total, 0) + vgetq_lane_u64(total, 1);
	while (n--)
		sum += *s++;
	return sum;
}

/* ---- dc zva ---- */

static uint64_t dczid(void)
{
	uint64_t v;
	__asm__ __volatile__("mrs %0, dczid_el0" : "=r"(v));
	return v;
}

/* Bytes zeroed by one dc zva, or 0 when user space may not use it. */
static size_t zva_block(void)
{
	uint64_t v = dczid();

	if (v & 0x10)   /* DZP: prohibited */
		return 0;
	return (size_t)4 << (v & 0xf);
}

int mem_dczva_supported(void)
{
	size_t bs = zva_block();
	return bs >= 16 && bs <= MEM_PAGE;
}

void mem_dczva_clear_page(void *dst)
{
	size_t block = zva_block();
	unsigned char *d = dst;

	if (!block)
		__builtin_trap();   /* only called when supported() said yes */
	for (size_t i = 0; i < MEM_PAGE; i += block)
		__asm__ __volatile__("dc zva, %0" : : "r"(d + i) : "memory");
}

MEM_KERNELS_END

#else
typedef int mem_arm64_unused;   /* ISO C forbids an empty translation unit */
#endif
