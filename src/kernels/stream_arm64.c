/* stream_arm64.c - tuned STREAM for AArch64, 64 bytes (four q registers)
 * a step: `neon` with ordinary stores (the compiler pairs them into stp),
 * `nt-stnp` with stnp (store pair, non-temporal hint).  The same mul then
 * add as stream.c (vmulq then vaddq, never a fused vfmaq), so every row
 * computes the same values. */
#if defined(__aarch64__)
#include "stream.h"

#include <arm_neon.h>
#include <stdint.h>

STREAM_DECLARE(stream_stnp)
STREAM_DECLARE(stream_neon)

int stream_stnp_supported(void)
{
	return 1;   /* AdvSIMD and stnp are baseline AArch64 */
}

static inline void stnp2(double *dst, float64x2_t x, float64x2_t y)
{
	__asm__ __volatile__("stnp %q1, %q2, [%0]" : : "r"(dst), "w"(x), "w"(y) : "memory");
}

/* Elements before dst is 32-byte aligned (stnp is fastest aligned). */
static size_t head(const double *dst, size_t n)
{
	size_t mis = ((uintptr_t)dst & 31) / sizeof(double);
	size_t h = mis ? 4 - mis : 0;
	return h < n ? h : n;
}

void stream_stnp_copy(double *restrict c, const double *restrict a, size_t n)
{
	size_t j = 0, h = head(c, n);
	for (; j < h; j++)
		c[j] = a[j];
	for (; j + 4 <= n; j += 4)
		stnp2(c + j, vld1q_f64(a + j), vld1q_f64(a + j + 2));
	for (; j < n; j++)
		c[j] = a[j];
}

void stream_stnp_scale(double *restrict b, const double *restrict c, double q, size_t n)
{
	size_t j = 0, h = head(b, n);
	float64x2_t vq = vdupq_n_f64(q);
	for (; j < h; j++)
		b[j] = q * c[j];
	for (; j + 4 <= n; j += 4)
		stnp2(b + j, vmulq_f64(vq, vld1q_f64(c + j)), vmulq_f64(vq, vld1q_f64(c + j + 2)));
	for (; j < n; j++)
		b[j] = q * c[j];
}

void stream_stnp_add(double *restrict c, const double *restrict a, const double *restrict b,
		     size_t n)
{
	size_t j = 0, h = head(c, n);
	for (; j < h; j++)
		c[j] = a[j] + b[j];
	for (; j + 4 <= n; j += 4)
		stnp2(c + j, vaddq_f64(vld1q_f64(a + j), vld1q_f64(b + j)),
		      vaddq_f64(vld1q_f64(a + j + 2), vld1q_f64(b + j + 2)));
	for (; j < n; j++)
		c[j] = a[j] + b[j];
}

void stream_stnp_triad(double *restrict a, const double *restrict b, const double *restrict c,
		       double q, size_t n)
{
	size_t j = 0, h = head(a, n);
	float64x2_t vq = vdupq_n_f64(q);
	for (; j < h; j++)
		a[j] = b[j] + q * c[j];
	for (; j + 4 <= n; j += 4)
		stnp2(a + j, vaddq_f64(vld1q_f64(b + j), vmulq_f64(vq, vld1q_f64(c + j))),
		      vaddq_f64(vld1q_f64(b + j + 2), vmulq_f64(vq, vld1q_f64(c + j + 2))));
	for (; j < n; j++)
		a[j] = b[j] + q * c[j];
}

/* ---- neon: ordinary stores, 8 doubles a step ---- */

int stream_neon_supported(void)
{
	return 1;   /* AdvSIMD is baseline AArch64 */
}

#define NEON_STEP 8

void stream_neon_copy(double *restrict c, const double *restrict a, size_t n)
{
	size_t j = 0;
	for (; j + NEON_STEP <= n; j += NEON_STEP)
		for (size_t u = 0; u < NEON_STEP; u += 2)
			vst1q_f64(c + j + u, vld1q_f64(a + j + u));
	for (; j < n; j++)
		c[j] = a[j];
}

void stream_neon_scale(double *restrict b, const double *restrict c, double q, size_t n)
{
	size_t j = 0;
	float64x2_t vq = vdupq_n_f64(q);
	for (; j + NEON_STEP <= n; j += NEON_STEP)
		for (size_t u = 0; u < NEON_STEP; u += 2)
			vst1q_f64(b + j + u, vmulq_f64(vq, vld1q_f64(c + j + u)));
	for (; j < n; j++)
		b[j] = q * c[j];
}

void stream_neon_add(double *restrict c, const double *restrict a, const double *restrict b,
		     size_t n)
{
	size_t j = 0;
	for (; j + NEON_STEP <= n; j += NEON_STEP)
		for (size_t u = 0; u < NEON_STEP; u += 2)
			vst1q_f64(c + j + u, vaddq_f64(vld1q_f64(a + j + u), vld1q_f64(b + j + u)));
	for (; j < n; j++)
		c[j] = a[j] + b[j];
}

void stream_neon_triad(double *restrict a, const double *restrict b, const double *restrict c,
		       double q, size_t n)
{
	size_t j = 0;
	float64x2_t vq = vdupq_n_f64(q);
	for (; j + NEON_STEP <= n; j += NEON_STEP)
		for (size_t u = 0; u < NEON_STEP; u += 2)
			vst1q_f64(a + j + u, vaddq_f64(vld1q_f64(b + j + u),
						       vmulq_f64(vq, vld1q_f64(c + j + u))));
	for (; j < n; j++)
		a[j] = b[j] + q * c[j];
}

#else
typedef int stream_arm64_unused;   /* ISO C forbids an empty translation unit */
#endif
