/* timer.h - the wall clock every measurement uses: CLOCK_MONOTONIC.
 *
 * bb_timer_calibrate() measures what STREAM's checktick() measures (the
 * smallest step the clock really takes) plus the cost of one reading, so
 * applets can size samples to at least 20 ticks and report the clock honestly.
 */
#ifndef BB_TIMER_H
#define BB_TIMER_H

#include <stdint.h>

struct bb_timer_info {
	double resolution_s;   /* what clock_getres() claims */
	double granularity_s;  /* smallest observed step between two readings */
	double overhead_s;     /* median cost of one clock_gettime() call */
};

double bb_now(void);        /* seconds since an arbitrary epoch */
uint64_t bb_now_ns(void);   /* nanoseconds since an arbitrary epoch */
void bb_timer_calibrate(struct bb_timer_info *ti);

/* Smallest duration a sample must last: >= 20 ticks and >= 1 ms. */
double bb_timer_min_sample(const struct bb_timer_info *ti);

#endif
