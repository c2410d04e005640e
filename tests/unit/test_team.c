/* test_team.c - unit tests for src/core/team.c: how work is sliced among
 * threads (exact, disjoint, aligned cover of [0, n)), that a team runs
 * each command once on every thread index and returns only when all are
 * done, and that a pinned team binds thread i to the i-th usable CPU (or
 * says it could not). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "core/team.h"

#define MAX_THREADS 4

/* ---- slicing ---- */

/* Check the slices of n items for nthreads threads with alignment align. */
static void check_slices(size_t n, int nthreads, size_t align)
{
	size_t per = n / (size_t)nthreads, expect_lo = 0;

	for (int i = 0; i < nthreads; i++) {
		size_t lo, hi;
		bb_team_slice(n, i, nthreads, align, &lo, &hi);
		if (lo != expect_lo || hi < lo || hi > n)
			fail_msg("n=%zu t=%d align=%zu: slice %d is [%zu,%zu), expected lo %zu",
				 n, nthreads, align, i, lo, hi, expect_lo);
		assert_int_equal(lo % align, 0);
		if (i < nthreads - 1) {
			assert_int_equal(hi % align, 0);
			assert_true(hi - lo < per + align);      /* balanced */
			assert_true(hi - lo + align > per);
		}
		expect_lo = hi;
	}
	assert_int_equal(expect_lo, n);   /* the last slice ends at n */
}

static void test_slice_cover(void **state)
{
	static const size_t ns[] = {
		0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 1000, 1001, 4099, 1u << 20,
		(1u << 20) + 7, 2000003,
	};
	static const size_t aligns[] = { 1, 2, 8, 64 };

	(void)state;
	for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
			for (int t = 1; t <= 16; t++)
				check_slices(ns[k], t, aligns[a]);
}

static void test_slice_examples(void **state)
{
	size_t lo, hi;

	(void)state;
	bb_team_slice(100, 0, 1, 8, &lo, &hi);      /* one thread takes it all */
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 100);
	bb_team_slice(100, 0, 2, 8, &lo, &hi);      /* 50 rounded down to 48 */
	assert_int_equal(hi, 48);
	bb_team_slice(100, 1, 2, 8, &lo, &hi);
	assert_int_equal(lo, 48);
	assert_int_equal(hi, 100);
	bb_team_slice(3, 0, 4, 1, &lo, &hi);        /* fewer items than threads */
	assert_int_equal(hi - lo, 0);
	bb_team_slice(3, 3, 4, 1, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 3);
}

/* ---- running commands ---- */

struct tally {
	atomic_int calls[MAX_THREADS];
	atomic_int bad;           /* calls with a wrong cmd or nthreads */
	int want_cmd, want_n;
	int cpu[MAX_THREADS];     /* for the pinned test: the one CPU, or -1 */
};

static void count_call(void *arg, int cmd, int thread, int nthreads)
{
	struct tally *t = arg;

	if (cmd != t->want_cmd || nthreads != t->want_n || thread < 0 ||
	    thread >= nthreads) {
		atomic_fetch_add(&t->bad, 1);
		return;
	}
	atomic_fetch_add(&t->calls[thread], 1);
}

static void run_team_of(int n)
{
	struct bb_team team;
	struct tally t;

	memset(&t, 0, sizeof t);
	t.want_n = n;
	assert_int_equal(bb_team_start(&team, n, 0, count_call, &t), 0);
	for (int round = 1; round <= 5; round++) {
		t.want_cmd = round * 10;
		bb_team_run(&team, round * 10);
		/* every thread has finished by the time run returns */
		for (int i = 0; i < n; i++)
			assert_int_equal(atomic_load(&t.calls[i]), round);
	}
	bb_team_stop(&team);
	assert_int_equal(atomic_load(&t.bad), 0);
	assert_null(team.tid);
}

static void test_team_runs_every_thread(void **state)
{
	(void)state;
	for (int n = 1; n <= MAX_THREADS; n++)
		run_team_of(n);
}

/* ---- pinning ---- */

/* The CPU this thread is bound to, or -1 if it may run on several. */
static int bound_cpu(void)
{
	cpu_set_t s;

	if (sched_getaffinity(0, sizeof s, &s) != 0 || CPU_COUNT(&s) != 1)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s))
			return c;
	return -1;
}

static void record_cpu(void *arg, int cmd, int thread, int nthreads)
{
	struct tally *t = arg;

	(void)cmd;
	(void)nthreads;
	t->cpu[thread] = bound_cpu();
}

/* The i-th CPU in s (counting only CPUs in s). */
static int nth_cpu(const cpu_set_t *s, int i)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, s) && i-- == 0)
			return c;
	return -1;
}

static void check_pinned(const cpu_set_t *allowed, int n)
{
	struct bb_team team;
	struct tally t;
	cpu_set_t after;

	int cpus = CPU_COUNT(allowed);

	memset(&t, 0, sizeof t);
	for (int i = 0; i < MAX_THREADS; i++)
		t.cpu[i] = -2;
	assert_int_equal(bb_team_start(&team, n, 1, record_cpu, &t), 0);
	bb_team_run(&team, 1);
	bb_team_stop(&team);
	for (int i = 0; i < n; i++) {
		int want = nth_cpu(allowed, i % cpus);
		assert_int_not_equal(t.cpu[i], -2);      /* every thread ran */
		if (!team.pin_failed && t.cpu[i] != want)
			fail_msg("thread %d of %d bound to CPU %d, expected CPU %d",
				 i, n, t.cpu[i], want);
	}
	/* the caller gets its own CPUs back when the team stops */
	assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
	assert_true(CPU_EQUAL(&after, allowed));
}

static void test_team_pinned(void **state)
{
	cpu_set_t allowed;
	int cpus;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
	cpus = CPU_COUNT(&allowed);
	assert_true(cpus >= 1);
	for (int n = 1; n <= cpus + 1 && n <= MAX_THREADS; n++)
		check_pinned(&allowed, n);
	check_pinned(&allowed, 2);   /* again: the same placement */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slice_cover),
		cmocka_unit_test(test_slice_examples),
		cmocka_unit_test(test_team_runs_every_thread),
		cmocka_unit_test(test_team_pinned),
	};

	return cmocka_run_group_tests_name("team", tests, NULL, NULL);
}
