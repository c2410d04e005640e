/* test_differ.c - unit tests for "A and B differ in" (src/analysis/differ.c):
 * which recorded fields count as differences (sets of values per side, not
 * run by run; never a value that varies by design or an outcome, such as
 * the boot a run comes from or what else used the machine), what
 * each may explain, and the order that puts the fields explaining a
 * claimed change first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/differ.h"
#include "analysis/reader.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A run built by hand: system keys, one label and one ttcp result. */
struct fake {
	struct bb_rkv sys[8], lab[1], par[4];
	struct bb_rresult res;
	struct bb_rrun run;
};

static void fake_run(struct fake *f, const char *rmem, const char *temp, const char *avail,
		     const char *label, const char *granted, const char *rtt)
{
	memset(f, 0, sizeof *f);
	f->sys[0] = (struct bb_rkv){ "net.core.rmem_max", (char *)rmem, NAN };
	f->sys[1] = (struct bb_rkv){ "thermal.zone0.temp_c.now", (char *)temp, NAN };
	f->sys[2] = (struct bb_rkv){ "mem_available_bytes", (char *)avail, NAN };
	f->sys[3] = (struct bb_rkv){ "soc.revision", "2.1", NAN };
	f->lab[0] = (struct bb_rkv){ "rmem", (char *)label, NAN };
	f->par[0] = (struct bb_rkv){ "rcvbuf_granted", (char *)granted, NAN };
	f->par[1] = (struct bb_rkv){ "rtt_s", (char *)rtt, NAN };
	f->res = (struct bb_rresult){ .applet = "ttcp", .status = "ok", .message = "",
				      .params = { f->par, 2 } };
	f->run.path = "x.json";
	f->run.started = "";
	f->run.caches = "";
	f->run.system = (struct bb_rkvs){ f->sys, 4 };
	f->run.labels = (struct bb_rkvs){ f->lab, 1 };
	f->run.results = &f->res;
	f->run.n = 1;
}

/* Two runs a side, as compare holds them (each run points into its fake). */
static void link_sides(const struct fake fa[2], const struct fake fb[2], struct bb_rrun ra[2],
		       struct bb_rrun rb[2])
{
	for (int i = 0; i < 2; i++) {
		ra[i] = fa[i].run;
		rb[i] = fb[i].run;
	}
}

static const struct bb_diff *find(const struct bb_diffs *d, const char *field)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].field, field) == 0)
			return &d->v[i];
	return NULL;
}

/* Two runs a side: the sysctl, the granted buffer and the label differ;
 * the temperature, the free memory and the RTT differ too, by design. */
static void test_differences_and_by_design(void **state)
{
	struct fake fa[2], fb[2];
	struct bb_rrun ra[2], rb[2];
	struct bb_runs A = { ra, 2, 2 }, B = { rb, 2, 2 };
	struct bb_diffs d;
	const struct bb_diff *x;

	(void)state;
	fake_run(&fa[0], "212992", "41.0", "100", "big", "262144", "0.00002");
	fake_run(&fa[1], "212992", "44.0", "200", "big", "262144", "0.00003");
	fake_run(&fb[0], "131071", "47.0", "300", "capped", "131071", "0.00004");
	fake_run(&fb[1], "131071", "52.0", "400", "capped", "131071", "0.00005");
	link_sides(fa, fb, ra, rb);
	bb_diffs_find(&d, &A, &B);
	assert_int_equal(d.n, 3);
	x = find(&d, "net.core.rmem_max");
	assert_non_null(x);
	assert_string_equal(x->a, "212992");
	assert_string_equal(x->b, "131071");
	assert_true(bb_diff_explains(x, "ttcp"));
	assert_false(bb_diff_explains(x, "stream"));
	assert_non_null(find(&d, "ttcp rcvbuf_granted"));
	assert_non_null(find(&d, "label rmem"));
	assert_null(find(&d, "thermal.zone0.temp_c.now"));
	assert_null(find(&d, "mem_available_bytes"));
	assert_null(find(&d, "ttcp rtt_s"));
	assert_null(find(&d, "soc.revision"));   /* the same on both sides */

	/* A claimed ttcp change: the fields that may explain it come first,
	 * the label (the point of the comparison) last. */
	bb_diffs_rank(&d, (const char *const[]){ "ttcp" }, 1);
	assert_true(d.v[0].claimed);
	assert_true(d.v[1].claimed);
	assert_string_equal(d.v[2].field, "label rmem");
	assert_false(d.v[2].claimed);
	bb_diffs_free(&d);
}

/* A field whose runs disagree within a side is a difference only when the
 * sets of values differ; the values are all shown. */
static void test_sets_of_values(void **state)
{
	struct fake fa[2], fb[2];
	struct bb_rrun ra[2], rb[2];
	struct bb_runs A = { ra, 2, 2 }, B = { rb, 2, 2 };
	struct bb_diffs d;
	const struct bb_diff *x;

	(void)state;
	fake_run(&fa[0], "1", "0", "0", "x", "5", "0");
	fake_run(&fa[1], "2", "0", "0", "x", "5", "0");
	fake_run(&fb[0], "2", "0", "0", "x", "5", "0");
	fake_run(&fb[1], "1", "0", "0", "x", "5", "0");
	link_sides(fa, fb, ra, rb);
	bb_diffs_find(&d, &A, &B);
	assert_int_equal(d.n, 0);   /* {1, 2} on both sides */
	bb_diffs_free(&d);

	fb[0].sys[0].s = "3";
	rb[0] = fb[0].run;
	bb_diffs_find(&d, &A, &B);
	x = find(&d, "net.core.rmem_max");
	assert_non_null(x);
	assert_string_equal(x->a, "1 | 2");
	assert_string_equal(x->b, "3 | 1");
	bb_diffs_free(&d);
}

/* A side without the applet says nothing of its settings. */
static void test_applet_on_one_side(void **state)
{
	struct fake fa, fb;
	struct bb_runs A = { &fa.run, 1, 1 }, B = { &fb.run, 1, 1 };
	struct bb_diffs d;

	(void)state;
	fake_run(&fa, "1", "0", "0", "x", "5", "0");
	fake_run(&fb, "1", "0", "0", "x", "9", "0");
	fb.run.n = 0;
	bb_diffs_find(&d, &A, &B);
	assert_int_equal(d.n, 0);
	bb_diffs_free(&d);
}

/* The boot a run comes from and what else used the machine vary by
 * design; another board is a difference. */
static void boot_load(struct fake *f, const char *boot, const char *board, const char *others)
{
	f->sys[4] = (struct bb_rkv){ "boot.id", (char *)boot, NAN };
	f->sys[5] = (struct bb_rkv){ "boot.uptime_s", (char *)others, NAN };
	f->sys[6] = (struct bb_rkv){ "board.id", (char *)board, NAN };
	f->par[2] = (struct bb_rkv){ "load.others_cpu_per_s", (char *)others, NAN };
	f->par[3] = (struct bb_rkv){ "load.psi.cpu.some", (char *)others, NAN };
	f->run.system.n = 7;
	f->res.params.n = 4;
	f->run.results = &f->res;
}

static void test_boot_and_load(void **state)
{
	struct fake fa, fb;
	struct bb_runs A = { &fa.run, 1, 1 }, B = { &fb.run, 1, 1 };
	struct bb_diffs d;
	const struct bb_diff *x;

	(void)state;
	fake_run(&fa, "1", "0", "0", "x", "5", "0");
	fake_run(&fb, "1", "0", "0", "x", "5", "0");
	boot_load(&fa, "6f1c2a9e-3b4d", "2576aaa02b1a1adf", "0.01");
	boot_load(&fb, "20278158-332f", "2576aaa02b1a1adf", "0.97");
	bb_diffs_find(&d, &A, &B);
	assert_int_equal(d.n, 0);
	bb_diffs_free(&d);
	assert_false(bb_diff_system_key("boot.id"));
	assert_false(bb_diff_system_key("boot.uptime_s"));
	assert_true(bb_diff_system_key("board.id"));
	assert_true(bb_diff_system_key("board.id_source"));

	fb.sys[6].s = "9d96191cacd89cf7";
	bb_diffs_find(&d, &A, &B);
	assert_int_equal(d.n, 1);
	x = find(&d, "board.id");
	assert_non_null(x);
	assert_string_equal(x->a, "2576aaa02b1a1adf");
	assert_string_equal(x->b, "9d96191cacd89cf7");
	bb_diffs_free(&d);
}

/* The applets a system fact that differs may explain, as compare says. */
static const char *explains_of(const char *key)
{
	static char out[64];
	struct fake fa, fb;
	struct bb_rrun ra = { 0 }, rb = { 0 };
	struct bb_runs A = { &ra, 1, 1 }, B = { &rb, 1, 1 };
	struct bb_diffs d;
	const struct bb_diff *x;

	fake_run(&fa, "1", "0", "0", "x", "5", "0");
	fake_run(&fb, "1", "0", "0", "x", "5", "0");
	fa.sys[4] = (struct bb_rkv){ (char *)key, "A", NAN };
	fb.sys[4] = (struct bb_rkv){ (char *)key, "B", NAN };
	fa.run.system.n = fb.run.system.n = 5;
	ra = fa.run;
	rb = fb.run;
	bb_diffs_find(&d, &A, &B);
	x = find(&d, key);
	snprintf(out, sizeof out, "%s", x ? x->explains : "(no difference)");
	bb_diffs_free(&d);
	return out;
}

/* What a board engineer expects the memory, clock and SoC facts to
 * explain: a memory fact or the DDR controller's devfreq clock every
 * memory-bound applet, loopback ttcp and rr included; caches the
 * cache-bound ones; the SoC, the clock tree, a hypervisor, a --fact
 * register anything; a devfreq clock that moves by design nothing. */
static void test_memory_and_clock_facts_explain(void **state)
{
	(void)state;
	assert_string_equal(explains_of("memory.dt"), "stream lat mem ttcp rr");
	assert_string_equal(explains_of("memory.dmi"), "stream lat mem ttcp rr");
	assert_string_equal(explains_of("memory.mc0.ranks"), "stream lat mem ttcp rr");
	assert_string_equal(explains_of("devfreq.dmc.hz"), "stream lat mem ttcp rr");
	assert_string_equal(explains_of("devfreq.dmc.max_hz"), "stream lat mem ttcp rr");
	assert_string_equal(explains_of("cache.L2"), "stream lat csum mem");
	assert_string_equal(explains_of("cache.dt.L1d"), "stream lat csum mem");
	assert_string_equal(explains_of("soc.soc_id"), "*");
	assert_string_equal(explains_of("dt.soc.compatible"), "*");
	assert_string_equal(explains_of("clk.dram_pll"), "*");
	assert_string_equal(explains_of("clock.policy0.available_khz"), "*");
	assert_string_equal(explains_of("virt.hypervisor"), "*");
	assert_string_equal(explains_of("fact.SDRAM0_CFG0"), "*");
	assert_string_equal(explains_of("devfreq.dmc.hz.now"), "(no difference)");
}

/* "mem" explains mem, not memory or lat; "*" explains anything. */
static void test_explains_words(void **state)
{
	struct bb_diff x = { .explains = "stream mem lat" };

	(void)state;
	assert_true(bb_diff_explains(&x, "mem"));
	assert_true(bb_diff_explains(&x, "lat"));
	assert_true(bb_diff_explains(&x, "stream"));
	assert_false(bb_diff_explains(&x, "me"));
	assert_false(bb_diff_explains(&x, "ttcp"));
	x.explains = "*";
	assert_true(bb_diff_explains(&x, "csum"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differences_and_by_design),
		cmocka_unit_test(test_sets_of_values),
		cmocka_unit_test(test_applet_on_one_side),
		cmocka_unit_test(test_memory_and_clock_facts_explain),
		cmocka_unit_test(test_explains_words),
		cmocka_unit_test(test_boot_and_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
