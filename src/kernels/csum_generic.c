/* csum_generic.c - the portable checksum variants every build carries:
 *
 *   reference   one byte at a time, the checker's yardstick (not a variant)
 *   ref16       RFC 1071's 16-bit loop, kept scalar (no auto-vectorisation)
 *   generic32   aligned 32-bit words with carry counting after an alignment
 *               prologue, the shape of a generic C library checksum
 *   unrolled32  16 words per block entered by a computed jump (Duff's
 *               device), the shape of the i386 "PPro" checksum
 *   c64         64-bit words, four accumulators, carries counted
 *
 * plus the portable ip_fast_csum and checksum-and-copy.  Semantics and the
 * byte-order bookkeeping are described in csum.h and csum_impl.h.
 */
#include "csum_impl.h"

#include <stdint.h>
#include <string.h>

uint32_t csum_ref16(const void *buf, size_t len, uint32_t seed);
uint32_t csum_generic32(const void *buf, size_t len, uint32_t seed);
uint32_t csum_unrolled32(const void *buf, size_t len, uint32_t seed);
uint32_t csum_c64(const void *buf, size_t len, uint32_t seed);
uint16_t csum_ip_generic(const void *iph, unsigned ihl);
uint32_t csum_copy_c64(void *dst, const void *src, size_t len, uint32_t seed);
uint32_t csum_copy_memcpy(void *dst, const void *src, size_t len, uint32_t seed);

int csum_always(void)
{
	return 1;
}

uint32_t csum_reference(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint64_t sum = seed;

	for (size_t i = 0; i < len; i++)
		sum += (i & 1) ? p[i] : (uint64_t)p[i] << 8;
	while (sum >> 32)
		sum = (sum & 0xffffffffu) + (sum >> 32);
	return (uint32_t)sum;
}

/* ---- ref16: the honest scalar baseline ---- */

/* At -O3 gcc and clang would turn the 16-bit loop into SIMD code; ref16
 * must stay one 16-bit add per word (objdump shows it: no xmm/ymm/v regs). */
#if defined(__clang__)
#define CSUM_SCALAR_FN
#define CSUM_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define CSUM_SCALAR_FN __attribute__((optimize("no-tree-vectorize")))
#define CSUM_SCALAR_LOOP
#endif

/* RFC 1071's loop adds 16-bit words into a 32-bit accumulator and folds
 * once at the end; folding every 32768 words keeps that exact for any
 * length (32768 * 0xffff + 0x1fffe < 2^32). */
CSUM_SCALAR_FN uint32_t csum_ref16(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	uint32_t s = csum_native_seed(seed, 0);
	uint32_t sum = (s & 0xffff) + (s >> 16);

	while (len >= 2) {
		size_t words = len / 2 < 32768 ? len / 2 : 32768;
		len -= 2 * words;
		CSUM_SCALAR_LOOP
		for (; words; words--, p += 2)
			sum += csum_load16(p);
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len)
		sum += csum_byte_first(*p);
	return csum_native_result(sum, 0);
}

/* ---- generic32: alignment prologue, then aligned 32-bit words ---- */

/* Sum of n/4 aligned words with the carries counted; at most 4 GiB per
 * call so the 32-bit carry count cannot wrap. */
static uint32_t add_words32(const unsigned char *p, size_t n, uint32_t sum)
{
	uint32_t carry = 0;

	for (; n >= 4; p += 4, n -= 4) {
		uint32_t w = csum_load32a(p);
		sum += w;
		carry += sum < w;
	}
	return csum_add32(sum, carry);
}

uint32_t csum_generic32(const void *buf, size_t len, uint32_t seed)
{
	const size_t chunk = (size_t)1 << 30;
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint32_t sum = csum_native_seed(seed, odd);

	if (odd && len) {
		sum = csum_add32(sum, csum_byte_second(*p));
		p++;
		len--;
	}
	if (((uintptr_t)p & 2) && len >= 2) {
		sum = csum_add32(sum, csum_load16(p));
		p += 2;
		len -= 2;
	}
	while (len >= 4) {
		size_t n = (len < chunk ? len : chunk) & ~(size_t)3;
		sum = add_words32(p, n, sum);
		p += n;
		len -= n;
	}
	if (len >= 2) {
		sum = csum_add32(sum, csum_load16(p));
		p += 2;
		len -= 2;
	}
	if (len)
		sum = csum_add32(sum, csum_byte_first(*p));
	return csum_native_result(sum, odd);
}

/* ---- unrolled32: Duff's device over blocks of 16 aligned words ---- */

#define W(j) s += csum_load32a(q + (off + 4 * (j)))
#define WF(j) W(j); __attribute__((fallthrough))

/* Sum of nwords aligned words at q.  The first, partial block is entered
 * in its middle: off starts negative so that position j of the block reads
 * q + off + 4j, and entering at "case r" runs the last r positions. */
static uint64_t add_words_duff(const unsigned char *q, size_t nwords)
{
	uint64_t s = 0;
	size_t r = nwords % 16, blocks = (nwords + 15) / 16;
	ptrdiff_t off = r ? (ptrdiff_t)(4 * r) - 64 : 0;

	if (!nwords)
		return 0;
	switch (r) {
	case 0: do {  WF(0);
	case 15:      WF(1);
	case 14:      WF(2);
	case 13:      WF(3);
	case 12:      WF(4);
	case 11:      WF(5);
	case 10:      WF(6);
	case 9:       WF(7);
	case 8:       WF(8);
	case 7:       WF(9);
	case 6:       WF(10);
	case 5:       WF(11);
	case 4:       WF(12);
	case 3:       WF(13);
	case 2:       WF(14);
	case 1:       W(15);
			off += 64;
		} while (--blocks);
	}
	return s;
}

#undef WF
#undef W

uint32_t csum_unrolled32(const void *buf, size_t len, uint32_t seed)
{
	const size_t chunk = (size_t)1 << 30;   /* 2^28 words: s cannot wrap */
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint64_t sum = csum_native_seed(seed, odd);

	if (odd && len) {
		sum += csum_byte_second(*p);
		p++;
		len--;
	}
	if (((uintptr_t)p & 2) && len >= 2) {
		sum += csum_load16(p);
		p += 2;
		len -= 2;
	}
	while (len >= 4) {
		size_t n = (len < chunk ? len : chunk) & ~(size_t)3;
		sum = csum_add64(sum, add_words_duff(p, n / 4));
		p += n;
		len -= n;
	}
	sum = csum_add64(sum, csum_native_tail(p, len));
	return csum_native_result(csum_fold64(sum), odd);
}

/* ---- c64: 64-bit words, four accumulators, carries counted ---- */

#define ADDC(s, c, ptr)                      \
	do {                                 \
		uint64_t w_ = csum_load64a(ptr); \
		s += w_;                     \
		c += s < w_;                 \
	} while (0)

/* Native sum of the aligned 32-byte blocks at p; *done gets the bytes. */
static uint64_t c64_blocks(const unsigned char *p, size_t len, size_t *done)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0;
	size_t n = len & ~(size_t)31;

	for (size_t i = 0; i < n; i += 32) {
		ADDC(s0, c0, p + i);
		ADDC(s1, c1, p + i + 8);
		ADDC(s2, c2, p + i + 16);
		ADDC(s3, c3, p + i + 24);
	}
	*done = n;
	return csum_add64(csum_add64(s0, s1), csum_add64(csum_add64(s2, s3), c0 + c1 + c2 + c3));
}

#undef ADDC

uint32_t csum_c64(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint64_t sum = csum_native_seed(seed, odd);
	size_t done;

	if (odd && len) {
		sum += csum_byte_second(*p);
		p++;
		len--;
	}
	for (; ((uintptr_t)p & 7) && len >= 2; p += 2, len -= 2)
		sum += csum_load16(p);
	sum = csum_add64(sum, c64_blocks(p, len, &done));
	sum = csum_add64(sum, csum_native_tail(p + done, len - done));
	return csum_native_result(csum_fold64(sum), odd);
}

/* ---- ip_fast_csum: a 20..60-byte header ---- */

uint16_t csum_ip_generic(const void *iph, unsigned ihl)
{
	const unsigned char *p = iph;
	uint64_t s = 0;

	for (unsigned i = 0; i < ihl; i++)
		s += csum_load32(p + 4 * i);
	return (uint16_t)~csum_fold(csum_native_result(csum_fold64(s), 0));
}

/* ---- checksum and copy ---- */

/* One pass: each 64-bit word is loaded once, stored and added. */
uint32_t csum_copy_c64(void *dst, const void *src, size_t len, uint32_t seed)
{
	const unsigned char *p = src;
	unsigned char *d = dst;
	uint64_t s0 = csum_native_seed(seed, 0), s1 = 0, c0 = 0, c1 = 0;

	for (; len >= 16; p += 16, d += 16, len -= 16) {
		uint64_t w0 = csum_load64(p), w1 = csum_load64(p + 8);
		memcpy(d, &w0, 8);
		memcpy(d + 8, &w1, 8);
		s0 += w0;
		c0 += s0 < w0;
		s1 += w1;
		c1 += s1 < w1;
	}
	memcpy(d, p, len);
	s0 = csum_add64(csum_add64(s0, s1), c0 + c1);
	s0 = csum_add64(s0, csum_native_tail(p, len));
	return csum_native_result(csum_fold64(s0), 0);
}

/* Two passes, as code without a fused routine does: copy, then sum. */
uint32_t csum_copy_memcpy(void *dst, const void *src, size_t len, uint32_t seed)
{
	memcpy(dst, src, len);
	return csum_c64(dst, len, seed);
}
