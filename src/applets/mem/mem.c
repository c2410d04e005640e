/* mem.c - the `mem` applet: memcpy, memset, copy_page, clear_page and read
 * variants (kernels/mem_table.c) compared the way the Geode GX/LX report
 * (the kernel's memcpy, copy_page and clear_page with and without 3DNow!)
 * compares them, plus page and bandwidth modes:
 *
 *   boardbench mem [tot|page|sweep] [--variant a,b] [--baseline NAME] ...
 *
 * This file parses options and plans which variants and operations run;
 * mem_measure.c fills the results model and mem_render.c prints it.
 * Its --help is src/applets/mem/help.txt.
 */
#include "core/applet.h"
#include "applets/mem/mem_applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/parse.h"
#include "core/progress.h"
#include "core/stop.h"

#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(mem);

#define REPEAT_DEFAULT 5
#define REPEAT_QUICK 5   /* compare needs >= 5 samples a side */
#define SWEEP_MIN_DEFAULT 64

#define LIST_EXPECT "expected a comma list, see 'boardbench mem --list'"

static const char *const mode_names[] = { "tot", "page", "sweep" };

/* ---- the plan: variants (baseline first) and operations ---- */

static int plan_has(const struct mem_plan *p, const struct mem_variant *v)
{
	for (int i = 0; i < p->nrun; i++)
		if (p->run[i] == v)
			return 1;
	return 0;
}

static void plan_add(struct mem_plan *p, const struct mem_variant *v)
{
	size_t used = strlen(p->unsupported);

	if (plan_has(p, v))
		return;
	if (v->supported()) {
		if (p->nrun < MEM_MAX_RUN)
			p->run[p->nrun++] = v;
		return;
	}
	for (int i = 0; i < p->nunsup; i++)
		if (p->unsup[i] == v)
			return;
	if (p->nunsup < MEM_MAX_RUN)
		p->unsup[p->nunsup++] = v;
	if (used < sizeof p->unsupported)
		snprintf(p->unsupported + used, sizeof p->unsupported - used, "%s%s",
			 used ? "," : "", v->name);
}

static void plan_list(struct mem_plan *p, const char *list)
{
	char buf[512];

	if (!list) {
		for (size_t i = 0; i < mem_nvariants; i++)
			plan_add(p, &mem_variants[i]);
		return;
	}
	if (strlen(list) >= sizeof buf || !list[0])
		bb_die_value("--variant", list, LIST_EXPECT);
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct mem_variant *v = mem_variant_find(tok);
		if (!v)
			bb_die_value("--variant", tok, "see 'boardbench mem --list'");
		plan_add(p, v);
	}
	if (p->nrun + p->nunsup == 0)
		bb_die_value("--variant", list, LIST_EXPECT);
}

/* Moves the baseline to run[0]; an explicit one must exist and run here,
 * and joins the plan if --variant left it out. */
static void plan_baseline(struct mem_plan *p, const char *name)
{
	const struct mem_variant *b = mem_variant_find(name ? name : "libc");
	int at = -1;

	if (name && !b)
		bb_die_value("--baseline", name, "see 'boardbench mem --list'");
	if (name && !b->supported())
		bb_die_value("--baseline", name, "this CPU cannot run it");
	if (name && !plan_has(p, b) && p->nrun < MEM_MAX_RUN)
		p->run[p->nrun++] = b;
	for (int i = 0; i < p->nrun; i++)
		if (p->run[i] == b)
			at = i;
	for (; at > 0; at--) {
		const struct mem_variant *t = p->run[at];
		p->run[at] = p->run[at - 1];
		p->run[at - 1] = t;
	}
}

/* Operations each mode measures, by default and at most. */
static const enum mem_op tot_ops[] = { MEM_MEMCPY, MEM_MEMSET, MEM_COPY_PAGE, MEM_CLEAR_PAGE };
static const enum mem_op page_ops[] = { MEM_COPY_PAGE, MEM_CLEAR_PAGE };
static const enum mem_op sweep_ops[] = { MEM_MEMCPY };

static int op_allowed(enum mem_mode mode, enum mem_op op)
{
	if (mode == MEM_MODE_PAGE)
		return op == MEM_COPY_PAGE || op == MEM_CLEAR_PAGE;
	if (mode == MEM_MODE_SWEEP)
		return op == MEM_MEMCPY || op == MEM_MEMSET || op == MEM_READ;
	return 1;
}

static void plan_ops(struct mem_plan *p, const struct mem_opts *o)
{
	static const char *const expect[] = {
		"expected memcpy, memset, copy_page, clear_page or read",
		"expected copy_page or clear_page", "expected memcpy, memset or read" };
	const enum mem_op *dflt = o->mode == MEM_MODE_TOT ? tot_ops
				: o->mode == MEM_MODE_PAGE ? page_ops : sweep_ops;
	int ndflt = o->mode == MEM_MODE_TOT ? 4 : o->mode == MEM_MODE_PAGE ? 2 : 1;
	char buf[128];

	p->nops = 0;
	if (!o->ops) {
		for (int i = 0; i < ndflt; i++)
			p->ops[p->nops++] = dflt[i];
		return;
	}
	if (strlen(o->ops) >= sizeof buf || !o->ops[0])
		bb_die_value("--op", o->ops, expect[o->mode]);
	snprintf(buf, sizeof buf, "%s", o->ops);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int op = mem_op_parse(tok), dup = 0;
		if (op < 0 || !op_allowed(o->mode, (enum mem_op)op))
			bb_die_value("--op", tok, expect[o->mode]);
		for (int i = 0; i < p->nops; i++)
			dup |= p->ops[i] == (enum mem_op)op;
		if (!dup)
			p->ops[p->nops++] = (enum mem_op)op;
	}
}

static void plan_make(struct mem_plan *p, const struct mem_opts *o)
{
	memset(p, 0, sizeof *p);
	plan_list(p, o->variants);
	plan_baseline(p, o->baseline);
	if (p->nrun == 0)
		bb_die_value("--variant", o->variants ? o->variants : "",
			     "none of them runs on this CPU");
	plan_ops(p, o);
}

/* ---- running ---- */

static void record_params(struct bb_result *r, const struct bb_run *run,
			  const struct mem_opts *o, const struct mem_plan *p)
{
	char list[512] = "";

	bb_kv_str(&r->params, "mode", mode_names[o->mode]);
	for (int i = 0; i < p->nrun; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "",
			 p->run[i]->name);
	bb_kv_str(&r->params, "variants", list);
	bb_kv_str(&r->params, "baseline", p->run[0]->name);
	list[0] = '\0';
	for (int i = 0; i < p->nops; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "",
			 mem_op_name(p->ops[i]));
	bb_kv_str(&r->params, "ops", list);
	bb_kv_str(&r->params, "unsupported", p->unsupported);
	bb_kv_int(&r->params, "repeat", o->repeat);
	bb_kv_str(&r->params, "rounds", "alternating");
	bb_kv_str(&r->params, "counter", run->cycles.name);
	bb_kv_str(&r->params, "counter_unit", run->cycles.unit);
	bb_kv_bool(&r->params, "counter_core_cycles", run->cycles.core_cycles);
	bb_kv_num(&r->params, "counter_hz", run->cycles.hz);
	if (o->mode == MEM_MODE_SWEEP) {
		bb_kv_str(&r->params, "rate_unit", "GB/s, GB = 10^9 bytes");
		bb_kv_str(&r->params, "bytes_counted",
			  "once per copy: an n-byte memcpy moves n bytes");
	} else if (o->mode == MEM_MODE_TOT) {
		bb_kv_str(&r->params, "value", "avg (mean) and best (smallest) of the kept samples "
			  "(the passes), in counter units");
	} else {
		bb_kv_str(&r->params, "value", "best (smallest) kept sample, in counter units");
	}
}

/* Bytes per estimated core cycle (and per counter tick) beside each
 * series' best: the clock estimated from the dependent-add chain timed
 * right before and after the measurement (core/calib.h says what it
 * assumes and where it fails). */
static void add_estimates(struct bb_result *r, struct bb_run *run, size_t mark)
{
	struct bb_clock_est e;

	if (bb_calib_estimate(run, mark, &e) != 0)
		return;
	bb_calib_record_estimate(r, run, &e);
	for (size_t i = 0; i < r->n; i++) {
		struct bb_series *s = r->series[i];
		double best = bb_kv_getnum(&s->values, "best", 0), sec;
		int in_s = strcmp(s->unit, "s") == 0;
		if (!(best > 0) || (!in_s && !(run->cycles.hz > 0)))
			continue;
		sec = in_s ? best : best / run->cycles.hz;
		if (strcmp(s->unit, "ticks") == 0)
			bb_kv_num(&s->values, "bytes_per_tick", s->work / best);
		bb_kv_num(&s->values, "bytes_per_est_cycle", s->work / (sec * e.hz));
	}
}

static struct bb_result *mem_execute(struct bb_run *run, void *opts)
{
	const struct mem_opts *o = opts;

	struct mem_plan plan;
	struct bb_result *r;
	size_t mark = bb_calib_mark(run);

	plan_make(&plan, o);
	r = bb_run_add_result(run, "mem");
	r->render = mem_render;
	r->summary = mem_summary;
	bb_result_set_status(r, 1, "");
	record_params(r, run, o, &plan);
	if (o->mode == MEM_MODE_TOT) {
		bb_kv_int(&r->params, "tot_min_len", MEM_TOT_MIN_LEN);
		bb_kv_int(&r->params, "tot_max_len", MEM_TOT_MAX_LEN);
		bb_kv_int(&r->params, "tot_rounds", MEM_TOT_ROUNDS);
		mem_measure_tot(run, r, o, &plan);
	} else if (o->mode == MEM_MODE_PAGE) {
		mem_measure_page(run, r, o, &plan);
	} else {
		mem_measure_sweep(run, r, o, &plan);
	}
	add_estimates(r, run, mark);
	if (mem_measure_cut())
		bb_result_set_interrupted(r, "the rows measured before it");
	else if (r->ok)
		bb_result_set_status(r, 1, "every result validated");
	return r;
}

/* ---- options ---- */

static void mem_list(void)
{
	printf("mem variants (operations each has code for; run-time CPU check):\n");
	for (size_t i = 0; i < mem_nvariants; i++) {
		const struct mem_variant *v = &mem_variants[i];
		char ops[80] = "";
		for (int op = 0; op < MEM_NOPS; op++)
			if (mem_variant_has(v, (enum mem_op)op))
				snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s",
					 ops[0] ? "," : "", mem_op_name((enum mem_op)op));
		printf("  %-8s %-11s %-41s %s\n", v->name,
		       v->supported() ? "supported" : "unsupported", ops, v->desc);
	}
}

enum { OPT_VARIANT = BB_OPT_FIRST_APPLET, OPT_BASELINE, OPT_OP, OPT_MIN, OPT_MAX, OPT_SIZES,
       OPT_ARENA, OPT_LIST };

#define SIZES_EXPECT "expected a comma list of sizes, e.g. 64,4K,1M,64M"

/* --sizes: kept ascending without duplicates, so rows print in size order. */
static void parse_sizes(struct mem_opts *o, const char *arg)
{
	const char *p = arg;
	char item[64];

	o->nsizes = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		uint64_t v;
		int at;

		if (len == 0 || len >= sizeof item)
			bb_die_value("--sizes", arg, SIZES_EXPECT);
		snprintf(item, sizeof item, "%.*s", (int)len, p);
		v = bb_size_arg("--sizes", item, 16, 1ull << 40, "expected 16..1T bytes");
		for (at = 0; at < o->nsizes && o->sizes[at] < v; at++)
			;
		if (at == o->nsizes || o->sizes[at] != v) {
			if (o->nsizes == MEM_MAX_SIZES)
				bb_die_value("--sizes", arg, "at most 32 sizes");
			memmove(&o->sizes[at + 1], &o->sizes[at],
				(size_t)(o->nsizes - at) * sizeof o->sizes[0]);
			o->sizes[at] = v;
			o->nsizes++;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
}

static void mem_option(int opt, const char *arg, struct mem_opts *o)
{
	uint64_t v;

	switch (opt) {
	case OPT_VARIANT: o->variants = arg; break;
	case OPT_BASELINE: o->baseline = arg; break;
	case OPT_OP: o->ops = arg; break;
	case OPT_LIST: o->list = 1; break;
	case 'n':
		if (bb_parse_u64(arg, 1, 1000, &v))
			bb_die_value("--repeat", arg, "expected 1..1000");
		o->repeat = (int)v;
		break;
	case OPT_MIN:
		o->min_size = bb_size_arg("--min-size", arg, 16, 1ull << 30, "expected 16..1G bytes");
		o->min_given = 1;
		break;
	case OPT_MAX:
		o->max_size = bb_size_arg("--max-size", arg, 16, 1ull << 40, "expected 16..1T bytes");
		break;
	case OPT_SIZES: parse_sizes(o, arg); break;
	case OPT_ARENA:
		o->arena = bb_size_arg("--arena", arg, 1u << 20, 16ull << 30,
				    "expected 1M..16G bytes");
		o->arena = o->arena / MEM_PAGE * MEM_PAGE;
		break;
	}
}

static void parse_mode(int argc, char **argv, struct mem_opts *o)
{
	if (optind >= argc)
		return;
	for (int m = 0; m < 3; m++)
		if (strcmp(argv[optind], mode_names[m]) == 0) {
			o->mode = (enum mem_mode)m;
			optind++;
			bb_cli_no_operands(argc, argv);
			return;
		}
	bb_die_value("mode", argv[optind], "expected tot, page or sweep");
}

static void mem_parse(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct mem_opts *o = opts;

	static const struct option longopts[] = {
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "op", required_argument, NULL, OPT_OP },
		{ "repeat", required_argument, NULL, 'n' },
		{ "min-size", required_argument, NULL, OPT_MIN },
		{ "max-size", required_argument, NULL, OPT_MAX },
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "arena", required_argument, NULL, OPT_ARENA },
		{ "list", no_argument, NULL, OPT_LIST },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":n:h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli))
			continue;
		if (opt == 'h') {
			bb_help_print(&bb_help_mem);
			exit(0);
		}
		if (opt == '?' || opt == ':')
			bb_cli_bad(opt, argv);
		mem_option(opt, optarg, o);
	}
	parse_mode(argc, argv, o);
	if (o->nsizes && o->mode != MEM_MODE_SWEEP)
		bb_die_usage("--sizes applies to the sweep mode only");
	if (o->nsizes && (o->min_given || o->max_size))
		bb_die_usage("--sizes replaces --min-size and --max-size; give one or the other");
	if (o->max_size && o->max_size < o->min_size)
		bb_die_usage("--max-size must not be below --min-size (%llu bytes)",
			     (unsigned long long)o->min_size);
}

static void mem_defaults(void *opts)
{
	struct mem_opts *o = opts;

	memset(o, 0, sizeof *o);
	o->mode = MEM_MODE_TOT;
	o->repeat = 0;   /* the mode's default, once the mode is known */
	o->min_size = SWEEP_MIN_DEFAULT;
}

/* --list answers at once; -r's default follows the mode. */
static int mem_before(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct mem_opts *o = opts;

	(void)argc, (void)argv, (void)cli;
	if (!o->repeat)
		o->repeat = o->mode == MEM_MODE_TOT ? MEM_TOT_PASSES : REPEAT_DEFAULT;
	if (o->list) {
		mem_list();
		return 0;
	}
	return -1;
}

/* The quick suite: tot with every variant this CPU runs, 3 samples each. */
static struct bb_result *mem_quick(struct bb_run *run)
{
	struct mem_opts o;

	mem_defaults(&o);
	o.repeat = REPEAT_QUICK;
	return mem_execute(run, &o);
}

/* ---- the applet ---- */

/* The tot_memcpy sweep with the C library's memcpy, its median. */
static void mem_lava(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, MEM_TOT_PREFIX "memcpy", "libc");

	if (s)
		bb_lava_pass(f, "mem-tot-memcpy-libc", bb_kept_median(s), s->unit);
}

static void mem_lava_name(char *name, size_t len, const struct bb_result *r)
{
	(void)r;
	snprintf(name, len, "mem-tot-memcpy-libc");
}

static const struct bb_headline mem_headline = {
	.keys = { "mem.tot.memcpy.libc", "mem.tot.memcpy.*" },
	.lava = mem_lava,
	.lava_name = mem_lava_name,
};

const struct bb_applet bb_applet_mem = {
	.name = "mem",
	.summary = "memcpy/memset/copy_page/clear_page variants: the kernel's tot_memcpy table",
	.opts_size = sizeof(struct mem_opts),
	.defaults = mem_defaults,
	.parse = mem_parse,
	.before = mem_before,
	.execute = mem_execute,
	.quick = mem_quick,
	.headline = &mem_headline,
};
