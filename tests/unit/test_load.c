/* test_load.c - unit tests for src/facts/load.c, what else used the
 * machine during a measurement: two samples read from two fixture roots
 * (tests/fixtures/load/: before and after, 2 s apart with hz 100, a cpu2
 * brought online in between, an intr line longer than the line buffer,
 * steal and guest time; a Linux 2.6.0 /proc/stat with neither steal nor
 * pressure files), the figures computed from them (every one checked
 * against the arithmetic written out here), figures left out rather than
 * written as 0 when their source is missing, the bounds (a CPU's share,
 * others at most every CPU), and the watch on a result of a real run:
 * present for an applet, absent for "run" and "calib", nothing printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/kv.h"
#include "core/results.h"
#include "facts/install.h"
#include "facts/load.h"
#include "facts/root.h"

#define FIX "tests/fixtures/load/"

static void use_root(const char *root)
{
	if (root)
		setenv("BB_SYSROOT", root, 1);
	else
		unsetenv("BB_SYSROOT");
	bb_root_reset();
}

/* A sample of the fixture root FIX name, taken at time t. */
static struct bb_load_sample *sample_of(const char *name, double t)
{
	struct bb_load_sample *s = malloc(sizeof *s);
	char root[128];

	assert_non_null(s);
	snprintf(root, sizeof root, FIX "%s", name);
	use_root(root);
	bb_load_read(s);
	s->t = t;
	use_root(NULL);
	return s;
}

/* What getrusage would have said: a fixture root never reads it. */
static void set_self(struct bb_load_sample *s, unsigned long long us, unsigned long long ctxt)
{
	s->c[BB_LOAD_SELF_US] = us;
	s->c[BB_LOAD_SELF_CTXT] = ctxt;
	s->has |= 1u << BB_LOAD_SELF_US | 1u << BB_LOAD_SELF_CTXT;
}

static const struct bb_kv *param(const struct bb_kvlist *p, const char *key)
{
	return bb_kv_get(p, key);
}

#define assert_num(p, key, want) do { \
		const struct bb_kv *v_ = param((p), (key)); \
		if (!v_) fail_msg("%s absent", (key)); \
		double got_ = v_->type == BB_KV_INT ? (double)v_->i : v_->d; \
		if (got_ < (want) - 1e-9 || got_ > (want) + 1e-9) \
			fail_msg("%s = %.12g, wanted %.12g", (key), got_, (double)(want)); \
	} while (0)
#define assert_absent(p, key) do { \
		if (param((p), (key))) fail_msg("%s present, wanted absent", (key)); \
	} while (0)

/* ---- reading ---- */

static void test_read_fixture(void **state)
{
	struct bb_load_sample *a = sample_of("before", 0);

	(void)state;
	assert_int_equal(a->ncpu, 2);
	/* busy = user + nice + system + irq + softirq: guest (400) is inside user */
	assert_int_equal(a->c[BB_LOAD_BUSY], 1000 + 100 + 500 + 10 + 20);
	assert_int_equal(a->c[BB_LOAD_IOWAIT], 50);
	assert_int_equal(a->c[BB_LOAD_STEAL], 30);
	assert_int_equal(a->c[BB_LOAD_CTXT], 500000);   /* after an intr line of 1851 bytes */
	assert_int_equal(a->cpu_busy[0], 600 + 50 + 300 + 5 + 10);
	assert_int_equal(a->cpu_total[0], 965 + 3900 + 25 + 15);
	assert_int_equal(a->cpu_total[2], 0);
	assert_int_equal(a->c[BB_LOAD_PSI], 1000000);
	assert_int_equal(a->c[BB_LOAD_PSI + 2], 100000);
	assert_int_equal(a->c[BB_LOAD_PSI + 4], 3000000);
	assert_true(a->loadavg1 > 0.899 && a->loadavg1 < 0.901);
	assert_false(a->has & 1u << BB_LOAD_SELF_US);   /* a fixture: no getrusage */
	free(a);
}

/* An empty root: nothing read, every counter absent. */
static void test_read_nothing(void **state)
{
	char root[] = "/tmp/bb-load-XXXXXX";
	struct bb_load_sample s;

	(void)state;
	assert_non_null(mkdtemp(root));
	use_root(root);
	bb_load_read(&s);
	use_root(NULL);
	rmdir(root);
	assert_int_equal(s.has, 0);
	assert_int_equal(s.ncpu, 0);
	assert_true(s.loadavg1 < 0);
}

/* ---- the figures ---- */

static void test_figures(void **state)
{
	struct bb_load_sample *a = sample_of("before", 10.0), *b = sample_of("after", 12.0);
	struct bb_kvlist p = { 0 };

	(void)state;
	set_self(a, 3000000, 1000);
	set_self(b, 3500000, 1200);
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.wall_s", 2.0);
	assert_num(&p, "load.cpus", 3);
	/* user +155, nice +10, system +33, irq +5, softirq +5: 208 ticks */
	assert_num(&p, "load.busy_cpu_s", 2.08);
	assert_num(&p, "load.self_cpu_s", 0.5);
	assert_num(&p, "load.others_cpu_per_s", (2.08 - 0.5) / 2);
	/* cpu0: 150 busy of 200 ticks; cpu1 50 of 200; cpu2 was not there */
	assert_num(&p, "load.busiest_cpu", 0.75);
	assert_num(&p, "load.steal_per_s", 10 / 100.0 / 2);
	assert_num(&p, "load.iowait_per_s", 10 / 100.0 / 2);
	assert_num(&p, "load.ctxt_per_s", 20000 / 2.0);
	assert_num(&p, "load.self_ctxt_per_s", 200 / 2.0);
	assert_num(&p, "load.psi.cpu.some", 500000 / 2e6);
	assert_num(&p, "load.psi.memory.some", 200000 / 2e6);
	assert_num(&p, "load.psi.memory.full", 100000 / 2e6);
	assert_num(&p, "load.psi.io.some", 400000 / 2e6);
	assert_num(&p, "load.psi.io.full", 0);        /* present, and it did not grow */
	assert_num(&p, "load.loadavg1", 1.5);        /* the end sample's */
	for (size_t i = 0; i < p.n; i++)
		assert_memory_equal(p.v[i].key, "load.", 5);
	assert_int_equal(p.n, 16);
	bb_kv_free(&p);
	free(a);
	free(b);
}

/* Linux 2.6.0: no steal field, no pressure files; iowait is there. */
static void test_old_kernel(void **state)
{
	struct bb_load_sample *a = sample_of("old-before", 0), *b = sample_of("old-after", 4);
	struct bb_kvlist p = { 0 };

	(void)state;
	set_self(a, 0, 0);
	set_self(b, 800000, 10);
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.cpus", 1);
	assert_num(&p, "load.busy_cpu_s", 0.8);
	assert_num(&p, "load.others_cpu_per_s", 0);   /* all of it was this process */
	assert_num(&p, "load.busiest_cpu", 0.8);
	assert_num(&p, "load.iowait_per_s", 10 / 100.0 / 4);
	assert_num(&p, "load.ctxt_per_s", 600 / 4.0);
	assert_num(&p, "load.loadavg1", 0.5);
	assert_absent(&p, "load.steal_per_s");
	assert_absent(&p, "load.psi.cpu.some");
	assert_absent(&p, "load.psi.memory.some");
	assert_absent(&p, "load.psi.memory.full");
	assert_absent(&p, "load.psi.io.some");
	assert_absent(&p, "load.psi.io.full");
	bb_kv_free(&p);
	free(a);
	free(b);
}

/* Without getrusage (a fixture root): no self, so no others either. */
static void test_no_self(void **state)
{
	struct bb_load_sample *a = sample_of("before", 0), *b = sample_of("after", 2);
	struct bb_kvlist p = { 0 };

	(void)state;
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.busy_cpu_s", 2.08);
	assert_absent(&p, "load.self_cpu_s");
	assert_absent(&p, "load.self_ctxt_per_s");
	assert_absent(&p, "load.others_cpu_per_s");
	bb_kv_free(&p);
	free(a);
	free(b);
}

/* Whole ticks over a short interval: others at most every CPU; no CPU
 * counted a tick: no busiest. */
static void test_bounds(void **state)
{
	struct bb_load_sample *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	struct bb_kvlist p = { 0 };

	(void)state;
	a->t = 1.0;
	b->t = 1.01;
	a->has = b->has = 1u << BB_LOAD_BUSY;
	a->ncpu = b->ncpu = 2;
	a->c[BB_LOAD_BUSY] = 100;
	b->c[BB_LOAD_BUSY] = 103;              /* 30 ms of CPU in 10 ms */
	a->cpu_busy[0] = b->cpu_busy[0] = 50;
	a->cpu_total[0] = b->cpu_total[0] = 90;
	set_self(a, 0, 0);
	set_self(b, 1000, 0);
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.others_cpu_per_s", 2);
	assert_absent(&p, "load.busiest_cpu");
	bb_kv_free(&p);
	/* counters that went back count as 0, and an interval of 0 is all */
	b->c[BB_LOAD_BUSY] = 90;
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.busy_cpu_s", 0);
	assert_num(&p, "load.others_cpu_per_s", 0);
	bb_kv_free(&p);
	b->t = a->t;
	bb_load_params(a, b, 100, &p);
	assert_num(&p, "load.wall_s", 0);
	assert_int_equal(p.n, 1);
	bb_kv_free(&p);
	free(a);
	free(b);
}

/* ---- this machine ---- */

/* Two samples of the live system around some work of this process (and
 * the cost of one sample, printed). */
static void test_live(void **state)
{
	struct bb_load_sample *s;
	struct bb_kvlist p = { 0 };
	struct timespec t0, t1;
	volatile unsigned long sink = 0;
	const struct bb_kv *v;

	(void)state;
	use_root(NULL);
	s = bb_load_watch_start();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 100; i++)
		bb_load_read(s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# a sample of this system (mean of 100): %.3f ms\n",
	       ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / 100);
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
	assert_true(sink > 0);
	bb_load_watch_end(s, &p);
	assert_true(bb_kv_getnum(&p, "load.wall_s", -1) > 0);
	assert_true(bb_kv_getnum(&p, "load.self_cpu_s", -1) >= 0);
	if (access("/proc/stat", R_OK) == 0) {
		assert_true(bb_kv_getnum(&p, "load.others_cpu_per_s", -1) >= 0);
		v = bb_kv_get(&p, "load.cpus");
		assert_non_null(v);
		assert_true(v->i >= 1);
		if ((v = bb_kv_get(&p, "load.busiest_cpu")) != NULL)
			assert_true(v->d >= 0 && v->d <= 1);
	}
	bb_kv_free(&p);
	free(s);
}

/* The watch on a run's results: an applet's has load.*, the results that
 * span the applets (the CPU-speed probe's, a cut suite's) have none; each
 * status set writes them anew. */
static void test_results_watch(void **state)
{
	static char *argv[] = { "boardbench", NULL };
	struct bb_run *run;
	struct bb_result *r, *calib, *suite;
	double first;

	(void)state;
	use_root(NULL);
	run = bb_run_new(1, argv);
	r = bb_run_add_result(run, "csum");
	calib = bb_run_add_span(run, "calib");
	suite = bb_run_add_span(run, "run");
	bb_result_set_status(r, 1, "");
	first = bb_kv_getnum(&r->params, "load.wall_s", -1);
	assert_true(first > 0);
	usleep(2000);
	bb_result_set_status(r, 1, "");
	assert_true(bb_kv_getnum(&r->params, "load.wall_s", -1) > first);
	bb_result_set_status(calib, 1, "");
	bb_result_set_status(suite, 1, "");
	for (size_t i = 0; i < calib->params.n; i++)
		assert_true(strncmp(calib->params.v[i].key, "load.", 5) != 0);
	for (size_t i = 0; i < suite->params.n; i++)
		assert_true(strncmp(suite->params.v[i].key, "load.", 5) != 0);
	bb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_fixture),
		cmocka_unit_test(test_read_nothing),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_no_self),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_results_watch),
	};
	bb_facts_install();   /* runs described and watched, as main() has them */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
