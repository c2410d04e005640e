/* stream_x86.c - tuned STREAM for x86: non-temporal stores (movntpd) with
 * SSE2 and AVX, followed by sfence.  Compiled per function with target
 * attributes so an i686 or baseline x86-64 build still carries them. */
#if defined(__x86_64__) || defined(__i386__)
#include "stream.h"

#include <immintrin.h>
#include <stdint.h>

STREAM_DECLARE(stream_sse2nt)
STREAM_DECLARE(stream_avxnt)

/* Elements to process one by one until dst is aligned to `align` bytes.
 * On i686 a double need only be 4-byte aligned; such a dst never reaches
 * the alignment the streaming stores need, so it is done all in scalar. */
static size_t head(const double *dst, size_t n, size_t align)
{
	if ((uintptr_t)dst % sizeof(double))
		return n;
	size_t mis = ((uintptr_t)dst & (align - 1)) / sizeof(double);
	size_t h = mis ? (align / sizeof(double)) - mis : 0;
	return h < n ? h : n;
}

int stream_sse2nt_supported(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse2");
}

int stream_avxnt_supported(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx");
}

/* One generator per instruction set: body(V) computes vector V at index j. */
#define NT_KERNELS(pfx, tgt, VT, W, LOAD, STORE, ADD, MUL, SET1, ALIGN)                 \
__attribute__((target(tgt))) void pfx##_copy(double *restrict c, const double *restrict a, \
					       size_t n)                                   \
{                                                                                      \
	size_t j = 0, h = head(c, n, ALIGN);                                           \
	for (; j < h; j++)                                                             \
		c[j] = a[j];                                                           \
	for (; j + W <= n; j += W)                                                     \
		STORE(c + j, LOAD(a + j));                                             \
	for (; j < n; j++)                                                             \
		c[j] = a[j];                                                           \
	_mm_sfence();                                                                  \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_scale(double *restrict b, const double *restrict c, \
						double q, size_t n)                          \
{                                                                                      \
	size_t j = 0, h = head(b, n, ALIGN);                                           \
	VT vq = SET1(q);                                                               \
	for (; j < h; j++)                                                             \
		b[j] = q * c[j];                                                       \
	for (; j + W <= n; j += W)                                                     \
		STORE(b + j, MUL(vq, LOAD(c + j)));                                    \
	for (; j < n; j++)                                                             \
		b[j] = q * c[j];                                                       \
	_mm_sfence();                                                                  \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_add(double *restrict c, const double *restrict a, \
					      const double *restrict b, size_t n)          \
{                                                                                      \
	size_t j = 0, h = head(c, n, ALIGN);                                           \
	for (; j < h; j++)                                                             \
		c[j] = a[j] + b[j];                                                    \
	for (; j + W <= n; j += W)                                                     \
		STORE(c + j, ADD(LOAD(a + j), LOAD(b + j)));                           \
	for (; j < n; j++)                                                             \
		c[j] = a[j] + b[j];                                                    \
	_mm_sfence();                                                                  \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_triad(double *restrict a, const double *restrict b, \
						const double *restrict c, double q, size_t n) \
{                                                                                      \
	size_t j = 0, h = head(a, n, ALIGN);                                           \
	VT vq = SET1(q);                                                               \
	for (; j < h; j++)                                                             \
		a[j] = b[j] + q * c[j];                                                \
	for (; j + W <= n; j += W)                                                     \
		STORE(a + j, ADD(LOAD(b + j), MUL(vq, LOAD(c + j))));                  \
	for (; j < n; j++)                                                             \
		a[j] = b[j] + q * c[j];                                                \
	_mm_sfence();                                                                  \
}

NT_KERNELS(stream_sse2nt, "sse2", __m128d, 2, _mm_loadu_pd, _mm_stream_pd, _mm_add_pd,
	   _mm_mul_pd, _mm_set1_pd, 16)
NT_KERNELS(stream_avxnt, "avx", __m256d, 4, _mm256_loadu_pd, _mm256_stream_pd,
	   _mm256_add_pd, _mm256_mul_pd, _mm256_set1_pd, 32)

#else
typedef int stream_x86_unused;   /* ISO C forbids an empty translation unit */
#endif
