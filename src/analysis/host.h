/* host.h - what the analysis engine knows of an applet, given by the
 * applet itself: each applet whose results hold series defines `const
 * struct bb_host bb_host_NAME` in its folder (src/applets/NAME/
 * NAME_host.c, built only where the engine is: never on a small board),
 * and the table bb_hosts[] (src/applets/hosts.c, from the one list)
 * holds those of this build.  The engine itself names no applet:
 *   - rules: how each series becomes a metric key, quantity, unit and
 *     chart (metrics.c; the templates are described there and in
 *     docs/json-schema.md, "Metric keys"), matched on series names that
 *     the applet's own headers spell for both its measuring code and
 *     these rules;
 *   - values: metrics of one value per run, from a series' values{};
 *   - derive: metrics made from a run's others (csum's Total);
 *   - facts: the recorded facts that may explain a change of the applet
 *     (differ.c; a fact no applet names may explain any);
 *   - chart_rank and marks: where its charts go in a report, and the
 *     labelled lines a line chart of its metrics carries (lat's cache
 *     levels).
 * compare's headline is the applet's too, but lives in its board-side
 * descriptor (core/applet.h), since run --lava reports it on a board. */
#ifndef BB_ANALYSIS_HOST_H
#define BB_ANALYSIS_HOST_H

#include "analysis/abstats.h"
#include "analysis/metrics.h"
#include "analysis/reader.h"

#include <stddef.h>

/* How one sample becomes one value. */
enum bb_how {
	BB_HOW_UNIT,        /* as the unit table says */
	BB_HOW_RATE,        /* work / sample: bytes per second */
	BB_HOW_RAW,         /* the sample itself */
	BB_HOW_PER_WORK,    /* sample / work: seconds per load */
	BB_HOW_PER_VALUE,   /* sample / a count from values{} or params{}: per call */
};

/* A rule: the first of an applet's rules whose pattern (on the series
 * name, '*' one or more characters), variant and units match wins; unset
 * fields come from the unit table or the engine's defaults. */
struct bb_key_rule {
	const char *pattern, *variant;
	const char *unit_is, *work_is;    /* required sample and work units */
	const char *above1;               /* a numeric parameter that must be > 1 */
	const char *key;
	enum bb_how how;
	const char *per_value;            /* BB_HOW_PER_VALUE: the count's name */
	const char *quantity, *base, *disp;
	double scale;
	int better;                       /* 0: from the unit table */
	const char *twin;                 /* template: the key whose samples these are */
	const char *run_value;            /* the run's figure: "VALUE" of this series,
					   * "SERIES:VALUE" of another of the result */
	const char *value;                /* values: the one sample is this value */
	const char *chart, *title, *category, *legend, *xlabel;
	int xcap;                         /* line charts: x is capture $xcap */
	int logy;
	int timeseries;
	int part;                         /* one part of a total also charted (a
					   * stream of several): left out where its
					   * result has only one */
	int skip;                         /* not a metric (e.g. a time stamp) */
};

struct bb_host {
	const char *applet;               /* its name in results files */
	const struct bb_key_rule *rules;
	size_t nrules;
	const struct bb_key_rule *values;
	size_t nvalues;
	/* After a run's metrics (those from index from on): adds what is
	 * derived from them, or NULL. */
	void (*derive)(struct bb_metrics *ms, size_t from);
	/* Prefixes of the facts (system keys, parameters, "caches") that may
	 * explain a change of this applet; NULL-terminated, or NULL. */
	const char *const *facts;
	/* report: its charts come in this order (1 first); 0 after those. */
	int chart_rank;
#define BB_CHART_RANK_LAST 100
	/* report: labelled x positions on a line chart of this applet's
	 * metrics, from one result (at most max, returned how many); labels
	 * point into the result.  Or NULL. */
	size_t (*marks)(const struct bb_rresult *res, double *x, const char **label, size_t max);
};

/* The hosts of this build, in the one list's order, then NULL. */
extern const struct bb_host *const bb_hosts[];

/* The host of applet, or NULL: an applet the engine knows only by units. */
const struct bb_host *bb_host_find(const char *applet);

#endif
