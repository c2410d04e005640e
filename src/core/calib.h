/* calib.h - the CPU's own speed, measured between the applets of a run, so
 * that compare can tell a machine that ran slower (clock, heat, a busy
 * host) from a configuration that did. */
#ifndef BB_CALIB_H
#define BB_CALIB_H

#include "core/results.h"

#define BB_CALIB_APPLET "calib"
#define BB_CALIB_SERIES "add_chain"
#define BB_CALIB_KEY "calib.add_chain.time"   /* its metric key (analysis/metrics.c) */
#define BB_CALIB_MIN_OPS (1UL << 20)   /* dependent adds per sample, at least */
#define BB_CALIB_MAX_OPS (1UL << 28)
#define BB_CALIB_MIN_S 0.002           /* a sample lasts this long at least */
#define BB_CALIB_PER_CALL 3          /* samples per bb_calib_sample() */
#define BB_CALIB_EST_CHAINS 8        /* estimate: chains before and after */
#define BB_CALIB_EST_OPS (1UL << 19) /* estimate: adds per chain (~0.2 ms) */

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

/* ---- the core clock, estimated from the chain ----
 *
 * Where no counter counts core cycles (perf has none in many VMs; rdtsc,
 * cntvct_el0 and the time base tick at a constant rate), the chain gives
 * an estimate: one dependent integer add retires per core clock on the
 * cores this project targets, so adds per second ~ the core clock.  The
 * assumption fails where a core eliminates or fuses such adds (none of
 * the targets does for a register-register add), where the chain cannot
 * issue one add a cycle (the estimate's chain has eight adds a step so
 * that its loop costs little: the calib loop's four instructions per add
 * ran at half speed on the development VM whenever the host's SMT sibling
 * was busy; a narrow in-order core may still lose a cycle per step), and
 * on a busy host: time stolen from this thread counts as slower adds, so
 * the estimate is low and bytes per estimated cycle come out high.
 * Always named "estimated" in the output. */
struct bb_clock_est {
	double hz;            /* the estimate: the fastest sample's adds per
			       * second (an interruption only slows a chain, so
			       * the fastest is the least disturbed, as the best
			       * sample of a measurement is) */
	double hz_median, hz_min;
	size_t samples;
};

/* Times BB_CALIB_EST_CHAINS chains of the estimate's own kernel (eight
 * dependent adds a step, see calib.c) when a measurement starts; returns
 * the mark to pass to bb_calib_estimate() when it ends.  One measurement
 * at a time. */
size_t bb_calib_mark(struct bb_run *run);

/* Times as many chains again after the measurement, then estimates the
 * clock from the fastest of them all.  None is added to the calib result.
 * Returns 0, or -1 with e->hz 0 when no chain could be timed. */
int bb_calib_estimate(struct bb_run *run, size_t mark, struct bb_clock_est *e);

/* Stores e in r's params: est_core_hz, est_core_hz_median,
 * est_core_hz_min, est_core_samples, est_core_basis; and, where the run's counter counts core cycles,
 * est_core_vs_counter (the estimate over the counter's busy rate: the
 * check of the assumption). */
void bb_calib_record_estimate(struct bb_result *r, const struct bb_run *run,
			      const struct bb_clock_est *e);

/* The quick-suite summary line: median ns per add and the spread. */
void bb_calib_summary(FILE *f, const struct bb_result *r);

#endif
