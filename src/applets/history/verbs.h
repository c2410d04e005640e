/* verbs.h - one change point described, for `show`, `changes`, the trend
 * page and the bisect script (verbs.c). */
#ifndef BB_HISTORY_VERBS_H
#define BB_HISTORY_VERBS_H

#include <stdio.h>

#include "applets/history/history.h"
#include "core/json.h"

#define HIST_CAUSES_SHOWN 6    /* causes a text line lists before "... and N more" */

/* The last run before point c (after = 0) or the first after it. */
const struct hist_run *hist_cp_run(const struct hist_lab *lab, const struct hist_cp *c, int after);

/* The first run after the point, counted from 1 along its series. */
size_t hist_cp_run_number(const struct hist_lab *lab, const struct hist_cp *c);

/* "better", "worse" or "changed" (a metric with no better direction). */
const char *hist_direction(const struct hist_lab *lab, const struct hist_cp *c);

/* a and b with their common leading and trailing words as "...": what
 * differs in two long flag lists. */
void hist_value_diff(const char *a, const char *b, char *oa, size_t la, char *ob, size_t lb);

/* Point k of the lab as a JSON object, its causes included. */
void hist_cp_json(struct bb_json *j, struct hdb *db, const struct hist_lab *lab, size_t k);

/* Point k as text: its size, interval, p, scope and causes; names: with
 * its time, board and metric first (changes), else under its series. */
void hist_cp_text(FILE *f, struct hdb *db, const struct hist_lab *lab, size_t k, int names);

#endif
