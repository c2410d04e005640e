/* sha256.c - SHA-256 as FIPS 180-4 describes it (a 64-byte block, 64
 * rounds over eight 32-bit words), and HMAC over it as RFC 2104 does:
 * H((K ^ opad) || H((K ^ ipad) || m)), a key longer than a block hashed
 * first.  Byte-order independent: words are read and written big-endian
 * byte by byte, so a big-endian PowerPC board computes the same MACs. */
#include "core/sha256.h"
#include "core/bytes.h"

#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* The message schedule and the 64 rounds over one block. */
static void block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = bb_get_be32(p + 4 * i);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof v);
	for (int i = 0; i < 64; i++) {
		uint32_t S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + S1 + ch + K[i] + w[i];
		uint32_t S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
		memmove(v + 1, v, 7 * sizeof v[0]);
		v[4] += t1;
		v[0] = t1 + S0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void bb_sha256_init(struct bb_sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof s->h);
	s->bytes = 0;
	s->nbuf = 0;
}

void bb_sha256_update(struct bb_sha256 *s, const void *data, size_t n)
{
	const unsigned char *p = data;

	s->bytes += n;
	while (n) {
		size_t take = BB_SHA256_BLOCK - s->nbuf;
		if (take > n)
			take = n;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		n -= take;
		if (s->nbuf == BB_SHA256_BLOCK) {
			block(s->h, s->buf);
			s->nbuf = 0;
		}
	}
}

/* Padding: 0x80, zeros, and the length in bits as a 64-bit big-endian
 * number closing the last block. */
void bb_sha256_final(struct bb_sha256 *s, unsigned char out[BB_SHA256_LEN])
{
	uint64_t bits = s->bytes * 8;
	unsigned char len[8];

	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	bb_sha256_update(s, "\x80", 1);
	while (s->nbuf != BB_SHA256_BLOCK - 8)
		bb_sha256_update(s, "", 1);
	bb_sha256_update(s, len, 8);
	for (int i = 0; i < 8; i++)
		bb_put_be32(out + 4 * i, s->h[i]);
	memset(s, 0, sizeof *s);
}

void bb_hmac_sha256(const void *key, size_t keylen, const void *const *parts,
		    const size_t *lens, size_t nparts, unsigned char out[BB_SHA256_LEN])
{
	unsigned char k[BB_SHA256_BLOCK] = { 0 }, pad[BB_SHA256_BLOCK], inner[BB_SHA256_LEN];
	struct bb_sha256 s;

	if (keylen > BB_SHA256_BLOCK) {
		bb_sha256_init(&s);
		bb_sha256_update(&s, key, keylen);
		bb_sha256_final(&s, k);
	} else if (keylen) {
		memcpy(k, key, keylen);
	}
	for (int i = 0; i < BB_SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	bb_sha256_init(&s);
	bb_sha256_update(&s, pad, sizeof pad);
	for (size_t i = 0; i < nparts && parts[i]; i++)
		bb_sha256_update(&s, parts[i], lens[i]);
	bb_sha256_final(&s, inner);
	for (int i = 0; i < BB_SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	bb_sha256_init(&s);
	bb_sha256_update(&s, pad, sizeof pad);
	bb_sha256_update(&s, inner, sizeof inner);
	bb_sha256_final(&s, out);
	memset(k, 0, sizeof k);
	memset(pad, 0, sizeof pad);
}

int bb_mac_equal(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}
