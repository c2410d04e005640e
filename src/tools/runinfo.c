/* runinfo.c - the part of `compare` that speaks of the runs rather than
 * the metrics: a header per side, a warning for each failed result, and a
 * warning for each thing that moves numbers without being the point of
 * the comparison (boardbench version, compiler and flags, governor, huge
 * pages, GLIBC_TUNABLES, online CPUs, and every applet parameter that is
 * a setting rather than an outcome).  Labels are the point: only shown. */
#include "tools/runinfo.h"
#include "tools/reader.h"

#include <stdio.h>
#include <string.h>

void bb_runs_describe(const char *tag, const struct bb_runs *runs, const char *variant)
{
	const struct bb_rrun *r = &runs->r[0];
	char name[512];
	const char *host = bb_rkv_str(&r->system, "hostname");
	const char *cpu = bb_rkv_str(&r->system, "cpu_model");
	const char *kernel = bb_rkv_str(&r->system, "kernel");
	const char *ver = bb_rkv_str(&r->tool, "version"), *git = bb_rkv_str(&r->tool, "git");

	bb_rrun_name(r, name, sizeof name);
	printf("%s: %s%s%s", tag, variant ? "variant " : "", variant ? variant : name,
	       variant ? " of " : "");
	if (variant)
		printf("%s", name);
	printf(" (%zu run%s:", runs->n, runs->n == 1 ? "" : "s");
	for (size_t i = 0; i < runs->n && i < 4; i++)
		printf(" %s", runs->r[i].path);
	printf("%s)\n", runs->n > 4 ? " ..." : "");
	printf("   host %s, %s, kernel %s, boardbench %s (git %s), started %s\n",
	       host ? host : "?", cpu ? cpu : "?", kernel ? kernel : "?", ver ? ver : "?",
	       git ? git : "?", r->started[0] ? r->started : "?");
}

struct watched {
	int system;                /* 0: tool{}, 1: system{} */
	const char *key, *what;
};

/* What moves numbers without being the point of a comparison. */
static const struct watched watched[] = {
	{ 0, "version", "boardbench version" },
	{ 0, "git", "boardbench git revision" },
	{ 0, "compiler", "compiler" },
	{ 0, "cflags", "compiler flags" },
	{ 0, "kernel_cflags", "compiler flags of the measured kernels" },
	{ 0, "ldflags", "linker flags" },
	{ 1, "governor", "cpufreq governor" },
	{ 1, "transparent_hugepage", "transparent huge pages" },
	{ 1, "glibc_tunables", "GLIBC_TUNABLES" },
	{ 1, "cpus_online", "online CPUs" },
};

/* Parameters that are outcomes of a run, not settings: never warned about.
 * (ops_per_sample: the CPU-speed probe sizes its chain to the clock;
 * repeat, repeats: which of `run --repeat N` a run was.) */
static const char *const outcome_params[] = {
	"validation.", "ops_per_sample", "test_time_us", "granularity_us", "samples_retaken", "note",
	"level", "memory_", "ends_on_plateau", "counter_hz", "sysfs_caches", "unsupported", "variants",
	"ip_variants", "copy_variants", "port", "buffer_address", "complete", "peer", "repeat",
};

static const char *shown(const char *s)
{
	return s ? s : "(none)";
}

static void warn_field(const struct bb_runs *A, const struct bb_runs *B, const struct watched *w)
{
	for (size_t i = 0; i < A->n; i++)
		for (size_t j = 0; j < B->n; j++) {
			const struct bb_rkvs *la = w->system ? &A->r[i].system : &A->r[i].tool;
			const struct bb_rkvs *lb = w->system ? &B->r[j].system : &B->r[j].tool;
			const char *a = bb_rkv_str(la, w->key), *b = bb_rkv_str(lb, w->key);
			/* absent and empty both mean "not set" */
			if (strcmp(a ? a : "", b ? b : "") != 0) {
				printf("warning: A and B differ in %s: A '%s', B '%s'\n", w->what,
				       shown(a), shown(b));
				return;
			}
		}
}

static int is_outcome(const char *key)
{
	for (size_t i = 0; i < sizeof outcome_params / sizeof outcome_params[0]; i++)
		if (strncmp(key, outcome_params[i], strlen(outcome_params[i])) == 0)
			return 1;
	return 0;
}

static const struct bb_rresult *first_result(const struct bb_runs *runs, const char *applet)
{
	for (size_t i = 0; i < runs->n; i++)
		for (size_t j = 0; j < runs->r[i].n; j++)
			if (strcmp(runs->r[i].results[j].applet, applet) == 0)
				return &runs->r[i].results[j];
	return NULL;
}

/* Warns about each setting of an applet that differs between A and B. */
static void warn_params(const struct bb_rresult *ra, const struct bb_rresult *rb)
{
	const struct bb_rkvs *pa = &ra->params, *pb = &rb->params;

	for (size_t i = 0; i < pa->n; i++) {
		const char *k = pa->v[i].key, *b = bb_rkv_str(pb, k);
		if (!is_outcome(k) && strcmp(pa->v[i].s, shown(b)) != 0)
			printf("warning: A and B differ in %s %s: A '%s', B '%s'\n", ra->applet, k,
			       pa->v[i].s, shown(b));
	}
	for (size_t i = 0; i < pb->n; i++)
		if (!is_outcome(pb->v[i].key) && !bb_rkv_str(pa, pb->v[i].key))
			printf("warning: A and B differ in %s %s: A '(none)', B '%s'\n",
			       rb->applet, pb->v[i].key, pb->v[i].s);
}

void bb_runs_warn_differences(const struct bb_runs *A, const struct bb_runs *B)
{
	for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++)
		warn_field(A, B, &watched[i]);
	for (size_t i = 0; i < A->n; i++)
		for (size_t j = 0; j < A->r[i].n; j++) {
			const struct bb_rresult *ra = &A->r[i].results[j];
			const struct bb_rresult *rb = first_result(B, ra->applet);
			if (rb && ra == first_result(A, ra->applet))
				warn_params(ra, rb);
		}
}

void bb_runs_warn_failed(const char *tag, const struct bb_runs *runs)
{
	for (size_t i = 0; i < runs->n; i++)
		for (size_t j = 0; j < runs->r[i].n; j++) {
			const struct bb_rresult *r = &runs->r[i].results[j];
			if (strcmp(r->status, "interrupted") == 0)
				printf("warning: %s: %s: the %s result was cut short (%s): left out\n",
				       tag, runs->r[i].path, r->applet, r->message);
			else if (strcmp(r->status, "ok") != 0)
				printf("warning: %s: %s: the %s result has status '%s' (%s): left out\n",
				       tag, runs->r[i].path, r->applet, r->status, r->message);
		}
}

