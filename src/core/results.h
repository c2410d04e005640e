/* results.h - the one results model every applet fills and every emitter
 * reads (docs/DESIGN.md, "Data flow": options -> applet -> samples -> model -> emitters).
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

/* A watch around each measured result: started when the result is added,
 * ended (its params written, a warning printed if need be) whenever its
 * status is set.  The facts floor installs them (facts/install.c: the
 * clocks and heat, then what else used the machine, facts/heat.h and
 * load.h); core knows them only as these calls. */
struct bb_watch {
	void *(*start)(struct bb_kvlist *params);
	void (*end)(void *state, struct bb_kvlist *params);
	void (*release)(void *state);
};
#define BB_MAX_WATCHES 2

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
	void *watch[BB_MAX_WATCHES];  /* each watch's state since it started, or NULL */
	int spans;           /* measures no applet but spans them ("calib", a cut suite's) */
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

/* What results.c asks of the floor above it, which puts it in place
 * (facts/install.c): the system's description for each new run, and the
 * watches around each measured result.  Without them (a unit test of the
 * model alone) a run describes no system and results are not watched. */
struct bb_run_hooks {
	void (*describe)(struct bb_sysinfo *si);
	const struct bb_watch *watch[BB_MAX_WATCHES];   /* started in order, ended in reverse */
};
void bb_run_hooks_install(const struct bb_run_hooks *h);

/* runs: collects system, clock and cycle information */
struct bb_run *bb_run_new(int argc, char **argv);
void bb_run_free(struct bb_run *run);

/* A new result, called as the applet's measurement begins.  In a run made
 * by bb_run_new (not a scratch run) the watches start: the CPU clocks and
 * thermal zones (params clock.before_khz and temp.max_before_c, when the
 * system shows them), then what else uses the machine, which each status
 * set below samples again. */
struct bb_result *bb_run_add_result(struct bb_run *run, const char *applet);

/* A result that measures no applet but spans them (the CPU-speed probe's,
 * a cut suite's): never watched, never listed as kept. */
struct bb_result *bb_run_add_span(struct bb_run *run, const char *name);

/* results and series */
struct bb_series *bb_result_add_series(struct bb_result *r, const char *name,
				       const char *variant, const char *unit,
				       double work, const char *work_unit);
const struct bb_series *bb_result_find(const struct bb_result *r, const char *name,
				       const char *variant);

/* Sets r's outcome.  Every applet sets it when its measurement ends (and
 * may also at its start), so each call ends the watches again: params
 * clock.after_khz and temp.max_after_c, the last call's; the first call
 * that finds the machine throttled since the result started sets params
 * throttled = true and throttle = the reason, and prints one warning line
 * on stderr (the rules are in facts/heat.h); and the params load.* since
 * the result started (facts/load.h). */
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
