/* csum_impl.h - helpers shared by the checksum variants (not part of the
 * API in csum.h): native-order loads, end-around-carry adds, folds, and the
 * byte-order bookkeeping every variant needs.
 *
 * Fast variants add 16-, 32- or 64-bit words in this CPU's native byte
 * order.  A native sum is congruent (mod 0xffff) to the network-order sum
 * on a big-endian CPU and to its byte-swapped value on a little-endian one.
 * Byte-swapping a 16-bit value is multiplying it by 2^8 (mod 0xffff), and
 * because 0xffff divides 2^32 - 1, rotating a 32-bit partial sum by 8 bits
 * does the same: csum_rot8() converts between the two orders without first
 * folding, and maps 0 to 0 and non-zero to non-zero.
 *
 * A variant that aligns its pointer and meets an odd start address takes
 * the first byte alone as the second byte of a word; every later word is
 * then paired one byte off, which again is a byte swap of the whole sum.
 * So: seed in with csum_native_seed(seed, odd), sum native words, and out
 * with csum_native_result(sum, odd).
 */
#ifndef BB_KERNELS_CSUM_IMPL_H
#define BB_KERNELS_CSUM_IMPL_H

#include "csum.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CSUM_LITTLE_ENDIAN 0
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSUM_LITTLE_ENDIAN 1
#else
#error "cannot tell this CPU's byte order (__BYTE_ORDER__)"
#endif

static inline uint32_t csum_rot8(uint32_t x)
{
	return (x >> 8) | (x << 24);
}

/* a + b with the carry out of bit 31 added back in (ones' complement). */
static inline uint32_t csum_add32(uint32_t a, uint32_t b)
{
	uint32_t r = a + b;
	return r + (r < b);
}

static inline uint64_t csum_add64(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;
	return r + (r < b);
}

/* 64-bit ones'-complement sum to 32 bits (2^32 == 1 mod 0xffff). */
static inline uint32_t csum_fold64(uint64_t x)
{
	return csum_add32((uint32_t)x, (uint32_t)(x >> 32));
}

/* Seed converted to the order of the native words that follow. */
static inline uint32_t csum_native_seed(uint32_t seed, int odd)
{
	return (CSUM_LITTLE_ENDIAN ^ odd) ? csum_rot8(seed) : seed;
}

/* A native (or, after an odd start, one-byte-shifted) sum back to the
 * network-order domain of the API. */
static inline uint32_t csum_native_result(uint32_t sum, int odd)
{
	return (CSUM_LITTLE_ENDIAN ^ odd) ? csum_rot8(sum) : sum;
}

/* Native-order loads from any address (memcpy compiles to one load where
 * the CPU allows unaligned access). */
static inline uint16_t csum_load16(const unsigned char *p)
{
	uint16_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

static inline uint32_t csum_load32(const unsigned char *p)
{
	uint32_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

static inline uint64_t csum_load64(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

/* Loads from addresses the caller has aligned (one instruction everywhere). */
static inline uint32_t csum_load32a(const unsigned char *p)
{
	return csum_load32(__builtin_assume_aligned(p, 4));
}

static inline uint64_t csum_load64a(const unsigned char *p)
{
	return csum_load64(__builtin_assume_aligned(p, 8));
}

/* A lone byte as the first (network high) byte of a native word... */
static inline uint32_t csum_byte_first(unsigned char b)
{
	return CSUM_LITTLE_ENDIAN ? b : (uint32_t)b << 8;
}

/* ...and as the second byte of a native word. */
static inline uint32_t csum_byte_second(unsigned char b)
{
	return CSUM_LITTLE_ENDIAN ? (uint32_t)b << 8 : b;
}

/* Native sum of the bytes left at the end, a word at a time (8, 4, 2,
 * then 1 bytes), never reading past p + n.  p is at an even offset from
 * the start of the pairing. */
static inline uint64_t csum_native_tail(const unsigned char *p, size_t n)
{
	uint64_t s = 0, t = 0;

	for (; n >= 8; p += 8, n -= 8)
		s = csum_add64(s, csum_load64(p));
	if (n >= 4) {
		t += csum_load32(p);
		p += 4;
		n -= 4;
	}
	if (n >= 2) {
		t += csum_load16(p);
		p += 2;
		n -= 2;
	}
	if (n)
		t += csum_byte_first(*p);
	return csum_add64(s, t);
}

#endif
