/* load.h - what else used the machine during a measurement.  A sample
 * holds the wall clock, /proc/stat's CPU counters (all CPUs and each one)
 * and context switches, this process's own CPU time and switches
 * (getrusage), the pressure stall totals of /proc/pressure/{cpu,memory,io}
 * where the kernel has them, and /proc/loadavg, all files read through
 * root.h.  core/results.c samples each result where it samples its heat
 * (facts/heat.h): when it starts and when its status is set; the two
 * samples become params "load.*" (docs/json-schema.md), so that compare
 * can tell a busy machine from a board change.  Nothing is printed.
 *
 * The figures, over the interval between the samples (wall seconds):
 *   load.wall_s            the interval (CLOCK_MONOTONIC)
 *   load.cpus              cpuN lines of /proc/stat
 *   load.busy_cpu_s        non-idle time of all CPUs: user (guest is in it),
 *                          nice, system, irq, softirq; neither iowait nor steal
 *   load.self_cpu_s        this process's user + system time, all threads,
 *                          and its waited-for children's
 *   load.others_cpu_per_s  max(0, busy - self) / wall, at most load.cpus:
 *                          1.0 is one CPU's worth
 *   load.busiest_cpu       the largest busy share of one CPU (0..1)
 *   load.steal_per_s, load.iowait_per_s    in CPUs
 *   load.ctxt_per_s, load.self_ctxt_per_s  context switches per second,
 *                          the machine's and this process's
 *   load.psi.cpu.some, load.psi.memory.some, load.psi.memory.full,
 *   load.psi.io.some, load.psi.io.full     the share of the interval stalled
 *   load.loadavg1          /proc/loadavg's first figure at the end
 * A figure whose source is missing is left out, never written as 0; under
 * a fixture root (BB_SYSROOT) getrusage is not read (root.h), so neither
 * self nor others is written.  /proc/stat counts in 1/USER_HZ (10 ms on
 * most kernels): over intervals of a few ticks the CPU figures are coarse. */
#ifndef BB_FACTS_LOAD_H
#define BB_FACTS_LOAD_H

#include "core/kv.h"

#define BB_LOAD_MAX_CPUS 256     /* per-CPU counters of cpu0..cpu255 */

/* The counters of a sample, each present or not (bit 1 << index of has). */
enum {
	BB_LOAD_BUSY,                /* ticks: all CPUs' busy time */
	BB_LOAD_STEAL, BB_LOAD_IOWAIT,
	BB_LOAD_CTXT,                /* context switches, the machine's */
	BB_LOAD_SELF_US,             /* this process's CPU time, microseconds */
	BB_LOAD_SELF_CTXT,
	BB_LOAD_PSI,                 /* 5 "total=" in microseconds: cpu some, */
	BB_LOAD_NCOUNTERS = BB_LOAD_PSI + 5   /* memory some, full, io some, full */
};

struct bb_load_sample {
	double t;                    /* bb_now() */
	unsigned has;                /* which counters were read */
	unsigned long long c[BB_LOAD_NCOUNTERS];
	int ncpu;                    /* cpuN lines of /proc/stat */
	unsigned long long cpu_busy[BB_LOAD_MAX_CPUS];  /* ticks of cpuN */
	unsigned long long cpu_total[BB_LOAD_MAX_CPUS]; /* 0: no cpuN line */
	double loadavg1;             /* -1: unreadable */
};

/* Everything above, as the system shows it now. */
void bb_load_read(struct bb_load_sample *s);

/* The figures between a and b (b later) into params; hz is USER_HZ. */
void bb_load_params(const struct bb_load_sample *a, const struct bb_load_sample *b, long hz,
		    struct bb_kvlist *params);

/* The sample at a result's start (free() it), and at an end: every figure
 * since start into params, replacing an earlier end's. */
struct bb_load_sample *bb_load_watch_start(void);
void bb_load_watch_end(const struct bb_load_sample *start, struct bb_kvlist *params);

#endif
