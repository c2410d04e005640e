/* causes.h - what may have caused a change: every recorded fact whose
 * values differ between the runs just before a change point and those
 * just after it (analysis/differ.h decides what is a fact and which applets
 * each can move), split into the facts that changed at the point (one
 * value on each side: a kernel option, the compiler flags, a firmware)
 * and those that vary from run to run anyway (a commit= label in a lab
 * that builds every commit: there the values at the boundary are the
 * range to bisect).  Facts arrive as key=value pairs, keys prefixed by
 * where the results file holds them: "tool.cflags", "system.kernel.release",
 * "label.commit", "param.stream.threads", "caches". */
#ifndef BB_ANALYSIS_CAUSES_H
#define BB_ANALYSIS_CAUSES_H

#include <stddef.h>

#include "analysis/toolio.h"

struct bb_cause {
	char *field;           /* "compiler flags of the measured kernels" */
	char *before, *after;  /* each side's values ("a | b" when several) */
	int steady;            /* one value on each side: it changed at the point */
	int explains;          /* it may move the applet of the metric that changed */
};

struct bb_causes {
	struct bb_cause *v;
	size_t n;
};

/* A run rebuilt from its facts, enough for differ.h: tool, system,
 * labels, caches and each applet's params.  Free it with bb_rrun_free. */
void bb_rrun_from_facts(struct bb_rrun *r, const char *const *keys, const char *const *values,
			size_t n);

/* The causes between the runs before and those after, for a metric of
 * applet: steady ones first, those that may move the applet first among
 * equals. */
void bb_causes_find(const struct bb_runs *before, const struct bb_runs *after, const char *applet,
		    struct bb_causes *out);
void bb_causes_free(struct bb_causes *c);

#endif
