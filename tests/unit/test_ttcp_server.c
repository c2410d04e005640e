/* test_ttcp_server.c - the pure rules of the ttcp server: --allow's
 * prefixes (parsing, both families, IPv4 as seen through a dual-stack
 * socket, host bits, lists and their limits), the minimum rate over a
 * window (made-up clocks: a slow sender is caught at the window's end, a
 * steady one never, a burst then silence in the next window), and the
 * grouping of iperf2 parallel streams (same address and announced count,
 * within the join window, not beyond the count; capped stream counts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "net/cidr.h"
#include "net/srvrules.h"

static struct bb_ip ip4(const char *text)
{
	struct sockaddr_in s;
	struct bb_ip ip;

	memset(&s, 0, sizeof s);
	s.sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, text, &s.sin_addr), 1);
	assert_int_equal(bb_ip_from_sockaddr((struct sockaddr *)&s, &ip), 0);
	return ip;
}

static struct bb_ip ip6(const char *text)
{
	struct sockaddr_in6 s;
	struct bb_ip ip;

	memset(&s, 0, sizeof s);
	s.sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, text, &s.sin6_addr), 1);
	assert_int_equal(bb_ip_from_sockaddr((struct sockaddr *)&s, &ip), 0);
	return ip;
}

static int allows(const char *list, struct bb_ip ip)
{
	struct bb_cidr_list l;
	char err[160];

	assert_int_equal(bb_cidr_list_parse(list, &l, err, sizeof err), 0);
	return bb_cidr_list_allows(&l, &ip);
}

static void test_cidr_ipv4(void **state)
{
	(void)state;
	assert_true(allows("10.0.0.0/8", ip4("10.1.2.3")));
	assert_false(allows("10.0.0.0/8", ip4("11.0.0.1")));
	assert_true(allows("192.168.1.7", ip4("192.168.1.7")));
	assert_false(allows("192.168.1.7", ip4("192.168.1.8")));
	assert_true(allows("192.168.1.0/25", ip4("192.168.1.127")));
	assert_false(allows("192.168.1.0/25", ip4("192.168.1.128")));
	assert_true(allows("0.0.0.0/0", ip4("203.0.113.9")));
	assert_false(allows("0.0.0.0/0", ip6("2001:db8::1")));   /* IPv4 only */
	/* an IPv4 client as a dual-stack socket reports it */
	assert_true(allows("127.0.0.0/8", ip6("::ffff:127.0.0.1")));
}

static void test_cidr_ipv6(void **state)
{
	(void)state;
	assert_true(allows("fd00::/8", ip6("fd12:3456::1")));
	assert_false(allows("fd00::/8", ip6("fe80::1")));
	assert_true(allows("::1", ip6("::1")));
	assert_false(allows("::1", ip4("127.0.0.1")));
	assert_true(allows("2001:db8::/33", ip6("2001:db8:7fff::1")));
	assert_false(allows("2001:db8::/33", ip6("2001:db8:8000::1")));
	assert_true(allows("::/0", ip4("10.0.0.1")));
	assert_true(allows("10.0.0.0/8,::1,fd00::/8", ip6("::1")));
	assert_true(allows("10.0.0.0/8,::1,fd00::/8", ip4("10.9.9.9")));
	assert_false(allows("10.0.0.0/8,::1,fd00::/8", ip4("127.0.0.1")));
}

static void test_cidr_bad(void **state)
{
	static const char *const bad[] = {
		"", "10.0.0.0/33", "10.0.0.1/8", "::1/129", "fd00::/", "10.0.0.0/-1", "10.0.0/8",
		"host.example", "10.0.0.0/8,", ",10.0.0.0/8", "10.0.0.0/8,,::1", "1.2.3.4/8x",
		"fd00::1/8",
	};
	struct bb_cidr_list l;
	char err[160], many[512] = "";

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		err[0] = '\0';
		assert_int_equal(bb_cidr_list_parse(bad[i], &l, err, sizeof err), -1);
		assert_true(err[0] != '\0');
	}
	for (int i = 0; i < BB_CIDR_MAX + 1; i++)
		strcat(many, i ? ",10.0.0.0/8" : "10.0.0.0/8");
	assert_int_equal(bb_cidr_list_parse(many, &l, err, sizeof err), -1);
	l.n = 0;
	assert_true(bb_cidr_list_allows(&l, &(struct bb_ip){ { 0 } }));   /* no list: all */
}

static void test_minrate(void **state)
{
	struct bb_minrate m;
	uint64_t got = 0;

	(void)state;
	/* 8000 bytes/s over 10 s windows; 1 byte every 25 s never passes */
	bb_minrate_start(&m, 8000, 10, 100.0, 0);
	assert_int_equal(bb_minrate_check(&m, 105.0, 1, &got), 0);     /* window not over */
	assert_int_equal(bb_minrate_check(&m, 110.0, 1, &got), 1);
	assert_int_equal(got, 1);
	/* a steady sender above the rate is never caught */
	bb_minrate_start(&m, 8000, 10, 0, 0);
	for (int s = 1; s <= 100; s++)
		assert_int_equal(bb_minrate_check(&m, s, (uint64_t)s * 9000, &got), 0);
	/* a burst, then silence: caught in the window after the burst */
	bb_minrate_start(&m, 8000, 10, 0, 0);
	assert_int_equal(bb_minrate_check(&m, 10, 1000000, &got), 0);
	assert_int_equal(bb_minrate_check(&m, 20, 1000000, &got), 1);
	assert_int_equal(got, 0);
	/* exactly the rate passes; a counter going back counts as nothing */
	bb_minrate_start(&m, 100, 1, 0, 500);
	assert_int_equal(bb_minrate_check(&m, 1, 600, &got), 0);
	assert_int_equal(bb_minrate_check(&m, 2, 10, &got), 1);
	/* 0 disables the rule */
	bb_minrate_start(&m, 0, 10, 0, 0);
	assert_int_equal(bb_minrate_check(&m, 1000, 0, &got), 0);
	assert_int_equal(bb_minrate_behind(&m, 1000, 0, 1), 0);
	/* behind in the window under way: only once it has lasted min_s */
	bb_minrate_start(&m, 8000, 10, 0, 0);
	assert_int_equal(bb_minrate_behind(&m, 0.5, 1, 1.0), 0);
	assert_int_equal(bb_minrate_behind(&m, 2.0, 1, 1.0), 1);
	assert_int_equal(bb_minrate_behind(&m, 2.0, 16000, 1.0), 0);
}

static void test_group(void **state)
{
	struct bb_group g[3];
	struct bb_ip a = ip4("10.0.0.1"), b = ip4("10.0.0.2");

	(void)state;
	memset(g, 0, sizeof g);
	g[0] = (struct bb_group){ a, 4, 1, 100.0, 1 };
	g[1] = (struct bb_group){ b, 4, 1, 100.0, 1 };
	g[2] = (struct bb_group){ a, 2, 1, 100.0, 1 };
	assert_int_equal(bb_group_pick(g, 3, &a, 4, 101.0, 3.0), 0);
	assert_int_equal(bb_group_pick(g, 3, &b, 4, 101.0, 3.0), 1);
	assert_int_equal(bb_group_pick(g, 3, &a, 2, 101.0, 3.0), 2);
	assert_int_equal(bb_group_pick(g, 3, &a, 3, 101.0, 3.0), -1);   /* another count */
	assert_int_equal(bb_group_pick(g, 3, &a, 4, 103.5, 3.0), -1);   /* too late */
	assert_int_equal(bb_group_pick(g, 3, &a, 1, 101.0, 3.0), -1);   /* one stream: alone */
	g[0].joined = 4;                                                /* full */
	assert_int_equal(bb_group_pick(g, 3, &a, 4, 101.0, 3.0), -1);
	g[0].joined = 1;
	g[0].open = 0;                                                  /* closed */
	assert_int_equal(bb_group_pick(g, 3, &a, 4, 101.0, 3.0), -1);
	assert_int_equal(bb_group_cap(1000, 16), 16);
	assert_int_equal(bb_group_cap(4, 16), 4);
	assert_int_equal(bb_group_cap(0, 16), 1);
	assert_int_equal(bb_group_cap(-5, 16), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cidr_ipv4),
		cmocka_unit_test(test_cidr_ipv6),
		cmocka_unit_test(test_cidr_bad),
		cmocka_unit_test(test_minrate),
		cmocka_unit_test(test_group),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
