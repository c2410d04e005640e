/* test_rr_cookie.c - unit tests for what keeps `rr -s -u` from amplifying
 * (src/applets/rr/rr_cookie.c, docs/rr.md): a cookie is valid for its source in
 * its period and the next, and refused when stale, for another port or
 * address, under another secret, or with any byte changed; the bound on
 * answers to unverified sources (a burst, then the rate); the session's
 * window (each sequence number answered once, none too old or too far
 * ahead); the cookie message and the keyed sequence number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "applets/rr/rr_proto.h"
#include "applets/rr/rr_cookie.h"

static struct sockaddr_in v4(const char *addr, unsigned port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	assert_int_equal(inet_pton(AF_INET, addr, &a.sin_addr), 1);
	return a;
}

static void secret(struct bb_rr_secret *s, unsigned char fill)
{
	memset(s->key, fill, sizeof s->key);
}

#define SA(a) ((const struct sockaddr *)&(a))

static void test_cookie_valid_in_its_periods(void **state)
{
	struct bb_rr_secret s;
	struct sockaddr_in a = v4("192.0.2.7", 40000);
	unsigned char c[BB_RR_COOKIE_BYTES];
	double t = 1000.3;            /* inside a period, not on its edge */

	(void)state;
	secret(&s, 0x5a);
	bb_rr_cookie_make(&s, SA(a), t, c);
	assert_true(bb_rr_cookie_valid(&s, SA(a), t, c));
	assert_true(bb_rr_cookie_valid(&s, SA(a), t + BB_RR_COOKIE_PERIOD_S, c));
	/* stale: two periods on, whatever the phase */
	assert_false(bb_rr_cookie_valid(&s, SA(a), t + 2 * BB_RR_COOKIE_PERIOD_S + 0.01, c));
	/* from the future (a period it was not made in) */
	assert_false(bb_rr_cookie_valid(&s, SA(a), t - BB_RR_COOKIE_PERIOD_S, c));
	/* the same source, the same period: the same cookie (stateless) */
	unsigned char again[BB_RR_COOKIE_BYTES];
	bb_rr_cookie_make(&s, SA(a), t + 0.1, again);
	assert_memory_equal(c, again, sizeof c);
}

static void test_cookie_refused(void **state)
{
	struct bb_rr_secret s, other;
	struct sockaddr_in a = v4("192.0.2.7", 40000), port = v4("192.0.2.7", 40001),
			   addr = v4("192.0.2.8", 40000);
	unsigned char c[BB_RR_COOKIE_BYTES], zero[BB_RR_COOKIE_BYTES] = { 0 };
	double t = 50.5;

	(void)state;
	secret(&s, 1);
	secret(&other, 2);
	bb_rr_cookie_make(&s, SA(a), t, c);
	assert_false(bb_rr_cookie_valid(&s, SA(port), t, c));
	assert_false(bb_rr_cookie_valid(&s, SA(addr), t, c));
	assert_false(bb_rr_cookie_valid(&other, SA(a), t, c));
	assert_false(bb_rr_cookie_valid(&s, SA(a), t, zero));
	for (size_t i = 0; i < sizeof c; i++) {
		c[i] ^= 0x01;
		assert_false(bb_rr_cookie_valid(&s, SA(a), t, c));
		c[i] ^= 0x01;
	}
	assert_true(bb_rr_cookie_valid(&s, SA(a), t, c));
}

static void test_cookie_ipv6(void **state)
{
	struct bb_rr_secret s;
	struct sockaddr_in6 a, b;
	unsigned char c[BB_RR_COOKIE_BYTES];

	(void)state;
	secret(&s, 9);
	memset(&a, 0, sizeof a);
	a.sin6_family = AF_INET6;
	a.sin6_port = htons(5005);
	assert_int_equal(inet_pton(AF_INET6, "2001:db8::1", &a.sin6_addr), 1);
	b = a;
	b.sin6_addr.s6_addr[15] = 2;
	bb_rr_cookie_make(&s, SA(a), 7.0, c);
	assert_true(bb_rr_cookie_valid(&s, SA(a), 7.0, c));
	assert_false(bb_rr_cookie_valid(&s, SA(b), 7.0, c));
	b = a;
	b.sin6_scope_id = 3;
	assert_false(bb_rr_cookie_valid(&s, SA(b), 7.0, c));
}

/* A burst, then one answer per 1/rate seconds, never more. */
static void test_bucket(void **state)
{
	struct bb_rr_bucket b;
	int n = 0;

	(void)state;
	bb_rr_bucket_init(&b, 10.0);
	while (bb_rr_bucket_take(&b, 10.0))
		n++;
	assert_int_equal(n, (int)BB_RR_UNVERIFIED_BURST);
	assert_false(bb_rr_bucket_take(&b, 10.0));
	assert_false(bb_rr_bucket_take(&b, 10.0 + 0.5 / BB_RR_UNVERIFIED_PER_S));
	assert_true(bb_rr_bucket_take(&b, 10.0 + 1.01 / BB_RR_UNVERIFIED_PER_S));
	assert_false(bb_rr_bucket_take(&b, 10.0 + 1.02 / BB_RR_UNVERIFIED_PER_S));
	/* a long quiet time fills it to the burst, no more */
	n = 0;
	while (bb_rr_bucket_take(&b, 1000.0))
		n++;
	assert_int_equal(n, (int)BB_RR_UNVERIFIED_BURST);
	/* a clock that went back gives nothing */
	assert_false(bb_rr_bucket_take(&b, 5.0));
}

static void test_window(void **state)
{
	struct bb_rr_window w;

	(void)state;
	bb_rr_window_init(&w);
	assert_true(bb_rr_window_accept(&w, 0));
	assert_false(bb_rr_window_accept(&w, 0));                /* answered already */
	assert_true(bb_rr_window_accept(&w, 2));
	assert_true(bb_rr_window_accept(&w, 1));                 /* reordered: still once */
	assert_false(bb_rr_window_accept(&w, 1));
	assert_true(bb_rr_window_accept(&w, 3 + BB_RR_WINDOW_BEHIND - 1));
	assert_true(bb_rr_window_accept(&w, 3));                 /* the oldest still in it */
	assert_false(bb_rr_window_accept(&w, 2));                /* out of it */
	assert_false(bb_rr_window_accept(&w, 3));
	/* too far ahead of the highest: refused, and nothing moves */
	uint64_t hi = 3 + BB_RR_WINDOW_BEHIND - 1;
	assert_false(bb_rr_window_accept(&w, hi + 1 + BB_RR_WINDOW_AHEAD));
	assert_true(bb_rr_window_accept(&w, hi + BB_RR_WINDOW_AHEAD));   /* the farthest */
	assert_false(bb_rr_window_accept(&w, hi));               /* left behind */
	assert_true(bb_rr_window_accept(&w, hi + BB_RR_WINDOW_AHEAD - 5));
	assert_false(bb_rr_window_accept(&w, hi + BB_RR_WINDOW_AHEAD - 5));
	assert_false(bb_rr_window_accept(&w, UINT64_MAX));
}

/* Every sequence number of a long run in order is answered exactly once,
 * whatever its slot held before. */
static void test_window_long_run(void **state)
{
	struct bb_rr_window w;

	(void)state;
	bb_rr_window_init(&w);
	for (uint64_t q = 0; q < 5 * BB_RR_WINDOW_BEHIND; q++) {
		assert_true(bb_rr_window_accept(&w, q));
		if (q >= 3)
			assert_false(bb_rr_window_accept(&w, q - 3));
	}
}

static void test_cookie_message_and_seq(void **state)
{
	unsigned char cookie[BB_RR_COOKIE_BYTES], buf[BB_RR_CTL_BYTES], p[8];
	struct bb_rr_ctl c;

	(void)state;
	for (size_t i = 0; i < sizeof cookie; i++)
		cookie[i] = (unsigned char)(0xA0 + i);
	bb_rr_cookie_encode(buf, cookie);
	assert_int_equal(bb_rr_ctl_decode(buf, sizeof buf, &c), 0);
	assert_int_equal(c.type, 'C');
	assert_int_equal(c.version, BB_RR_UDP_VERSION);
	assert_memory_equal(buf + 8, cookie, sizeof cookie);
	bb_rr_seq_put(p, 12345, 0xDEADBEEF);
	assert_int_equal(p[0], 0);                               /* never 0xBB */
	assert_int_equal(bb_rr_seq_get(p, 0xDEADBEEF), 12345);
	assert_true(bb_rr_seq_get(p, 0xDEADBEEE) != 12345);      /* another key */
	bb_rr_seq_put(p, 7, 0);
	assert_int_equal(p[7], 7);                               /* key 0: the number */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookie_valid_in_its_periods),
		cmocka_unit_test(test_cookie_refused),
		cmocka_unit_test(test_cookie_ipv6),
		cmocka_unit_test(test_bucket),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_window_long_run),
		cmocka_unit_test(test_cookie_message_and_seq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
