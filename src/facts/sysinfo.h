/* sysinfo.h - reads the system's description every run records
 * (core/sysinfo.h) through the facts root (facts/root.h), so that a
 * fixture tree (BB_SYSROOT) feeds it all. */
#ifndef BB_FACTS_SYSINFO_H
#define BB_FACTS_SYSINFO_H

#include "core/sysinfo.h"

/* Fills si (which holds nothing yet: its facts list is overwritten). */
void bb_sysinfo_collect(struct bb_sysinfo *si);

#endif
