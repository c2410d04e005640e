/* test_netmisc.c - unit tests for the small parts of src/net/: the source
 * pattern (printable, cyclic, first word safe from iperf2), the pacer, the
 * published counters, /proc/stat parsing and CPU deltas, numeric
 * addresses and --bind specifications. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <string.h>

#include "net/cpuacct.h"
#include "net/iperf2.h"
#include "net/live.h"
#include "net/pace.h"
#include "net/pattern.h"
#include "net/sock.h"

static void test_pattern_printable_and_cyclic(void **state)
{
	unsigned char p[1000];

	(void)state;
	bb_pattern_fill(p, sizeof p);
	assert_int_equal(p[0], ' ');
	for (size_t i = 0; i < sizeof p; i++) {
		assert_true(p[i] >= BB_PATTERN_FIRST && p[i] <= BB_PATTERN_LAST);
		if (i >= BB_PATTERN_PERIOD)
			assert_int_equal(p[i], p[i - BB_PATTERN_PERIOD]);
	}
	assert_int_equal(p[BB_PATTERN_PERIOD - 1], '~');
}

/* The first 32-bit word of a stream of such buffers, whatever -l, never
 * has 0x80000000 or 0x40000000 set: iperf2 takes it as data. */
static void test_pattern_first_word_iperf2_safe(void **state)
{
	unsigned char p[16], stream[8];
	struct bb_iperf2_hdr h;

	(void)state;
	for (size_t len = 1; len <= sizeof p; len++) {
		bb_pattern_fill(p, len);
		for (size_t i = 0; i < sizeof stream; i++)   /* writes of len bytes back to back */
			stream[i] = p[i % len];
		assert_true(bb_pattern_iperf2_safe(stream, sizeof stream));
		assert_int_equal(stream[0] & 0xc0, 0);
		assert_int_equal(bb_iperf2_parse(stream, sizeof stream, &h), BB_IPERF2_NONE);
	}
	assert_false(bb_pattern_iperf2_safe((const unsigned char *)"@abc", 4));
	assert_true(bb_pattern_iperf2_safe(p, 0));
}

static void test_pace_rate(void **state)
{
	struct bb_pace p;
	double now = 100.0;

	(void)state;
	bb_pace_init(&p, 8e6, now, 0.002);              /* 1 MB/s */
	assert_true(bb_pace_delay(&p, now, 1000) == 0);
	assert_true(fabs(bb_pace_delay(&p, now, 1000) - 0.001) < 1e-12);
	assert_true(fabs(bb_pace_delay(&p, now, 1000) - 0.002) < 1e-12);
	now += 0.0025;                                  /* time passes */
	assert_true(fabs(bb_pace_delay(&p, now, 1000) - 0.0005) < 1e-12);
}

/* After a long stall the sender may burst by at most max_burst. */
static void test_pace_burst_bounded(void **state)
{
	struct bb_pace p;
	double now = 0, burst = 0;
	int free_sends = 0;

	(void)state;
	bb_pace_init(&p, 8e6, now, 0.002);
	bb_pace_delay(&p, now, 1000);
	now = 10.0;                                     /* 10 s of silence */
	while (bb_pace_delay(&p, now, 1000) == 0 && free_sends < 1000)
		free_sends++;
	burst = free_sends * 1000.0 / 1e6;
	assert_true(burst <= 0.002 + 0.001 + 1e-9);
}

static void test_live_counters(void **state)
{
	struct bb_live l;
	uint64_t b = 1, c = 1;

	(void)state;
	bb_live_init(&l);
	assert_int_equal(bb_live_read(&l, &b, &c), 0);
	assert_true(b == 0 && c == 0);
	bb_live_publish(&l, 0x123456789abcull, 42);
	assert_int_equal(bb_live_read(&l, &b, &c), 0);
	assert_true(b == 0x123456789abcull && c == 42);
	atomic_store(&l.seq, 7);                        /* a writer in the middle */
	b = c = 5;
	assert_int_equal(bb_live_read(&l, &b, &c), -1);
	assert_true(b == 5 && c == 5);                  /* untouched, no endless wait */
}

static void test_procstat_parse(void **state)
{
	struct bb_procstat ps;

	(void)state;
	assert_int_equal(bb_procstat_parse("cpu  10 1 20 300 4 5 6 7 0 0\ncpu0 1 2 3 4\n", &ps), 0);
	assert_true(ps.user == 10 && ps.nice == 1 && ps.system == 20 && ps.idle == 300 &&
		    ps.iowait == 4 && ps.irq == 5 && ps.softirq == 6 && ps.steal == 7);
	assert_int_equal(bb_procstat_parse("intr 5\ncpu  1 2 3 4\n", &ps), 0);   /* old kernel */
	assert_true(ps.idle == 4 && ps.steal == 0);
	assert_int_equal(bb_procstat_parse("cpu0 1 2 3 4\n", &ps), -1);
	assert_int_equal(bb_procstat_parse("cpu  x\n", &ps), -1);
	assert_int_equal(bb_procstat_parse("", &ps), -1);
	/* the counters of the cpu line only, 64-bit ones too */
	assert_int_equal(bb_procstat_parse("cpu  1 2 3\n4 5 6\n", &ps), -1);
	assert_int_equal(bb_procstat_parse("cpu 18446744073709551615 0 0 9 8x\n", &ps), 0);
	assert_true(ps.user == UINT64_MAX && ps.idle == 9 && ps.iowait == 8 && ps.irq == 0);
	memset(&ps, 0x5a, sizeof ps);
	assert_int_equal(bb_procstat_parse("cpu  1 2 -3 4\n", &ps), -1);
	assert_true(ps.user == 0x5a5a5a5a5a5a5a5aull);   /* nothing set */
}

static void test_cpu_delta(void **state)
{
	struct bb_cpu_snap a, b;
	struct bb_cpu_delta d;

	(void)state;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.ru.ru_utime.tv_sec = 1;
	b.ru.ru_utime.tv_sec = 2;
	b.ru.ru_utime.tv_usec = 500000;
	b.ru.ru_stime.tv_usec = 250000;
	b.ru.ru_nivcsw = 9;
	a.ps_ok = b.ps_ok = 1;
	a.ps.idle = 100;
	b.ps.idle = 150;
	b.ps.system = 30;
	b.ps.softirq = 20;
	bb_cpu_delta(&a, &b, 100, &d);
	assert_true(d.utime_us == 1500000 && d.stime_us == 250000 && d.nivcsw == 9);
	assert_true(d.sys_ok);
	assert_true(fabs(d.sys_busy_s - 0.5) < 1e-12 && fabs(d.sys_total_s - 1.0) < 1e-12);
	b.ps.idle = 50;                                 /* a counter going back counts 0 */
	bb_cpu_delta(&a, &b, 100, &d);
	assert_true(d.sys_idle_s == 0);
	b.ps_ok = 0;
	bb_cpu_delta(&a, &b, 100, &d);
	assert_false(d.sys_ok);
}

static void test_numeric_addresses(void **state)
{
	struct bb_addr a;
	char text[BB_ADDR_TEXT];

	(void)state;
	assert_int_equal(bb_addr_numeric("127.0.0.1", 5001, AF_UNSPEC, &a), 0);
	assert_int_equal(a.ss.ss_family, AF_INET);
	assert_int_equal(bb_addr_port((struct sockaddr *)&a.ss), 5001);
	bb_addr_text((struct sockaddr *)&a.ss, text, sizeof text);
	assert_string_equal(text, "127.0.0.1");
	assert_int_equal(bb_addr_numeric("::1", 1, AF_UNSPEC, &a), 0);
	assert_int_equal(a.ss.ss_family, AF_INET6);
	assert_int_equal(bb_addr_numeric("localhost", 1, AF_INET6, &a), 0);
	assert_int_equal(a.ss.ss_family, AF_INET6);
	assert_int_equal(bb_addr_numeric("localhost", 1, AF_UNSPEC, &a), 0);
	assert_int_equal(a.ss.ss_family, AF_INET);
	assert_int_equal(bb_addr_numeric("127.0.0.1", 1, AF_INET6, &a), -2);
	assert_int_equal(bb_addr_numeric("::1", 1, AF_INET, &a), -2);
	assert_int_equal(bb_addr_numeric("example.org", 1, AF_UNSPEC, &a), -1);
	assert_int_equal(bb_addr_numeric("1.2.3.4.5", 1, AF_UNSPEC, &a), -1);
	assert_int_equal(bb_addr_numeric("fe80::1%no-such-if0", 1, AF_UNSPEC, &a), -1);
	assert_int_equal(bb_addr_numeric("::ffff:10.1.2.3", 1, AF_UNSPEC, &a), 0);
	bb_addr_text((struct sockaddr *)&a.ss, text, sizeof text);
	assert_string_equal(text, "10.1.2.3");          /* v4-mapped prints as v4 */
}

static void test_bind_spec(void **state)
{
	char addr[64], dev[16];

	(void)state;
	assert_int_equal(bb_bind_spec_parse("10.0.0.1%eth0", addr, sizeof addr, dev, sizeof dev), 0);
	assert_string_equal(addr, "10.0.0.1");
	assert_string_equal(dev, "eth0");
	assert_int_equal(bb_bind_spec_parse("%veth1", addr, sizeof addr, dev, sizeof dev), 0);
	assert_string_equal(addr, "");
	assert_string_equal(dev, "veth1");
	assert_int_equal(bb_bind_spec_parse("fe80::1%eth0", addr, sizeof addr, dev, sizeof dev), 0);
	assert_string_equal(addr, "fe80::1");
	assert_int_equal(bb_bind_spec_parse("10.0.0.1", addr, sizeof addr, dev, sizeof dev), 0);
	assert_string_equal(dev, "");
	assert_int_equal(bb_bind_spec_parse("", addr, sizeof addr, dev, sizeof dev), -1);
	assert_int_equal(bb_bind_spec_parse("%", addr, sizeof addr, dev, sizeof dev), -1);
	assert_int_equal(bb_bind_spec_parse("1.2.3.4%a-device-name-too-long", addr, sizeof addr,
					    dev, sizeof dev), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_printable_and_cyclic),
		cmocka_unit_test(test_pattern_first_word_iperf2_safe),
		cmocka_unit_test(test_pace_rate),
		cmocka_unit_test(test_pace_burst_bounded),
		cmocka_unit_test(test_live_counters),
		cmocka_unit_test(test_procstat_parse),
		cmocka_unit_test(test_cpu_delta),
		cmocka_unit_test(test_numeric_addresses),
		cmocka_unit_test(test_bind_spec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
