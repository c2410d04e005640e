/* cpuacct.h - CPU use during a transfer: this process's (getrusage: user
 * and system time, faults, context switches; all threads together) and the
 * whole machine's (/proc/stat's first "cpu" line: where every CPU spent its
 * time, in USER_HZ ticks), read before and after, then subtracted. */
#ifndef BB_NET_CPUACCT_H
#define BB_NET_CPUACCT_H

#include <stdint.h>
#include <sys/resource.h>

struct bb_procstat {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Parses the "cpu " line of /proc/stat text; 0 on success, -1 if absent or
 * malformed.  Missing trailing fields (old kernels) count as 0. */
int bb_procstat_parse(const char *text, struct bb_procstat *ps);

struct bb_cpu_snap {
	double t;                 /* bb_now() when taken */
	struct rusage ru;
	struct bb_procstat ps;
	int ps_ok;
};

void bb_cpu_snap_take(struct bb_cpu_snap *s);

struct bb_cpu_delta {
	double wall_s;            /* between the two snapshots */
	int64_t utime_us, stime_us;
	long maxrss_kib, minflt, majflt, nvcsw, nivcsw, ixrss, idrss_isrss;
	int sys_ok;               /* the machine-wide figures are valid */
	double sys_user_s, sys_system_s, sys_softirq_s, sys_irq_s, sys_idle_s;
	double sys_busy_s;        /* everything but idle and iowait */
	double sys_total_s;       /* all CPUs' time: about elapsed x CPUs */
};

/* ticks_per_s is sysconf(_SC_CLK_TCK). */
void bb_cpu_delta(const struct bb_cpu_snap *a, const struct bb_cpu_snap *b,
		  double ticks_per_s, struct bb_cpu_delta *d);

#endif
