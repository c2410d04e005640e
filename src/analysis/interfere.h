/* interfere.h - what else used the machine while each applet ran, side by
 * side: the evidence that a busy machine, not the setting, moved a number.
 *
 * Every result records the machine around its measurement (params
 * load.*, facts/load.c: other processes' CPU time per second, steal,
 * pressure stalls) and whether it throttled.  For each applet, a figure
 * per side (the mean over its results); where the two sides differ by
 * more than a margin that a quiet machine does not reach, the difference
 * joins compare's list of differences ("may explain" that applet), and
 * every claim of that applet is printed as claimed and marked confounded,
 * never hidden.  The CPU-speed probe (calib) is evidence about every
 * applet: when compare finds the CPU itself slower or faster in B, every
 * claim is confounded by it.  docs/json-schema.md, "What else used the
 * machine", gives the margins. */
#ifndef BB_TOOLS_INTERFERE_H
#define BB_TOOLS_INTERFERE_H

#include <stddef.h>

#include "analysis/differ.h"
#include "analysis/toolio.h"

#define BB_LOAD_KINDS 6

/* One applet's evidence on both sides. */
struct bb_load_applet {
	const char *applet;
	double a[BB_LOAD_KINDS], b[BB_LOAD_KINDS];   /* NaN: not recorded on that side */
	int differs[BB_LOAD_KINDS];
	char why[200];        /* "B: other processes used 97% of a CPU during rr (A: 1%)" */
};

struct bb_load {
	struct bb_load_applet *v;
	size_t n;
	char calib[160];      /* "the CPU itself ran 20% slower in B", or "" */
};

/* The evidence of every applet that either side ran. */
void bb_load_find(struct bb_load *l, const struct bb_runs *A, const struct bb_runs *B);

/* Why a claim of applet is confounded, or NULL when nothing is known to. */
const char *bb_load_confounder(const struct bb_load *l, const char *applet);

/* Appends a difference for each kind that differs ("other processes' CPU
 * during rr": "A 1% of a CPU", "B 97% of a CPU"), tagged with its applet. */
void bb_load_diffs(const struct bb_load *l, struct bb_diffs *d);

void bb_load_free(struct bb_load *l);

#endif
