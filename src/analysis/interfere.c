/* interfere.c - what else used the machine, side by side (interfere.h):
 * the load.* params and the throttle flag of every result, a mean per
 * applet and side, and the kinds whose sides differ by more than a quiet
 * machine's margin. */
#include "analysis/interfere.h"
#include "analysis/reader.h"
#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each kind: the param, the margin by which the sides must differ, and
 * how a side's figure reads ("%s" is the figure as a percentage). */
static const struct kind {
	const char *param;
	double margin;
	const char *field;    /* the difference's name, before " during APPLET" */
	const char *says;     /* the confounder's words */
} kinds[BB_LOAD_KINDS] = {
	{ "load.others_cpu_per_s", 0.15, "other processes' CPU time",
	  "other processes used %s of a CPU" },
	{ "load.steal_per_s", 0.05, "CPU time the hypervisor took (steal)",
	  "the hypervisor took %s of a CPU (steal)" },
	{ "load.psi.cpu.some", 0.10, "time tasks waited for a CPU (PSI)",
	  "tasks waited for a CPU %s of the time" },
	{ "load.psi.memory.some", 0.05, "time tasks waited for memory (PSI)",
	  "tasks waited for memory %s of the time" },
	{ "load.psi.io.some", 0.10, "time tasks waited for I/O (PSI)",
	  "tasks waited for I/O %s of the time" },
	{ "throttled", 0.5, "results throttled", "the machine throttled in %s of the results" },
};

/* The mean of param over the results of applet on one side, each weighted
 * by its wall time (load.wall_s): the kernel counts CPU time in ticks, so
 * a short result's own figure is coarse while the sum over a side is not.
 * NaN when no result records it, or the side's results last under
 * MIN_WALL_S in all. */
#define MIN_WALL_S 0.5
static double side_mean(const struct bb_runs *s, const char *applet, const char *param)
{
	double sum = 0, wall = 0;

	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->r[i].n; j++) {
			const struct bb_rresult *r = &s->r[i].results[j];
			double x, w = bb_rkv_num(&r->params, "load.wall_s", NAN);
			if (strcmp(r->applet, applet) || strcmp(r->status, "ok") || !(w > 0))
				continue;
			x = bb_rkv_num(&r->params, param, NAN);
			if (!strcmp(param, "throttled") && isnan(x))
				x = 0;           /* watched and not throttled */
			if (isfinite(x)) {
				sum += x * w;
				wall += w;
			}
		}
	return wall >= MIN_WALL_S ? sum / wall : NAN;
}

static void pct(char *buf, size_t len, double x)
{
	snprintf(buf, len, "%.0f%%", 100 * x);
}

static void judge(struct bb_load_applet *ap)
{
	int said = 0;

	for (size_t k = 0; k < BB_LOAD_KINDS; k++) {
		double a = ap->a[k], b = ap->b[k];
		char pa[16], pb[16], busy[80];
		if (!isfinite(a) || !isfinite(b))
			continue;
		ap->differs[k] = k == BB_LOAD_KINDS - 1 ? (a > 0) != (b > 0) : fabs(b - a) >= kinds[k].margin;
		if (!ap->differs[k] || said++)
			continue;
		pct(pa, sizeof pa, a);
		pct(pb, sizeof pb, b);
		snprintf(busy, sizeof busy, kinds[k].says, b > a ? pb : pa);
		snprintf(ap->why, sizeof ap->why, "%s: %s during %s (%s: %s)", b > a ? "B" : "A", busy,
			 ap->applet, b > a ? "A" : "B", b > a ? pa : pb);
	}
}

static int listed(const struct bb_load *l, const char *applet)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].applet, applet))
			return 1;
	return 0;
}

static void add_applets(struct bb_load *l, const struct bb_runs *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->r[i].n; j++) {
			const char *name = s->r[i].results[j].applet;
			if (listed(l, name))
				continue;
			l->v = bb_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
			memset(&l->v[l->n], 0, sizeof l->v[l->n]);
			l->v[l->n++].applet = name;
		}
}

void bb_load_find(struct bb_load *l, const struct bb_runs *A, const struct bb_runs *B)
{
	memset(l, 0, sizeof *l);
	add_applets(l, A);
	add_applets(l, B);
	for (size_t i = 0; i < l->n; i++) {
		struct bb_load_applet *ap = &l->v[i];
		for (size_t k = 0; k < BB_LOAD_KINDS; k++) {
			ap->a[k] = side_mean(A, ap->applet, kinds[k].param);
			ap->b[k] = side_mean(B, ap->applet, kinds[k].param);
		}
		judge(ap);
	}
}

const char *bb_load_confounder(const struct bb_load *l, const char *applet)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].applet, applet) && l->v[i].why[0])
			return l->v[i].why;
	return l->calib[0] ? l->calib : NULL;
}

void bb_load_diffs(const struct bb_load *l, struct bb_diffs *d)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < BB_LOAD_KINDS; k++) {
			const struct bb_load_applet *ap = &l->v[i];
			char field[128], a[16], b[16];
			if (!ap->differs[k])
				continue;
			snprintf(field, sizeof field, "%s during %s", kinds[k].field, ap->applet);
			pct(a, sizeof a, ap->a[k]);
			pct(b, sizeof b, ap->b[k]);
			bb_diffs_add(d, field, a, b, ap->applet);
		}
}

void bb_load_free(struct bb_load *l)
{
	free(l->v);
	memset(l, 0, sizeof *l);
}
