/* history.h - what the parts of the `history` applet share: its options,
 * the database opened at its schema, the series read back, the lab-wide
 * analysis and the causes beside a change (docs/history.md). */
#ifndef BB_HISTORY_H
#define BB_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/causes.h"
#include "analysis/changepoint.h"
#include "applets/history/db.h"

struct hist_opts {
	const char *verb;
	const char *db;
	int json;
	const char *metric;      /* show, bisect-script */
	const char *board;       /* --board */
	const char *label;       /* --label K=V: only runs with it */
	const char *since;       /* changes --since: a UTC time prefix */
	const char *out;         /* report -o, bisect-script -o */
	size_t min_seg;          /* --min-segment */
	double q;                /* --fdr */
	double alpha;            /* the confirmation's level */
	int runs;                /* bisect-script --runs */
	const char *only;        /* bisect-script --only: the suite's applets */
	char **paths;            /* add: files and directories */
	int npaths;
};

/* Parse or exit (0 after --help, 2 after one line for a bad option). */
void hist_parse(int argc, char **argv, struct hist_opts *o);

/* The applet's main: history.c, or absent.c in a build without SQLite. */
int history_main(int argc, char **argv);

/* Opens o->db and brings its schema up to date; exits 2 or 1 with one
 * line when it cannot. */
struct hdb *hist_open(const struct hist_opts *o, enum hdb_mode mode);

/* history add: returns the exit status. */
int hist_add(struct hdb *db, const struct hist_opts *o);

/* ---- the runs and series read back (series.c) ---- */

struct hist_run {
	long long id;
	long long board;          /* index into hist_lab.boards */
	char *started, *boot;
	double uptime;
	size_t order;             /* position of the run on its board */
	int keep;                 /* passes --label */
};

struct hist_point {            /* one unit of a series: a boot, or a run */
	size_t first, n;          /* runs: hist_series.runs[first .. first + n) */
	double value;             /* geometric mean of the runs' medians */
};

struct hist_cp {
	struct bb_cp cp;          /* at: first unit after; p, ratio from the split */
	size_t series;            /* index into hist_lab.series */
	double ratio, lo, hi;     /* Hodges-Lehmann after/before on the samples */
	double mw_p;
	int confirmed;
	char scope[64];           /* "code", "this board", "2 of 3 boards", ... */
};

struct hist_series {
	long long metric;         /* index into hist_lab.metrics */
	long long board;
	size_t *runs;             /* indices into hist_lab.runs, in time order */
	double *median;           /* one per run */
	size_t nruns;
	struct hist_point *pt;
	size_t npt;
	size_t tests;             /* change-point tests made on it */
	size_t first_cp, ncp;     /* its accepted points in hist_lab.cps */
	int by_boot;              /* its units are boots, not runs */
};

struct hist_metric {
	long long id;
	char *key, *applet, *unit, *disp_unit;
	double disp_scale;
	int better, aux;
};

/* The runs rebuilt from their facts, read once (hcauses.c): run[i] is
 * lab->runs[i]'s when have[i]. */
struct hist_facts {
	struct bb_rrun *run;
	char *have;
};

struct hist_lab {
	char **boards;
	long long *board_ids;
	size_t nboards;
	struct hist_metric *metrics;
	size_t nmetrics;
	struct hist_run *runs;
	size_t nruns;
	struct hist_series *series;
	size_t nseries;
	struct hist_cp *cps;      /* accepted points, series by series, in time order */
	size_t ncps;
	size_t tests;             /* every test made over the lab */
	size_t all_series;        /* the series of the lab (not only those read) */
	double cutoff;            /* the Benjamini-Yekutieli cutoff */
	size_t min_seg;           /* units a side of a split (boots are units only if 2 x that) */
	struct hist_facts *facts;
};

/* Reads every run, metric and series (only metric_key's when not NULL,
 * only board's when not NULL) and finds the change points over the whole
 * lab (the lab-wide control always counts every series' tests: the
 * analysis is kept in the database and redone only when runs were added
 * or the options differ). */
void hist_lab_load(struct hdb *db, const struct hist_opts *o, struct hist_lab *lab);

/* The same with every series read. */
void hist_lab_load_all(struct hdb *db, const struct hist_opts *o, struct hist_lab *lab);

/* Only the boards, metrics and runs. */
void hist_lab_basics(struct hdb *db, struct hist_lab *lab);
void hist_lab_free(struct hist_lab *lab);

/* The series of metric key on board name, or NULL. */
struct hist_series *hist_find_series(struct hist_lab *lab, const char *key, const char *board);

/* Every kept sample of the runs of units [lo, hi) of a series. */
double *hist_unit_samples(struct hdb *db, const struct hist_lab *lab,
			  const struct hist_series *s, size_t lo, size_t hi, size_t *n);

/* The display value of a series value (MB/s, ns ...). */
double hist_disp(const struct hist_lab *lab, const struct hist_series *s, double v);

/* ---- causes (hcauses.c) ---- */

/* What differs between the runs of the units next to point k of the lab
 * (at most HIST_CAUSE_UNITS a side, within its segments).  When no fact
 * changed right there but one did a unit before or after, those are the
 * causes and the shift (-1 or 1) is returned, else 0. */
#define HIST_CAUSE_UNITS 5
int hist_causes(struct hdb *db, const struct hist_lab *lab, size_t k, struct bb_causes *out);

/* ---- the verbs (verbs.c, report.c, bisect.c) ---- */
int hist_list(struct hdb *db, const struct hist_opts *o);
int hist_show(struct hdb *db, const struct hist_opts *o);
int hist_changes(struct hdb *db, const struct hist_opts *o);
int hist_report(struct hdb *db, const struct hist_opts *o);
int hist_bisect(struct hdb *db, const struct hist_opts *o);

#endif
