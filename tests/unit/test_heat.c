/* test_heat.c - unit tests for src/facts/heat.c, heat_judge.c and
 * clocks.c: the decision "throttled" from two samples (a clock that fell,
 * stayed or rose under fixed and dynamic governors, a limit that fell, trip
 * points crossed or not, throttle counters that grew), the reading of the
 * fixture trees in tests/fixtures/heat/ (policyN and the older cpuN/cpufreq
 * layout, zones and trips, x86 counters), the clock.* and thermal.* facts,
 * and the watch on a result whose files change under it.
 *
 * bb_root() reads BB_SYSROOT once, so every test that reads files uses
 * the same root, a temporary directory, and copies the fixture it needs
 * into it first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/kv.h"
#include "core/timer.h"
#include "facts/facts.h"
#include "facts/heat.h"

static char root[256];   /* BB_SYSROOT of every test */

/* ---- samples built by hand ---- */

static struct bb_heat_policy *policy(struct bb_heat_sample *s, int id, const char *cpus,
				     const char *gov, long long cur, long long max)
{
	struct bb_heat_policy *p = &s->policy[s->npolicy++];

	memset(p, 0, sizeof *p);
	p->id = id;
	snprintf(p->cpus, sizeof p->cpus, "%s", cpus);
	snprintf(p->governor, sizeof p->governor, "%s", gov);
	snprintf(p->driver, sizeof p->driver, "cpufreq-dt");
	p->cur_khz = cur;
	p->max_khz = max;
	p->base_khz = -1;
	return p;
}

static struct bb_heat_zone *zone(struct bb_heat_sample *s, int id, const char *type, long long mc)
{
	struct bb_heat_zone *z = &s->zone[s->nzone++];

	memset(z, 0, sizeof *z);
	z->id = id;
	snprintf(z->type, sizeof z->type, "%s", type);
	z->mc = mc;
	z->has_temp = 1;
	return z;
}

static void trip(struct bb_heat_zone *z, long long mc, const char *type)
{
	z->trip[z->ntrip].mc = mc;
	snprintf(z->trip[z->ntrip].type, sizeof z->trip[0].type, "%s", type);
	z->ntrip++;
}

static struct bb_heat_sample *sample_new(void)
{
	struct bb_heat_sample *s = calloc(1, sizeof *s);

	assert_non_null(s);
	return s;
}

/* before: one policy at cur_b, after: the same at cur_a; the verdict. */
static int one_policy(const char *gov, long long cur_b, long long cur_a, char *why, size_t len)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	int t;

	policy(b, 0, "0-3", gov, cur_b, 1800000);
	policy(a, 0, "0-3", gov, cur_a, 1800000);
	t = bb_heat_throttled(b, a, why, len);
	free(b);
	free(a);
	return t;
}

/* ---- the clock ---- */

static void test_clock_fell(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_policy("performance", 1800000, 1200000, why, sizeof why), 1);
	assert_string_equal(why, "cpu0-3 clock fell from 1800 to 1200 MHz");
	assert_int_equal(one_policy("userspace", 1512000, 1008000, why, sizeof why), 1);
	assert_string_equal(why, "cpu0-3 clock fell from 1512 to 1008 MHz");
}

static void test_clock_stayed_or_rose(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_policy("performance", 1800000, 1800000, why, sizeof why), 0);
	assert_string_equal(why, "");
	assert_int_equal(one_policy("performance", 1200000, 1800000, why, sizeof why), 0);
	/* less than BB_HEAT_FELL_PCT: the jitter of a clock read from counters */
	assert_int_equal(one_policy("performance", 1800000, 1700000, why, sizeof why), 0);
}

/* Dynamic governors move the clock with the load: a lower reading at the
 * end is not throttling. */
static void test_dynamic_governor_not_judged(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_policy("schedutil", 1800000, 600000, why, sizeof why), 0);
	assert_int_equal(one_policy("ondemand", 1800000, 600000, why, sizeof why), 0);
	assert_int_equal(one_policy("conservative", 1800000, 600000, why, sizeof why), 0);
}

/* The limit (scaling_max_freq) falls under thermal cooling: throttled
 * under any governor. */
static void test_limit_fell(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	char why[256];

	(void)state;
	policy(b, 0, "0-3", "schedutil", 1800000, 1800000);
	policy(a, 0, "0-3", "schedutil", 1200000, 1200000);
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "the clock limit of cpu0-3 fell from 1800 to 1200 MHz");
	a->policy[0].max_khz = 1900000;   /* raised: not throttling */
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 0);
	free(b);
	free(a);
}

/* Under intel_pstate, turbo bins above the base frequency fall as more
 * cores work; only a clock below the base is a fall. */
static void test_base_frequency(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	char why[256];

	(void)state;
	policy(b, 0, "0", "performance", 4500000, 4800000)->base_khz = 2100000;
	policy(a, 0, "0", "performance", 3900000, 4800000)->base_khz = 2100000;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 0);
	a->policy[0].cur_khz = 1500000;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "cpu0 clock fell from 4500 to 1500 MHz");
	/* powersave is dynamic under the pstate drivers, fixed elsewhere */
	snprintf(b->policy[0].governor, sizeof b->policy[0].governor, "powersave");
	snprintf(a->policy[0].governor, sizeof a->policy[0].governor, "powersave");
	snprintf(a->policy[0].driver, sizeof a->policy[0].driver, "intel_pstate");
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 0);
	snprintf(a->policy[0].driver, sizeof a->policy[0].driver, "acpi-cpufreq");
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	free(b);
	free(a);
}

/* The fastest policy is judged: a policy that idles at the end may read
 * low where the clock is measured, and the fastest is where work ran. */
static void test_fastest_policy(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	char why[256];

	(void)state;
	policy(b, 0, "0", "performance", 2400000, 2400000);
	policy(b, 1, "1", "performance", 2400000, 2400000);
	policy(a, 0, "0", "performance", 800000, 2400000);
	policy(a, 1, "1", "performance", 2400000, 2400000);
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 0);
	a->policy[1].cur_khz = 1400000;
	b->policy[1].cur_khz = 2300000;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "the fastest clock fell from 2400 MHz (cpu0) to 1400 MHz (cpu1)");
	free(b);
	free(a);
}

/* ---- thermal zones ---- */

static int one_zone(const char *type, long long trip_mc, long long mc_b, long long mc_a,
		    char *why, size_t len)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	int t;

	trip(zone(b, 0, "cpu-thermal", mc_b), trip_mc, type);
	trip(zone(a, 0, "cpu-thermal", mc_a), trip_mc, type);
	t = bb_heat_throttled(b, a, why, len);
	free(b);
	free(a);
	return t;
}

static void test_trip_crossed_up(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_zone("passive", 85000, 83200, 86100, why, sizeof why), 1);
	assert_string_equal(why, "zone cpu-thermal crossed its passive trip point "
				 "(85.0 C: 83.2 -> 86.1 C)");
	assert_int_equal(one_zone("critical", 105000, 90000, 105000, why, sizeof why), 1);
	assert_non_null(strstr(why, "crossed its critical trip point"));
}

static void test_trip_not_crossed(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_zone("passive", 85000, 80000, 84900, why, sizeof why), 0);
	assert_int_equal(one_zone("passive", 85000, 70000, 60000, why, sizeof why), 0);
	/* an active trip point starts a fan: it does not slow the CPU */
	assert_int_equal(one_zone("active", 60000, 55000, 65000, why, sizeof why), 0);
	/* a trip point at 0 is one a driver left unset */
	assert_int_equal(one_zone("passive", 0, 40000, 41000, why, sizeof why), 0);
}

/* Above a passive trip point the kernel throttles the whole time. */
static void test_trip_above_throughout(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(one_zone("passive", 85000, 86000, 87100, why, sizeof why), 1);
	assert_string_equal(why, "zone cpu-thermal stayed above its passive trip point "
				 "(85.0 C: 86.0 -> 87.1 C)");
	assert_int_equal(one_zone("hot", 95000, 96000, 90000, why, sizeof why), 1);
	assert_non_null(strstr(why, "cooled below its hot trip point"));
}

/* Of several trip points, the highest one reached is named. */
static void test_highest_trip_named(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	struct bb_heat_zone *zb = zone(b, 3, "", 70000), *za = zone(a, 3, "", 99000);
	char why[256];

	(void)state;
	trip(zb, 60000, "active");
	trip(zb, 85000, "passive");
	trip(zb, 95000, "hot");
	*za = *zb;
	za->mc = 99000;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "zone thermal_zone3 crossed its hot trip point "
				 "(95.0 C: 70.0 -> 99.0 C)");
	free(b);
	free(a);
}

/* ---- x86 counters, several reasons ---- */

static void test_counter_grew(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	char why[512];

	(void)state;
	b->ncpu = a->ncpu = 4;
	for (int i = 0; i < 4; i++) {
		b->core_throttles[i] = a->core_throttles[i] = 10;
		b->pkg_throttles[i] = a->pkg_throttles[i] = 2;
	}
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 0);
	a->core_throttles[1] = 13;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "the kernel counted 3 thermal throttle events on cpu1");
	a->core_throttles[1] = 10;
	for (int i = 0; i < 4; i++)
		a->pkg_throttles[i] = 3;
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "the kernel counted 1 package thermal throttle event on cpu0 "
				 "(and on 3 more CPUs)");
	free(b);
	free(a);
}

static void test_reasons_joined(void **state)
{
	struct bb_heat_sample *b = sample_new(), *a = sample_new();
	char why[512], small[24];

	(void)state;
	policy(b, 0, "0-3", "performance", 1800000, 1800000);
	policy(a, 0, "0-3", "performance", 1200000, 1800000);
	trip(zone(b, 0, "cpu-thermal", 83200), 85000, "passive");
	trip(zone(a, 0, "cpu-thermal", 86100), 85000, "passive");
	assert_int_equal(bb_heat_throttled(b, a, why, sizeof why), 1);
	assert_string_equal(why, "cpu0-3 clock fell from 1800 to 1200 MHz; zone cpu-thermal "
				 "crossed its passive trip point (85.0 C: 83.2 -> 86.1 C)");
	/* a short buffer is cut, never overrun */
	assert_int_equal(bb_heat_throttled(b, a, small, sizeof small), 1);
	assert_int_equal(strlen(small), sizeof small - 1);
	free(b);
	free(a);
}

static void test_cpu_list(void **state)
{
	char out[32];

	(void)state;
	bb_heat_cpu_list(out, sizeof out, "0 1 2 3 5 7 8\n");
	assert_string_equal(out, "0-3,5,7-8");
	bb_heat_cpu_list(out, sizeof out, "4");
	assert_string_equal(out, "4");
	bb_heat_cpu_list(out, sizeof out, "");
	assert_string_equal(out, "");
}

/* ---- fixture trees ---- */

/* The root holds a fresh copy of tests/fixtures/heat/NAME (or nothing). */
static void use_fixture(const char *name)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/sys' && { [ -z '%s' ] || cp -R tests/fixtures/heat/%s/sys '%s/'; }",
		 root, name, name, root);
	assert_int_equal(system(cmd), 0);
}

static void put_file(const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof full, "%s%s", root, path);
	f = fopen(full, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read_board(void **state)
{
	struct bb_heat_sample *s = sample_new();
	long long mc;

	(void)state;
	use_fixture("board");
	bb_heat_read(s);
	assert_int_equal(s->npolicy, 2);
	assert_int_equal(s->policy[0].id, 0);
	assert_string_equal(s->policy[0].cpus, "0-3");
	assert_string_equal(s->policy[0].governor, "performance");
	assert_int_equal(s->policy[0].cur_khz, 1416000);
	assert_int_equal(s->policy[1].id, 4);
	assert_string_equal(s->policy[1].cpus, "4-5");
	assert_int_equal(s->policy[1].max_khz, 1800000);
	assert_int_equal(s->policy[1].base_khz, -1);
	assert_int_equal(s->nzone, 2);
	assert_string_equal(s->zone[0].type, "soc-thermal");
	assert_int_equal(s->zone[0].mc, 45200);
	assert_int_equal(s->zone[0].ntrip, 3);
	assert_string_equal(s->zone[0].trip[1].type, "passive");
	assert_int_equal(s->zone[0].trip[1].mc, 85000);
	assert_int_equal(s->ncpu, 0);
	assert_int_equal(bb_heat_fastest_khz(s), 1800000);
	assert_int_equal(bb_heat_hottest_mc(s, &mc), 0);
	assert_int_equal(mc, 45200);
	assert_int_equal(bb_heat_empty(s), 0);
	free(s);
}

/* Before policyN directories: cpuN/cpufreq, one policy for CPUs 0 and 1;
 * and x86 thermal throttle counters. */
static void test_read_legacy(void **state)
{
	struct bb_heat_sample *s = sample_new();

	(void)state;
	use_fixture("legacy");
	bb_heat_read(s);
	assert_int_equal(s->npolicy, 1);
	assert_int_equal(s->policy[0].id, 0);
	assert_string_equal(s->policy[0].cpus, "0-1");
	assert_string_equal(s->policy[0].driver, "acpi-cpufreq");
	assert_int_equal(s->nzone, 0);
	assert_int_equal(s->ncpu, 2);
	assert_int_equal(s->core_throttles[1], 2);
	assert_int_equal(s->pkg_throttles[0], 5);
	free(s);
}

static void test_read_nothing(void **state)
{
	struct bb_heat_sample *s = sample_new();
	struct bb_kvlist params = { 0 };

	(void)state;
	use_fixture("");
	bb_heat_read(s);
	assert_int_equal(bb_heat_empty(s), 1);
	assert_int_equal(bb_heat_fastest_khz(s), -1);
	assert_null(bb_heat_watch_start(&params));
	assert_int_equal(params.n, 0);
	free(s);
}

static void test_facts(void **state)
{
	struct bb_kvlist kv = { 0 };

	(void)state;
	use_fixture("board");
	bb_facts_clocks(&kv);
	assert_string_equal(bb_kv_get(&kv, "clock.policy0.governor")->s, "performance");
	assert_string_equal(bb_kv_get(&kv, "clock.policy0.cpus")->s, "0-3");
	assert_string_equal(bb_kv_get(&kv, "clock.policy4.driver")->s, "cpufreq-dt");
	assert_string_equal(bb_kv_get(&kv, "clock.policy4.max_khz")->s, "1800000");
	assert_string_equal(bb_kv_get(&kv, "clock.policy4.min_khz")->s, "408000");
	assert_string_equal(bb_kv_get(&kv, "clock.policy0.cpuinfo_max_khz")->s, "1416000");
	assert_string_equal(bb_kv_get(&kv, "clock.policy0.khz.now")->s, "1416000");
	assert_null(bb_kv_get(&kv, "clock.policy0.base_khz"));
	assert_string_equal(bb_kv_get(&kv, "thermal.zone0.type")->s, "soc-thermal");
	assert_string_equal(bb_kv_get(&kv, "thermal.zone0.temp_c.now")->s, "45.2");
	assert_string_equal(bb_kv_get(&kv, "thermal.zone0.trip1.temp_c")->s, "85");
	assert_string_equal(bb_kv_get(&kv, "thermal.zone0.trip1.type")->s, "passive");
	assert_string_equal(bb_kv_get(&kv, "thermal.zone1.trip0.type")->s, "hot");
	/* facts are strings, every one (core/emit.c writes them so) */
	for (size_t i = 0; i < kv.n; i++)
		assert_int_equal(kv.v[i].type, BB_KV_STR);
	bb_kv_free(&kv);
	use_fixture("board");
	put_file("/sys/class/thermal/thermal_zone1/temp", "-5250\n");
	bb_facts_clocks(&kv);
	assert_string_equal(bb_kv_get(&kv, "thermal.zone1.temp_c.now")->s, "-5.25");
	bb_kv_free(&kv);
	use_fixture("");
	bb_facts_clocks(&kv);
	assert_int_equal(kv.n, 0);
}

/* A result's watch: the files change between its start and its end. */
static void test_watch(void **state)
{
	struct bb_kvlist params = { 0 };
	struct bb_heat_watch *w;
	char why[512];

	(void)state;
	use_fixture("board");
	w = bb_heat_watch_start(&params);
	assert_non_null(w);
	assert_int_equal(bb_kv_get(&params, "clock.before_khz")->i, 1800000);
	assert_true(bb_kv_getnum(&params, "temp.max_before_c", 0) == 45.2);
	assert_int_equal(bb_heat_watch_end(w, &params, why, sizeof why), 0);
	assert_null(bb_kv_get(&params, "throttled"));
	put_file("/sys/devices/system/cpu/cpufreq/policy4/scaling_cur_freq", "1200000\n");
	put_file("/sys/class/thermal/thermal_zone0/temp", "86100\n");
	assert_int_equal(bb_heat_watch_end(w, &params, why, sizeof why), 1);
	assert_string_equal(why, "the fastest clock fell from 1800 MHz (cpu4-5) to 1416 MHz "
				 "(cpu0-3); zone soc-thermal crossed its passive trip point "
				 "(85.0 C: 45.2 -> 86.1 C)");
	assert_int_equal(bb_kv_get(&params, "throttled")->i, 1);
	assert_string_equal(bb_kv_get(&params, "throttle")->s, why);
	assert_int_equal(bb_kv_get(&params, "clock.after_khz")->i, 1416000);
	assert_true(bb_kv_getnum(&params, "temp.max_after_c", 0) == 86.1);
	/* marked once: a later end says nothing new */
	assert_int_equal(bb_heat_watch_end(w, &params, why, sizeof why), 0);
	assert_non_null(strstr(bb_kv_get(&params, "throttle")->s, "the fastest clock fell"));
	bb_heat_watch_free(w);
	bb_kv_free(&params);
}

/* Well under a millisecond per result, here on a tmpfs-like copy. */
static void test_cost(void **state)
{
	struct bb_kvlist params = { 0 };
	struct bb_heat_watch *w;
	char why[256];
	double t0, t;

	(void)state;
	use_fixture("board");
	t0 = bb_now();
	for (int i = 0; i < 20; i++) {
		w = bb_heat_watch_start(&params);
		bb_heat_watch_end(w, &params, why, sizeof why);
		bb_heat_watch_free(w);
	}
	t = (bb_now() - t0) / 20;
	print_message("# a start and an end sample: %.0f us\n", t * 1e6);
	assert_true(t < 0.05);   /* generous: only a gross regression fails on a loaded machine */
	bb_kv_free(&params);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/bb-heat-test.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	setenv("BB_SYSROOT", root, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_fell),
		cmocka_unit_test(test_clock_stayed_or_rose),
		cmocka_unit_test(test_dynamic_governor_not_judged),
		cmocka_unit_test(test_limit_fell),
		cmocka_unit_test(test_base_frequency),
		cmocka_unit_test(test_fastest_policy),
		cmocka_unit_test(test_trip_crossed_up),
		cmocka_unit_test(test_trip_not_crossed),
		cmocka_unit_test(test_trip_above_throughout),
		cmocka_unit_test(test_highest_trip_named),
		cmocka_unit_test(test_counter_grew),
		cmocka_unit_test(test_reasons_joined),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_read_board),
		cmocka_unit_test(test_read_legacy),
		cmocka_unit_test(test_read_nothing),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_cost),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
