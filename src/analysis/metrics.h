/* metrics.h - from the series of a results file to metrics: a stable key
 * such as "stream.triad.c.bandwidth" or "mem.tot.memcpy.libc", one value
 * per kept sample in a base unit (bytes/s, s per load, ticks), the
 * direction that is better, and where the metric goes in a report.
 *
 * The mapping is table-driven (metrics.c): each applet's own rules (its
 * host-side knowledge, analysis/host.h), and a generic table keyed by the
 * series' unit and work_unit, so the series of an applet this code has
 * never seen still get a key, a quantity and a direction.  docs/json-schema.md ("Metric keys")
 * describes the scheme.  Keys do not depend on the architecture or on
 * which counter a run used; the unit (ticks or cycles) is kept beside. */
#ifndef BB_TOOLS_METRICS_H
#define BB_TOOLS_METRICS_H

#include <stddef.h>

#include "analysis/reader.h"

struct bb_metric {
	char *key;             /* "stream.triad.c.bandwidth" */
	char *group;           /* the key with the variant as "*" (compare --variants) */
	const char *applet, *name, *variant;   /* point into the run */
	char *quantity;        /* "bandwidth", "latency", "time", "counter", ... */
	char *unit;            /* base unit of a value: "B/s", "s/load", "ticks" */
	char *disp_unit;       /* how people read it: "MB/s", "ns/load" */
	double disp_scale;     /* disp = value * disp_scale */
	int better;            /* enum bb_better */
	char *twin;            /* the same samples as this tested key, in another unit
				* (ticks beside seconds): shown without a verdict; NULL */
	char *chart;           /* report chart id ("" for none) */
	char *chart_title;
	char *category;        /* bar charts: the bar group */
	char *legend;          /* the series within a chart ("" for none) */
	const char *xlabel;    /* charts: what the x axis (or the bar groups) shows */
	double x;              /* line charts: the x value; NaN for bars */
	int logy;              /* charts: a log y axis reads best */
	int timeseries;        /* also drawn sample by sample over time */
	int part;              /* one part of a total also charted (a stream of several) */
	double *v;             /* one value per kept sample, base unit */
	size_t n;
	double run_fig;        /* the run's own figure (rr: the transactions per second
				* it printed), or NaN: the median of v stands for the run */
	const char *bad;       /* why the values cannot be compared, or NULL */
	const struct bb_rrun *run;
	const struct bb_rresult *result;
	const struct bb_rseries *series;
};

struct bb_metrics {
	struct bb_metric *m;
	size_t n, cap;
};

/* Appends a metric for every series of every result of run whose status
 * is "ok".  The metrics point into run, which must outlive them. */
void bb_metrics_add_run(struct bb_metrics *ms, const struct bb_rrun *run);
void bb_metrics_free(struct bb_metrics *ms);

/* After the metrics of one run (those from index `from` on): what each
 * applet derives from them (its host's derive: csum's Total of each
 * variant, as its classic table sums the time column). */
void bb_metrics_derive(struct bb_metrics *ms, size_t from);

/* Appends a copy of m (its strings now owned by ms); returns it. */
struct bb_metric *bb_metrics_append(struct bb_metrics *ms, const struct bb_metric *m);

/* Figures over a set of values of a metric: the median, the best (the
 * highest or lowest as the metric is better; the median when unknown), the
 * lowest and highest.  n must be at least 1. */
struct bb_figures {
	double median, best, min, max;
};
void bb_metric_figures(const double *v, size_t n, int better, struct bb_figures *f);

#endif
