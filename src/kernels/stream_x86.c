/* stream_x86.c - tuned STREAM for x86, one generator for every row:
 *
 *   avx2, avx512       the vector width the CPU has, ordinary stores: the
 *                      CPU reads each destination line before writing it
 *                      (write-allocate), as the `c` row's stores do
 *   nt-sse2, nt-avx,   non-temporal stores (movntpd), then sfence: the
 *   nt-avx2, nt-avx512 destination is written without being read first,
 *                      so Copy/Scale move 2/3 and Add/Triad 3/4 of the
 *                      bytes the `c` row moves for the same STREAM count
 *
 * The body does one 64-byte line per step (AVX2: two vectors, AVX-512:
 * one) with stores to aligned addresses; the same mul then add as stream.c
 * (no FMA contraction), so every row computes the same values and passes
 * STREAM's validation.  Compiled per function with target attributes so a
 * baseline i686 or x86-64 build still carries them; supported() decides.
 * The AVX-512 rows could not run on the development machines (none has
 * AVX-512, and qemu-user does not emulate it): the registry says so.
 */
#if defined(__x86_64__) || defined(__i386__)
#include "stream.h"
#include "x86_cpu.h"

#include <immintrin.h>
#include <stdint.h>

STREAM_DECLARE(stream_sse2nt)
STREAM_DECLARE(stream_avxnt)
STREAM_DECLARE(stream_avx2)
STREAM_DECLARE(stream_avx2nt)
STREAM_DECLARE(stream_avx512)
STREAM_DECLARE(stream_avx512nt)

/* Elements to process one by one until dst is aligned to `align` bytes
 * (64: a cache line, so each step of the wide rows writes one whole line).
 * On i686 a double need only be 4-byte aligned; such a dst never reaches
 * the alignment the vector stores need, so it is done all in scalar. */
static size_t head(const double *dst, size_t n, size_t align)
{
	if ((uintptr_t)dst % sizeof(double))
		return n;
	size_t mis = ((uintptr_t)dst & (align - 1)) / sizeof(double);
	size_t h = mis ? (align / sizeof(double)) - mis : 0;
	return h < n ? h : n;
}

static int cpu_has(int avx, int avx2, int avx512)
{
	if (avx512)
		return x86_has(X86_AVX512F);
	if (avx2)
		return x86_has(X86_AVX2);
	if (avx)
		return x86_has(X86_AVX);
	return x86_has(X86_SSE2);
}

int stream_sse2nt_supported(void) { return cpu_has(0, 0, 0); }
int stream_avxnt_supported(void) { return cpu_has(1, 0, 0); }
int stream_avx2_supported(void) { return cpu_has(1, 1, 0); }
int stream_avx2nt_supported(void) { return cpu_has(1, 1, 0); }
int stream_avx512_supported(void) { return cpu_has(1, 1, 1); }
int stream_avx512nt_supported(void) { return cpu_has(1, 1, 1); }

/* One generator per instruction set and store kind.  VT/W: vector type and
 * doubles per vector; U: vectors per step (U * W doubles = 64 bytes for the
 * wide rows); STORE: aligned or non-temporal; FENCE: after the stores. */
#define STREAM_KERNELS(pfx, tgt, VT, W, U, LOAD, STORE, ADD, MUL, SET1, FENCE)             \
__attribute__((target(tgt))) void pfx##_copy(double *restrict c, const double *restrict a, \
					       size_t n)                                   \
{                                                                                      \
	size_t j = 0, h = head(c, n, 64);                              \
	for (; j < h; j++)                                                             \
		c[j] = a[j];                                                           \
	for (; j + U * W <= n; j += U * W)                                             \
		for (size_t u = 0; u < U; u++)                                         \
			STORE(c + j + u * W, LOAD(a + j + u * W));                     \
	for (; j < n; j++)                                                             \
		c[j] = a[j];                                                           \
	FENCE;                                                                         \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_scale(double *restrict b, const double *restrict c, \
						double q, size_t n)                          \
{                                                                                      \
	size_t j = 0, h = head(b, n, 64);                              \
	VT vq = SET1(q);                                                               \
	for (; j < h; j++)                                                             \
		b[j] = q * c[j];                                                       \
	for (; j + U * W <= n; j += U * W)                                             \
		for (size_t u = 0; u < U; u++)                                         \
			STORE(b + j + u * W, MUL(vq, LOAD(c + j + u * W)));            \
	for (; j < n; j++)                                                             \
		b[j] = q * c[j];                                                       \
	FENCE;                                                                         \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_add(double *restrict c, const double *restrict a, \
					      const double *restrict b, size_t n)          \
{                                                                                      \
	size_t j = 0, h = head(c, n, 64);                              \
	for (; j < h; j++)                                                             \
		c[j] = a[j] + b[j];                                                    \
	for (; j + U * W <= n; j += U * W)                                             \
		for (size_t u = 0; u < U; u++)                                         \
			STORE(c + j + u * W, ADD(LOAD(a + j + u * W), LOAD(b + j + u * W))); \
	for (; j < n; j++)                                                             \
		c[j] = a[j] + b[j];                                                    \
	FENCE;                                                                         \
}                                                                                      \
__attribute__((target(tgt))) void pfx##_triad(double *restrict a, const double *restrict b, \
						const double *restrict c, double q, size_t n) \
{                                                                                      \
	size_t j = 0, h = head(a, n, 64);                              \
	VT vq = SET1(q);                                                               \
	for (; j < h; j++)                                                             \
		a[j] = b[j] + q * c[j];                                                \
	for (; j + U * W <= n; j += U * W)                                             \
		for (size_t u = 0; u < U; u++)                                         \
			STORE(a + j + u * W,                                           \
			      ADD(LOAD(b + j + u * W), MUL(vq, LOAD(c + j + u * W)))); \
	for (; j < n; j++)                                                             \
		a[j] = b[j] + q * c[j];                                                \
	FENCE;                                                                         \
}

#define NO_FENCE ((void)0)
#define LD512(p) _mm512_loadu_pd((const void *)(p))
#define ST512(p, v) _mm512_store_pd((void *)(p), v)
#define NT512(p, v) _mm512_stream_pd((void *)(p), v)

STREAM_KERNELS(stream_sse2nt, "sse2", __m128d, 2, 1, _mm_loadu_pd, _mm_stream_pd, _mm_add_pd,
	       _mm_mul_pd, _mm_set1_pd, _mm_sfence())
STREAM_KERNELS(stream_avxnt, "avx", __m256d, 4, 1, _mm256_loadu_pd, _mm256_stream_pd,
	       _mm256_add_pd, _mm256_mul_pd, _mm256_set1_pd, _mm_sfence())
STREAM_KERNELS(stream_avx2, "avx2", __m256d, 4, 2, _mm256_loadu_pd, _mm256_store_pd,
	       _mm256_add_pd, _mm256_mul_pd, _mm256_set1_pd, NO_FENCE)
STREAM_KERNELS(stream_avx2nt, "avx2", __m256d, 4, 2, _mm256_loadu_pd, _mm256_stream_pd,
	       _mm256_add_pd, _mm256_mul_pd, _mm256_set1_pd, _mm_sfence())
STREAM_KERNELS(stream_avx512, "avx512f", __m512d, 8, 1, LD512, ST512, _mm512_add_pd,
	       _mm512_mul_pd, _mm512_set1_pd, NO_FENCE)
STREAM_KERNELS(stream_avx512nt, "avx512f", __m512d, 8, 1, LD512, NT512, _mm512_add_pd,
	       _mm512_mul_pd, _mm512_set1_pd, _mm_sfence())

#else
typedef int stream_x86_unused;   /* ISO C forbids an empty translation unit */
#endif
