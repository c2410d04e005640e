/* test_inflate.c - unit tests for src/core/inflate.c against data the
 * system's gzip makes at test time (text at levels 1, 6 and 9: dynamic
 * Huffman blocks; a few bytes: fixed codes; random bytes: stored blocks;
 * an empty file; a stored file name; two members concatenated), the
 * output bound, and corrupt input: every byte flipped, every truncation
 * and random garbage end in an error or in the original data (a flipped
 * time stamp is harmless), never in a crash or other output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/inflate.h"

#define MAX_OUT (64u << 20)

struct blob {
	unsigned char *p;
	size_t n;
};

static char dir[] = "/tmp/bb-inflate-XXXXXX";

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Text that compresses as a kernel config does: repeated words, numbers. */
static struct blob make_text(size_t n)
{
	static const char *const words[] = { "CONFIG_", "=y\n", "# ", " is not set\n",
		"HZ", "PREEMPT", "_NONE", "250", "X86_USE_3DNOW", "\n#\n", "NET", "CPU_FREQ" };
	struct blob b = { malloc(n), n };
	uint32_t s = 12345;
	size_t i = 0;

	while (i < n) {
		const char *w = words[lcg(&s) % (sizeof words / sizeof words[0])];
		for (; *w && i < n; w++)
			b.p[i++] = (unsigned char)*w;
		if (lcg(&s) % 7 == 0 && i < n)
			b.p[i++] = (unsigned char)('0' + lcg(&s) % 10);
	}
	return b;
}

static struct blob make_random(size_t n)
{
	struct blob b = { malloc(n ? n : 1), n };
	uint32_t s = 777;

	for (size_t i = 0; i < n; i++)
		b.p[i] = (unsigned char)lcg(&s);
	return b;
}

static struct blob read_file(const char *path)
{
	struct blob b = { NULL, 0 };
	FILE *f = fopen(path, "rb");
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.p = malloc((size_t)len + 1);
	b.n = fread(b.p, 1, (size_t)len, f);
	fclose(f);
	assert_int_equal(b.n, (size_t)len);
	return b;
}

/* The gzip file gzip makes of data with the given options ("-9 -n"). */
static struct blob gzip_of(const struct blob *data, const char *opts)
{
	char in[64], cmd[256], out[80];
	FILE *f;

	snprintf(in, sizeof in, "%s/data", dir);
	snprintf(out, sizeof out, "%s/data.gz", dir);
	f = fopen(in, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data->p, 1, data->n, f), data->n);
	fclose(f);
	snprintf(cmd, sizeof cmd, "gzip %s -c '%s' > '%s'", opts, in, out);
	assert_int_equal(system(cmd), 0);
	return read_file(out);
}

static void expect_same(const struct blob *gz, const struct blob *data)
{
	unsigned char *out = NULL;
	size_t n = 0;

	assert_int_equal(bb_gunzip(gz->p, gz->n, &out, &n, MAX_OUT), BB_INFLATE_OK);
	assert_int_equal(n, data->n);
	assert_memory_equal(out, data->p, n ? n : 0);
	assert_int_equal(out[n], 0);
	free(out);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[96];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_crc32(void **state)
{
	(void)state;
	assert_int_equal(bb_crc32(0, (const unsigned char *)"123456789", 9), 0xcbf43926u);
	assert_int_equal(bb_crc32(0, NULL, 0), 0);
}

static void test_levels(void **state)
{
	static const char *const opts[] = { "-1 -n", "-6 -n", "-9 -n", "-9" };
	struct blob text = make_text(300000);

	(void)state;
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		struct blob gz = gzip_of(&text, opts[i]);
		expect_same(&gz, &text);
		free(gz.p);
	}
	free(text.p);
}

static void test_fixed_stored_empty(void **state)
{
	struct blob small = { (unsigned char *)strdup("hello, hello, hello board"), 25 };
	struct blob rnd = make_random(200000), empty = make_random(0);
	struct blob gz;

	(void)state;
	gz = gzip_of(&small, "-9 -n");
	expect_same(&gz, &small);
	free(gz.p);
	gz = gzip_of(&rnd, "-6 -n");       /* incompressible: stored blocks */
	expect_same(&gz, &rnd);
	free(gz.p);
	gz = gzip_of(&empty, "-n");
	expect_same(&gz, &empty);
	free(gz.p);
	free(small.p);
	free(rnd.p);
	free(empty.p);
}

static void test_two_members(void **state)
{
	struct blob a = make_text(5000), b = make_random(3000);
	struct blob ga = gzip_of(&a, "-n"), gb = gzip_of(&b, "-1 -n");
	struct blob both = { malloc(ga.n + gb.n), ga.n + gb.n };
	struct blob ab = { malloc(a.n + b.n), a.n + b.n };

	(void)state;
	memcpy(both.p, ga.p, ga.n);
	memcpy(both.p + ga.n, gb.p, gb.n);
	memcpy(ab.p, a.p, a.n);
	memcpy(ab.p + a.n, b.p, b.n);
	expect_same(&both, &ab);
	free(a.p), free(b.p), free(ga.p), free(gb.p), free(both.p), free(ab.p);
}

/* The output bound: one byte short is refused, and so is raw inflate into
 * a buffer one byte short. */
static void test_bound(void **state)
{
	struct blob text = make_text(50000), gz = gzip_of(&text, "-n");
	unsigned char *out = (unsigned char *)"x", *raw = malloc(text.n);
	size_t n = 1, used = 0;

	(void)state;
	assert_int_equal(bb_gunzip(gz.p, gz.n, &out, &n, text.n - 1), BB_INFLATE_TOO_BIG);
	assert_null(out);
	assert_int_equal(n, 0);
	/* raw DEFLATE: after the 10-byte header (-n: no name), before the trailer */
	assert_int_equal(bb_inflate(gz.p + 10, gz.n - 18, raw, text.n, &n, &used), 0);
	assert_int_equal(n, text.n);
	assert_int_equal(used, gz.n - 18);
	assert_memory_equal(raw, text.p, n);
	assert_int_equal(bb_inflate(gz.p + 10, gz.n - 18, raw, text.n - 1, &n, NULL),
			 BB_INFLATE_TOO_BIG);
	free(raw), free(text.p), free(gz.p);
}

/* Corrupt data ends in an error, or (a byte of the header nobody checks)
 * in exactly the original. */
static void expect_error_or_same(const unsigned char *p, size_t n, const struct blob *data)
{
	unsigned char *out = NULL;
	size_t len = 0;
	int rc = bb_gunzip(p, n, &out, &len, MAX_OUT);

	if (rc == BB_INFLATE_OK) {
		assert_int_equal(len, data->n);
		assert_memory_equal(out, data->p, len);
	} else {
		assert_true(rc == BB_INFLATE_BAD || rc == BB_INFLATE_TOO_BIG);
		assert_null(out);
	}
	free(out);
}

static void test_corrupt(void **state)
{
	struct blob text = make_text(20000), gz = gzip_of(&text, "-9");
	unsigned char *p = malloc(gz.n);

	(void)state;
	for (size_t i = 0; i < gz.n; i++)
		for (unsigned x = 1; x < 256; x <<= 1) {
			memcpy(p, gz.p, gz.n);
			p[i] ^= (unsigned char)x;
			expect_error_or_same(p, gz.n, &text);
		}
	for (size_t n = 0; n < gz.n; n++) {
		unsigned char *out = (unsigned char *)"x";
		size_t len;
		assert_int_not_equal(bb_gunzip(gz.p, n, &out, &len, MAX_OUT), BB_INFLATE_OK);
		assert_null(out);
	}
	free(p), free(text.p), free(gz.p);
}

/* Random bytes after a valid header, and as raw DEFLATE. */
static void test_garbage(void **state)
{
	unsigned char buf[4096], out[8192];
	uint32_t s = 99;
	size_t n;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		size_t len = lcg(&s) % sizeof buf;
		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)lcg(&s);
		if (len >= 10 && round % 2) {
			memcpy(buf, "\x1f\x8b\x08\x00\0\0\0\0\0\x03", 10);
		}
		unsigned char *o = NULL;
		if (bb_gunzip(buf, len, &o, &n, 1u << 20) == BB_INFLATE_OK)
			free(o);
		bb_inflate(buf, len, out, sizeof out, &n, NULL);
		assert_true(n <= sizeof out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_fixed_stored_empty),
		cmocka_unit_test(test_two_members),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
