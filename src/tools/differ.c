/* differ.c - the fields in which two sides of a comparison differ (see
 * differ.h): gathered from the tool, system, labels and params objects of
 * every run, each field's distinct values per side compared as sets, and
 * each field tagged with the applets whose numbers it can move. */
#include "tools/differ.h"
#include "tools/reader.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN_MAX 20    /* lines before "... and N more" */
#define VALUE_MAX 60    /* characters of a value before it is cut */
#define DISTINCT_MAX 8  /* distinct values of one field kept per side */

/* Where a field lives in a run. */
enum source { SRC_TOOL, SRC_SYSTEM, SRC_LABEL, SRC_PARAM, SRC_CACHES };

struct field {
	enum source src;
	const char *applet;   /* SRC_PARAM */
	const char *key;
};

/* The distinct values of a field on one side ("(none)" for absent). */
struct values {
	const char *v[DISTINCT_MAX];
	size_t n, more;
};

/* ---- which fields: what varies by design is never a difference ---- */

/* Parameters that are outcomes of a measurement, not settings.
 * (ops_per_sample: the CPU-speed probe sizes its chain to the clock;
 * repeat, repeats: which of `run --repeat N` a run was; the clock and
 * temperature around a measurement, its RTT and window bound, the core
 * clock estimated around it; what else used the machine meanwhile.) */
static const char *const outcome_params[] = {
	"validation.", "ops_per_sample", "test_time_us", "granularity_us", "samples_retaken", "note",
	"level", "memory_", "ends_on_plateau", "counter_hz", "sysfs_caches", "unsupported", "variants",
	"ip_variants", "copy_variants", "port", "buffer_address", "complete", "peer", "repeat",
	"clock.", "temp.", "throttle", "rtt_s", "window_bound_bps", "est_core_", "load.",
};

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_outcome(const char *key)
{
	for (size_t i = 0; i < sizeof outcome_params / sizeof outcome_params[0]; i++)
		if (starts(key, outcome_params[i]))
			return 1;
	return 0;
}

/* System fields that vary by design (boot.*: the boot a run comes from,
 * a level of replication, never a setting), or repeat the tool's. */
static int system_skipped(const char *key)
{
	static const char *const skip[] = {
		"mem_available_bytes", "cur_freq_hz", "compiler", "cflags", "boot.id", "boot.uptime_s",
	};
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (strcmp(key, skip[i]) == 0)
			return 1;
	return ends(key, ".now");
}

int bb_diff_system_key(const char *key)
{
	return !system_skipped(key);
}

int bb_diff_param_key(const char *key)
{
	return !is_outcome(key);
}

/* ---- which applets a field can move ---- */

/* The memory and its clock move every memory-bound figure, loopback
 * ttcp and rr included (the seed's DDR controller bit moved TTCP by 76%);
 * the SoC, its silicon revision and the board anything (the third seed's
 * revisions differed in network throughput); a clock of the tree, a
 * hypervisor and a --fact register the user named, anything ("*": not
 * listed). */
static const struct {
	const char *prefix;
	const char *explains;
} explain_table[] = {
	{ "net.", "ttcp" },
	{ "if.", "ttcp" },
	{ "memory.", "stream mem lat ttcp rr" },
	{ "devfreq.", "stream mem lat ttcp rr" },
	{ "cache.", "stream mem lat csum" },
	{ "firmware.", "stream mem lat" },
	{ "board.", "*" },
	{ "product.", "stream mem lat" },
	{ "transparent_hugepage", "stream mem lat" },
	{ "mem_total_bytes", "stream mem lat" },
	{ "caches", "stream mem lat csum" },
	{ "kernel.config.", "csum mem" },
	{ "cpu.", "csum mem stream" },
	{ "cpu_model", "csum mem stream" },
	{ "libc", "mem" },
	{ "glibc_tunables", "mem" },
	{ "kernel_cflags", "csum mem stream lat" },
};

static const char *explains(const struct field *f)
{
	if (f->src == SRC_PARAM)
		return starts(f->key, "if.") || starts(f->key, "net.") ? "ttcp" : f->applet;
	if (f->src == SRC_CACHES)
		return "stream mem lat csum";
	if (f->src == SRC_LABEL)
		return "*";
	for (size_t i = 0; i < sizeof explain_table / sizeof explain_table[0]; i++)
		if (starts(f->key, explain_table[i].prefix))
			return explain_table[i].explains;
	return "*";   /* the clock, the kernel, the compiler: anything */
}

int bb_diff_explains(const struct bb_diff *x, const char *applet)
{
	const char *s = x->explains;
	size_t n = strlen(applet);

	if (strcmp(s, "*") == 0)
		return 1;
	while ((s = strstr(s, applet)) != NULL) {
		if ((s == x->explains || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return 1;
		s += n;
	}
	return 0;
}

/* ---- values ---- */

static const struct bb_rresult *applet_result(const struct bb_rrun *r, const char *applet)
{
	for (size_t j = 0; j < r->n; j++)
		if (strcmp(r->results[j].applet, applet) == 0)
			return &r->results[j];
	return NULL;
}

/* The field's value in a run; *absent_run when the run has no such
 * applet (it then says nothing of the field). */
static const char *value_of(const struct bb_rrun *r, const struct field *f, int *absent_run)
{
	const struct bb_rresult *res;

	*absent_run = 0;
	switch (f->src) {
	case SRC_TOOL: return bb_rkv_str(&r->tool, f->key);
	case SRC_SYSTEM: return bb_rkv_str(&r->system, f->key);
	case SRC_LABEL: return bb_rkv_str(&r->labels, f->key);
	case SRC_CACHES: return r->caches[0] ? r->caches : NULL;
	case SRC_PARAM:
		res = applet_result(r, f->applet);
		if (!res) {
			*absent_run = 1;
			return NULL;
		}
		return bb_rkv_str(&res->params, f->key);
	}
	return NULL;
}

static void values_add(struct values *vs, const char *v)
{
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i], v) == 0)
			return;
	if (vs->n < DISTINCT_MAX)
		vs->v[vs->n++] = v;
	else
		vs->more++;
}

static void side_values(const struct bb_runs *s, const struct field *f, struct values *vs)
{
	memset(vs, 0, sizeof *vs);
	for (size_t i = 0; i < s->n; i++) {
		int absent_run;
		const char *v = value_of(&s->r[i], f, &absent_run);
		if (!absent_run)
			values_add(vs, v && v[0] ? v : "(none)");   /* absent and empty: not set */
	}
}

static int values_contain(const struct values *vs, const char *v)
{
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i], v) == 0)
			return 1;
	return 0;
}

static int values_differ(const struct values *a, const struct values *b)
{
	if (!a->n || !b->n)
		return 0;        /* a side never ran the applet: nothing to say */
	for (size_t i = 0; i < a->n; i++)
		if (!values_contain(b, a->v[i]))
			return 1;
	for (size_t i = 0; i < b->n; i++)
		if (!values_contain(a, b->v[i]))
			return 1;
	return a->more != b->more;
}

static char *values_join(const struct values *vs)
{
	size_t len = 32;
	char *s;

	for (size_t i = 0; i < vs->n; i++)
		len += strlen(vs->v[i]) + 3;
	s = bb_xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < vs->n; i++) {
		if (i)
			strcat(s, " | ");
		strcat(s, vs->v[i]);
	}
	if (vs->more)
		snprintf(s + strlen(s), 32, " | %zu more", vs->more);
	return s;
}

/* ---- the list ---- */

static const struct {
	enum source src;
	const char *key, *name;
} friendly[] = {
	{ SRC_TOOL, "version", "boardbench version" },
	{ SRC_TOOL, "git", "boardbench git revision" },
	{ SRC_TOOL, "compiler", "compiler" },
	{ SRC_TOOL, "cflags", "compiler flags" },
	{ SRC_TOOL, "kernel_cflags", "compiler flags of the measured kernels" },
	{ SRC_TOOL, "hardening_cflags", "hardening flags (all but the measured kernels)" },
	{ SRC_TOOL, "ldflags", "linker flags" },
	{ SRC_TOOL, "hardening", "hardening (stack protector, fortify, PIE, RELRO)" },
	{ SRC_SYSTEM, "governor", "cpufreq governor" },
	{ SRC_SYSTEM, "transparent_hugepage", "transparent huge pages" },
	{ SRC_SYSTEM, "glibc_tunables", "GLIBC_TUNABLES" },
	{ SRC_SYSTEM, "cpus_online", "online CPUs" },
};

static char *field_name(const struct field *f)
{
	char buf[512];

	for (size_t i = 0; i < sizeof friendly / sizeof friendly[0]; i++)
		if (friendly[i].src == f->src && strcmp(friendly[i].key, f->key) == 0)
			return bb_xstrdup(friendly[i].name);
	if (f->src == SRC_LABEL)
		snprintf(buf, sizeof buf, "label %s", f->key);
	else if (f->src == SRC_PARAM)
		snprintf(buf, sizeof buf, "%s %s", f->applet, f->key);
	else
		snprintf(buf, sizeof buf, "%s", f->key);
	return bb_xstrdup(buf);
}

static int seen_field(const struct bb_diffs *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].field, name) == 0)
			return 1;
	return 0;
}

static void consider(struct bb_diffs *d, const struct bb_runs *A, const struct bb_runs *B,
		     const struct field *f)
{
	struct values va, vb;
	char *name = field_name(f);
	struct bb_diff *x;

	side_values(A, f, &va);
	side_values(B, f, &vb);
	if (seen_field(d, name) || !values_differ(&va, &vb)) {
		free(name);
		return;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->v = bb_xrealloc(d->v, d->cap * sizeof *d->v);
	}
	x = &d->v[d->n++];
	x->field = name;
	x->a = values_join(&va);
	x->b = values_join(&vb);
	x->explains = explains(f);
	x->group = f->src == SRC_TOOL ? 1 : f->src == SRC_LABEL ? 2 : 0;
	x->claimed = 0;
}

void bb_diffs_add(struct bb_diffs *d, const char *field, const char *a, const char *b,
		  const char *explains)
{
	struct bb_diff *x;

	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->v = bb_xrealloc(d->v, d->cap * sizeof *d->v);
	}
	x = &d->v[d->n++];
	x->field = bb_xstrdup(field);
	x->a = bb_xstrdup(a);
	x->b = bb_xstrdup(b);
	x->explains = explains;
	x->group = 0;
	x->claimed = 0;
}

static int keep_key(enum source src, const char *key)
{
	if (src == SRC_TOOL)
		return strcmp(key, "name") != 0;
	if (src == SRC_SYSTEM)
		return !system_skipped(key);
	if (src == SRC_PARAM)
		return !is_outcome(key);
	return 1;
}

/* Every key of one object (tool, system, labels) of every run. */
static void scan_kvs(struct bb_diffs *d, const struct bb_runs *A, const struct bb_runs *B,
		     enum source src, const struct bb_runs *from)
{
	for (size_t i = 0; i < from->n; i++) {
		const struct bb_rrun *r = &from->r[i];
		const struct bb_rkvs *l = src == SRC_TOOL ? &r->tool :
					  src == SRC_SYSTEM ? &r->system : &r->labels;
		for (size_t k = 0; k < l->n; k++) {
			struct field f = { src, NULL, l->v[k].key };
			if (keep_key(src, f.key))
				consider(d, A, B, &f);
		}
	}
}

/* Every setting of every applet of every run. */
static void scan_params(struct bb_diffs *d, const struct bb_runs *A, const struct bb_runs *B,
			const struct bb_runs *from)
{
	for (size_t i = 0; i < from->n; i++)
		for (size_t j = 0; j < from->r[i].n; j++) {
			const struct bb_rresult *res = &from->r[i].results[j];
			if (res != applet_result(&from->r[i], res->applet))
				continue;
			for (size_t k = 0; k < res->params.n; k++) {
				struct field f = { SRC_PARAM, res->applet, res->params.v[k].key };
				if (keep_key(SRC_PARAM, f.key))
					consider(d, A, B, &f);
			}
		}
}

void bb_diffs_find(struct bb_diffs *d, const struct bb_runs *A, const struct bb_runs *B)
{
	const struct field caches = { SRC_CACHES, NULL, "caches" };

	memset(d, 0, sizeof *d);
	for (int side = 0; side < 2; side++) {
		const struct bb_runs *from = side ? B : A;
		scan_kvs(d, A, B, SRC_SYSTEM, from);
		if (!side)
			consider(d, A, B, &caches);
		scan_params(d, A, B, from);
		scan_kvs(d, A, B, SRC_TOOL, from);
		scan_kvs(d, A, B, SRC_LABEL, from);
	}
}

/* ---- order and print ---- */

static int rank_of(const struct bb_diff *x)
{
	return (x->claimed ? 0 : 3) + x->group;
}

void bb_diffs_rank(struct bb_diffs *d, const char *const *claimed, size_t nclaimed)
{
	for (size_t i = 0; i < d->n; i++)
		for (size_t j = 0; j < nclaimed && !d->v[i].claimed; j++)
			d->v[i].claimed = d->v[i].group != 2 && bb_diff_explains(&d->v[i], claimed[j]);
	/* insertion sort: stable, and the lists are short */
	for (size_t i = 1; i < d->n; i++) {
		struct bb_diff x = d->v[i];
		size_t j = i;
		for (; j > 0 && rank_of(&d->v[j - 1]) > rank_of(&x); j--)
			d->v[j] = d->v[j - 1];
		d->v[j] = x;
	}
}

static void print_value(const char *v, int all)
{
	size_t n = strlen(v);

	if (all || n <= VALUE_MAX)
		printf("%s", v);
	else
		printf("%.*s...", VALUE_MAX - 3, v);
}

static void print_one(const struct bb_diff *x, int all)
{
	printf("  %s: A ", x->field);
	print_value(x->a, all);
	printf(", B ");
	print_value(x->b, all);
	if (x->claimed)
		printf("  (may explain %s)", strcmp(x->explains, "*") == 0 ? "any applet" : x->explains);
	printf("\n");
}

void bb_diffs_print(const struct bb_diffs *d, int all)
{
	size_t claimed = 0;

	for (size_t i = 0; i < d->n; i++)
		claimed += d->v[i].claimed != 0;
	if (!d->n) {
		printf("\nA and B differ in no recorded field\n");
		return;
	}
	printf("\nA and B differ in %zu recorded field%s", d->n, d->n == 1 ? "" : "s");
	if (claimed)
		printf(" (first the %zu that may explain a claimed change)", claimed);
	printf(":\n");
	for (size_t i = 0; i < d->n && (all || i < SHOWN_MAX); i++)
		print_one(&d->v[i], all);
	if (!all && d->n > SHOWN_MAX)
		printf("  ... and %zu more (--all lists them)\n", d->n - SHOWN_MAX);
}

void bb_diffs_free(struct bb_diffs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].field);
		free(d->v[i].a);
		free(d->v[i].b);
	}
	free(d->v);
	memset(d, 0, sizeof *d);
}
