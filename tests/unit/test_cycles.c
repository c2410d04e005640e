/* test_cycles.c - unit tests for src/core/cycles.c: every counter source
 * that opens must advance, state a positive rate, and name a unit that
 * matches what it counts; forcing an unavailable or unknown source fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/cycles.h"
#include "core/timer.h"

/* Busy-wait about `seconds` of CLOCK_MONOTONIC. */
static void spin(double seconds)
{
	double t0 = bb_now();

	while (bb_now() - t0 < seconds)
		;
}

/* What every open counter promises, whatever its source. */
static void check_open_counter(const struct bb_cycles *c)
{
	uint64_t a, b;

	assert_non_null(c->name);
	assert_non_null(c->unit);
	assert_true(c->hz > 0);
	a = bb_cycles_read(c);
	spin(2e-3);
	b = bb_cycles_read(c);
	assert_true(b > a);
	switch (c->source) {
	case BB_CYC_PERF:
		assert_string_equal(c->unit, "cycles");
		assert_string_equal(c->name, "perf-cycles");
		assert_int_equal(c->core_cycles, 1);
		assert_true(c->fd >= 0);
		break;
	case BB_CYC_ARCH:
		assert_string_equal(c->unit, "ticks");
		assert_non_null(bb_cycles_arch_name());
		assert_string_equal(c->name, bb_cycles_arch_name());
		assert_int_equal(c->core_cycles, 0);
		break;
	case BB_CYC_CLOCK:
		assert_string_equal(c->unit, "ns");
		assert_true(c->hz == 1e9);
		assert_int_equal(c->core_cycles, 0);
		break;
	default:
		fail_msg("unknown source %d", (int)c->source);
	}
}

/* A constant-rate counter's count over a spin agrees with its hz.  Each
 * counter reading is bracketed by clock readings, so a preemption between
 * them (a loaded machine) widens the outer interval only: the count lies
 * between the inner and the outer one. */
static void check_rate(const struct bb_cycles *c)
{
	double t0 = bb_now();
	uint64_t a = bb_cycles_read(c), b;
	double t1 = bb_now(), t2, t3, counted;

	spin(10e-3);
	t2 = bb_now();
	b = bb_cycles_read(c);
	t3 = bb_now();
	counted = (double)(b - a) / c->hz;
	assert_true(counted > 0.5 * (t2 - t1));
	assert_true(counted < 2.0 * (t3 - t0));
}

static void test_auto(void **state)
{
	struct bb_cycles c;

	(void)state;
	assert_int_equal(bb_cycles_open(&c, NULL), 0);
	check_open_counter(&c);
	bb_cycles_close(&c);
	assert_int_equal(c.fd, -1);
	assert_int_equal(bb_cycles_open(&c, "auto"), 0);
	check_open_counter(&c);
	bb_cycles_close(&c);
	bb_cycles_close(&c);              /* closing twice is harmless */
	assert_int_equal(c.fd, -1);
}

static void test_clock_forced(void **state)
{
	struct bb_cycles c;
	uint64_t a, b, now;

	(void)state;
	assert_int_equal(bb_cycles_open(&c, "clock"), 0);
	assert_int_equal(c.source, BB_CYC_CLOCK);
	assert_int_equal(c.fd, -1);
	check_open_counter(&c);
	check_rate(&c);
	a = bb_cycles_read(&c);
	now = bb_now_ns();
	b = bb_cycles_read(&c);
	assert_true(a <= now && now <= b);  /* it is CLOCK_MONOTONIC itself */
	bb_cycles_close(&c);
}

static void test_arch_forced(void **state)
{
	struct bb_cycles c;
	int rc;

	(void)state;
	rc = bb_cycles_open(&c, "arch");
	if (!bb_cycles_arch_name()) {
		assert_int_equal(rc, -1);
		return;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(c.source, BB_CYC_ARCH);
	check_open_counter(&c);
	check_rate(&c);
	bb_cycles_close(&c);
}

/* perf may be forbidden (perf_event_paranoid, VMs); then it must say so. */
static void test_perf_forced(void **state)
{
	struct bb_cycles c;

	(void)state;
	if (bb_cycles_open(&c, "perf") == 0) {
		assert_int_equal(c.source, BB_CYC_PERF);
		check_open_counter(&c);
	} else {
		assert_true(c.fd < 0);
	}
	bb_cycles_close(&c);
	assert_int_equal(c.fd, -1);
}

static void test_unknown_source(void **state)
{
	struct bb_cycles c;

	(void)state;
	assert_int_equal(bb_cycles_open(&c, "tsc"), -1);
	assert_int_equal(bb_cycles_open(&c, ""), -1);
	assert_int_equal(bb_cycles_open(&c, "AUTO"), -1);
	assert_int_equal(bb_cycles_open(&c, "clock2"), -1);
	bb_cycles_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_clock_forced),
		cmocka_unit_test(test_arch_forced),
		cmocka_unit_test(test_perf_forced),
		cmocka_unit_test(test_unknown_source),
	};

	return cmocka_run_group_tests_name("cycles", tests, NULL, NULL);
}
