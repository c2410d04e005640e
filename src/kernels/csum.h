/* csum.h - the Internet checksum (RFC 1071) kernels: the API every variant
 * implements, the three variant registries (partial sums, ip_fast_csum and
 * checksum-and-copy) and the correctness checker that `selftest` and the
 * unit tests run (docs/DESIGN.md, "Variant registries").
 *
 * Semantics, identical for every variant on every CPU and byte order:
 *
 *   The data is read as 16-bit words in network byte order: word i is
 *   (byte[2i] << 8) | byte[2i+1], and an odd last byte b counts as b << 8.
 *   Pairing is relative to the start of the buffer, never to its address,
 *   so an odd start address changes nothing.
 *
 *   csum_fn(buf, len, seed) returns a 32-bit partial sum P with
 *       P == seed + sum(words)   (mod 0xffff)
 *   and P == 0 only when seed and every byte are zero (ones'-complement
 *   addition never produces "negative zero" from non-zero inputs).  P
 *   itself may differ between variants; only csum_fold(P) is defined.
 *
 *   P is a valid seed: csum(b + k, n - k, csum(b, k, s)) folds to the same
 *   value as csum(b, n, s) whenever k is even.
 *
 *   csum_fold(P) is the 16-bit ones'-complement sum in network byte order:
 *   0 for all-zero input with seed 0, otherwise 1..0xffff.  The RFC 1071
 *   example 00 01 f2 03 f4 f5 f6 f7 folds to 0xddf2.  The checksum field
 *   of a header is ~csum_fold(P) & 0xffff, stored most significant byte
 *   first.
 */
#ifndef BB_KERNELS_CSUM_H
#define BB_KERNELS_CSUM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A partial ones'-complement sum of len bytes at buf, seeded with seed. */
typedef uint32_t (*csum_fn)(const void *buf, size_t len, uint32_t seed);

/* The checksum of an IPv4 header of ihl 32-bit words (5..15, i.e. 20..60
 * bytes): ~csum_fold(sum) & 0xffff, network order, as a header's checksum
 * field holds it.  0 for a header whose checksum field is correct. */
typedef uint16_t (*csum_ip_fn)(const void *iph, unsigned ihl);

/* Copies len bytes from src to dst (which do not overlap) and returns the
 * partial sum of the bytes, exactly as csum_fn does for src. */
typedef uint32_t (*csum_copy_fn)(void *dst, const void *src, size_t len, uint32_t seed);

/* 16-bit ones'-complement fold of a partial sum, network byte order. */
static inline uint16_t csum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The plain reference: one byte at a time in a 64-bit accumulator, no
 * tricks.  Every variant is checked against it. */
uint32_t csum_reference(const void *buf, size_t len, uint32_t seed);

/* ---- registries ---- */

struct csum_variant {
	const char *name;
	const char *desc;
	int (*supported)(void);
	csum_fn fn;
};

struct csum_ip_variant {
	const char *name;
	const char *desc;
	int (*supported)(void);
	csum_ip_fn fn;
};

struct csum_copy_variant {
	const char *name;
	const char *desc;
	int (*supported)(void);
	csum_copy_fn fn;
};

extern const struct csum_variant csum_variants[];
extern const size_t csum_nvariants;
extern const struct csum_ip_variant csum_ip_variants[];
extern const size_t csum_ip_nvariants;
extern const struct csum_copy_variant csum_copy_variants[];
extern const size_t csum_copy_nvariants;

const struct csum_variant *csum_variant_find(const char *name);
const struct csum_ip_variant *csum_ip_variant_find(const char *name);
const struct csum_copy_variant *csum_copy_variant_find(const char *name);

/* supported() for variants every CPU can run. */
int csum_always(void);

/* ---- the checker (csum_check.c) ---- */

#define CSUM_CHECK_MAX_LEN 4100

struct csum_check_opts {
	size_t max_len;     /* every length 0..max_len is checked (CSUM_CHECK_MAX_LEN) */
	int big_buffers;    /* also 256 KiB and 1 MiB of 0xFF */
};

/* Each returns the number of failed check families (0 = correct) and
 * writes a line per failure, naming the case, to f (which may be NULL).
 * *checks, if not NULL, receives the number of calls compared. */
long csum_check_variant(const char *name, csum_fn fn, const struct csum_check_opts *o,
			FILE *f, long *checks);
long csum_check_ip(const char *name, csum_ip_fn fn, FILE *f, long *checks);
long csum_check_copy(const char *name, csum_copy_fn fn, const struct csum_check_opts *o,
		     FILE *f, long *checks);

/* The `selftest` row: every variant of the three registries, one pass,
 * fail or unsupported line each.  Returns the number of failures. */
long csum_selftest(FILE *f, int verbose);

#endif
