/* compare.h - what `compare` found, shared by the part that decides
 * (compare.c) and the part that prints (compare_print.c). */
#ifndef BB_TOOLS_COMPARE_H
#define BB_TOOLS_COMPARE_H

#include <stddef.h>

#include "analysis/differ.h"
#include "analysis/abstats.h"
#include "analysis/interfere.h"
#include "analysis/metrics.h"
#include "analysis/multi.h"
#include "analysis/toolio.h"
#include "applets/compare/toolopts.h"

/* Runs (or boots) a side holding a key before it is tested on per-run
 * figures (per-boot figures). */
#define COMPARE_MIN_RUNS 3

/* One key on one side: the samples of every run pooled, and the figure of
 * each run (the median of its samples, or the figure the run printed:
 * bb_metric.run_fig) with the boot it came from. */
struct pool {
	const char *key;
	const struct bb_metric *m;   /* the first metric with this key */
	double *v;
	size_t n;
	const char *bad;             /* why it cannot be compared, or NULL */
	int unit_mixed;              /* the runs of this side disagree on the unit */
	size_t order;                /* where it first appears */
	double *fig;                 /* each run's figure */
	const char **boot;           /* each run's boot id, "" when not recorded */
	size_t runs;                 /* runs with samples of this key */
	size_t run_start;            /* where the samples of the last run begin */
	double fig_log, fig_n;       /* the run so far: sum of log run_fig, and how many */
	const struct bb_rrun *last;  /* the run of the last metric added */
};

/* What a row's figures and test stand on. */
enum basis {
	BASIS_SAMPLES,               /* pooled samples: medians, Mann-Whitney */
	BASIS_RUNS,                  /* a figure per run: geometric means, Welch */
	BASIS_BOOTS,                 /* a figure per boot (the geometric mean of its runs') */
};

struct pools {
	struct pool *p;
	size_t n;
};

struct row {
	const struct pool *a, *b;
	struct bb_figures fa, fb;    /* of the pooled samples (best, lowest, highest) */
	double xa, xb;               /* the figures compared: ab.ratio = xb / xa */
	size_t ua, ub;               /* units a side: samples, runs or boots (basis) */
	enum basis basis;
	struct bb_ab ab;             /* ratio B/A, interval, p (in ab.mwu.p) */
	const char *test;            /* "welch", "mwu-exact", "mwu-normal" */
	double sd;                   /* per run or boot: spread of the log figures */
	double detectable;           /* not claimed: the change these runs would find (NaN: unknown) */
	double threshold;            /* the noise threshold it was held to */
	double level;                /* the level a lone change in it must pass */
	int headline;                /* its applet's headline */
	int significant;             /* claimed by the suite-wide control */
	int per_run;                 /* tested on per-run (or per-boot) figures */
	int twin;                    /* the same samples as a tested row: no verdict */
	int evidence;                /* the machine's own state (calib): outside the claims */
	int shown;                   /* passes --filter and --only */
	enum bb_verdict v;
	const char *skip;            /* why not compared, or NULL */
};

struct cmp {
	const struct compare_opts *o;
	double spread_a, spread_b;   /* how far the CPU's speed moved on each side */
	double floor;                /* the noise threshold for pooled rows */
	size_t floored;              /* pooled rows held to floor, not the threshold */
	int mixed_basis;             /* some rows pooled, some per run or boot */
	struct row *rows;
	size_t n;
	struct bb_fam_applet apps[64];
	size_t napps;                /* applets under the suite-wide control */
	size_t only_a, only_b;
	const char *first_only_a, *first_only_b;
	const struct bb_load *load;  /* what else used the machine (compare_print sets it) */
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

/* The figure of a side of row r, the one its change is computed from. */
double compare_typical(const struct row *r, int side_b);

/* The figure of one key over a set of runs, as compare computes a side's
 * on its own: the geometric mean of the boot figures with 3 or more boots,
 * else of the run figures with 3 or more runs, else the median of the
 * pooled samples; NaN when no run holds the key. */
double compare_figure(const struct bb_runs *runs, const char *key);

/* The row is a member of the suite-wide family (tested, not a twin, not
 * the machine's evidence). */
int compare_in_family(const struct row *r);

/* The row is claimed as a change (improved, regressed or differs). */
int compare_claimed(const struct row *r);

/* The recorded fields in which A and B differ (analysis/differ.h) and
 * what else used the machine (interfere.h), those that may explain a
 * claimed change first; free d with bb_diffs_free. */
void compare_differences(const struct cmp *c, const struct bb_runs *A, const struct bb_runs *B,
			 struct bb_diffs *d);

/* How much faster B is (negative: slower), whatever the unit. */
double compare_speedup(const struct row *r);

/* What else used the machine on each side, with the CPU's own speed from
 * c's calib row; bb_load_free releases it. */
void compare_load(struct bb_load *l, const struct cmp *c, const struct bb_runs *A,
		  const struct bb_runs *B);

/* Why a claim in row r's applet is confounded, or NULL. */
const char *compare_confounder(const struct cmp *c, const struct row *r);

/* Prints everything about a comparison; returns the exit status. */
int compare_print(struct cmp *c, const struct bb_runs *A, const struct bb_runs *B);

#endif
