/* test_sha256.c - SHA-256 against the FIPS 180-4 examples (one block, two
 * blocks, a million 'a' fed in uneven pieces, the empty message, every
 * length around the padding boundary against a one-shot hash of the same
 * bytes) and HMAC-SHA-256 against RFC 4231's test cases 1-4, 6 and 7 (keys
 * shorter than, and longer than, a block), with the message in parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/sha256.h"

static void hex(const unsigned char *d, char *out)
{
	for (int i = 0; i < BB_SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void check_hash(const void *msg, size_t n, const char *want)
{
	struct bb_sha256 s;
	unsigned char d[BB_SHA256_LEN];
	char got[2 * BB_SHA256_LEN + 1];

	bb_sha256_init(&s);
	bb_sha256_update(&s, msg, n);
	bb_sha256_final(&s, d);
	hex(d, got);
	assert_string_equal(got, want);
}

static void test_fips_examples(void **state)
{
	(void)state;
	check_hash("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_hash("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		   "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* A million 'a' in pieces of 1..97 bytes: the buffering across blocks. */
static void test_million_a(void **state)
{
	static unsigned char a[97];
	struct bb_sha256 s;
	unsigned char d[BB_SHA256_LEN];
	char got[2 * BB_SHA256_LEN + 1];
	size_t left = 1000000, piece = 1;

	(void)state;
	memset(a, 'a', sizeof a);
	bb_sha256_init(&s);
	while (left) {
		size_t n = piece < left ? piece : left;
		bb_sha256_update(&s, a, n);
		left -= n;
		piece = piece % 97 + 1;
	}
	bb_sha256_final(&s, d);
	hex(d, got);
	assert_string_equal(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths 0..200 hashed whole and byte by byte agree. */
static void test_pieces_agree(void **state)
{
	unsigned char m[200], d1[BB_SHA256_LEN], d2[BB_SHA256_LEN];
	struct bb_sha256 s;

	(void)state;
	for (size_t i = 0; i < sizeof m; i++)
		m[i] = (unsigned char)(i * 7 + 3);
	for (size_t n = 0; n <= sizeof m; n++) {
		bb_sha256_init(&s);
		bb_sha256_update(&s, m, n);
		bb_sha256_final(&s, d1);
		bb_sha256_init(&s);
		for (size_t i = 0; i < n; i++)
			bb_sha256_update(&s, m + i, 1);
		bb_sha256_final(&s, d2);
		assert_memory_equal(d1, d2, BB_SHA256_LEN);
	}
}

static void check_hmac(const void *key, size_t klen, const void *msg, size_t mlen,
		       const char *want)
{
	unsigned char d[BB_SHA256_LEN];
	char got[2 * BB_SHA256_LEN + 1];
	size_t half = mlen / 2;
	const void *parts[2] = { msg, (const char *)msg + half };
	size_t lens[2] = { half, mlen - half };

	bb_hmac_sha256(key, klen, parts, lens, 2, d);
	hex(d, got);
	assert_string_equal(got, want);
}

static void test_rfc4231(void **state)
{
	unsigned char k20[20], kaa[131], d50[50], k25[25], c50[50];

	(void)state;
	memset(k20, 0x0b, sizeof k20);
	check_hmac(k20, 20, "Hi There", 8,
		   "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	check_hmac("Jefe", 4, "what do ya want for nothing?", 28,
		   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(kaa, 0xaa, sizeof kaa);
	memset(d50, 0xdd, sizeof d50);
	check_hmac(kaa, 20, d50, 50,
		   "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	for (int i = 0; i < 25; i++)
		k25[i] = (unsigned char)(i + 1);
	memset(c50, 0xcd, sizeof c50);
	check_hmac(k25, 25, c50, 50,
		   "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
	check_hmac(kaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
		   "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	check_hmac(kaa, 131,
		   "This is a test using a larger than block-size key and a larger than "
		   "block-size data. The key needs to be hashed before being used by the HMAC "
		   "algorithm.", 152,
		   "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

static void test_mac_equal(void **state)
{
	unsigned char a[32] = { 0 }, b[32] = { 0 };

	(void)state;
	assert_true(bb_mac_equal(a, b, 32));
	b[31] = 1;
	assert_false(bb_mac_equal(a, b, 32));
	b[31] = 0;
	b[0] = 0x80;
	assert_false(bb_mac_equal(a, b, 32));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_million_a),
		cmocka_unit_test(test_pieces_agree),
		cmocka_unit_test(test_rfc4231),
		cmocka_unit_test(test_mac_equal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
