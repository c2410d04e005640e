/* calib.h - the CPU's own speed, measured between the applets of a run, so
 * that compare can tell a machine that ran slower (clock, heat, a busy
 * host) from a configuration that did. */
#ifndef BB_CALIB_H
#define BB_CALIB_H

#include "core/results.h"

#define BB_CALIB_APPLET "calib"
#define BB_CALIB_SERIES "add_chain"
#define BB_CALIB_KEY "calib.add_chain.time"   /* its metric key (tools/metrics.c) */
#define BB_CALIB_MIN_OPS (1UL << 20)   /* dependent adds per sample, at least */
#define BB_CALIB_MAX_OPS (1UL << 28)
#define BB_CALIB_MIN_S 0.002           /* a sample lasts this long at least */
#define BB_CALIB_PER_CALL 3          /* samples per bb_calib_sample() */

/* Times BB_CALIB_PER_CALL chains of dependent adds and adds them to the
 * run's calib result.  The first call makes it and picks the chain's
 * length: doubled from BB_CALIB_MIN_OPS until one lasts BB_CALIB_MIN_S
 * (the measurement rule's 1 ms, with room), then fixed for the run. */
void bb_calib_sample(struct bb_run *run);

/* The last timing, then the calib result moves to the end of the run's
 * results, after what it brackets.  Nothing without a first timing. */
void bb_calib_finish(struct bb_run *run);

/* One chain of n dependent adds; returns its seconds. */
double bb_calib_chain(unsigned long n);

/* The quick-suite summary line: median ns per add and the spread. */
void bb_calib_summary(FILE *f, const struct bb_result *r);

#endif
