/* csum.c - the `csum` applet: the Internet checksum (RFC 1071) variants of
 * kernels/csum_table.c measured the way the Geode GX/LX report (the kernel's
 * checksum with and without its "PPro" shape) did:
 * for each variant, sizes 16..4096 bytes, N = 10000 calls each, start and
 * stop times added up and printed as its "Bytes Time Avg (usec/run)" table
 * with a "Total time".  Then a side-by-side comparison (ns per call, bytes
 * per core cycle or per counter tick, improvement over a baseline), and
 * the ip_fast_csum and checksum-and-copy variants.  Its --help is
 * src/applets/csum/help.txt.
 *
 * Modes: the default table; --latency (each result seeds the next call:
 * latency against throughput at 40 and 1500 bytes); --data FILE (the
 * checksum of a file's bytes with every variant, for cross-checking).
 * Every measured variant is checked against the reference checksum on
 * the measured buffer.  This file holds the options, the choice of
 * variants, main and the quick profile; csum_applet.h lists the others.
 */
#include "core/applet.h"
#include "csum_applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/parse.h"
#include "core/progress.h"
#include "core/stats.h"
#include "core/stop.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(csum);

static const size_t seed_sizes[] = { 16, 32, 64, 128, 256, 512, 1024, 2048, 4096 };
static const size_t latency_sizes[] = { 40, 1500 };
static const size_t quick_sizes[] = { 40, 1500, 4096 };

/* ---- variant selection ---- */

static int plan_has_sum(const struct csum_plan *p, const struct csum_variant *v)
{
	for (int i = 0; i < p->nsum; i++)
		if (p->sum[i] == v)
			return 1;
	return 0;
}

static void plan_sum(struct csum_plan *p, const struct csum_variant *v)
{
	if (plan_has_sum(p, v))
		return;
	if (!v->supported())
		csum_append(p->unsupported, sizeof p->unsupported, v->name);
	else if (p->nsum < CSUM_MAX_RUN)
		p->sum[p->nsum++] = v;
}

static void plan_ip(struct csum_plan *p, const struct csum_ip_variant *v)
{
	for (int i = 0; i < p->nip; i++)
		if (p->ip[i] == v)
			return;
	if (!v->supported())
		csum_append(p->unsupported, sizeof p->unsupported, v->name);
	else if (p->nip < CSUM_MAX_RUN)
		p->ip[p->nip++] = v;
}

static void plan_copy(struct csum_plan *p, const struct csum_copy_variant *v)
{
	for (int i = 0; i < p->ncopy; i++)
		if (p->copy[i] == v)
			return;
	if (!v->supported())
		csum_append(p->unsupported, sizeof p->unsupported, v->name);
	else if (p->ncopy < CSUM_MAX_RUN)
		p->copy[p->ncopy++] = v;
}

static void plan_all(struct csum_plan *p, int sections)
{
	for (size_t i = 0; i < csum_nvariants; i++)
		plan_sum(p, &csum_variants[i]);
	for (size_t i = 0; sections && i < csum_ip_nvariants; i++)
		plan_ip(p, &csum_ip_variants[i]);
	for (size_t i = 0; sections && i < csum_copy_nvariants; i++)
		plan_copy(p, &csum_copy_variants[i]);
}

static void plan_named(struct csum_plan *p, const char *names)
{
	char buf[512];

	if (strlen(names) >= sizeof buf)
		bb_die_value("--variant", names, "list too long");
	snprintf(buf, sizeof buf, "%s", names);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct csum_variant *v = csum_variant_find(tok);
		const struct csum_ip_variant *iv = csum_ip_variant_find(tok);
		const struct csum_copy_variant *cv = csum_copy_variant_find(tok);
		if (v)
			plan_sum(p, v);
		else if (iv)
			plan_ip(p, iv);
		else if (cv)
			plan_copy(p, cv);
		else
			bb_die_value("--variant", tok, "see 'boardbench csum --list'");
	}
}

/* The baseline runs first, whether or not --variant named it. */
static void plan_baseline(struct csum_plan *p, const char *name)
{
	const struct csum_variant *b = csum_variant_find(name);

	if (!b)
		bb_die_value("--baseline", name, "a partial-sum variant, see 'boardbench csum --list'");
	if (!b->supported())
		bb_die_value("--baseline", name, "unsupported on this CPU");
	if (!plan_has_sum(p, b)) {
		if (p->nsum == CSUM_MAX_RUN)
			p->nsum--;
		memmove(p->sum + 1, p->sum, (size_t)p->nsum * sizeof p->sum[0]);
		p->sum[0] = b;
		p->nsum++;
	}
	p->baseline = b;
}

void csum_plan_make(struct csum_plan *p, const struct csum_opts *o)
{
	memset(p, 0, sizeof *p);
	if (o->variants)
		plan_named(p, o->variants);
	else
		plan_all(p, o->sections);
	if (!o->sections && (p->nip || p->ncopy))
		bb_die_value("--variant", o->variants,
			     "--data and --latency take partial-sum variants only");
	plan_baseline(p, o->baseline);
}

/* ---- options ---- */

enum {
	OPT_SIZES = BB_OPT_FIRST_APPLET, OPT_VARIANT, OPT_BASELINE, OPT_LIST, OPT_LATENCY,
	OPT_DATA, OPT_OFFSET, OPT_MAX_BYTES,
};

static void parse_sizes(struct csum_opts *o, const char *arg)
{
	const char *p = arg;
	char item[64];

	o->nsizes = 0;
	o->sizes_given = 1;
	for (;;) {
		size_t n = strcspn(p, ",");
		uint64_t v;
		if (n == 0 || n >= sizeof item)
			bb_die_value("--sizes", arg, "expected a comma list of sizes, e.g. 40,1500");
		snprintf(item, sizeof item, "%.*s", (int)n, p);
		if (bb_parse_size(item, &v) || v < 1 || v > CSUM_MAX_SIZE)
			bb_die_value("--sizes", item, "expected bytes 1..64M");
		if (o->nsizes == CSUM_MAX_SIZES)
			bb_die_value("--sizes", arg, "at most 32 sizes");
		o->sizes[o->nsizes++] = (size_t)v;
		if (!p[n])
			break;
		p += n + 1;
	}
}

static void csum_defaults(struct csum_opts *o)
{
	memset(o, 0, sizeof *o);
	for (size_t i = 0; i < sizeof seed_sizes / sizeof seed_sizes[0]; i++)
		o->sizes[o->nsizes++] = seed_sizes[i];
	o->calls = 10000;
	o->max_bytes = CSUM_DATA_MAX_DEFAULT;
	o->reps = 5;
	o->baseline = "ref16";
	o->sections = 1;
}

static void parse_one(int opt, const char *arg, struct csum_opts *o)
{
	uint64_t v;

	switch (opt) {
	case OPT_SIZES: parse_sizes(o, arg); break;
	case 'N':
		if (bb_parse_u64(arg, 1, 1000000000, &v))
			bb_die_value("--calls", arg, "expected 1..1000000000");
		o->calls = v;
		break;
	case 'r':
		if (bb_parse_u64(arg, 2, 1000, &v))
			bb_die_value("--reps", arg, "expected 2..1000");
		o->reps = (int)v;
		break;
	case OPT_VARIANT:
		if (!arg[0])
			bb_die_value("--variant", arg, "expected a comma list of variants");
		o->variants = arg;
		break;
	case OPT_BASELINE: o->baseline = arg; break;
	case OPT_LIST: o->list = 1; break;
	case OPT_LATENCY: o->latency = 1; break;
	case OPT_DATA:
		if (!arg[0])
			bb_die_value("--data", arg, "expected a file name");
		o->data = arg;
		break;
	case OPT_OFFSET:
		if (bb_parse_u64(arg, 0, INT64_MAX, &v))
			bb_die_value("--offset", arg, "expected bytes >= 0");
		o->offset = v;
		break;
	case OPT_MAX_BYTES:
		o->max_bytes = bb_size_arg("--max-bytes", arg, 1, 1ull << 50, "expected 1..1048576G bytes");
		break;
	case 'h': bb_help_print(&bb_help_csum); exit(0);
	}
}

static void check_combination(struct csum_opts *o)
{
	char val[32];

	if (o->data && o->latency)
		bb_die_usage("--data and --latency cannot be combined");
	if (!o->data && o->offset > CSUM_MAX_BENCH_OFFSET) {
		snprintf(val, sizeof val, "%llu", (unsigned long long)o->offset);
		bb_die_value("--offset", val, "expected 0..63 without --data");
	}
	if (!o->data && o->max_bytes != CSUM_DATA_MAX_DEFAULT)
		bb_die_usage("--max-bytes bounds --data FILE: give --data too");
	if (o->data || o->latency)
		o->sections = 0;   /* partial sums only */
	if (o->latency && !o->sizes_given) {
		o->nsizes = 0;
		for (size_t i = 0; i < sizeof latency_sizes / sizeof latency_sizes[0]; i++)
			o->sizes[o->nsizes++] = latency_sizes[i];
	}
}

static void csum_parse(int argc, char **argv, struct csum_opts *o, struct bb_cli *cli)
{
	static const struct option longopts[] = {
		{ "sizes", required_argument, NULL, OPT_SIZES },
		{ "calls", required_argument, NULL, 'N' },
		{ "reps", required_argument, NULL, 'r' },
		{ "variant", required_argument, NULL, OPT_VARIANT },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "latency", no_argument, NULL, OPT_LATENCY },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":N:r:h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli))
			continue;
		if (opt == '?' || opt == ':')
			bb_cli_bad(opt, argv);
		parse_one(opt, optarg, o);
	}
	bb_cli_no_operands(argc, argv);
	check_combination(o);
}

static void list_family(const char *title, const char *name, const char *desc, int ok)
{
	if (title)
		printf("%s:\n", title);
	printf("  %-12s %-12s %s\n", name, ok ? "supported" : "unsupported", desc);
}

static void csum_list(void)
{
	for (size_t i = 0; i < csum_nvariants; i++)
		list_family(i ? NULL : "partial sums (--baseline is one of these)",
			    csum_variants[i].name, csum_variants[i].desc,
			    csum_variants[i].supported());
	for (size_t i = 0; i < csum_ip_nvariants; i++)
		list_family(i ? NULL : "ip_fast_csum (IPv4 headers of 20..60 bytes)",
			    csum_ip_variants[i].name, csum_ip_variants[i].desc,
			    csum_ip_variants[i].supported());
	for (size_t i = 0; i < csum_copy_nvariants; i++)
		list_family(i ? NULL : "csum-and-copy", csum_copy_variants[i].name,
			    csum_copy_variants[i].desc, csum_copy_variants[i].supported());
}

/* The applet's options with the plan made of them. */
struct csum_args {
	struct csum_opts o;
	struct csum_plan plan;
};

static void args_defaults(void *opts)
{
	csum_defaults(&((struct csum_args *)opts)->o);
}

static void args_parse(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	csum_parse(argc, argv, &((struct csum_args *)opts)->o, cli);
}

/* --list answers at once; a bad --variant or --baseline exits 2 here,
 * before anything is measured. */
static int args_before(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct csum_args *a = opts;

	(void)argc, (void)argv, (void)cli;
	if (a->o.list) {
		csum_list();
		return 0;
	}
	csum_plan_make(&a->plan, &a->o);
	return -1;
}

static struct bb_result *args_execute(struct bb_run *run, void *opts)
{
	const struct csum_args *a = opts;

	return a->o.data ? csum_data_execute(run, &a->o, &a->plan)
			 : csum_execute(run, &a->o, &a->plan);
}

/* The quick suite's profile: sizes 40, 1500 and 4096, 6 runs each (the first is warm-up), the
 * partial-sum variants only (well under a second on a PC). */
static struct bb_result *csum_quick(struct bb_run *run)
{
	struct csum_opts o;
	struct csum_plan plan;

	csum_defaults(&o);
	o.nsizes = 0;
	for (size_t i = 0; i < sizeof quick_sizes / sizeof quick_sizes[0]; i++)
		o.sizes[o.nsizes++] = quick_sizes[i];
	o.reps = 6;   /* 5 kept after the warm-up: compare needs >= 5 a side */
	o.sections = 0;
	csum_plan_make(&plan, &o);
	return csum_execute(run, &o, &plan);
}

/* ---- the applet ---- */

/* The Total time of the portable C checksum, as compare derives it
 * (csum_host.c, the Total it derives): round by round, the time
 * per call of every length summed; the median over the rounds. */
static void csum_lava(FILE *f, const struct bb_result *r)
{
	size_t n = 0, rounds = 0;
	double *sum = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		double calls = bb_kv_getnum(&s->values, "calls", 0);
		const double *x = bb_series_kept(s, &n);
		if (strcmp(s->variant, "generic32") || strncmp(s->name, CSUM_BYTES, strlen(CSUM_BYTES)) ||
		    strchr(s->name, ' ') || !(calls > 0))
			continue;
		if (!sum) {
			rounds = n;
			sum = bb_xcalloc(n ? n : 1, sizeof *sum);
		}
		if (n != rounds) {
			free(sum);
			return;              /* lengths with different rounds: no total */
		}
		for (size_t j = 0; j < n; j++)
			sum[j] += x[j] / calls;
	}
	if (sum && rounds)
		bb_lava_pass(f, "csum-total-generic32", bb_median(sum, rounds) * 1e9, "ns");
	free(sum);
}

static void csum_lava_name(char *name, size_t len, const struct bb_result *r)
{
	(void)r;
	snprintf(name, len, "csum-total-generic32");
}

static const struct bb_headline csum_headline = {
	.keys = { "csum.total.generic32", "csum.total.*" },
	.lava = csum_lava,
	.lava_name = csum_lava_name,
};

const struct bb_applet bb_applet_csum = {
	.name = "csum",
	.summary = "Internet checksum (RFC 1071) variants: the kernel's checksum Bytes/Time/Avg table",
	.opts_size = sizeof(struct csum_args),
	.defaults = args_defaults,
	.parse = args_parse,
	.before = args_before,
	.execute = args_execute,
	.quick = csum_quick,
	.headline = &csum_headline,
};
