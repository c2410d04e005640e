/* runinfo.h - what `compare` says of the runs before the metrics: each
 * side's header and the results that failed, were cut short or throttled. */
#ifndef BB_RUNINFO_H
#define BB_RUNINFO_H

#include "analysis/toolio.h"

/* "A: PMU=1 (5 runs: ...)" and a line of host, CPU, kernel and version;
 * variant, when not NULL, names the variant of --variants. */
void bb_runs_describe(const char *tag, const struct bb_runs *runs, const char *variant);

/* A warning for every result of the side whose status is not ok; one
 * interrupted by a signal is named as cut short. */
void bb_runs_warn_failed(const char *tag, const struct bb_runs *runs);


#endif
