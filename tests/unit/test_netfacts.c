/* test_netfacts.c - unit tests for the network setup facts: the net.*
 * sysctls and an interface's sysfs facts read from a fixture root
 * (tests/fixtures/net/board, an MPC8313e-class board with rmem_max
 * 131071), the interface owning an address (/proc/net/if_inet6 from the
 * fixture; IPv4 by SIOCGIFCONF on the machine's own loopback), socket
 * buffers granted against requested, the one warning line
 * naming the sysctl that caps them, and the window / RTT bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "facts/facts.h"
#include "facts/netif.h"
#include "facts/root.h"
#include "net/sock.h"
#include "net/tcpinfo.h"

static const char *kv_str(const struct bb_kvlist *kv, const char *key)
{
	const struct bb_kv *v = bb_kv_get(kv, key);

	return v && v->type == BB_KV_STR ? v->s : NULL;
}

/* ---- sysctls (fixture) ---- */

static void test_netsys_fixture_values(void **state)
{
	struct bb_kvlist kv = { 0 };

	(void)state;
	bb_facts_netsys(&kv);
	assert_string_equal(kv_str(&kv, "net.core.rmem_max"), "131071");
	assert_string_equal(kv_str(&kv, "net.core.wmem_max"), "131071");
	assert_string_equal(kv_str(&kv, "net.core.rmem_default"), "112640");
	assert_string_equal(kv_str(&kv, "net.core.netdev_max_backlog"), "1000");
	assert_string_equal(kv_str(&kv, "net.ipv4.tcp_congestion_control"), "cubic");
	assert_string_equal(kv_str(&kv, "net.ipv4.tcp_adv_win_scale"), "2");
	assert_string_equal(kv_str(&kv, "net.ipv4.tcp_sack"), "1");
	/* the kernel's tabs become single spaces */
	assert_string_equal(kv_str(&kv, "net.ipv4.tcp_rmem"), "4096 87380 4194304");
	assert_string_equal(kv_str(&kv, "net.ipv4.tcp_wmem"), "4096 16384 4194304");
	/* what the board does not have is left out, not recorded empty */
	assert_null(bb_kv_get(&kv, "net.core.default_qdisc"));
	assert_null(bb_kv_get(&kv, "net.ipv4.tcp_mtu_probing"));
	for (size_t i = 0; i < kv.n; i++)
		assert_int_equal(strncmp(kv.v[i].key, "net.", 4), 0);
	bb_kv_free(&kv);
}

static void test_netsys_by_name(void **state)
{
	long long v = 0;
	char buf[64];

	(void)state;
	assert_int_equal(bb_netsys_llong("net.core.rmem_max", &v), 0);
	assert_int_equal(v, 131071);
	assert_int_equal(bb_netsys_llong("net.ipv4.tcp_rmem", &v), -1);   /* three numbers */
	assert_int_equal(bb_netsys_llong("net.core.no_such_sysctl", &v), -1);
	assert_int_equal(bb_netsys_read("net.core.no_such_sysctl", buf, sizeof buf), -1);
	assert_string_equal(buf, "");
}

/* ---- an interface (fixture: files only, no ethtool) ---- */

static void test_netif_sysfs_eth0(void **state)
{
	struct bb_netif n;
	struct bb_kvlist kv = { 0 };

	(void)state;
	bb_netif_read("eth0", &n);
	assert_string_equal(n.name, "eth0");
	assert_int_equal(n.mtu, 1500);
	assert_int_equal(n.txqueuelen, 1000);
	assert_int_equal(n.speed_mbps, 1000);
	assert_string_equal(n.duplex, "full");
	assert_string_equal(n.driver, "fsl-gianfar");      /* device/driver link */
	assert_string_equal(n.driver_version, "");         /* ethtool: skipped under a fixture */
	assert_int_equal(n.tso, -1);
	assert_int_equal(n.gro, -1);
	bb_netif_kv(&n, "if.", &kv);
	assert_string_equal(kv_str(&kv, "if.name"), "eth0");
	assert_string_equal(kv_str(&kv, "if.driver"), "fsl-gianfar");
	assert_string_equal(kv_str(&kv, "if.duplex"), "full");
	assert_int_equal(bb_kv_get(&kv, "if.mtu")->i, 1500);
	assert_int_equal(bb_kv_get(&kv, "if.speed_mbps")->i, 1000);
	assert_int_equal(bb_kv_get(&kv, "if.txqueuelen")->i, 1000);
	assert_null(bb_kv_get(&kv, "if.tso"));              /* unknown: left out */
	assert_null(bb_kv_get(&kv, "if.driver_version"));
	bb_kv_free(&kv);
}

static void test_netif_link_down(void **state)
{
	struct bb_netif n;
	struct bb_kvlist kv = { 0 };

	(void)state;
	bb_netif_read("eth1", &n);
	assert_int_equal(n.mtu, 576);
	assert_int_equal(n.speed_mbps, -1);                /* sysfs says -1 */
	assert_string_equal(n.duplex, "");                 /* "unknown" */
	assert_string_equal(n.driver, "");
	bb_netif_kv(&n, "if.", &kv);
	assert_null(bb_kv_get(&kv, "if.speed_mbps"));
	assert_null(bb_kv_get(&kv, "if.duplex"));
	assert_null(bb_kv_get(&kv, "if.driver"));
	bb_kv_free(&kv);
}

static void test_netif_bad_names(void **state)
{
	struct bb_netif n;

	(void)state;
	bb_netif_read("wlan9", &n);                        /* absent: nothing known */
	assert_int_equal(n.mtu, -1);
	assert_int_equal(n.speed_mbps, -1);
	bb_netif_read("../../etc", &n);                    /* never a path */
	assert_string_equal(n.name, "");
	assert_int_equal(n.mtu, -1);
	bb_netif_read("an-interface-name-far-too-long", &n);
	assert_string_equal(n.name, "");
	bb_netif_read(NULL, &n);
	assert_string_equal(n.name, "");
}

/* Under a fixture root the socket's interface is not looked up at all. */
static void test_netif_of_socket_fixture(void **state)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	char name[IF_NAMESIZE] = "x";
	struct bb_netif n;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(bb_netif_of_socket(fd, name, sizeof name), -1);
	assert_string_equal(name, "");
	assert_int_equal(bb_netif_for_socket(fd, &n), -1);
	close(fd);
}

/* ---- which interface holds an address (no netlink) ---- */

static int owner6(const char *text, unsigned scope, char *name, size_t len)
{
	struct sockaddr_in6 s6;

	memset(&s6, 0, sizeof s6);
	s6.sin6_family = AF_INET6;
	s6.sin6_port = htons(5001);                        /* ignored */
	s6.sin6_scope_id = scope;
	assert_int_equal(inet_pton(AF_INET6, text, &s6.sin6_addr), 1);
	return bb_netif_of_address((const struct sockaddr *)&s6, name, len);
}

static void test_netif_of_address_ipv6_fixture(void **state)
{
	char name[IF_NAMESIZE];

	(void)state;
	assert_int_equal(owner6("::1", 0, name, sizeof name), 0);
	assert_string_equal(name, "lo");
	assert_int_equal(owner6("2001:db8::5", 0, name, sizeof name), 0);
	assert_string_equal(name, "eth0");
	assert_int_equal(owner6("2001:db8:0:1::7", 0, name, sizeof name), 0);
	assert_string_equal(name, "eth1.100");            /* index 0x1a3 */
	/* one link-local address on two links: the scope picks the link */
	assert_int_equal(owner6("fe80::211:22ff:fe33:4455", 3, name, sizeof name), 0);
	assert_string_equal(name, "eth1");
	assert_int_equal(owner6("fe80::211:22ff:fe33:4455", 2, name, sizeof name), 0);
	assert_string_equal(name, "eth0");
	assert_int_equal(owner6("fe80::211:22ff:fe33:4455", 9, name, sizeof name), -1);
	assert_string_equal(name, "");
	/* no such address; and the two malformed lines are never matched */
	assert_int_equal(owner6("2001:db8::99", 0, name, sizeof name), -1);
	assert_int_equal(owner6("2001:db8::9", 0, name, sizeof name), -1);
	assert_string_equal(name, "");
	/* a name that does not fit is no answer, never a cut one */
	assert_int_equal(owner6("2001:db8:0:1::7", 0, name, 5), -1);
	assert_string_equal(name, "");
}

/* IPv4 comes from an ioctl: skipped under a fixture root; other address
 * families have no interface. */
static void test_netif_of_address_other_fixture(void **state)
{
	struct sockaddr_in s4;
	struct sockaddr sa;
	char name[IF_NAMESIZE] = "x";

	(void)state;
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	s4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bb_netif_of_address((const struct sockaddr *)&s4, name, sizeof name), -1);
	assert_string_equal(name, "");
	memset(&sa, 0, sizeof sa);
	sa.sa_family = AF_UNIX;
	assert_int_equal(bb_netif_of_address(&sa, name, sizeof name), -1);
	assert_int_equal(bb_netif_of_address(NULL, name, sizeof name), -1);
}

static void test_netif_inet6_line(void **state)
{
	struct in6_addr a, one = IN6ADDR_LOOPBACK_INIT;
	unsigned index = 0;
	char name[IF_NAMESIZE];

	(void)state;
	assert_int_equal(bb_netif_inet6_line("00000000000000000000000000000001 01 80 10 80       lo\n",
					     &a, &index, name, sizeof name), 0);
	assert_memory_equal(&a, &one, sizeof a);
	assert_int_equal(index, 1);
	assert_string_equal(name, "lo");
	assert_int_equal(bb_netif_inet6_line("fe800000000000000000000000000001 0c 40 20 80 eth2",
					     &a, &index, name, sizeof name), 0);
	assert_int_equal(index, 12);
	assert_string_equal(name, "eth2");
	/* short address, a field missing, a field too long, trailing words,
	 * a path in the name, a name too long, nothing at all */
	static const char *const bad[] = {
		"000000000000000000000000000001 01 80 10 80 lo",
		"00000000000000000000000000000001 01 80 10 lo",
		"00000000000000000000000000000001 123456789 80 10 80 lo",
		"00000000000000000000000000000001 01 80 10 80 lo extra",
		"00000000000000000000000000000001 01 80 10 80 ../x",
		"00000000000000000000000000000001 01 80 10 80 an-interface-name-far-too-long",
		"00000000000000000000000000000001 01 80 10 80",
		"",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(bb_netif_inet6_line(bad[i], &a, &index, name, sizeof name), -1);
		assert_string_equal(name, "");
	}
}

/* A socket connected over this machine's loopback, with no fixture root:
 * the interface is "lo" whether IPv4 (SIOCGIFCONF) or IPv6 (if_inet6). */
static int connected_udp(int family)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd = socket(family, SOCK_DGRAM, 0);

	if (fd < 0)
		return -1;
	memset(&ss, 0, sizeof ss);
	if (family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;
		s4->sin_family = AF_INET;
		s4->sin_port = htons(9);
		s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		sl = sizeof *s4;
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(9);
		s6->sin6_addr = in6addr_loopback;
		sl = sizeof *s6;
	}
	if (connect(fd, (struct sockaddr *)&ss, sl) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_netif_of_socket_live_loopback(void **state)
{
	const char *saved = getenv("BB_SYSROOT");
	char keep[4096], name[IF_NAMESIZE];
	struct bb_netif n;
	int fd;

	(void)state;
	snprintf(keep, sizeof keep, "%s", saved ? saved : "");
	unsetenv("BB_SYSROOT");
	bb_root_reset();
	fd = connected_udp(AF_INET);
	assert_true(fd >= 0);
	assert_int_equal(bb_netif_of_socket(fd, name, sizeof name), 0);
	assert_string_equal(name, "lo");
	assert_int_equal(bb_netif_for_socket(fd, &n), 0);
	assert_string_equal(n.name, "lo");
	assert_int_equal(n.mtu > 0, 1);
	close(fd);
	fd = connected_udp(AF_INET6);
	if (fd >= 0) {                                     /* a machine without IPv6 skips this */
		assert_int_equal(bb_netif_of_socket(fd, name, sizeof name), 0);
		assert_string_equal(name, "lo");
		close(fd);
	}
	setenv("BB_SYSROOT", keep, 1);
	bb_root_reset();
	assert_true(bb_root_is_fixture());
}

/* ---- socket buffers: granted against requested ---- */

static void test_sockbuf_granted_halves_on_linux(void **state)
{
	(void)state;
#ifdef __linux__
	assert_int_equal(bb_sockbuf_granted(262142), 131071);
	assert_int_equal(bb_sockbuf_granted(524288), 262144);
#else
	assert_int_equal(bb_sockbuf_granted(262144), 262144);
#endif
}

static void test_sockbuf_capped_decision(void **state)
{
	struct bb_sockbuf none = { 0, 8192, 65536 };
	struct bb_sockbuf rcv = { 262144, 262144, 131071 };
	struct bb_sockbuf snd = { 262144, 131071, 262144 };
	struct bb_sockbuf both = { 262144, 131071, 131071 };
	struct bb_sockbuf more = { 1000, 2304, 1152 };     /* the kernel's minimum: more */
	struct bb_sockbuf exact = { 262144, 262144, 262144 };
	struct bb_sockbuf unknown = { 262144, -1, -1 };

	(void)state;
	assert_int_equal(bb_sockbuf_capped(&none), 0);      /* nothing asked: nothing capped */
	assert_int_equal(bb_sockbuf_capped(&rcv), BB_SOCKBUF_RCV_CAPPED);
	assert_int_equal(bb_sockbuf_capped(&snd), BB_SOCKBUF_SND_CAPPED);
	assert_int_equal(bb_sockbuf_capped(&both), BB_SOCKBUF_SND_CAPPED | BB_SOCKBUF_RCV_CAPPED);
	assert_int_equal(bb_sockbuf_capped(&more), 0);
	assert_int_equal(bb_sockbuf_capped(&exact), 0);
	assert_int_equal(bb_sockbuf_capped(&unknown), 0);
	assert_string_equal(bb_sockbuf_cap_sysctl(0), "");
	assert_string_equal(bb_sockbuf_cap_sysctl(BB_SOCKBUF_RCV_CAPPED), "net.core.rmem_max");
	assert_string_equal(bb_sockbuf_cap_sysctl(BB_SOCKBUF_SND_CAPPED), "net.core.wmem_max");
	assert_string_equal(bb_sockbuf_cap_sysctl(BB_SOCKBUF_SND_CAPPED | BB_SOCKBUF_RCV_CAPPED),
			    "net.core.wmem_max,net.core.rmem_max");
}

static void test_sockbuf_warning_text(void **state)
{
	struct bb_sockbuf rcv = { 262144, 262144, 131071 };
	struct bb_sockbuf snd = { 262144, 131071, 262144 };
	struct bb_sockbuf both = { 262144, 100000, 131071 };
	struct bb_sockbuf fine = { 262144, 262144, 262144 };
	char line[512];

	(void)state;
	bb_sockbuf_warning(line, sizeof line, "ttcp-r", &rcv, 4194304, 131071);
	assert_string_equal(line, "ttcp-r: warning: asked for a 262144-byte receive buffer, got "
			    "131071: net.core.rmem_max (131071) caps it; raise it with: sysctl -w "
			    "net.core.rmem_max=262144");
	bb_sockbuf_warning(line, sizeof line, "ttcp-t", &snd, 131071, -1);
	assert_string_equal(line, "ttcp-t: warning: asked for a 262144-byte send buffer, got "
			    "131071: net.core.wmem_max (131071) caps it; raise it with: sysctl -w "
			    "net.core.wmem_max=262144");
	bb_sockbuf_warning(line, sizeof line, "ttcp-t", &both, 100000, 131071);
	assert_string_equal(line, "ttcp-t: warning: asked for 262144-byte socket buffers, got "
			    "100000 to send and 131071 to receive: net.core.wmem_max (100000) and "
			    "net.core.rmem_max (131071) cap them; raise them with: sysctl -w "
			    "net.core.wmem_max=262144 net.core.rmem_max=262144");
	/* the sysctl unreadable (a container): still named, without a value */
	bb_sockbuf_warning(line, sizeof line, "ttcp-r", &rcv, -1, -1);
	assert_non_null(strstr(line, ": net.core.rmem_max caps it; raise it with: sysctl -w "
				     "net.core.rmem_max=262144"));
	assert_null(strchr(line, '\n'));                   /* one line */
	bb_sockbuf_warning(line, sizeof line, "ttcp-r", &fine, 1, 1);
	assert_string_equal(line, "");
	/* a short buffer truncates, never overflows */
	bb_sockbuf_warning(line, 16, "ttcp-r", &rcv, 1, 1);
	assert_int_equal(strlen(line), 15);
}

/* A real socket: what the kernel stores for a small SO_RCVBUF, read back
 * as the user asked it (below any rmem_max and above the minimum). */
static void test_sockbuf_read_real_socket(void **state)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), want = 8192;
	struct bb_sockbuf b;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof want), 0);
	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof want), 0);
	assert_int_equal(bb_sockbuf_read(fd, want, &b), 0);
	assert_int_equal(b.requested, 8192);
#ifdef __linux__
	assert_int_equal(b.rcv, 8192);
	assert_int_equal(b.snd, 8192);
#endif
	assert_int_equal(bb_sockbuf_capped(&b), 0);
	close(fd);
	assert_int_equal(bb_sockbuf_read(-1, 0, &b), -1);
	assert_int_equal(b.snd, -1);
	assert_int_equal(b.rcv, -1);
}

/* ---- the window bound ---- */

static void test_window_bound(void **state)
{
	(void)state;
	/* 131071 bytes per 1 ms: 1.048568 Gbit/s */
	assert_true(bb_window_bound_bps(131071, 1e-3) == 131071 * 8.0 / 1e-3);
	/* the classic report's 256 KiB window over 2 ms */
	assert_true(bb_window_bound_bps(262144, 2e-3) == 262144 * 8.0 / 2e-3);
	assert_true(bb_window_bound_bps(0, 1e-3) == 0);
	assert_true(bb_window_bound_bps(131071, 0) == 0);
	assert_true(bb_window_bound_bps(-1, 1e-3) == 0);
}

static void test_window_limited_threshold(void **state)
{
	double bound = 1e9;

	(void)state;
	assert_true(bb_window_limited(0.95e9, bound));
	assert_true(bb_window_limited(BB_WINDOW_LIMITED_FRACTION * bound, bound));
	assert_false(bb_window_limited(0.69e9, bound));
	assert_false(bb_window_limited(0.3e9, bound));
	assert_false(bb_window_limited(1e9, 0));           /* no bound known */
	assert_true(bb_window_limited(1.2e9, bound));      /* a little above: RTT noise */
	assert_true(bb_window_limited(BB_WINDOW_ABOVE_FRACTION * bound, bound));
	assert_false(bb_window_limited(1.5e9, bound));     /* far above: not its RTT */
}

int main(void)
{
	const char *src = getenv("srcdir");
	static char root[4096];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netsys_fixture_values),
		cmocka_unit_test(test_netsys_by_name),
		cmocka_unit_test(test_netif_sysfs_eth0),
		cmocka_unit_test(test_netif_link_down),
		cmocka_unit_test(test_netif_bad_names),
		cmocka_unit_test(test_netif_of_socket_fixture),
		cmocka_unit_test(test_netif_of_address_ipv6_fixture),
		cmocka_unit_test(test_netif_of_address_other_fixture),
		cmocka_unit_test(test_netif_inet6_line),
		cmocka_unit_test(test_netif_of_socket_live_loopback),
		cmocka_unit_test(test_sockbuf_granted_halves_on_linux),
		cmocka_unit_test(test_sockbuf_capped_decision),
		cmocka_unit_test(test_sockbuf_warning_text),
		cmocka_unit_test(test_sockbuf_read_real_socket),
		cmocka_unit_test(test_window_bound),
		cmocka_unit_test(test_window_limited_threshold),
	};

	/* The root is read once per process: set before any fact is read.
	 * The tests run from the top of the tree (make check). */
	snprintf(root, sizeof root, "%s/tests/fixtures/net/board", src && src[0] ? src : ".");
	setenv("BB_SYSROOT", root, 1);
	if (!bb_root_is_fixture())
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
