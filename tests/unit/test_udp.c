/* test_udp.c - unit tests for src/net/udphdr.c and udpstat.c: the UDP
 * header, sentinels and tally on the wire (big-endian, byte exact, so a
 * PowerPC and an x86 host agree), hostile datagrams, loss, reordering
 * and RFC 3550 jitter on sequences whose answers are known, and the bound
 * that makes an implausible sequence number foreign instead of loss. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "net/udphdr.h"
#include "net/udpstat.h"

static void test_header_bytes_are_big_endian(void **state)
{
	struct bb_udp_hdr h = { 3, 4, 0x0102030405060708ull, 0x1112131415161718ull }, g;
	unsigned char p[BB_UDP_HDR_LEN];
	static const unsigned char want[BB_UDP_HDR_LEN] = {
		'b', 'b', 'U', '1', 0, 3, 0, 4,
		1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	};

	(void)state;
	bb_udp_hdr_put(p, &h);
	assert_memory_equal(p, want, sizeof want);
	assert_int_equal(bb_udp_hdr_get(p, sizeof p, &g), 0);
	assert_int_equal(g.stream, 3);
	assert_int_equal(g.nstreams, 4);
	assert_true(g.seq == h.seq && g.send_ns == h.send_ns);
}

static void test_header_rejects(void **state)
{
	unsigned char p[64];
	struct bb_udp_hdr h = { 0, 1, 1, 1 }, g;

	(void)state;
	bb_udp_hdr_put(p, &h);
	assert_int_equal(bb_udp_hdr_get(p, BB_UDP_HDR_LEN - 1, &g), -1);   /* short */
	p[3] = '2';
	assert_int_equal(bb_udp_hdr_get(p, sizeof p, &g), -1);             /* magic */
	memset(p, ' ', sizeof p);
	assert_int_equal(bb_udp_hdr_get(p, sizeof p, &g), -1);             /* classic data */
}

static void test_sentinels(void **state)
{
	unsigned char p[8];
	unsigned id = 99;

	(void)state;
	bb_udp_sentinel_put(p, BB_SENT_START, 7);
	assert_int_equal(bb_udp_sentinel_get(p, 4, &id), BB_SENT_START);
	assert_int_equal(id, 7);
	bb_udp_sentinel_put(p, BB_SENT_END, 63);
	assert_int_equal(bb_udp_sentinel_get(p, 4, &id), BB_SENT_END);
	assert_int_equal(id, 63);
	/* classic ttcp's: its pattern bytes, any length up to 4 */
	assert_int_equal(bb_udp_sentinel_get((const unsigned char *)" !\"#", 4, &id),
			 BB_SENT_CLASSIC);
	assert_int_equal(bb_udp_sentinel_get((const unsigned char *)"bbE", 3, &id),
			 BB_SENT_CLASSIC);
	assert_int_equal(bb_udp_sentinel_get(p, 0, &id), BB_SENT_CLASSIC);
	assert_int_equal(bb_udp_sentinel_get(p, 5, &id), BB_SENT_NONE);
}

static void test_tally(void **state)
{
	struct bb_udp_tally t = { 2, 3, 123456789012ull, 987654321098ull }, g;
	unsigned char p[BB_UDP_HDR_LEN + 1];

	(void)state;
	bb_udp_tally_put(p, &t);
	assert_int_equal(bb_udp_tally_get(p, BB_UDP_HDR_LEN, &g), 0);
	assert_true(g.stream == 2 && g.nstreams == 3 && g.datagrams == t.datagrams &&
		    g.bytes == t.bytes);
	assert_int_equal(bb_udp_tally_get(p, BB_UDP_HDR_LEN + 1, &g), -1);  /* exact length */
	assert_int_equal(bb_udp_tally_get(p, BB_UDP_HDR_LEN - 1, &g), -1);
	p[2] = 'U';
	assert_int_equal(bb_udp_tally_get(p, BB_UDP_HDR_LEN, &g), -1);
}

static void test_no_loss_in_order(void **state)
{
	struct bb_udp_flow f;

	(void)state;
	memset(&f, 0, sizeof f);
	for (uint64_t i = 0; i < 100; i++)
		bb_udp_flow_add(&f, i, 1000 * i, 5000 + 1000 * i, 100);
	assert_true(f.received == 100 && f.bytes == 10000);
	assert_true(bb_udp_flow_lost(&f) == 0 && f.out_of_order == 0);
	assert_true(f.jitter_ns == 0);                /* constant transit time */
	assert_true(bb_udp_flow_loss_fraction(&f) == 0);
}

static void test_loss_reorder_and_tally(void **state)
{
	struct bb_udp_flow f;
	const uint64_t seqs[] = { 0, 1, 3, 2, 5, 6 };   /* 4 lost, 2 late */

	(void)state;
	memset(&f, 0, sizeof f);
	for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
		bb_udp_flow_add(&f, seqs[i], 0, 0, 10);
	assert_true(bb_udp_flow_expected(&f) == 7);
	assert_true(bb_udp_flow_lost(&f) == 1);
	assert_true(f.out_of_order == 1);
	f.sent = 10;                                  /* the tally: 7, 8, 9 lost at the end */
	assert_true(bb_udp_flow_expected(&f) == 10);
	assert_true(bb_udp_flow_lost(&f) == 4);
	assert_true(fabs(bb_udp_flow_loss_fraction(&f) - 0.4) < 1e-12);
}

/* RFC 3550: J += (|D| - J) / 16; transits 0, 16 ms, 0, 16 ms ... */
static void test_jitter(void **state)
{
	struct bb_udp_flow f;
	double j = 0;

	(void)state;
	memset(&f, 0, sizeof f);
	for (uint64_t i = 0; i < 50; i++) {
		uint64_t transit = (i % 2) ? 16000000 : 0;
		bb_udp_flow_add(&f, i, 1000000000ull + i * 1000000, 1000000000ull + i * 1000000 + transit, 1);
		if (i > 0)
			j += (16e6 - j) / 16.0;
	}
	assert_true(fabs(f.jitter_ns - j) < 1e-6 * j);
}

/* Clocks that disagree by a constant or wrap change nothing. */
static void test_jitter_clock_offset(void **state)
{
	struct bb_udp_flow a, b;

	(void)state;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (uint64_t i = 0; i < 20; i++) {
		uint64_t send = i * 1000, recv = i * 1000 + (i % 3) * 7;
		bb_udp_flow_add(&a, i, send, recv, 1);
		bb_udp_flow_add(&b, i, send + UINT64_MAX / 2 + 12345, recv, 1);
	}
	assert_true(fabs(a.jitter_ns - b.jitter_ns) < 1e-9);
}

/* A hostile peer's sequence numbers: huge, repeated, at the very top. */
static void test_hostile_sequence_numbers(void **state)
{
	struct bb_udp_flow f;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_int_equal(bb_udp_flow_add(&f, UINT64_MAX, 0, 0, 1), BB_UDP_NEW);
	assert_int_equal(bb_udp_flow_add(&f, UINT64_MAX, 0, 0, 1), BB_UDP_DUPLICATE);
	assert_int_equal(bb_udp_flow_add(&f, 0, UINT64_MAX, 0, 1), BB_UDP_DUPLICATE);  /* too old */
	assert_true(f.received == 1 && f.duplicates == 2);
	assert_true(bb_udp_flow_lost(&f) == UINT64_MAX - 1);
	assert_true(bb_udp_flow_loss_fraction(&f) <= 1.0);
	memset(&f, 0, sizeof f);
	for (int i = 0; i < 10; i++)
		bb_udp_flow_add(&f, 5, 0, 0, 1);      /* duplicates never make up for loss */
	assert_true(f.received == 1 && f.duplicates == 9 && bb_udp_flow_lost(&f) == 5);
}

/* Fifty copies of 0, then 1: 2 received, 49 duplicates, nothing out of
 * order or lost (iperf3 and iperf2 call them out of order). */
static void test_duplicates_apart(void **state)
{
	struct bb_udp_flow f;

	(void)state;
	memset(&f, 0, sizeof f);
	for (int i = 0; i < 50; i++)
		bb_udp_flow_add(&f, 0, 0, 0, 100);
	assert_int_equal(bb_udp_flow_add(&f, 1, 0, 0, 100), BB_UDP_NEW);
	assert_true(f.received == 2 && f.duplicates == 49 && f.out_of_order == 0);
	assert_true(bb_udp_flow_expected(&f) == 2 && bb_udp_flow_lost(&f) == 0);
	assert_true(f.bytes == 51 * 100);
	/* a late one fills its gap once; again, it is a duplicate */
	assert_int_equal(bb_udp_flow_add(&f, 5, 0, 0, 100), BB_UDP_NEW);
	assert_int_equal(bb_udp_flow_add(&f, 3, 0, 0, 100), BB_UDP_LATE);
	assert_int_equal(bb_udp_flow_add(&f, 3, 0, 0, 100), BB_UDP_DUPLICATE);
	assert_int_equal(bb_udp_flow_add(&f, 4, 0, 0, 100), BB_UDP_LATE);
	assert_true(f.received == 5 && f.out_of_order == 2 && f.duplicates == 50);
	assert_true(bb_udp_flow_lost(&f) == 1);                 /* 2 */
}

/* The window: a gap wider than it forgets what was seen; a number further
 * behind than it is a duplicate (never counted received). */
static void test_duplicate_window(void **state)
{
	struct bb_udp_flow f;

	(void)state;
	memset(&f, 0, sizeof f);
	bb_udp_flow_add(&f, 0, 0, 0, 10);
	bb_udp_flow_add(&f, 3000, 0, 0, 10);
	assert_int_equal(bb_udp_flow_add(&f, 1, 0, 0, 10), BB_UDP_DUPLICATE);
	/* the window is the W numbers below the next expected, 3001 */
	assert_int_equal(bb_udp_flow_add(&f, 3000 - BB_UDP_DUP_WINDOW, 0, 0, 10), BB_UDP_DUPLICATE);
	assert_int_equal(bb_udp_flow_add(&f, 3001 - BB_UDP_DUP_WINDOW, 0, 0, 10), BB_UDP_LATE);
	assert_int_equal(bb_udp_flow_add(&f, 2999, 0, 0, 10), BB_UDP_LATE);
	assert_int_equal(bb_udp_flow_add(&f, 2999, 0, 0, 10), BB_UDP_DUPLICATE);
	assert_int_equal(bb_udp_flow_add(&f, 3000 + BB_UDP_DUP_WINDOW, 0, 0, 10), BB_UDP_NEW);
	assert_int_equal(bb_udp_flow_add(&f, 3001, 0, 0, 10), BB_UDP_LATE);  /* its slot cleared */
	assert_int_equal(bb_udp_flow_add(&f, 3000, 0, 0, 10), BB_UDP_DUPLICATE);  /* now too old */
	assert_true(f.received == 6 && f.duplicates == 4 && f.out_of_order == 3);
}

/* A tally below what arrived, or two that differ: doubt, with why. */
static void test_tally_doubt(void **state)
{
	struct bb_udp_flow f;
	char why[160];

	(void)state;
	memset(&f, 0, sizeof f);
	for (uint64_t i = 0; i < 100; i++)
		bb_udp_flow_add(&f, i, 0, 0, 10);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 0);   /* no tally */
	bb_udp_flow_tally(&f, 100);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 0);
	bb_udp_flow_tally(&f, 100);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 0);   /* sent twice, the same */
	bb_udp_flow_tally(&f, 120);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 1);
	assert_non_null(strstr(why, "differ"));
	memset(&f, 0, sizeof f);
	for (uint64_t i = 0; i < 100; i++)
		bb_udp_flow_add(&f, i, 0, 0, 10);
	bb_udp_flow_tally(&f, 5);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 1);
	assert_string_equal(why, "its tally says 5 datagrams were sent, but sequence numbers up "
			    "to 99 arrived");
	memset(&f, 0, sizeof f);
	bb_udp_flow_tally(&f, 0);                     /* nothing sent, nothing came */
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 0);
	bb_udp_flow_add(&f, 0, 0, 0, 10);
	assert_int_equal(bb_udp_flow_doubt(&f, why, sizeof why), 1);
}

/* A fresh flow: only the slack; then what 400 Gbit/s carries per second. */
static void test_seq_bound(void **state)
{
	struct bb_udp_flow f;
	const uint64_t t0 = 1000000000ull;
	double pps = BB_UDP_LINE_BPS / (8.0 * (1470 + BB_UDP_IP_OVERHEAD));
	uint64_t b;

	(void)state;
	memset(&f, 0, sizeof f);
	assert_true(bb_udp_seq_bound(&f, t0, t0, 1470) == BB_UDP_SEQ_SLACK);
	b = bb_udp_seq_bound(&f, t0 + 1000000000ull, t0, 1470);   /* 1 s after the start */
	assert_true(fabs((double)(b - BB_UDP_SEQ_SLACK) - pps) <= 1.0);
	bb_udp_flow_add(&f, 0, 0, t0 + 500, 1470);
	assert_true(f.last_ns == t0 + 500 && f.datagram_len == 1470);
	assert_true(bb_udp_seq_bound(&f, t0 + 500, t0, 1470) == 1 + BB_UDP_SEQ_SLACK);
	/* the clock going backwards gives no credit */
	assert_true(bb_udp_seq_bound(&f, t0, t0, 1470) == 1 + BB_UDP_SEQ_SLACK);
	/* the bound saturates instead of wrapping */
	f.next_seq = UINT64_MAX - 10;
	assert_true(bb_udp_seq_bound(&f, t0 + 500, t0, 1470) == UINT64_MAX);
	f.next_seq = 5;
	assert_true(bb_udp_seq_bound(&f, UINT64_MAX, 0, 0) < UINT64_MAX / 4);
}

/* The issue's three crafted datagrams and crafted tally: every one of them
 * is beyond the bound, so a receiver refuses them and no count can reach
 * 2^63 or 2^64. */
static void test_crafted_beyond_bound(void **state)
{
	struct bb_udp_flow f;
	const uint64_t t0 = 5000000000ull;
	const uint64_t crafted[] = { 1ull << 63, UINT64_MAX, (1ull << 63) + 5 };

	(void)state;
	memset(&f, 0, sizeof f);
	for (uint64_t i = 0; i < 100; i++)
		bb_udp_flow_add(&f, i, i * 1000, t0 + i * 1000, 124);
	for (size_t i = 0; i < 3; i++)
		assert_true(crafted[i] > bb_udp_seq_bound(&f, t0 + 200000, t0, 124));
	assert_true(UINT64_MAX > bb_udp_seq_bound(&f, t0 + 200000, t0, BB_UDP_HDR_LEN));
	assert_true(bb_udp_flow_lost(&f) == 0 && bb_udp_flow_expected(&f) == 100);
	/* a plausible jump is loss, and stays below 2^53 for a day-long test */
	assert_true(bb_udp_seq_bound(&f, t0 + 86400ull * 1000000000ull, t0, 0) < (1ull << 53));
}

static void test_refused_and_saturation(void **state)
{
	struct bb_udp_refused r = { 3, 4, 1, 2 };

	(void)state;
	assert_true(bb_udp_refused_foreign(&r) == 7);
	assert_true(bb_udp_refused_malformed(&r) == 3);
	assert_true(bb_udp_sat_add(UINT64_MAX - 1, 5) == UINT64_MAX);
	assert_true(bb_udp_sat_add(2, 3) == 5);
	r.foreign_peer = UINT64_MAX;
	assert_true(bb_udp_refused_foreign(&r) == UINT64_MAX);
}

/* iperf2's accounting on the same sequence (ids 1..10 without 5, then 3
 * again, then its final datagram 11): iperf 2.1.8's server said
 * "0/11", 1 out of order (its duplicate of 3 made up for the lost 5);
 * counted apart it is 1 lost of 11, 1 duplicate, none out of order.  Ids
 * are sequence numbers + 1 here. */
static void test_iperf2_accounting(void **state)
{
	struct bb_udp_flow f;
	const uint64_t ids[] = { 1, 2, 3, 4, 6, 7, 8, 9, 10, 3, 11 };

	(void)state;
	memset(&f, 0, sizeof f);
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		bb_udp_flow_add(&f, ids[i] - 1, 0, 0, 1470);
	assert_true(bb_udp_flow_expected(&f) == 11);
	assert_true(bb_udp_flow_lost(&f) == 1);
	assert_true(f.out_of_order == 0 && f.duplicates == 1);
	assert_true(f.bytes == 11 * 1470);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_bytes_are_big_endian),
		cmocka_unit_test(test_header_rejects),
		cmocka_unit_test(test_sentinels),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_no_loss_in_order),
		cmocka_unit_test(test_loss_reorder_and_tally),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_jitter_clock_offset),
		cmocka_unit_test(test_hostile_sequence_numbers),
		cmocka_unit_test(test_duplicates_apart),
		cmocka_unit_test(test_duplicate_window),
		cmocka_unit_test(test_tally_doubt),
		cmocka_unit_test(test_seq_bound),
		cmocka_unit_test(test_crafted_beyond_bound),
		cmocka_unit_test(test_refused_and_saturation),
		cmocka_unit_test(test_iperf2_accounting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
