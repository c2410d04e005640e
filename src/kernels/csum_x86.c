/* csum_x86.c - x86 checksum variants:
 *
 *   adc64   (x86-64) inline-asm add/adc over 128-byte blocks in two chains:
 *           each chain starts with add, so the second does not wait for
 *           the first one's carry flag and the two run side by side
 *   adc32   (i686) the adcl loop: one carry chain through the whole buffer,
 *           loop control by lea/dec, which leave the carry flag alone
 *   sse2, avx2, avx512
 *           three vector operations per vector: words biased to signed,
 *           pairs added into 32-bit lanes by pmaddwd, four accumulators,
 *           widened to 64 bits every 8192 iterations (see CSUM_SIMD);
 *           avx512 needs AVX-512BW for the 16-bit pmaddwd
 *   ip-adc  ip_fast_csum with an adc chain (both x86-64 and i686)
 *   copy-avx2  checksum-and-copy, one pass with AVX2
 *
 * x86 reads unaligned words at full speed, so these variants need no
 * alignment prologue: word pairing follows the buffer start (csum.h).
 * SIMD code is compiled per function with target attributes and chosen at
 * run time, so a baseline i686 or x86-64 build still carries it.
 */
#if defined(__x86_64__) || defined(__i386__)
#include "csum_impl.h"
#include "x86_cpu.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

uint32_t csum_sse2(const void *buf, size_t len, uint32_t seed);
uint32_t csum_avx2(const void *buf, size_t len, uint32_t seed);
uint32_t csum_avx512(const void *buf, size_t len, uint32_t seed);
int csum_sse2_supported(void);
int csum_avx2_supported(void);
int csum_avx512_supported(void);
uint16_t csum_ip_adc(const void *iph, unsigned ihl);
uint16_t csum_ip_generic(const void *iph, unsigned ihl);
uint32_t csum_copy_avx2(void *dst, const void *src, size_t len, uint32_t seed);

int csum_sse2_supported(void)
{
	return x86_has(X86_SSE2);
}

int csum_avx2_supported(void)
{
	return x86_has(X86_AVX2);
}

int csum_avx512_supported(void)
{
	return x86_has(X86_AVX512F) && x86_has(X86_AVX512BW);
}

/* ---- adc64: two add/adc chains (x86-64) ---- */

#if defined(__x86_64__)
uint32_t csum_adc64(const void *buf, size_t len, uint32_t seed);

#define ADC8(chain, base)                          \
	"addq " #base "+0(%[p]), %[" chain "]\n\t"     \
	"adcq " #base "+8(%[p]), %[" chain "]\n\t"     \
	"adcq " #base "+16(%[p]), %[" chain "]\n\t"    \
	"adcq " #base "+24(%[p]), %[" chain "]\n\t"    \
	"adcq " #base "+32(%[p]), %[" chain "]\n\t"    \
	"adcq " #base "+40(%[p]), %[" chain "]\n\t"    \
	"adcq " #base "+48(%[p]), %[" chain "]\n\t"    \
	"adcq " #base "+56(%[p]), %[" chain "]\n\t"    \
	"adcq $0, %[" chain "]\n\t"

/* nblocks >= 1 blocks of 128 bytes: chain a takes the first 64 bytes of
 * each block, chain b the second. */
static uint64_t adc64_blocks(const unsigned char *p, size_t nblocks, uint64_t a)
{
	uint64_t b = 0;

	__asm__("1:\n\t"
		ADC8("a", 0)
		ADC8("b", 64)
		"leaq 128(%[p]), %[p]\n\t"
		"decq %[n]\n\t"
		"jnz 1b\n\t"
		: [a] "+r"(a), [b] "+r"(b), [p] "+r"(p), [n] "+r"(nblocks)
		:
		: "cc", "memory");
	return csum_add64(a, b);
}

#undef ADC8

uint32_t csum_adc64(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t sum = csum_native_seed(seed, 0);
	size_t nblocks = len / 128;

	if (nblocks)
		sum = adc64_blocks(p, nblocks, sum);
	sum = csum_add64(sum, csum_native_tail(p + 128 * nblocks, len - 128 * nblocks));
	return csum_native_result(csum_fold64(sum), 0);
}
#endif

/* ---- adc32: the i686 adcl loop ---- */

#if defined(__i386__)
uint32_t csum_adc32(const void *buf, size_t len, uint32_t seed);

/* nblocks >= 1 blocks of 32 bytes in one carry chain. */
static uint32_t adc32_blocks(const unsigned char *p, size_t nblocks, uint32_t sum)
{
	__asm__("clc\n"
		"1:\n\t"
		"adcl 0(%[p]), %[s]\n\t"
		"adcl 4(%[p]), %[s]\n\t"
		"adcl 8(%[p]), %[s]\n\t"
		"adcl 12(%[p]), %[s]\n\t"
		"adcl 16(%[p]), %[s]\n\t"
		"adcl 20(%[p]), %[s]\n\t"
		"adcl 24(%[p]), %[s]\n\t"
		"adcl 28(%[p]), %[s]\n\t"
		"leal 32(%[p]), %[p]\n\t"
		"decl %[n]\n\t"
		"jnz 1b\n\t"
		"adcl $0, %[s]\n\t"
		: [s] "+r"(sum), [p] "+r"(p), [n] "+r"(nblocks)
		:
		: "cc", "memory");
	return sum;
}

uint32_t csum_adc32(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint32_t sum = csum_native_seed(seed, 0);
	size_t nblocks = len / 32;

	if (nblocks)
		sum = adc32_blocks(p, nblocks, sum);
	sum = csum_add32(sum, csum_fold64(csum_native_tail(p + 32 * nblocks, len - 32 * nblocks)));
	return csum_native_result(sum, 0);
}
#endif

/* ---- SIMD: pmaddwd of biased words into 32-bit lanes ---- */

#define SSE2_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SSE2_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define AVX2_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define AVX2_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define AVX512_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define AVX512_STORE(p, v) _mm512_storeu_si512((void *)(p), v)

#define CSUM_SIMD_SPAN 8192   /* iterations before four summed lanes could wrap */

/* Generates csum_<pfx>() from pfx_vectors(p, len, &done), the native sum
 * of the whole vectors at p.
 *
 * Three operations per vector.  XOR with 0x8000 turns each unsigned word w
 * into the signed word w - 32768; pmaddwd against ones adds adjacent pairs
 * into signed 32-bit lanes, w0 + w1 - 65536, in [-65536, 65534]; a lane
 * adds one per iteration.  Four accumulators of 8192 iterations summed
 * stay within a signed 32-bit lane; they are then widened to 64 bits, and
 * the bias, 65536 per lane per vector, is added back at the end: the
 * result is the exact sum of the words. */
#define CSUM_SIMD(pfx, tgt, VT, VB, LOAD, STORE, XOR, MADD, ADD, SET16, ZERO)             \
__attribute__((target(tgt))) static int64_t pfx##_widen(VT s)                          \
{                                                                                      \
	int32_t lane[VB / 4];                                                          \
	int64_t t = 0;                                                                 \
	STORE(lane, s);                                                                \
	for (size_t i = 0; i < VB / 4; i++)                                            \
		t += lane[i];                                                          \
	return t;                                                                      \
}                                                                                      \
__attribute__((target(tgt))) static uint64_t pfx##_vectors(const unsigned char *p,     \
							   size_t len, size_t *done)   \
{                                                                                      \
	const VT bias = SET16(-32768), one = SET16(1);                                 \
	size_t nvec = len / VB, i = 0;                                                 \
	int64_t total = 0;                                                             \
	*done = nvec * VB;                                                             \
	while (nvec - i >= 4) {                                                        \
		size_t n4 = (nvec - i) / 4 < CSUM_SIMD_SPAN ? (nvec - i) / 4 : CSUM_SIMD_SPAN; \
		size_t end = i + 4 * n4;                                               \
		VT a0 = ZERO(), a1 = ZERO(), a2 = ZERO(), a3 = ZERO();                 \
		for (; i < end; i += 4, p += 4 * VB) {                                 \
			a0 = ADD(a0, MADD(XOR(LOAD(p), bias), one));                   \
			a1 = ADD(a1, MADD(XOR(LOAD(p + VB), bias), one));              \
			a2 = ADD(a2, MADD(XOR(LOAD(p + 2 * VB), bias), one));          \
			a3 = ADD(a3, MADD(XOR(LOAD(p + 3 * VB), bias), one));          \
		}                                                                      \
		total += pfx##_widen(ADD(ADD(a0, a1), ADD(a2, a3)));                   \
	}                                                                              \
	if (i < nvec) {                                                                \
		VT a0 = ZERO();                                                        \
		for (; i < nvec; i++, p += VB)                                         \
			a0 = ADD(a0, MADD(XOR(LOAD(p), bias), one));                   \
		total += pfx##_widen(a0);                                              \
	}                                                                              \
	return (uint64_t)(total + (int64_t)nvec * (65536 * (VB / 4)));                \
}                                                                                      \
uint32_t csum_##pfx(const void *buf, size_t len, uint32_t seed)                        \
{                                                                                      \
	const unsigned char *p = buf;                                                  \
	uint64_t sum = csum_native_seed(seed, 0);                                      \
	size_t done;                                                                   \
	sum = csum_add64(sum, pfx##_vectors(p, len, &done));                           \
	sum = csum_add64(sum, csum_native_tail(p + done, len - done));                 \
	return csum_native_result(csum_fold64(sum), 0);                                \
}

CSUM_SIMD(sse2, "sse2", __m128i, 16, SSE2_LOAD, SSE2_STORE, _mm_xor_si128, _mm_madd_epi16,
	  _mm_add_epi32, _mm_set1_epi16, _mm_setzero_si128)
CSUM_SIMD(avx2, "avx2", __m256i, 32, AVX2_LOAD, AVX2_STORE, _mm256_xor_si256,
	  _mm256_madd_epi16, _mm256_add_epi32, _mm256_set1_epi16, _mm256_setzero_si256)
CSUM_SIMD(avx512, "avx512f,avx512bw", __m512i, 64, AVX512_LOAD, AVX512_STORE,
	  _mm512_xor_si512, _mm512_madd_epi16, _mm512_add_epi32, _mm512_set1_epi16,
	  _mm512_setzero_si512)

/* ---- avx2-q: 64-bit lane adds, no multiply ----
 *
 * Each 32-byte vector v is four 64-bit words.  all += v (vpaddq) keeps
 * their sum modulo 2^64 per lane, losing the carries; hi += v >> 32 keeps
 * the exact sum of their high halves.  The exact sum of the low halves is
 * then all - (hi << 32) modulo 2^64, exact while fewer than 2^32 words
 * are added per lane (a chunk is at most 2^30 bytes), and since
 * 2^32 == 1 (mod 0xffff), lo + hi folds to the sum of the words.  Three
 * vector operations per vector (vpaddq, vpsrlq, vpaddq) on any vector ALU
 * port, none on the multiplier, eight vectors a step in four chains; the
 * lanes are reduced in registers and the < 32 bytes left go through
 * csum_native_tail. */

uint32_t csum_avx2q(const void *buf, size_t len, uint32_t seed);

#define AVX2Q_CHUNK ((size_t)1 << 30)

/* Adds the exact sums of the lanes, lo and hi (each < 2^57), into one value
 * that folds to the same ones'-complement sum. */
__attribute__((target("avx2"))) static uint64_t avx2q_reduce(__m256i all, __m256i hi)
{
	__m256i lo = _mm256_sub_epi64(all, _mm256_slli_epi64(hi, 32));
	__m256i t = _mm256_add_epi64(lo, hi);                      /* < 2^58 per lane */
	__m256i m = _mm256_set1_epi64x(0xffffffff);
	t = _mm256_add_epi64(_mm256_and_si256(t, m), _mm256_srli_epi64(t, 32)); /* < 2^33 */
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
	s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
	uint64_t r;
	_mm_storel_epi64((__m128i *)(void *)&r, s);
	return r;
}

/* One vector into a chain; the empty asms keep the compiler from loading
 * the vector twice (once folded into the add, once for the shift: the
 * loads are the limit) and from reassociating the adds. */
#define AVX2Q_STEP(a, h, v)                                                 \
	do {                                                                \
		__m256i v_ = (v);                                           \
		__asm__("" : "+x"(v_));   /* one load, in a register */     \
		a = _mm256_add_epi64(a, v_);                                \
		h = _mm256_add_epi64(h, _mm256_srli_epi64(v_, 32));         \
		__asm__("" : "+x"(a), "+x"(h));                             \
	} while (0)

__attribute__((target("avx2"))) static uint64_t csum_avx2q_chunk(const unsigned char *p, size_t n)
{
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	__m256i h0 = a0, h1 = a0, h2 = a0, h3 = a0;

	for (; n >= 256; n -= 256, p += 256) {
		AVX2Q_STEP(a0, h0, AVX2_LOAD(p));
		AVX2Q_STEP(a1, h1, AVX2_LOAD(p + 32));
		AVX2Q_STEP(a2, h2, AVX2_LOAD(p + 64));
		AVX2Q_STEP(a3, h3, AVX2_LOAD(p + 96));
		AVX2Q_STEP(a0, h0, AVX2_LOAD(p + 128));
		AVX2Q_STEP(a1, h1, AVX2_LOAD(p + 160));
		AVX2Q_STEP(a2, h2, AVX2_LOAD(p + 192));
		AVX2Q_STEP(a3, h3, AVX2_LOAD(p + 224));
	}
	for (; n >= 32; n -= 32, p += 32)
		AVX2Q_STEP(a0, h0, AVX2_LOAD(p));
	/* Sums modulo 2^64 stay sums modulo 2^64; the high halves stay exact. */
	a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1), _mm256_add_epi64(a2, a3));
	h0 = _mm256_add_epi64(_mm256_add_epi64(h0, h1), _mm256_add_epi64(h2, h3));
	return avx2q_reduce(a0, h0);
}

uint32_t csum_avx2q(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t sum = csum_native_seed(seed, 0);

	while (len >= 32) {
		size_t n = len < AVX2Q_CHUNK ? len / 32 * 32 : AVX2Q_CHUNK;
		sum = csum_add64(sum, csum_avx2q_chunk(p, n));
		p += n;
		len -= n;
	}
	sum = csum_add64(sum, csum_native_tail(p, len));
	return csum_native_result(csum_fold64(sum), 0);
}

/* ---- ip_fast_csum: an adc chain over 5..15 words ---- */

uint16_t csum_ip_adc(const void *iph, unsigned ihl)
{
	const unsigned char *p = iph;
	uint32_t sum, n = ihl - 4;

	if (ihl < 5)
		return csum_ip_generic(iph, ihl);
	__asm__("movl 0(%[p]), %[s]\n\t"
		"addl 4(%[p]), %[s]\n\t"
		"adcl 8(%[p]), %[s]\n\t"
		"adcl 12(%[p]), %[s]\n"
		"1:\n\t"
		"adcl 16(%[p]), %[s]\n\t"
		"lea 4(%[p]), %[p]\n\t"
		"decl %[n]\n\t"
		"jnz 1b\n\t"
		"adcl $0, %[s]\n\t"
		: [s] "=&r"(sum), [p] "+r"(p), [n] "+r"(n)
		:
		: "cc", "memory");
	return (uint16_t)~csum_fold(csum_native_result(sum, 0));
}

/* ---- checksum and copy, one AVX2 pass ---- */

/* As avx2_vectors, one accumulator, each vector stored as it is added. */
__attribute__((target("avx2"))) static uint64_t copy_avx2_vectors(unsigned char *d,
								  const unsigned char *p,
								  size_t len, size_t *done)
{
	const __m256i bias = _mm256_set1_epi16(-32768), one = _mm256_set1_epi16(1);
	size_t nvec = len / 32, i = 0;
	int64_t total = 0;

	*done = nvec * 32;
	while (i < nvec) {
		size_t end = nvec - i < 4 * CSUM_SIMD_SPAN ? nvec : i + 4 * CSUM_SIMD_SPAN;
		__m256i acc = _mm256_setzero_si256();
		for (; i < end; i++, p += 32, d += 32) {
			__m256i a = AVX2_LOAD(p);
			AVX2_STORE(d, a);
			acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_xor_si256(a, bias), one));
		}
		total += avx2_widen(acc);
	}
	return (uint64_t)(total + (int64_t)nvec * (65536 * 8));
}

uint32_t csum_copy_avx2(void *dst, const void *src, size_t len, uint32_t seed)
{
	const unsigned char *p = src;
	unsigned char *d = dst;
	uint64_t sum = csum_native_seed(seed, 0);
	size_t done;

	sum = csum_add64(sum, copy_avx2_vectors(d, p, len, &done));
	memcpy(d + done, p + done, len - done);
	sum = csum_add64(sum, csum_native_tail(p + done, len - done));
	return csum_native_result(csum_fold64(sum), 0);
}

#else
typedef int csum_x86_unused;   /* ISO C forbids an empty translation unit */
#endif
