/* cycles.h - the finest counter this CPU lets user space read.
 *
 * In order of preference: perf_event_open(PERF_COUNT_HW_CPU_CYCLES) (true
 * core cycles), then the architectural counter (rdtsc on x86, cntvct_el0 on
 * AArch64, the time base on PowerPC, rdtime on RISC-V), then CLOCK_MONOTONIC
 * in nanoseconds.  Only the first counts core cycles: the others tick at a
 * constant rate, and every report says which one was used and at what rate.
 */
#ifndef BB_CYCLES_H
#define BB_CYCLES_H

#include <stdint.h>

enum bb_cycles_source {
	BB_CYC_PERF,    /* perf_event_open hardware cycles */
	BB_CYC_ARCH,    /* architectural constant-rate counter */
	BB_CYC_CLOCK,   /* CLOCK_MONOTONIC nanoseconds */
};

struct bb_cycles {
	enum bb_cycles_source source;
	const char *name;      /* "perf-cycles", "rdtsc", "cntvct_el0", "mftb", ... */
	const char *unit;      /* "cycles", "ticks" or "ns" */
	int core_cycles;       /* 1 only when each count is one core clock */
	double hz;             /* counts per second (measured or architectural) */
	int fd;                /* perf event fd, or -1 */
};

/* want: NULL or "auto" picks the best; "perf", "arch" or "clock" forces one.
 * Returns 0, or -1 if the forced source is not available here. */
int bb_cycles_open(struct bb_cycles *c, const char *want);
uint64_t bb_cycles_read(const struct bb_cycles *c);
void bb_cycles_close(struct bb_cycles *c);

/* Name of the architectural counter of this build, or NULL if it has none. */
const char *bb_cycles_arch_name(void);

#endif
