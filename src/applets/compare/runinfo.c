/* runinfo.c - the part of `compare` that speaks of the runs rather than
 * the metrics: a header per side and a warning for each result that failed,
 * was cut short or was throttled.  What else differs between the sides is
 * differ.c's. */
#include "applets/compare/runinfo.h"
#include "analysis/reader.h"

#include <stdio.h>
#include <string.h>

static const char *shown(const char *s)
{
	return s && s[0] ? s : "no reason recorded";
}

/* "board X rev Y, " from the device tree and soc0 facts, when recorded. */
static void describe_board(const struct bb_rrun *r)
{
	const char *model = bb_rkv_str(&r->system, "dt.model");
	const char *soc = bb_rkv_str(&r->system, "soc.soc_id");
	const char *rev = bb_rkv_str(&r->system, "soc.revision");

	if (model && model[0])
		printf("board %s, ", model);
	if (soc && soc[0])
		printf("SoC %s, ", soc);
	if (rev && rev[0])
		printf("revision %s, ", rev);
}

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
	printf("   host %s, ", host ? host : "?");
	describe_board(r);
	printf("%s, kernel %s, boardbench %s (git %s), started %s\n", cpu ? cpu : "?", kernel ? kernel : "?", ver ? ver : "?",
	       git ? git : "?", r->started[0] ? r->started : "?");
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
			else if (bb_rkv_num(&r->params, "throttled", 0) == 1)
				printf("warning: %s: %s: the %s result was throttled (%s): its numbers "
				       "say more about heat than about %s\n", tag, runs->r[i].path,
				       r->applet, shown(bb_rkv_str(&r->params, "throttle")), tag);
		}
}

