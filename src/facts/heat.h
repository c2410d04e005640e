/* heat.h - clocks and heat around a measurement.  A sample holds every
 * cpufreq policy's current clock and limit, every thermal zone's
 * temperature with its trip points, and the x86 thermal throttle counters,
 * all read through root.h.  Each result of a run (core/results.c) is
 * sampled when it starts and when its measurement ends; when the two
 * samples show throttling the result is marked (params throttled, throttle)
 * and one warning line says why, since a throttled run makes an A/B
 * comparison meaningless.
 *
 * When is it "throttled"?  bb_heat_throttled() says so, with a reason, when
 *  - a policy's limit (scaling_max_freq, which the kernel lowers for thermal
 *    cooling and power capping) fell between the samples, whatever the
 *    governor: "the clock limit of cpu0-3 fell from 1800 to 1200 MHz";
 *  - under governors that hold the clock still (performance, userspace, and
 *    powersave except with the *pstate drivers, where it is dynamic) the
 *    fastest policy's current clock at the end is more than
 *    BB_HEAT_FELL_PCT below its reading at the start, and below the base
 *    frequency where the CPU names one (x86 turbo bins above it come and go
 *    with the number of busy cores).  The fastest policy, not each one:
 *    where every CPU is a policy of its own, the CPU that idles at the end
 *    may legitimately read low.  Under dynamic governors (ondemand,
 *    schedutil, conservative, ...) the current clock moves with the load by
 *    design and is recorded but never judged;
 *  - a zone was at or above a passive, hot or critical trip point in either
 *    sample (crossed it, stayed above it, or cooled below it): the kernel
 *    slows the CPU above a passive trip point.  Active trip points start
 *    fans and are left out;
 *  - a thermal throttle counter of the kernel grew (x86, cpuN/thermal_throttle).
 */
#ifndef BB_FACTS_HEAT_H
#define BB_FACTS_HEAT_H

#include <stddef.h>

#include "core/kv.h"

/* What one sample holds at most: boards have far fewer; on a big host the
 * rest goes unwatched, which keeps a sample's cost to a few dozen small
 * sysfs reads (a zone whose sensor is slow to read costs what it costs). */
#define BB_HEAT_MAX_POLICIES 16
#define BB_HEAT_MAX_ZONES 24
#define BB_HEAT_MAX_TRIPS 8
#define BB_HEAT_MAX_CPUS 32       /* throttle counters of the first 32 CPUs */
#define BB_HEAT_FELL_PCT 10       /* a fixed clock "fell" by more than this */

struct bb_heat_policy {
	int id;                   /* N of policyN: its first CPU */
	char dir[48];             /* .../cpufreq/policyN, or .../cpuN/cpufreq */
	char cpus[32];            /* its CPUs, "0-3" */
	char governor[24];
	char driver[24];
	long long cur_khz;        /* scaling_cur_freq; -1 when unreadable */
	long long max_khz;        /* scaling_max_freq: the limit, caps included */
	long long base_khz;       /* base_frequency (x86 HWP); -1: none */
};

struct bb_heat_trip {
	long long mc;             /* millidegrees Celsius */
	char type[12];            /* passive, active, hot, critical */
};

struct bb_heat_zone {
	int id;                   /* N of thermal_zoneN */
	char type[24];            /* "cpu-thermal", "x86_pkg_temp" */
	int has_temp;
	long long mc;
	int ntrip;
	struct bb_heat_trip trip[BB_HEAT_MAX_TRIPS];
};

struct bb_heat_sample {
	int npolicy, nzone, ncpu;
	struct bb_heat_policy policy[BB_HEAT_MAX_POLICIES];
	struct bb_heat_zone zone[BB_HEAT_MAX_ZONES];
	long long core_throttles[BB_HEAT_MAX_CPUS];   /* -1: absent */
	long long pkg_throttles[BB_HEAT_MAX_CPUS];
};

/* Everything above, as the system shows it now. */
void bb_heat_read(struct bb_heat_sample *s);

/* s again with only what moves (current clocks, limits, temperatures,
 * counters) read anew: a sample at the end of a measurement costs less
 * than the first. */
void bb_heat_refresh(struct bb_heat_sample *s);

/* 1 when the system shows neither cpufreq, thermal zones nor counters. */
int bb_heat_empty(const struct bb_heat_sample *s);

/* The fastest policy's current clock in kHz; -1 when none is readable. */
long long bb_heat_fastest_khz(const struct bb_heat_sample *s);

/* The hottest zone in millidegrees into *mc: 0, or -1 when none. */
int bb_heat_hottest_mc(const struct bb_heat_sample *s, long long *mc);

/* Whether the system throttled between before and after (see the top of
 * this file): 1 with the reasons, joined by "; ", in why; else 0 and "". */
int bb_heat_throttled(const struct bb_heat_sample *before, const struct bb_heat_sample *after,
		      char *why, size_t len);

/* "0 1 2 3 5" -> "0-3,5" (cpufreq's affected_cpus as a short list). */
void bb_heat_cpu_list(char *out, size_t len, const char *cpus);

/* A watch on one result: the sample at its start, then one at each end.
 * start writes clock.before_khz and temp.max_before_c into params (the
 * fastest policy, the hottest zone) and returns NULL, having written
 * nothing, when the system exposes nothing to watch. */
struct bb_heat_watch;
struct bb_heat_watch *bb_heat_watch_start(struct bb_kvlist *params);

/* A sample at the end of the measurement: clock.after_khz and
 * temp.max_after_c into params.  Returns 1 the first time it finds
 * throttling (then params throttled = true, throttle = the reason, also in
 * why); 0 otherwise, also on later calls once marked. */
int bb_heat_watch_end(struct bb_heat_watch *w, struct bb_kvlist *params, char *why,
		      size_t len);
void bb_heat_watch_free(struct bb_heat_watch *w);

#endif
