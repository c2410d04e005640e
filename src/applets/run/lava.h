/* lava.h - the quick suite's headline metrics as LAVA test cases: one
 * shell line per metric,
 *   lava-test-case stream-triad --result pass --measurement 8110.400 --units MB/s
 * for a test definition to run on the board (packaging/lava/).  Read from
 * the results model in memory: a board's binary has no JSON reader. */
#ifndef BB_LAVA_H
#define BB_LAVA_H

#include <stdio.h>

#include "core/results.h"

/* Writes one lava-test-case line per headline metric of run's results:
 * --result pass with the measurement and its units for a result that
 * completed, --result fail (no measurement) for one that failed or was
 * interrupted.  Returns 0, or -1 on a write error. */
int bb_emit_lava(FILE *f, const struct bb_run *run);

#endif
