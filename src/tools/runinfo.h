/* runinfo.h - what `compare` says of the runs before the metrics: each
 * side's header, results that failed, and what differs between the sides
 * that moves numbers without being the point of the comparison. */
#ifndef BB_RUNINFO_H
#define BB_RUNINFO_H

#include "tools/toolio.h"

/* "A: PMU=1 (5 runs: ...)" and a line of host, CPU, kernel and version;
 * variant, when not NULL, names the variant of --variants. */
void bb_runs_describe(const char *tag, const struct bb_runs *runs, const char *variant);

/* A warning for every result of the side whose status is not ok; one
 * interrupted by a signal is named as cut short. */
void bb_runs_warn_failed(const char *tag, const struct bb_runs *runs);

/* A warning for each watched field (version, flags, governor, ...) and
 * each applet setting in which the first runs of A and B differ. */
void bb_runs_warn_differences(const struct bb_runs *A, const struct bb_runs *B);

#endif
