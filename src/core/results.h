/* results.h - the one results model every applet fills and every emitter
 * reads (DESIGN.md: options -> applet -> samples -> model -> emitters).
 *
 * A run (one invocation: system, clock, labels) holds results, one per
 * applet execution.  A result holds parameters and series; a series is one
 * measured quantity (e.g. STREAM "Triad", variant "nt-sse2") with every raw
 * sample, the work each sample did, and derived figures.  Applets render
 * their classic text layout from a result, never from loop-local printf.
 */
#ifndef BB_RESULTS_H
#define BB_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "cycles.h"
#include "kv.h"
#include "sysinfo.h"
#include "timer.h"

struct bb_series {
	char *name;          /* "Triad" */
	char *variant;       /* "c", "nt-sse2" */
	char *unit;          /* unit of one sample: "s" */
	double work;         /* work done by one sample, e.g. bytes moved */
	char *work_unit;     /* "bytes" */
	size_t discard;      /* leading samples kept but left out of stats */
	double *samples;
	size_t n, cap;
	struct bb_kvlist values;  /* derived: best_rate_Bps, ... */
};

struct bb_result;
typedef void (*bb_render_fn)(FILE *f, const struct bb_result *r);
struct bb_heat_watch;   /* facts/heat.h */
struct bb_load_sample;  /* facts/load.h */

struct bb_result {
	char *applet;
	struct bb_kvlist params;
	struct bb_series **series;
	size_t n, cap;
	int ok;              /* 1 when validated / completed */
	int interrupted;     /* cut short by SIGINT/SIGTERM: holds what finished */
	char *message;       /* validation outcome or error */
	bb_render_fn render;   /* classic text layout */
	bb_render_fn summary;  /* one or two lines for the quick suite */
	struct bb_heat_watch *heat;   /* clocks and heat since it started, or NULL */
	struct bb_load_sample *load;  /* what else used the machine: its start, or NULL */
};

struct bb_run {
	struct bb_sysinfo sys;
	struct bb_timer_info timer;
	struct bb_cycles cycles;
	struct bb_kvlist labels;
	int argc;
	char **argv;
	struct bb_result **results;
	size_t n, cap;
	int watch_heat;      /* set by bb_run_new: results sample clocks, heat and load */
};

/* runs: collects system, clock and cycle information */
struct bb_run *bb_run_new(int argc, char **argv);
void bb_run_free(struct bb_run *run);

/* A new result, called as the applet's measurement begins.  In a run made
 * by bb_run_new (not a scratch run, nor "run" or "calib") it samples the
 * CPU clocks and thermal zones (facts/heat.h): params clock.before_khz and
 * temp.max_before_c, when the system shows them; then what else uses the
 * machine (facts/load.h), which each status set below samples again. */
struct bb_result *bb_run_add_result(struct bb_run *run, const char *applet);

/* results and series */
struct bb_series *bb_result_add_series(struct bb_result *r, const char *name,
				       const char *variant, const char *unit,
				       double work, const char *work_unit);
const struct bb_series *bb_result_find(const struct bb_result *r, const char *name,
				       const char *variant);

/* Sets r's outcome.  Every applet sets it when its measurement ends (and
 * may also at its start), so each call samples the clocks and zones again:
 * params clock.after_khz and temp.max_after_c, the last call's.  The first
 * call that finds the machine throttled since the result started (the
 * rules are in facts/heat.h) sets params throttled = true and throttle =
 * the reason, and prints one warning line on stderr.  Nothing at all when
 * the system shows neither cpufreq nor thermal zones.  Each call also
 * writes the params load.* (facts/load.h) since the result started. */
void bb_result_set_status(struct bb_result *r, int ok, const char *msg);

/* Marks r cut short by a signal (status "interrupted", never "ok"): the
 * message says which signal and what was kept (what, e.g. "3 of 10
 * rounds"), and series without a kept sample are dropped. */
void bb_result_set_interrupted(struct bb_result *r, const char *what);

/* The one stderr line after a SIGINT/SIGTERM: which results were kept
 * (those marked interrupted say how much) and where, e.g. "in s.json". */
void bb_run_warn_stopped(const struct bb_run *run, const char *where);

/* "ok", "failed" or "interrupted", as results files say. */
const char *bb_result_status(const struct bb_result *r);
void bb_series_add(struct bb_series *s, double sample);

/* Samples after the discarded warm-up: pointer and count. */
const double *bb_series_kept(const struct bb_series *s, size_t *n);

#endif
