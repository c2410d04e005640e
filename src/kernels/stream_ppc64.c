/* stream_ppc64.c - tuned STREAM for little-endian 64-bit POWER with VSX
 * (POWER8 and later; the ppc64el ABI makes VSX baseline): four vector
 * doubles, 64 bytes, a step with ordinary stores.  The same mul then add
 * as stream.c (vec_mul then vec_add, never a fused vec_madd), so the row
 * computes the same values as `c`.  Built only when the compiler targets
 * VSX (__VSX__); other PowerPC builds keep the `c` row alone. */
#if defined(__powerpc64__) && defined(__VSX__) && defined(__LITTLE_ENDIAN__)
#include "stream.h"

#include <altivec.h>

STREAM_DECLARE(stream_vsx)

#define VSX_STEP 8

int stream_vsx_supported(void)
{
	return 1;   /* the compiler was told VSX is there, and ppc64el requires it */
}

static inline __vector double ld(const double *p)
{
	return vec_xl(0, p);
}

static inline void st(double *p, __vector double v)
{
	vec_xst(v, 0, p);
}

void stream_vsx_copy(double *restrict c, const double *restrict a, size_t n)
{
	size_t j = 0;
	for (; j + VSX_STEP <= n; j += VSX_STEP)
		for (size_t u = 0; u < VSX_STEP; u += 2)
			st(c + j + u, ld(a + j + u));
	for (; j < n; j++)
		c[j] = a[j];
}

void stream_vsx_scale(double *restrict b, const double *restrict c, double q, size_t n)
{
	size_t j = 0;
	__vector double vq = vec_splats(q);
	for (; j + VSX_STEP <= n; j += VSX_STEP)
		for (size_t u = 0; u < VSX_STEP; u += 2)
			st(b + j + u, vec_mul(vq, ld(c + j + u)));
	for (; j < n; j++)
		b[j] = q * c[j];
}

void stream_vsx_add(double *restrict c, const double *restrict a, const double *restrict b,
		    size_t n)
{
	size_t j = 0;
	for (; j + VSX_STEP <= n; j += VSX_STEP)
		for (size_t u = 0; u < VSX_STEP; u += 2)
			st(c + j + u, vec_add(ld(a + j + u), ld(b + j + u)));
	for (; j < n; j++)
		c[j] = a[j] + b[j];
}

void stream_vsx_triad(double *restrict a, const double *restrict b, const double *restrict c,
		      double q, size_t n)
{
	size_t j = 0;
	__vector double vq = vec_splats(q);
	for (; j + VSX_STEP <= n; j += VSX_STEP)
		for (size_t u = 0; u < VSX_STEP; u += 2)
			st(a + j + u, vec_add(ld(b + j + u), vec_mul(vq, ld(c + j + u))));
	for (; j < n; j++)
		a[j] = b[j] + q * c[j];
}

#else
typedef int stream_ppc64_unused;   /* ISO C forbids an empty translation unit */
#endif
