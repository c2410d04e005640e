/* test_iperf2.c - unit tests for src/net/iperf2.c: the header iperf 2.1.8
 * really sends (captured bytes), its time-mode and -P forms, every prefix
 * of it, what its -r and -d forms ask of the server, and hostile input:
 * wrong lengths, implausible fields, every single-byte corruption and
 * random bytes.  Hostile bytes must come out
 * as data (NONE) or as a header with bounded fields, never crash, never
 * read past what they were given (ASan checks that under make check SAN=1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/iperf2.h"
#include "net/pattern.h"

/* iperf 2.1.8: iperf -c 127.0.0.1 -p 5911 -n 100K -l 8K, its first 60 bytes. */
static const unsigned char real_hdr[60] = {
	0x40, 0x01, 0x00, 0x78, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x17, 0x17,
	0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x90, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x01, 0x00, 0x08, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* iperf 2.1.8: iperf -c 127.0.0.1 -p 47011 -d -L 47012 -t 1 -l 8K, its
 * first 60 bytes: VERSION1 and RUN_NOW (dualtest), the listener's port
 * (47012), -100 (1 s in 10 ms units).  With -r the flags end 0x78. */
static const unsigned char dual_hdr[60] = {
	0xc0, 0x01, 0x00, 0x79, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0xb7, 0xa4,
	0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x9c,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x01, 0x00, 0x08, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Parses a copy of n bytes in a buffer of exactly n bytes, so ASan sees
 * any read beyond them. */
static enum bb_iperf2_verdict parse_exact(const unsigned char *p, size_t n,
					  struct bb_iperf2_hdr *h)
{
	unsigned char *copy = malloc(n ? n : 1);
	enum bb_iperf2_verdict v;

	memcpy(copy, p, n);
	v = bb_iperf2_parse(copy, n, h);
	free(copy);
	return v;
}

static void test_real_header(void **state)
{
	struct bb_iperf2_hdr h;
	char desc[64];

	(void)state;
	assert_int_equal(parse_exact(real_hdr, sizeof real_hdr, &h), BB_IPERF2_FOUND);
	assert_int_equal(h.len, 60);
	assert_int_equal(h.threads, 1);
	assert_int_equal(h.port, 5911);
	assert_int_equal(h.buflen, 8192);
	assert_int_equal(h.amount, 102400);
	assert_true(bb_iperf2_bytes(&h) == 102400);
	assert_true(bb_iperf2_seconds(&h) == 0);
	assert_true(h.has_version);
	bb_iperf2_describe(&h, desc, sizeof desc);
	assert_string_equal(desc, "iperf2 2.1.8");
}

/* -t 0.2 -P 2: amount -20 (10 ms units), two threads. */
static void test_time_mode_and_threads(void **state)
{
	unsigned char p[60];
	struct bb_iperf2_hdr h;

	(void)state;
	memcpy(p, real_hdr, sizeof p);
	p[7] = 2;                                     /* numThreads */
	memcpy(p + 20, "\xff\xff\xff\xec", 4);         /* amount = -20 */
	assert_int_equal(parse_exact(p, sizeof p, &h), BB_IPERF2_FOUND);
	assert_int_equal(h.threads, 2);
	assert_true(bb_iperf2_bytes(&h) == 0);
	assert_true(bb_iperf2_seconds(&h) > 0.199 && bb_iperf2_seconds(&h) < 0.201);
}

/* What a header asks of the server: nothing (a plain client), -r or -d. */
static void test_back_requests(void **state)
{
	unsigned char p[60];
	struct bb_iperf2_hdr h;

	(void)state;
	assert_int_equal(parse_exact(real_hdr, sizeof real_hdr, &h), BB_IPERF2_FOUND);
	assert_int_equal(bb_iperf2_back_of(&h), BB_IPERF2_BACK_NONE);
	assert_int_equal(parse_exact(dual_hdr, sizeof dual_hdr, &h), BB_IPERF2_FOUND);
	assert_int_equal(bb_iperf2_back_of(&h), BB_IPERF2_BACK_DUAL);
	assert_int_equal(h.port, 47012);
	assert_true(bb_iperf2_seconds(&h) > 0.999 && bb_iperf2_seconds(&h) < 1.001);
	memcpy(p, dual_hdr, sizeof p);
	p[3] = 0x78;                                  /* -r: RUN_NOW clear */
	assert_int_equal(parse_exact(p, sizeof p, &h), BB_IPERF2_FOUND);
	assert_int_equal(bb_iperf2_back_of(&h), BB_IPERF2_BACK_TRADEOFF);
	p[0] = 0x40;                                  /* EXTEND alone, RUN_NOW set: nothing */
	p[3] = 0x79;
	assert_int_equal(parse_exact(p, sizeof p, &h), BB_IPERF2_FOUND);
	assert_int_equal(bb_iperf2_back_of(&h), BB_IPERF2_BACK_NONE);
}

static void test_every_prefix_needs_more(void **state)
{
	struct bb_iperf2_hdr h;

	(void)state;
	for (size_t n = 0; n < sizeof real_hdr; n++)
		assert_int_equal(parse_exact(real_hdr, n, &h), BB_IPERF2_NEED_MORE);
}

static void test_v1_only_header(void **state)
{
	unsigned char p[24] = { 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x13, 0x89 };
	struct bb_iperf2_hdr h;

	(void)state;
	assert_int_equal(parse_exact(p, sizeof p, &h), BB_IPERF2_FOUND);
	assert_int_equal(h.len, 24);
	assert_false(h.has_version);
}

/* Ordinary data: the pattern, text, zeros; all decided at the first byte. */
static void test_data_is_not_a_header(void **state)
{
	unsigned char pat[64];
	struct bb_iperf2_hdr h;

	(void)state;
	bb_pattern_fill(pat, sizeof pat);
	assert_int_equal(parse_exact(pat, sizeof pat, &h), BB_IPERF2_NONE);
	assert_int_equal(parse_exact(pat, 1, &h), BB_IPERF2_NONE);
	/* Text starting with a letter sets a top bit: undecided until its
	 * "thread count" shows it is not a header. */
	assert_int_equal(parse_exact((const unsigned char *)"hello", 5, &h), BB_IPERF2_NEED_MORE);
	assert_int_equal(parse_exact((const unsigned char *)"hello, world, this is text", 26, &h),
			 BB_IPERF2_NONE);
	memset(pat, 0, sizeof pat);
	assert_int_equal(parse_exact(pat, sizeof pat, &h), BB_IPERF2_NONE);
}

static void test_implausible_fields(void **state)
{
	unsigned char p[60];
	struct bb_iperf2_hdr h;
	static const struct { size_t at; unsigned char b[4]; } bad[] = {
		{ 4, { 0, 0, 0, 0 } },              /* 0 threads */
		{ 4, { 0x7f, 0xff, 0xff, 0xff } },  /* 2^31-1 threads */
		{ 4, { 0xff, 0xff, 0xff, 0xff } },  /* -1 threads */
		{ 4, { 0, 0, 0x04, 0x01 } },        /* 1025 threads */
		{ 8, { 0, 1, 0, 0 } },              /* port 65536 */
		{ 12, { 0x80, 0, 0, 0 } },          /* negative buffer length */
		{ 16, { 0xff, 0, 0, 0 } },          /* negative window */
		{ 36, { 0, 3, 0, 1 } },             /* version 3.1 */
		{ 36, { 0, 2, 0x01, 0 } },          /* version 2.256 */
		{ 40, { 0x10, 0, 0, 3 } },          /* patch 4096 */
		{ 0, { 0x40, 0x01, 0x00, 0x02 } },  /* length 1 */
		{ 0, { 0x40, 0x01, 0x00, 0x2e } },  /* length 23 */
		{ 0, { 0x3f, 0xff, 0xff, 0xff } },  /* neither top bit */
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memcpy(p, real_hdr, sizeof p);
		memcpy(p + bad[i].at, bad[i].b, 4);
		if (parse_exact(p, sizeof p, &h) != BB_IPERF2_NONE)
			fail_msg("case %zu was not taken as data", i);
	}
}

/* A length field of 255 bytes: more than 60 are needed, never more than 256. */
static void test_longest_length(void **state)
{
	unsigned char p[BB_IPERF2_MAX_LEN];
	struct bb_iperf2_hdr h;

	(void)state;
	memset(p, 0, sizeof p);
	memcpy(p, real_hdr, sizeof real_hdr);
	p[2] = 0x01;
	p[3] = 0xfe;                                  /* (0x1fe >> 1) = 255 */
	assert_int_equal(parse_exact(p, 200, &h), BB_IPERF2_NEED_MORE);
	assert_int_equal(parse_exact(p, 255, &h), BB_IPERF2_FOUND);
	assert_int_equal(h.len, 255);
}

static void check_bounded(const struct bb_iperf2_hdr *h, size_t n)
{
	assert_true(h->len >= BB_IPERF2_V1_LEN && h->len <= BB_IPERF2_MAX_LEN && h->len <= n);
	assert_true(h->threads >= 1 && h->threads <= BB_IPERF2_MAX_THREADS);
}

/* Every single byte of the real header set to every value. */
static void test_every_byte_corrupted(void **state)
{
	unsigned char p[60];
	struct bb_iperf2_hdr h;

	(void)state;
	for (size_t at = 0; at < sizeof p; at++)
		for (int v = 0; v < 256; v++) {
			memcpy(p, real_hdr, sizeof p);
			p[at] = (unsigned char)v;
			enum bb_iperf2_verdict r = parse_exact(p, sizeof p, &h);
			if (r == BB_IPERF2_FOUND)
				check_bounded(&h, sizeof p);
		}
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Random streams, many starting with header-like flags, fed in random
 * pieces through the incremental probe. */
static void test_random_bytes_through_probe(void **state)
{
	uint32_t seed = 12345;
	unsigned char buf[400];

	(void)state;
	for (int round = 0; round < 20000; round++) {
		struct bb_iperf2_probe pr;
		size_t n = lcg(&seed) % sizeof buf, off = 0;
		for (size_t i = 0; i < n; i++)
			buf[i] = (unsigned char)lcg(&seed);
		if (round % 2) {                       /* start like a real header */
			size_t k = lcg(&seed) % 61;
			memcpy(buf, real_hdr, k < n ? k : n);
		}
		bb_iperf2_probe_init(&pr);
		while (off < n && pr.verdict == BB_IPERF2_NEED_MORE) {
			size_t k = 1 + lcg(&seed) % 64;
			if (k > n - off)
				k = n - off;
			bb_iperf2_probe_feed(&pr, buf + off, k);
			off += k;
		}
		bb_iperf2_probe_eof(&pr);
		assert_true(pr.verdict != BB_IPERF2_NEED_MORE);
		assert_true(pr.n <= BB_IPERF2_MAX_LEN);
		if (pr.verdict == BB_IPERF2_FOUND)
			check_bounded(&pr.hdr, pr.n);
	}
}

/* More than 256 bytes that keep asking for more end as data. */
static void test_probe_bounded(void **state)
{
	struct bb_iperf2_probe pr;
	unsigned char p[BB_IPERF2_MAX_LEN + 10];

	(void)state;
	memset(p, 0, sizeof p);
	memcpy(p, real_hdr, sizeof real_hdr);
	p[2] = 0x01;
	p[3] = 0xfe;
	bb_iperf2_probe_init(&pr);
	assert_int_equal(bb_iperf2_probe_feed(&pr, p, 100), BB_IPERF2_NEED_MORE);
	assert_int_equal(bb_iperf2_probe_feed(&pr, p + 100, sizeof p - 100), BB_IPERF2_FOUND);
	assert_int_equal(pr.n, BB_IPERF2_MAX_LEN);
	/* Once decided, more bytes change nothing. */
	assert_int_equal(bb_iperf2_probe_feed(&pr, p, 4), BB_IPERF2_FOUND);
	assert_int_equal(pr.n, BB_IPERF2_MAX_LEN);
}

static void test_probe_eof_and_split_header(void **state)
{
	struct bb_iperf2_probe pr;

	(void)state;
	bb_iperf2_probe_init(&pr);
	bb_iperf2_probe_feed(&pr, real_hdr, 10);
	bb_iperf2_probe_eof(&pr);
	assert_int_equal(pr.verdict, BB_IPERF2_NONE);
	bb_iperf2_probe_init(&pr);
	for (size_t i = 0; i < sizeof real_hdr; i++)
		bb_iperf2_probe_feed(&pr, real_hdr + i, 1);   /* one byte at a time */
	assert_int_equal(pr.verdict, BB_IPERF2_FOUND);
	assert_int_equal(pr.hdr.amount, 102400);
}

/* ---- UDP ---- */

/* iperf 2.1.8 `iperf -c 127.0.0.1 -p 47001 -u -b 10M -t 0.5`: the first
 * 40 bytes of a datagram (id 0x24), and of a final datagram (id -449). */
static const unsigned char udp_data[40] = {
	0x00, 0x00, 0x00, 0x24, 0x6b, 0x0d, 0xaf, 0xea, 0x00, 0x0e, 0x26, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x48, 0x01, 0x00, 0x98, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0xb7, 0x99, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xce,
};

static void test_udp_datagram(void **state)
{
	unsigned char p[40];
	struct bb_iperf2_dgram d;

	(void)state;
	assert_int_equal(bb_iperf2_dgram_get(udp_data, sizeof udp_data, &d), 0);
	assert_true(d.seq == 0x24 && d.has_hdr && d.threads == 1);
	assert_true(d.tv_sec == 1796059114u && d.tv_usec == 927234u);
	memcpy(p, udp_data, sizeof p);
	memcpy(p, "\xff\xff\xfe\x3f", 4);
	memcpy(p + 12, "\xff\xff\xff\xff", 4);
	assert_int_equal(bb_iperf2_dgram_get(p, sizeof p, &d), 0);
	assert_true(d.seq == -449);
	/* without the test header: 32-bit, signed; the fourth word is data */
	assert_int_equal(bb_iperf2_dgram_get(p, 16, &d), 0);
	assert_true(d.seq == -449 && !d.has_hdr);
	/* classic ttcp's pattern: microseconds out of range */
	assert_int_equal(bb_iperf2_dgram_get((const unsigned char *)" !\"#$%&'()*+,-./0123", 20, &d), -1);
	assert_int_equal(bb_iperf2_dgram_get(udp_data, 15, &d), -1);
	memcpy(p, "\0\0\0\0", 4);
	memcpy(p + 12, "\0\0\0\0", 4);
	assert_int_equal(bb_iperf2_dgram_get(p, sizeof p, &d), -1);      /* sequence number 0 */
}

/* What we write reads back, with 64-bit sequence numbers both ways. */
static void test_udp_datagram_put(void **state)
{
	unsigned char p[1470];
	struct bb_iperf2_dgram d;
	const int64_t seqs[] = { 1, 0x123456789abcll, -(0x100000000ll + 7), INT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		bb_iperf2_dgram_put(p, sizeof p, seqs[i], 1796059114927234ull, 2, 5001, -1000);
		assert_int_equal(bb_iperf2_dgram_get(p, sizeof p, &d), 0);
		assert_true(d.seq == seqs[i] && d.has_hdr && d.threads == 2);
		assert_true(d.tv_sec == 1796059114u && d.tv_usec == 927234u);
	}
	assert_memory_equal(p + 16, "\x08\0\0\0\0\0\0\x02\0\0\x13\x89", 12);
	bb_iperf2_dgram_put(p, 16, 77, 0, 1, 5001, 0);                  /* no room for more */
	assert_int_equal(bb_iperf2_dgram_get(p, 16, &d), 0);
	assert_true(d.seq == 77 && !d.has_hdr);
}

/* iperf 2.1.8's server answered ids 1-4, 6-10, 3, -11 with these bytes:
 * 16170 bytes, 550 us, 0 lost, 1 out of order, 11 datagrams, jitter 5 us. */
static void test_udp_report_from_iperf(void **state)
{
	unsigned char p[BB_IPERF2_REPORT_LEN];
	static const unsigned char words[] = {
		0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0x2a, 0, 0, 0, 0, 0, 0, 0x02, 0x26,
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x0b, 0, 0, 0, 0, 0, 0, 0, 5,
	};
	struct bb_iperf2_report r;

	(void)state;
	memset(p, 0, sizeof p);
	memcpy(p + 16, words, sizeof words);
	assert_int_equal(bb_iperf2_report_get(p, sizeof p, &r), 0);
	assert_true(r.bytes == 16170 && r.sec == 0 && r.usec == 550);
	assert_true(r.lost == 0 && r.out_of_order == 1 && r.datagrams == 11);
	assert_true(fabs(bb_iperf2_report_jitter_s(&r) - 5e-6) < 1e-12);
	assert_int_equal(bb_iperf2_report_get(p, 55, &r), -1);           /* short */
	p[16] = 0x08;
	assert_int_equal(bb_iperf2_report_get(p, sizeof p, &r), -1);     /* no VERSION1 */
}

static void test_udp_report_roundtrip(void **state)
{
	unsigned char p[BB_IPERF2_REPORT_LEN];
	struct bb_iperf2_report w = { 0, 0x123456789ull, 10, 250000, 0x100000003ll, 7,
				      0x200000001ll, 0, 12 }, r;

	(void)state;
	bb_iperf2_report_put(p, &w);
	assert_int_equal(bb_iperf2_report_get(p, sizeof p, &r), 0);
	assert_true(r.bytes == w.bytes && r.lost == w.lost && r.out_of_order == 7 &&
		    r.datagrams == w.datagrams);
	assert_true(fabs(bb_iperf2_report_seconds(&r) - 10.25) < 1e-9);
	/* an old server's 40-byte report: 32-bit counts, signed */
	w.lost = -2;
	bb_iperf2_report_put(p, &w);
	assert_int_equal(bb_iperf2_report_get(p, 56, &r), 0);
	assert_true(r.lost == -2 && r.datagrams == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_header),
		cmocka_unit_test(test_time_mode_and_threads),
		cmocka_unit_test(test_back_requests),
		cmocka_unit_test(test_every_prefix_needs_more),
		cmocka_unit_test(test_v1_only_header),
		cmocka_unit_test(test_data_is_not_a_header),
		cmocka_unit_test(test_implausible_fields),
		cmocka_unit_test(test_longest_length),
		cmocka_unit_test(test_every_byte_corrupted),
		cmocka_unit_test(test_random_bytes_through_probe),
		cmocka_unit_test(test_probe_bounded),
		cmocka_unit_test(test_probe_eof_and_split_header),
		cmocka_unit_test(test_udp_datagram),
		cmocka_unit_test(test_udp_datagram_put),
		cmocka_unit_test(test_udp_report_from_iperf),
		cmocka_unit_test(test_udp_report_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
