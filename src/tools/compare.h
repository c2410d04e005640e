/* compare.h - what `compare` found, shared by the part that decides
 * (compare.c) and the part that prints (compare_print.c). */
#ifndef BB_TOOLS_COMPARE_H
#define BB_TOOLS_COMPARE_H

#include <stddef.h>

#include "tools/abstats.h"
#include "tools/metrics.h"
#include "tools/multi.h"
#include "tools/toolio.h"
#include "tools/toolopts.h"

/* Runs a side (holding a key) before a key is tested on per-run medians. */
#define COMPARE_MIN_RUNS 3

/* One key on one side: the samples of every run pooled, and the median of
 * each run's samples. */
struct pool {
	const char *key;
	const struct bb_metric *m;   /* the first metric with this key */
	double *v;
	size_t n;
	const char *bad;             /* why it cannot be compared, or NULL */
	int unit_mixed;              /* the runs of this side disagree on the unit */
	size_t order;                /* where it first appears */
	double *med;                 /* the median of each run's samples */
	size_t runs;                 /* runs with samples of this key */
	size_t run_start;            /* where the samples of the last run begin */
	const struct bb_rrun *last;  /* the run of the last metric added */
};

struct pools {
	struct pool *p;
	size_t n;
};

struct row {
	const struct pool *a, *b;
	struct bb_figures fa, fb;
	struct bb_ab ab;             /* ratio B/A, interval, p (in ab.mwu.p) */
	const char *test;            /* "welch", "mwu-exact", "mwu-normal" */
	double sd;                   /* per-run: spread of the log run medians */
	double detectable;           /* not claimed: the change these runs would find (NaN: unknown) */
	double threshold;            /* the noise threshold it was held to */
	double level;                /* the level a lone change in it must pass */
	int headline;                /* its applet's headline */
	int significant;             /* claimed by the suite-wide control */
	int per_run;                 /* tested on per-run medians, not pooled samples */
	int shown;                   /* passes --filter and --only */
	enum bb_verdict v;
	const char *skip;            /* why not compared, or NULL */
};

struct cmp {
	const struct compare_opts *o;
	double spread_a, spread_b;   /* how far the CPU's speed moved on each side */
	double floor;                /* the noise threshold for pooled rows */
	size_t floored;              /* pooled rows held to floor, not the threshold */
	struct row *rows;
	size_t n;
	struct bb_fam_applet apps[64];
	size_t napps;                /* applets under the suite-wide control */
	size_t only_a, only_b;
	const char *first_only_a, *first_only_b;
};

/* A comparison decided and the storage its rows point into. */
struct cmp_built {
	struct cmp c;
	struct bb_metrics ma, mb;
	struct pools pa, pb;
};

/* Decides B against A as `compare` does (A is both sides with --variants);
 * compare_free releases it.  The runs must outlive it. */
void compare_build(struct cmp_built *cb, const struct compare_opts *o, const struct bb_runs *A,
		   const struct bb_runs *B);
void compare_free(struct cmp_built *cb);

/* One set of runs split by the value of label `key`, sorted by value;
 * the runs are shallow copies (free only each .runs.r and the array). */
struct compare_side {
	const char *value;
	struct bb_runs runs;
};
struct compare_side *compare_split_by(const struct bb_runs *all, const char *key, size_t *n,
				      size_t *unlabelled);

/* The typical value of a side of row r (the figure its summary quotes). */
double compare_typical(const struct row *r, int side_b);

/* The row is claimed as a change (improved, regressed or differs). */
int compare_claimed(const struct row *r);

/* The applets with a claimed change (second views aside), at most max,
 * into out; their count. */
size_t compare_claimed_applets(const struct cmp *c, const char **out, size_t max);

/* How much faster B is (negative: slower), whatever the unit. */
double compare_speedup(const struct row *r);

/* Prints everything about a comparison; returns the exit status. */
int compare_print(struct cmp *c, const struct bb_runs *A, const struct bb_runs *B);

#endif
