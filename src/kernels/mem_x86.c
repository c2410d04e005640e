/* mem_x86.c - x86 memory primitives for x86-64 and i686 builds: rep movsb /
 * rep stosb (ERMS), rep movsq / stosq (movsl / stosl on i386), and vector
 * copies with SSE2, AVX2 and AVX-512, plus non-temporal SSE2/AVX2 stores
 * followed by sfence.  Every vector function carries its own target
 * attribute, so a baseline build still has them and supported() decides at
 * run time (docs/DESIGN.md, "Variant registries").
 *
 * The vector kernels share one shape, generated per instruction set: an
 * unaligned first vector, aligned stores for the body (4 vectors a step),
 * and an unaligned last vector that overlaps the body rather than a byte
 * loop; lengths below one vector use two overlapping smaller moves.
 */
#if defined(__x86_64__) || defined(__i386__)
#include "mem.h"
#include "x86_cpu.h"

#include <immintrin.h>
#include <string.h>

MEM_DECLARE(mem_movsb, 1, 1, 1, 1, 0)
MEM_DECLARE(mem_movsq, 1, 1, 1, 1, 0)
MEM_DECLARE(mem_sse2, 1, 1, 1, 1, 1)
MEM_DECLARE(mem_avx2, 1, 1, 1, 1, 1)
MEM_DECLARE(mem_avx512, 1, 1, 1, 1, 1)
MEM_DECLARE(mem_ntsse2, 1, 1, 1, 1, 0)
MEM_DECLARE(mem_ntavx2, 1, 1, 1, 1, 0)

MEM_KERNELS_BEGIN

/* ---- rep movs / rep stos ---- */

#if defined(__x86_64__)
#define REP_MOVSW "rep movsq"
#define REP_STOSW "rep stosq"
typedef uint64_t rep_word_t;
#else
#define REP_MOVSW "rep movsl"
#define REP_STOSW "rep stosl"
typedef uint32_t rep_word_t;
#endif

static inline void rep_movsb(void *d, const void *s, size_t n)
{
	__asm__ __volatile__("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static inline void rep_stosb(void *d, unsigned char c, size_t n)
{
	__asm__ __volatile__("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

/* Copies n words, then the n % word bytes that are left with movsb. */
static inline void rep_movsw(void *d, const void *s, size_t n)
{
	size_t words = n / sizeof(rep_word_t), rest = n % sizeof(rep_word_t);

	__asm__ __volatile__(REP_MOVSW "\n\tmov %3, %2\n\trep movsb"
			     : "+D"(d), "+S"(s), "+c"(words) : "r"(rest) : "memory");
}

static inline void rep_stosw(void *d, unsigned char c, size_t n)
{
	size_t words = n / sizeof(rep_word_t), rest = n % sizeof(rep_word_t);
	rep_word_t w = (rep_word_t)-1 / 0xff * c;

	__asm__ __volatile__(REP_STOSW "\n\tmov %3, %1\n\trep stosb"
			     : "+D"(d), "+c"(words), "+a"(w) : "r"(rest) : "memory");
}

int mem_movsb_supported(void)
{
	return 1;   /* every x86 runs it; ERMS/FSRM only make it fast */
}

int mem_movsq_supported(void)
{
	return 1;
}

void *mem_movsb_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	rep_movsb(dst, src, n);
	return dst;
}

void *mem_movsb_memset(void *dst, int c, size_t n)
{
	rep_stosb(dst, (unsigned char)c, n);
	return dst;
}

void mem_movsb_copy_page(void *restrict dst, const void *restrict src)
{
	rep_movsb(dst, src, MEM_PAGE);
}

void mem_movsb_clear_page(void *dst)
{
	rep_stosb(dst, 0, MEM_PAGE);
}

void *mem_movsq_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	rep_movsw(dst, src, n);
	return dst;
}

void *mem_movsq_memset(void *dst, int c, size_t n)
{
	rep_stosw(dst, (unsigned char)c, n);
	return dst;
}

void mem_movsq_copy_page(void *restrict dst, const void *restrict src)
{
	rep_movsw(dst, src, MEM_PAGE);
}

void mem_movsq_clear_page(void *dst)
{
	rep_stosw(dst, 0, MEM_PAGE);
}

/* ---- run-time checks ---- */

int mem_sse2_supported(void)
{
	return x86_has(X86_SSE2);
}

int mem_avx2_supported(void)
{
	return x86_has(X86_AVX2);
}

int mem_avx512_supported(void)
{
	return x86_has(X86_AVX512F) && x86_has(X86_AVX512BW);
}

int mem_ntsse2_supported(void)
{
	return mem_sse2_supported();
}

int mem_ntavx2_supported(void)
{
	return mem_avx2_supported();
}

/* ---- moves shorter than one vector ---- */

/* n < 16: two overlapping scalar moves of the largest size that fits. */
static inline void copy_lt16(unsigned char *d, const unsigned char *s, size_t n)
{
	uint64_t a8, b8;
	uint32_t a4, b4;
	uint16_t a2, b2;

	if (n >= 8) {
		memcpy(&a8, s, 8);
		memcpy(&b8, s + n - 8, 8);
		memcpy(d, &a8, 8);
		memcpy(d + n - 8, &b8, 8);
	} else if (n >= 4) {
		memcpy(&a4, s, 4);
		memcpy(&b4, s + n - 4, 4);
		memcpy(d, &a4, 4);
		memcpy(d + n - 4, &b4, 4);
	} else if (n >= 2) {
		memcpy(&a2, s, 2);
		memcpy(&b2, s + n - 2, 2);
		memcpy(d, &a2, 2);
		memcpy(d + n - 2, &b2, 2);
	} else if (n) {
		d[0] = s[0];
	}
}

static inline void set_lt16(unsigned char *d, unsigned char c, size_t n)
{
	uint64_t w8 = 0x0101010101010101ull * c;
	uint32_t w4 = 0x01010101u * c;
	uint16_t w2 = (uint16_t)(0x0101u * c);

	if (n >= 8) {
		memcpy(d, &w8, 8);
		memcpy(d + n - 8, &w8, 8);
	} else if (n >= 4) {
		memcpy(d, &w4, 4);
		memcpy(d + n - 4, &w4, 4);
	} else if (n >= 2) {
		memcpy(d, &w2, 2);
		memcpy(d + n - 2, &w2, 2);
	} else if (n) {
		d[0] = c;
	}
}

__attribute__((target("sse2"))) static inline void copy_lt32(unsigned char *d,
							     const unsigned char *s, size_t n)
{
	if (n < 16) {
		copy_lt16(d, s, n);
		return;
	}
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));
	_mm_storeu_si128((__m128i *)d, a);
	_mm_storeu_si128((__m128i *)(d + n - 16), b);
}

__attribute__((target("sse2"))) static inline void set_lt32(unsigned char *d, unsigned char c,
							    size_t n)
{
	if (n < 16) {
		set_lt16(d, c, n);
		return;
	}
	__m128i v = _mm_set1_epi8((char)c);
	_mm_storeu_si128((__m128i *)d, v);
	_mm_storeu_si128((__m128i *)(d + n - 16), v);
}

__attribute__((target("avx2"))) static inline void copy_lt64(unsigned char *d,
							     const unsigned char *s, size_t n)
{
	if (n < 32) {
		copy_lt32(d, s, n);
		return;
	}
	__m256i a = _mm256_loadu_si256((const __m256i *)s);
	__m256i b = _mm256_loadu_si256((const __m256i *)(s + n - 32));
	_mm256_storeu_si256((__m256i *)d, a);
	_mm256_storeu_si256((__m256i *)(d + n - 32), b);
}

__attribute__((target("avx2"))) static inline void set_lt64(unsigned char *d, unsigned char c,
							    size_t n)
{
	if (n < 32) {
		set_lt32(d, c, n);
		return;
	}
	__m256i v = _mm256_set1_epi8((char)c);
	_mm256_storeu_si256((__m256i *)d, v);
	_mm256_storeu_si256((__m256i *)(d + n - 32), v);
}

/* ---- the vector kernels, one set per instruction set ----
 *
 * VT/W: vector type and width; LD: unaligned load; STU: unaligned store;
 * STA: the body's store to a W-aligned address (aligned or non-temporal);
 * FENCE: what must follow the stores; COPY_LT/SET_LT: moves below W bytes.
 */
#define VEC_COPY(pfx, tgt, VT, W, LD, STU, STA, FENCE, COPY_LT)                            \
__attribute__((target(tgt))) void *pfx##_memcpy(void *restrict dst,                      \
						  const void *restrict src, size_t n)        \
{                                                                                        \
	unsigned char *d = dst;                                                          \
	const unsigned char *s = src;                                                    \
	size_t adv;                                                                      \
	if (n < W) {                                                                     \
		COPY_LT(d, s, n);                                                        \
		return dst;                                                              \
	}                                                                                \
	STU((VT *)d, LD((const VT *)s));                                                 \
	adv = W - ((uintptr_t)d & (W - 1));                                              \
	d += adv, s += adv, n -= adv;                                                    \
	for (; n >= 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W) {                         \
		VT a = LD((const VT *)s), b = LD((const VT *)(s + W));                   \
		VT c = LD((const VT *)(s + 2 * W)), e = LD((const VT *)(s + 3 * W));     \
		STA((VT *)d, a);                                                         \
		STA((VT *)(d + W), b);                                                   \
		STA((VT *)(d + 2 * W), c);                                               \
		STA((VT *)(d + 3 * W), e);                                               \
	}                                                                                \
	for (; n >= W; n -= W, d += W, s += W)                                           \
		STA((VT *)d, LD((const VT *)s));                                         \
	if (n)                                                                           \
		STU((VT *)(d + n - W), LD((const VT *)(s + n - W)));                     \
	FENCE;                                                                           \
	return dst;                                                                      \
}                                                                                        \
__attribute__((target(tgt))) void pfx##_copy_page(void *restrict dst,                    \
						    const void *restrict src)                \
{                                                                                        \
	unsigned char *d = dst;                                                          \
	const unsigned char *s = src;                                                    \
	for (size_t i = 0; i < MEM_PAGE; i += 4 * W) {                                   \
		VT a = LD((const VT *)(s + i)), b = LD((const VT *)(s + i + W));         \
		VT c = LD((const VT *)(s + i + 2 * W)), e = LD((const VT *)(s + i + 3 * W)); \
		STA((VT *)(d + i), a);                                                   \
		STA((VT *)(d + i + W), b);                                               \
		STA((VT *)(d + i + 2 * W), c);                                           \
		STA((VT *)(d + i + 3 * W), e);                                           \
	}                                                                                \
	FENCE;                                                                           \
}

#define VEC_SET(pfx, tgt, VT, W, SET1, STU, STA, FENCE, SET_LT)                            \
__attribute__((target(tgt))) void *pfx##_memset(void *dst, int c, size_t n)              \
{                                                                                        \
	unsigned char *d = dst;                                                          \
	VT v = SET1((char)c);                                                            \
	size_t adv;                                                                      \
	if (n < W) {                                                                     \
		SET_LT(d, (unsigned char)c, n);                                          \
		return dst;                                                              \
	}                                                                                \
	STU((VT *)d, v);                                                                 \
	adv = W - ((uintptr_t)d & (W - 1));                                              \
	d += adv, n -= adv;                                                              \
	for (; n >= 4 * W; n -= 4 * W, d += 4 * W) {                                     \
		STA((VT *)d, v);                                                         \
		STA((VT *)(d + W), v);                                                   \
		STA((VT *)(d + 2 * W), v);                                               \
		STA((VT *)(d + 3 * W), v);                                               \
	}                                                                                \
	for (; n >= W; n -= W, d += W)                                                   \
		STA((VT *)d, v);                                                         \
	if (n)                                                                           \
		STU((VT *)(d + n - W), v);                                               \
	FENCE;                                                                           \
	return dst;                                                                      \
}                                                                                        \
__attribute__((target(tgt))) void pfx##_clear_page(void *dst)                            \
{                                                                                        \
	unsigned char *d = dst;                                                          \
	VT v = SET1(0);                                                                  \
	for (size_t i = 0; i < MEM_PAGE; i += 4 * W) {                                   \
		STA((VT *)(d + i), v);                                                   \
		STA((VT *)(d + i + W), v);                                               \
		STA((VT *)(d + i + 2 * W), v);                                           \
		STA((VT *)(d + i + 3 * W), v);                                           \
	}                                                                                \
	FENCE;                                                                           \
}

/* Byte sum: psadbw against zero adds 8 bytes into each 64-bit lane.  Four
 * vectors a step into four chains, psadbw taking its vector straight from
 * memory (|0 - b| = |b - 0|: zero is the register operand), so a vector
 * costs one load-op and one add: the loads, two a cycle on most cores,
 * are the limit rather than the instruction count. */
#define VEC_READ(pfx, tgt, VT, W, LD, SAD, ADD64, ZERO, STU)                                \
__attribute__((target(tgt))) uint64_t pfx##_read(const void *src, size_t n)              \
{                                                                                        \
	const unsigned char *s = src;                                                    \
	VT zero = ZERO(), acc0 = ZERO(), acc1 = ZERO(), acc2 = ZERO(), acc3 = ZERO();    \
	uint64_t lanes[W / 8], sum = 0;                                                  \
	for (; n >= 4 * W; n -= 4 * W, s += 4 * W) {                                     \
		acc0 = ADD64(acc0, SAD(zero, LD((const VT *)s)));                        \
		acc1 = ADD64(acc1, SAD(zero, LD((const VT *)(s + W))));                  \
		acc2 = ADD64(acc2, SAD(zero, LD((const VT *)(s + 2 * W))));              \
		acc3 = ADD64(acc3, SAD(zero, LD((const VT *)(s + 3 * W))));              \
	}                                                                                \
	for (; n >= W; n -= W, s += W)                                                   \
		acc0 = ADD64(acc0, SAD(zero, LD((const VT *)s)));                        \
	STU((VT *)lanes, ADD64(ADD64(acc0, acc1), ADD64(acc2, acc3)));                   \
	for (size_t i = 0; i < W / 8; i++)                                               \
		sum += lanes[i];                                                         \
	while (n--)                                                                      \
		sum += *s++;                                                             \
	return sum;                                                                      \
}

#define NO_FENCE ((void)0)

VEC_COPY(mem_sse2, "sse2", __m128i, 16, _mm_loadu_si128, _mm_storeu_si128, _mm_store_si128,
	 NO_FENCE, copy_lt16)
VEC_SET(mem_sse2, "sse2", __m128i, 16, _mm_set1_epi8, _mm_storeu_si128, _mm_store_si128,
	NO_FENCE, set_lt16)
VEC_READ(mem_sse2, "sse2", __m128i, 16, _mm_loadu_si128, _mm_sad_epu8, _mm_add_epi64,
	 _mm_setzero_si128, _mm_storeu_si128)

VEC_COPY(mem_avx2, "avx2", __m256i, 32, _mm256_loadu_si256, _mm256_storeu_si256,
	 _mm256_store_si256, NO_FENCE, copy_lt32)
VEC_SET(mem_avx2, "avx2", __m256i, 32, _mm256_set1_epi8, _mm256_storeu_si256,
	_mm256_store_si256, NO_FENCE, set_lt32)
VEC_READ(mem_avx2, "avx2", __m256i, 32, _mm256_loadu_si256, _mm256_sad_epu8, _mm256_add_epi64,
	 _mm256_setzero_si256, _mm256_storeu_si256)

/* AVX-512 intrinsics take void pointers; these keep the macros' shape. */
#define LD512(p) _mm512_loadu_si512((const void *)(p))
#define STU512(p, v) _mm512_storeu_si512((void *)(p), v)
#define STA512(p, v) _mm512_store_si512((void *)(p), v)

VEC_COPY(mem_avx512, "avx512f,avx512bw", __m512i, 64, LD512, STU512, STA512, NO_FENCE,
	 copy_lt64)
VEC_SET(mem_avx512, "avx512f,avx512bw", __m512i, 64, _mm512_set1_epi8, STU512, STA512,
	NO_FENCE, set_lt64)
VEC_READ(mem_avx512, "avx512f,avx512bw", __m512i, 64, LD512, _mm512_sad_epu8,
	 _mm512_add_epi64, _mm512_setzero_si512, STU512)

VEC_COPY(mem_ntsse2, "sse2", __m128i, 16, _mm_loadu_si128, _mm_storeu_si128, _mm_stream_si128,
	 _mm_sfence(), copy_lt16)
VEC_SET(mem_ntsse2, "sse2", __m128i, 16, _mm_set1_epi8, _mm_storeu_si128, _mm_stream_si128,
	_mm_sfence(), set_lt16)

VEC_COPY(mem_ntavx2, "avx2", __m256i, 32, _mm256_loadu_si256, _mm256_storeu_si256,
	 _mm256_stream_si256, _mm_sfence(), copy_lt32)
VEC_SET(mem_ntavx2, "avx2", __m256i, 32, _mm256_set1_epi8, _mm256_storeu_si256,
	_mm256_stream_si256, _mm_sfence(), set_lt32)

MEM_KERNELS_END

#else
typedef int mem_x86_unused;   /* ISO C forbids an empty translation unit */
#endif
