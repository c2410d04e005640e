/* report_ab.h - the A/B part of `report`: what compare decided, as HTML
 * (report_ab.c).  The verdict table and the forest plot of one comparison,
 * and the headline table of any set of runs or groups. */
#ifndef BB_TOOLS_REPORT_AB_H
#define BB_TOOLS_REPORT_AB_H

#include <stdio.h>

#include "analysis/reader.h"
#include "applets/compare/toolopts.h"

/* Rows of the forest plot at most; the rest are counted under it. */
#define REPORT_FOREST_MAX 24

/* The verdict table and forest plot of B (named nb) against A (na), as
 * compare decides them with options co. */
void report_ab(FILE *f, const struct compare_opts *co, const struct bb_runs *A,
	       const struct bb_runs *B, const char *na, const char *nb);

/* The headline table: a line per applet, a column per group of runs
 * (names[i] heads groups[i]), each cell the median of the applet's
 * headline metric over the group's samples. */
void report_headlines(FILE *f, const struct bb_runs *groups, const char *const *names, size_t n);

#endif
