/* test_ctlproto.c - the ttcp control protocol's codec (src/net/ctlproto.c):
 * every message type built and parsed back field for field; every prefix of
 * a valid message asks for more, never more than it needs; and each way a
 * peer can be wrong (magic, version, type, size, an unknown, repeated,
 * misplaced, mis-sized or out-of-range field, a missing one, a REQUEST that
 * contradicts itself, a UDP REQUEST without the port or rate its
 * directions need or with those of a direction it has not, text that is
 * not printable, a version 1 message) is refused with a reason naming it.
 * The MAC is checked against a value computed independently (Python's hmac
 * module over the same bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "net/ctlproto.h"

static size_t build(const struct bb_ctl_msg *m, unsigned char *out)
{
	size_t n = bb_ctl_build(m, out, BB_CTL_MAX_MSG);

	assert_true(n >= BB_CTL_HDR);
	return n;
}

static void request(struct bb_ctl_msg *m)
{
	bb_ctl_init(m, BB_CTL_REQUEST);
	bb_ctl_set(m, BB_CF_DIRECTION, BB_CTL_BOTH);
	bb_ctl_set(m, BB_CF_PROTO, 1);
	bb_ctl_set(m, BB_CF_STREAMS, 4);
	bb_ctl_set(m, BB_CF_WRITE_LEN, 1470);
	bb_ctl_set(m, BB_CF_UDP_RATE, 100000000);
	bb_ctl_set(m, BB_CF_DURATION_MS, 5000);
	bb_ctl_set(m, BB_CF_UDP_TX_PORT, 40000);
	bb_ctl_set(m, BB_CF_UDP_RX_PORT, 65535);
}

static void test_round_trips(void **state)
{
	unsigned char buf[BB_CTL_MAX_MSG];
	struct bb_ctl_msg m, got;
	size_t n, used;
	char why[160];

	(void)state;
	request(&m);
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_int_equal(used, n);
	assert_int_equal(got.type, BB_CTL_REQUEST);
	assert_int_equal(got.have, m.have);
	for (int f = 1; f < BB_CF_COUNT; f++)
		assert_true(got.num[f] == m.num[f]);

	bb_ctl_init(&m, BB_CTL_HELLO);
	for (int i = 0; i < BB_CTL_NONCE; i++)
		m.nonce[i] = (unsigned char)(0xf0 + i);
	m.have |= 1u << BB_CF_NONCE;
	bb_ctl_set(&m, BB_CF_FEATURES, 0xdeadbeef);
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_memory_equal(got.nonce, m.nonce, BB_CTL_NONCE);
	assert_true(got.num[BB_CF_FEATURES] == 0xdeadbeef);

	bb_ctl_init(&m, BB_CTL_REFUSE);
	snprintf(m.reason, sizeof m.reason, "too many tests: 4 running (--max-tests 4)");
	m.have |= 1u << BB_CF_REASON;
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_string_equal(got.reason, m.reason);

	bb_ctl_init(&m, BB_CTL_RESULT);
	bb_ctl_set(&m, BB_CF_ROLE, 0);
	bb_ctl_set(&m, BB_CF_STATUS, 0);
	bb_ctl_set(&m, BB_CF_RX_BYTES, (uint64_t)1 << 40);
	bb_ctl_set(&m, BB_CF_ELAPSED_US, 5000123);
	bb_ctl_set(&m, BB_CF_LOST, 7);
	bb_ctl_set(&m, BB_CF_FOREIGN, 12345);
	bb_ctl_set(&m, BB_CF_MALFORMED, (uint64_t)1 << 62);
	bb_ctl_set(&m, BB_CF_DUPLICATES, 49);
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_true(got.num[BB_CF_RX_BYTES] == (uint64_t)1 << 40);
	assert_true(got.num[BB_CF_LOST] == 7);
	assert_true(got.num[BB_CF_FOREIGN] == 12345);
	assert_true(got.num[BB_CF_MALFORMED] == (uint64_t)1 << 62);
	assert_true(got.num[BB_CF_DUPLICATES] == 49);
	assert_true(bb_ctl_has(&got, BB_CF_LOST));
	assert_false(bb_ctl_has(&got, BB_CF_JITTER_NS));

	bb_ctl_init(&m, BB_CTL_ACCEPT);               /* a UDP test's ACCEPT: the ports */
	memset(m.token, 0xa5, BB_CTL_TOKEN);
	m.have |= 1u << BB_CF_TOKEN;
	bb_ctl_set(&m, BB_CF_UDP_RX_PORT, 1);
	bb_ctl_set(&m, BB_CF_UDP_TX_PORT, 5001);
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_true(got.num[BB_CF_UDP_RX_PORT] == 1 && got.num[BB_CF_UDP_TX_PORT] == 5001);
	assert_int_equal(buf[4], BB_CTL_VERSION);
}

/* Every proper prefix needs more; the header tells how much. */
static void test_prefixes(void **state)
{
	unsigned char buf[BB_CTL_MAX_MSG];
	struct bb_ctl_msg m, got;
	size_t n, used;
	char why[160];

	(void)state;
	request(&m);
	n = build(&m, buf);
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(bb_ctl_parse(buf, k, &got, &used, why, sizeof why),
				 BB_CTL_NEED_MORE);
		assert_int_equal(used, k < BB_CTL_HDR ? BB_CTL_HDR : n);
	}
	/* two messages back to back: the first is read, its length given */
	memcpy(buf + n, buf, n);
	assert_int_equal(bb_ctl_parse(buf, 2 * n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_int_equal(used, n);
}

/* A message built by hand: header + raw payload. */
static size_t raw(unsigned char *buf, unsigned version, unsigned type, const unsigned char *p,
		  size_t plen)
{
	memcpy(buf, "BBcp", 4);
	buf[4] = (unsigned char)version;
	buf[5] = (unsigned char)type;
	buf[6] = (unsigned char)(plen >> 8);
	buf[7] = (unsigned char)plen;
	if (plen)
		memcpy(buf + 8, p, plen);
	return 8 + plen;
}

static void refused(const unsigned char *buf, size_t n, const char *reason_part)
{
	struct bb_ctl_msg got;
	size_t used;
	char why[160] = "";

	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_BAD);
	if (!strstr(why, reason_part))
		fail_msg("reason '%s' does not say '%s'", why, reason_part);
}

#define V BB_CTL_VERSION

static void test_refusals(void **state)
{
	unsigned char buf[BB_CTL_MAX_MSG + 64];
	/* a valid TCP REQUEST payload: direction, proto, streams, write_len, duration */
	static const unsigned char req[] = { 6, 1, 0, 7, 1, 0, 10, 1, 1, 11, 4, 0, 0, 0x20, 0,
					     8, 4, 0, 0, 0x13, 0x88 };
	unsigned char p[600];

	(void)state;
	assert_int_equal(raw(buf, V, BB_CTL_REQUEST, req, sizeof req) > 0, 1);
	{
		struct bb_ctl_msg got;
		size_t used;
		char why[160];
		size_t n = raw(buf, V, BB_CTL_REQUEST, req, sizeof req);
		assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	}
	memcpy(buf, "GET / HTTP/1.0\r\n", 16);
	refused(buf, 16, "not a boardbench control message");
	refused(buf, 2, "not a boardbench control message");   /* at once, not after 8 bytes */
	refused(buf, raw(buf, 4, BB_CTL_REQUEST, req, sizeof req), "version 4 not supported");
	refused(buf, raw(buf, 2, BB_CTL_REQUEST, req, sizeof req),
		"version 2 not supported (this end speaks 3)");
	refused(buf, raw(buf, V, 0, req, sizeof req), "unknown message type 0");
	refused(buf, raw(buf, V, 200, req, sizeof req), "unknown message type 200");
	memset(p, 0, sizeof p);
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, 513), "a payload of 513 bytes");

	memcpy(p, req, sizeof req);
	p[sizeof req] = 99, p[sizeof req + 1] = 0;
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, sizeof req + 2), "unknown field 99");
	memcpy(p + sizeof req, req, 3);   /* direction again */
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, sizeof req + 3), "direction given twice");
	p[sizeof req] = 5, p[sizeof req + 1] = 16;   /* a token in a REQUEST */
	memset(p + sizeof req + 2, 1, 16);
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, sizeof req + 18), "not part of a REQUEST");
	p[sizeof req] = 10, p[sizeof req + 1] = 1;   /* streams, 1 byte... */
	p[sizeof req + 2] = 0;
	memcpy(p, req, sizeof req);
	p[8] = 65;                                    /* streams 65 */
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, sizeof req), "streams out of range (1..64)");
	memcpy(p, req, sizeof req);
	p[1] = 2, p[3] = 0;                           /* direction in 2 bytes */
	refused(buf, raw(buf, V, BB_CTL_REQUEST, p, sizeof req + 1), "direction has 2 bytes");
	refused(buf, raw(buf, V, BB_CTL_REQUEST, req, sizeof req - 6), "duration_ms or bytes");
	refused(buf, raw(buf, V, BB_CTL_REQUEST, req, 3), "REQUEST without proto");
	refused(buf, raw(buf, V, BB_CTL_REQUEST, req, sizeof req - 1), "runs past the message end");
	refused(buf, raw(buf, V, BB_CTL_REQUEST, req, 1), "cut short");
	refused(buf, raw(buf, V, BB_CTL_ACCEPT, NULL, 0), "ACCEPT without token");
	{
		static const unsigned char bad_text[] = { 14, 3, 'o', '\n', 'k' };
		refused(buf, raw(buf, V, BB_CTL_REFUSE, bad_text, sizeof bad_text), "not printable");
	}
}

static void test_request_consistency(void **state)
{
	unsigned char buf[BB_CTL_MAX_MSG];
	struct bb_ctl_msg m;

	(void)state;
	request(&m);
	bb_ctl_set(&m, BB_CF_BYTES, 1000);               /* both duration and bytes */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	m.have &= ~(1u << BB_CF_DURATION_MS);            /* neither */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_PROTO, 0);                  /* a UDP rate on TCP */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_WRITE_LEN, 65508);          /* no such datagram */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_STREAMS, 0);                /* out of range */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	assert_int_equal(bb_ctl_build(&m, buf, BB_CTL_MAX_MSG - 1), 0);   /* too small a buffer */
}

/* A UDP REQUEST names the ports of the directions it has, and only those. */
static void test_udp_ports(void **state)
{
	unsigned char buf[BB_CTL_MAX_MSG];
	struct bb_ctl_msg m, got;
	size_t n, used;
	char why[160];

	(void)state;
	request(&m);
	assert_true(bb_ctl_build(&m, buf, sizeof buf) > 0);
	m.have &= ~(1u << BB_CF_UDP_TX_PORT);            /* the client sends: its port */
	n = bb_ctl_build(&m, buf, sizeof buf);
	assert_int_equal(n, 0);
	request(&m);
	m.have &= ~(1u << BB_CF_UDP_RX_PORT);            /* the server sends: where to */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	m.have &= ~(1u << BB_CF_UDP_RATE);               /* ... and how fast */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_DIRECTION, BB_CTL_TO_SERVER);   /* no receiving port then */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	m.have &= ~(1u << BB_CF_UDP_RX_PORT);
	m.have &= ~(1u << BB_CF_UDP_RATE);               /* the client's own pace: optional */
	assert_true(bb_ctl_build(&m, buf, sizeof buf) > 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_DIRECTION, BB_CTL_TO_CLIENT);   /* no sending port then */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	m.have &= ~(1u << BB_CF_UDP_TX_PORT);
	assert_true(bb_ctl_build(&m, buf, sizeof buf) > 0);
	request(&m);                                      /* ports in a TCP REQUEST */
	bb_ctl_set(&m, BB_CF_PROTO, 0);
	m.have &= ~(1u << BB_CF_UDP_RATE);
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	request(&m);
	bb_ctl_set(&m, BB_CF_UDP_TX_PORT, 0);            /* port 0: out of range */
	assert_int_equal(bb_ctl_build(&m, buf, sizeof buf), 0);
	{	/* by hand: the reason names what is missing */
		static const unsigned char req[] = { 6, 1, 1, 7, 1, 1, 10, 1, 1, 11, 4, 0, 0, 4, 0,
						     8, 4, 0, 0, 0x13, 0x88, 27, 2, 0x9c, 0x40 };
		static const unsigned char res[] = { 15, 1, 0, 16, 1, 0, 17, 8, 0, 0, 0, 0, 0, 0,
						     0, 1, 18, 8, 0, 0, 0, 0, 0, 0, 0, 1,
						     25, 8, 0x40, 0, 0, 0, 0, 0, 0, 1 };
		unsigned char raw_buf[BB_CTL_MAX_MSG];
		refused(raw_buf, raw(raw_buf, V, BB_CTL_REQUEST, req, sizeof req), "without udp_rate");
		refused(raw_buf, raw(raw_buf, V, BB_CTL_RESULT, res, sizeof res),
			"foreign out of range");
		refused(raw_buf, raw(raw_buf, V, BB_CTL_DATA, req + 21, 4),
			"udp_rx_port is not part of a DATA message");
	}
	request(&m);
	n = build(&m, buf);
	assert_int_equal(bb_ctl_parse(buf, n, &got, &used, why, sizeof why), BB_CTL_OK);
	assert_true(got.num[BB_CF_UDP_TX_PORT] == 40000 && got.num[BB_CF_UDP_RX_PORT] == 65535);
}

static void test_mac(void **state)
{
	unsigned char s[BB_CTL_NONCE], c[BB_CTL_NONCE], mac[BB_CTL_MAC];
	char hexs[2 * BB_CTL_MAC + 1];

	(void)state;
	for (int i = 0; i < BB_CTL_NONCE; i++)
		s[i] = (unsigned char)i, c[i] = (unsigned char)(16 + i);
	bb_ctl_mac("secret", 6, s, c, mac);
	for (int i = 0; i < BB_CTL_MAC; i++)
		sprintf(hexs + 2 * i, "%02x", mac[i]);
	assert_string_equal(hexs, "543990d0fb209d6130c75965c07290ec61da9f6c06826a7ec0807e7b9919b037");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_request_consistency),
		cmocka_unit_test(test_udp_ports),
		cmocka_unit_test(test_mac),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
