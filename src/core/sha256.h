/* sha256.h - SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the
 * shared-key challenge of the ttcp control protocol (docs/protocol.md),
 * rr's cookies and the pseudonymous board identity (facts/boot.c).
 * Written here because the static binary for a board links only libc;
 * checked against the FIPS 180-4 examples and the RFC 4231 vectors
 * (tests/unit/test_sha256.c). */
#ifndef BB_CORE_SHA256_H
#define BB_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define BB_SHA256_LEN 32
#define BB_SHA256_BLOCK 64

struct bb_sha256 {
	uint32_t h[8];
	uint64_t bytes;              /* message length so far */
	unsigned char buf[BB_SHA256_BLOCK];
	size_t nbuf;
};

void bb_sha256_init(struct bb_sha256 *s);
void bb_sha256_update(struct bb_sha256 *s, const void *data, size_t n);
void bb_sha256_final(struct bb_sha256 *s, unsigned char out[BB_SHA256_LEN]);

/* HMAC-SHA-256 of the concatenation of up to 4 parts (NULL parts end the
 * list early): what the challenge signs is several fields in a row. */
void bb_hmac_sha256(const void *key, size_t keylen, const void *const *parts,
		    const size_t *lens, size_t nparts, unsigned char out[BB_SHA256_LEN]);

/* Compares two MACs in time that does not depend on where they differ. */
int bb_mac_equal(const unsigned char *a, const unsigned char *b, size_t n);

#endif
