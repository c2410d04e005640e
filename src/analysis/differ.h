/* differ.h - "A and B differ in": every recorded field whose values differ
 * between the runs of A and those of B (the tool, the system facts, the
 * labels, each applet's settings), each with the applets it may explain,
 * so that `compare` can list first what plausibly explains a claimed
 * change (a capped net.core.rmem_max for ttcp, a silicon revision or THP
 * for stream and mem, a kernel option for csum).  Values that vary by
 * design (keys ending ".now", free memory, the current clock, the boot's
 * id and uptime, outcomes of a measurement such as load.*) are never
 * differences. */
#ifndef BB_TOOLS_DIFFER_H
#define BB_TOOLS_DIFFER_H

#include <stddef.h>

#include "analysis/toolio.h"

struct bb_diff {
	char *field;          /* "net.core.rmem_max", "ttcp sndbuf_granted", "label PMU" */
	char *a, *b;          /* each side's value, or its values joined by " | " */
	char *explains;       /* applets it may explain, space-separated; "*" for any */
	int group;            /* 0 setup, 1 tool, 2 label: the order among equals */
	int claimed;          /* it may explain an applet with a claimed change */
};

struct bb_diffs {
	struct bb_diff *v;
	size_t n, cap;
};

/* Every field whose set of values on A's runs differs from B's. */
void bb_diffs_find(struct bb_diffs *d, const struct bb_runs *A, const struct bb_runs *B);

/* Appends a difference found elsewhere (what else used the machine): the
 * strings are copied. */
void bb_diffs_add(struct bb_diffs *d, const char *field, const char *a, const char *b,
		  const char *explains);

/* Marks the fields that may explain a claimed change in one of the given
 * applets, and puts them first (stable otherwise). */
void bb_diffs_rank(struct bb_diffs *d, const char *const *claimed, size_t nclaimed);

/* 1 when the field may explain a change in applet. */
int bb_diff_explains(const struct bb_diff *x, const char *applet);

/* 1 when a key of `system` is a setting that can differ, 0 when its value
 * varies by design (free memory, the current clock, keys ending ".now"). */
int bb_diff_system_key(const char *key);

/* 1 when an applet's parameter is a setting, 0 when it is an outcome of
 * the measurement (a validation line, a clock or core speed seen). */
int bb_diff_param_key(const char *key);

/* The section: a line per field, values cut at 60 characters unless all;
 * at most 20 lines unless all. */
void bb_diffs_print(const struct bb_diffs *d, int all);

void bb_diffs_free(struct bb_diffs *d);

#endif
