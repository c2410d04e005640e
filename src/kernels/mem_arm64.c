/* mem_arm64.c - AArch64 memory primitives: `ldp-q` moves 64 bytes a step
 * with ldp/stp of q registers (the shape of the kernel's and the Arm
 * optimized-routines' copies) and sums with NEON pairwise adds; `dc-zva`
 * clears a page one DC ZVA block at a time, with the block size and the
 * permission bit read from DCZID_EL0. */
#if defined(__aarch64__)
#include "mem.h"

#include <arm_neon.h>
#include "mem_neon.h"
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

MEM_NEON_VARIANT(mem_ldpq, STEP, ldp_step, stp_step, copy_small, set_small)

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
