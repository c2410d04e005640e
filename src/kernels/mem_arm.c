/* mem_arm.c - ARM32 memory primitives: `neon` moves 64 bytes a step with
 * vld1/vst1 (compiled for NEON by a target pragma, chosen at run time from
 * AT_HWCAP, since armhf's baseline FPU has no NEON; left out of ARMv5/v6
 * and soft-float builds, which cannot carry it: neon_arm.h), and `ldm` moves 32
 * bytes a step with ldm/stm of eight registers, the classic ARM copy.
 * ldm/stm fault on unaligned addresses, so `ldm` uses them only when source
 * and destination share word alignment and copies words otherwise. */
#if defined(__arm__)
#include "mem.h"
#include "neon_arm.h"

#include <string.h>
#include <sys/auxv.h>

#if BB_ARM_NEON
MEM_DECLARE(mem_neon, 1, 1, 1, 1, 1)
#endif
MEM_DECLARE(mem_ldm, 1, 1, 1, 1, 0)

MEM_KERNELS_BEGIN

#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1 << 12)
#endif

/* ---- ldm / stm ---- */

#define LDM_STEP 32
#define LDM_REGS "{r3, r4, r5, r6, r8, r9, r10, r12}"
#define LDM_CLOBBER "memory", "cc", "r3", "r4", "r5", "r6", "r8", "r9", "r10", "r12"

int mem_ldm_supported(void)
{
	return 1;
}

/* steps >= 1 blocks of 32 bytes; both pointers word-aligned. */
static inline void ldm_copy(unsigned char *d, const unsigned char *s, size_t steps)
{
	__asm__ __volatile__("1:\n\t"
			     "ldmia %1!, " LDM_REGS "\n\t"
			     "stmia %0!, " LDM_REGS "\n\t"
			     "subs %2, %2, #1\n\t"
			     "bne 1b"
			     : "+r"(d), "+r"(s), "+r"(steps) : : LDM_CLOBBER);
}

static inline void stm_fill(unsigned char *d, uint32_t w, size_t steps)
{
	__asm__ __volatile__("mov r3, %2\n\tmov r4, %2\n\tmov r5, %2\n\tmov r6, %2\n\t"
			     "mov r8, %2\n\tmov r9, %2\n\tmov r10, %2\n\tmov r12, %2\n"
			     "1:\n\t"
			     "stmia %0!, " LDM_REGS "\n\t"
			     "subs %1, %1, #1\n\t"
			     "bne 1b"
			     : "+r"(d), "+r"(steps) : "r"(w) : LDM_CLOBBER);
}

static inline size_t to_word(const void *p, size_t n)
{
	size_t h = (4 - ((uintptr_t)p & 3)) & 3;
	return h < n ? h : n;
}

void *mem_ldm_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t h = to_word(d, n);

	for (n -= h; h; h--)
		*d++ = *s++;
	if (((uintptr_t)s & 3) == 0 && n >= LDM_STEP) {
		ldm_copy(d, s, n / LDM_STEP);
		d += n / LDM_STEP * LDM_STEP;
		s += n / LDM_STEP * LDM_STEP;
		n %= LDM_STEP;
	}
	for (; n >= 4; n -= 4, d += 4, s += 4) {
		uint32_t w;
		memcpy(&w, s, 4);   /* ldr: unaligned loads are fine on ARMv6+ */
		memcpy(d, &w, 4);
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *mem_ldm_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint32_t w = 0x01010101u * (unsigned char)c;
	size_t h = to_word(d, n);

	for (n -= h; h; h--)
		*d++ = (unsigned char)c;
	if (n >= LDM_STEP) {
		stm_fill(d, w, n / LDM_STEP);
		d += n / LDM_STEP * LDM_STEP;
		n %= LDM_STEP;
	}
	for (; n >= 4; n -= 4, d += 4)
		memcpy(d, &w, 4);
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void mem_ldm_copy_page(void *restrict dst, const void *restrict src)
{
	ldm_copy(dst, src, MEM_PAGE / LDM_STEP);
}

void mem_ldm_clear_page(void *dst)
{
	stm_fill(dst, 0, MEM_PAGE / LDM_STEP);
}

/* ---- NEON ---- */

#if BB_ARM_NEON
int mem_neon_supported(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_ARM_NEON) != 0;
}

#pragma GCC push_options
#pragma GCC target("fpu=neon")
#include <arm_neon.h>
#include "mem_neon.h"

#define NEON_STEP 64

static inline void neon_step(unsigned char *d, const unsigned char *s)
{
	uint8x16_t a = vld1q_u8(s), b = vld1q_u8(s + 16);
	uint8x16_t c = vld1q_u8(s + 32), e = vld1q_u8(s + 48);
	vst1q_u8(d, a);
	vst1q_u8(d + 16, b);
	vst1q_u8(d + 32, c);
	vst1q_u8(d + 48, e);
}

static inline void neon_fill(unsigned char *d, uint8x16_t v)
{
	vst1q_u8(d, v);
	vst1q_u8(d + 16, v);
	vst1q_u8(d + 32, v);
	vst1q_u8(d + 48, v);
}

/* n < 64: 16-byte moves, the last one overlapping; bytes below 16. */
static void neon_copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n < 16) {
		while (n--)
			*d++ = *s++;
		return;
	}
	uint8x16_t last = vld1q_u8(s + n - 16);
	for (size_t i = 0; i + 16 <= n; i += 16)
		vst1q_u8(d + i, vld1q_u8(s + i));
	vst1q_u8(d + n - 16, last);
}

static void neon_set_small(unsigned char *d, uint8x16_t v, size_t n)
{
	if (n < 16) {
		while (n--)
			*d++ = vgetq_lane_u8(v, 0);
		return;
	}
	for (size_t i = 0; i + 16 <= n; i += 16)
		vst1q_u8(d + i, v);
	vst1q_u8(d + n - 16, v);
}

MEM_NEON_VARIANT(mem_neon, NEON_STEP, neon_step, neon_fill, neon_copy_small, neon_set_small)

#pragma GCC pop_options
#endif /* BB_ARM_NEON */

MEM_KERNELS_END

#else
typedef int mem_arm_unused;   /* ISO C forbids an empty translation unit */
#endif
