/* bench/history_sim.c - the change points of `boardbench history` over
 * synthetic labs (docs/benchmarks/history.md, "Synthetic histories").
 * A lab is S series of N runs, each run K samples: a run's level is
 * lognormal with the run-to-run spread -b, its samples lognormal around it
 * with the within-run spread -w (bench/history_spread.py measures both on
 * a real history), a share -c of its variance common to every series of
 * the lab (the metrics of one board share each run's noise: a lab here is
 * one board).  The series are, in equal shares: flat; a step of 2%,
 * 5% and 10% at a uniform place at least -m runs from either end; a drift
 * of -d over the whole series; a flat series with one run 25% off.  Each
 * lab is analysed as `history changes` does (src/analysis/changepoint.c:
 * E-Divisive, Welch on the split, Benjamini-Yekutieli at -q over every test
 * of the lab, confirmation on the samples of 8 runs a side); every run is
 * its own unit.  A point within 3 runs of a step is that step found (the
 * first; any other is false); every point on a flat or outlier series is
 * false; points on drifts are counted apart.  Prints, per kind: series,
 * recall, mean and largest position error, and false points per 1,000
 * runs.
 *   make history-sim HIST_SIM_ARGS="-b 0.053 -c 0.5 -w 0.025 -n 60 -L 50" */
#include "../src/analysis/changepoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_suite.h"

#define MAX_RUNS 400
#define MAX_SAMPLES 64
#define HIT_RUNS 3

enum kind { FLAT, STEP2, STEP5, STEP10, DRIFT, OUTLIER, NKINDS };
static const char *const kind_name[NKINDS] = {
	"flat", "step 2%", "step 5%", "step 10%", "drift", "one outlier",
};
static const double step_of[NKINDS] = { 1, 1.02, 1.05, 1.10, 1, 1 };

struct cfg {
	double between, within, drift, q, common;
	size_t runs, samples, series, labs, min_seg;
	unsigned long seed;
};

struct tally {
	size_t series, steps, hits, falses, drift_points, runs;
	double pos_err, pos_max;
};

struct series {
	enum kind kind;
	size_t at;                       /* the step's first run */
	double level[MAX_RUNS];
	double sample[MAX_RUNS][MAX_SAMPLES];
};

static double common_noise[MAX_RUNS];   /* this lab's shared part of each run's level */

static void make_series(struct series *s, enum kind k, const struct cfg *c)
{
	size_t span = c->runs - 2 * c->min_seg + 1;

	s->kind = k;
	s->at = c->min_seg + (size_t)(sim_uniform() * (double)span);
	size_t odd = (size_t)(sim_uniform() * (double)c->runs);
	for (size_t i = 0; i < c->runs; i++) {
		double f = i >= s->at ? step_of[k] : 1;
		if (k == DRIFT)
			f = 1 + c->drift * (double)i / (double)(c->runs - 1);
		if (k == OUTLIER && i == odd)
			f = 0.75;
		double lvl = f * exp(c->between * (sqrt(c->common) * common_noise[i] +
						   sqrt(1 - c->common) * sim_gauss()));
		double med[MAX_SAMPLES];
		for (size_t j = 0; j < c->samples; j++)
			med[j] = s->sample[i][j] = lvl * exp(c->within * sim_gauss());
		/* the run's median, as the history stores it */
		for (size_t a = 1; a < c->samples; a++)
			for (size_t b = a; b > 0 && med[b - 1] > med[b]; b--) {
				double t = med[b];
				med[b] = med[b - 1];
				med[b - 1] = t;
			}
		size_t n = c->samples;
		s->level[i] = n % 2 ? med[n / 2] : (med[n / 2 - 1] + med[n / 2]) / 2;
	}
}

/* The samples of runs [lo, hi). */
static size_t gather(const struct series *s, const struct cfg *c, size_t lo, size_t hi, double *out)
{
	size_t n = 0;

	for (size_t i = lo; i < hi; i++)
		for (size_t j = 0; j < c->samples; j++)
			out[n++] = s->sample[i][j];
	return n;
}

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return (a > b) - (a < b);
}

/* The confirmed points of one series (its accepted candidates sorted). */
static size_t confirmed(const struct series *s, const struct cfg *c, size_t *at, size_t n,
			size_t *out)
{
	static double before[MAX_RUNS * MAX_SAMPLES], after[MAX_RUNS * MAX_SAMPLES];
	size_t got = 0;

	qsort(at, n, sizeof *at, cmp_size);
	for (size_t k = 0; k < n; k++) {
		size_t lo, hi;
		struct bb_ab ab;
		bb_cp_sides(at, n, k, c->runs, 0, &lo, &hi);
		double ratio = bb_geomean(s->level, at[k], hi) / bb_geomean(s->level, lo, at[k]);
		bb_cp_sides(at, n, k, c->runs, BB_CP_CONFIRM_UNITS, &lo, &hi);
		size_t nb = gather(s, c, lo, at[k], before), na = gather(s, c, at[k], hi, after);
		if (bb_cp_confirm(before, nb, after, na, ratio, 0.05, &ab) == 1)
			out[got++] = at[k];
	}
	return got;
}

static void score(const struct series *s, const size_t *pts, size_t n, const struct cfg *c,
		  struct tally *t)
{
	int hit = 0;

	t[s->kind].series++;
	t[s->kind].runs += c->runs;
	if (s->kind == DRIFT) {
		t[DRIFT].drift_points += n;
		return;
	}
	if (step_of[s->kind] != 1)
		t[s->kind].steps++;
	for (size_t i = 0; i < n; i++) {
		double err = fabs((double)pts[i] - (double)s->at);
		if (step_of[s->kind] != 1 && !hit && err <= HIT_RUNS) {
			hit = 1;
			t[s->kind].hits++;
			t[s->kind].pos_err += err;
			t[s->kind].pos_max = fmax(t[s->kind].pos_max, err);
		} else {
			t[s->kind].falses++;
		}
	}
}

static void lab(const struct cfg *c, struct series *ss, struct tally *t)
{
	struct bb_cp *all = malloc(c->series * c->runs * sizeof *all);
	size_t *owner = malloc(c->series * c->runs * sizeof *owner), n = 0, m = 0, tests;
	size_t at[MAX_RUNS], pts[MAX_RUNS];

	for (size_t i = 0; i < c->runs; i++)
		common_noise[i] = sim_gauss();
	for (size_t i = 0; i < c->series; i++) {
		make_series(&ss[i], (enum kind)(i % NKINDS), c);
		size_t got = bb_cp_find(ss[i].level, c->runs, c->min_seg, c->q, all + n, c->runs, &tests);
		for (size_t k = 0; k < got; k++) {
			if (all[n + k].parent >= 0)
				all[n + k].parent += (long)n;
			owner[n + k] = i;
		}
		n += got;
		m += tests;
	}
	bb_cp_control(all, n, m, c->q);
	for (size_t i = 0; i < c->series; i++) {
		size_t na = 0;
		for (size_t k = 0; k < n; k++)
			if (owner[k] == i && all[k].accepted)
				at[na++] = all[k].at;
		score(&ss[i], pts, confirmed(&ss[i], c, at, na, pts), c, t);
	}
	free(all);
	free(owner);
}

static void report(const struct cfg *c, const struct tally *t)
{
	size_t false_all = 0, runs_all = 0;

	printf("# between-run spread %.4f (%.0f%% of its variance common), within-run %.4f, %zu runs "
	       "x %zu samples, %zu series a lab, %zu labs, min segment %zu, FDR %.3g, drift %.3g, "
	       "seed %lu\n", c->between, 100 * c->common, c->within, c->runs, c->samples, c->series,
	       c->labs, c->min_seg, c->q, c->drift, c->seed);
	printf("%-12s %7s %7s %9s %8s %12s\n", "kind", "series", "recall", "pos.err", "pos.max",
	       "false/1000r");
	for (int k = 0; k < NKINDS; k++) {
		const struct tally *x = &t[k];
		if (k == DRIFT) {
			printf("%-12s %7zu %7s %9s %8s %12s  (%.2f points a series)\n", kind_name[k],
			       x->series, "-", "-", "-", "-", (double)x->drift_points / (double)x->series);
			continue;
		}
		false_all += x->falses;
		runs_all += x->runs;
		if (x->steps)
			printf("%-12s %7zu %7.3f %9.2f %8.0f %12.2f\n", kind_name[k], x->series,
			       (double)x->hits / (double)x->steps,
			       x->hits ? x->pos_err / (double)x->hits : NAN, x->pos_max,
			       1000.0 * (double)x->falses / (double)x->runs);
		else
			printf("%-12s %7zu %7s %9s %8s %12.2f\n", kind_name[k], x->series, "-", "-", "-",
			       1000.0 * (double)x->falses / (double)x->runs);
	}
	printf("%-12s %7s %7s %9s %8s %12.2f\n", "all but drift", "", "", "", "",
	       1000.0 * (double)false_all / (double)runs_all);
}

static void usage(void)
{
	fprintf(stderr, "usage: history_sim [-b SPREAD] [-c COMMON] [-w SPREAD] [-n RUNS] [-k SAMPLES] "
			"[-S SERIES] [-L LABS] [-m MINSEG] [-q FDR] [-d DRIFT] [-x SEED]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct cfg c = { 0.02, 0.01, 0.05, 0.05, 0, 60, 10, 60, 20, BB_CP_MIN_SEG, 1 };
	struct tally t[NKINDS];
	int opt;

	while ((opt = getopt(argc, argv, "b:c:w:n:k:S:L:m:q:d:x:")) != -1) {
		switch (opt) {
		case 'b': c.between = atof(optarg); break;
		case 'c': c.common = atof(optarg); break;
		case 'w': c.within = atof(optarg); break;
		case 'n': c.runs = (size_t)atol(optarg); break;
		case 'k': c.samples = (size_t)atol(optarg); break;
		case 'S': c.series = (size_t)atol(optarg); break;
		case 'L': c.labs = (size_t)atol(optarg); break;
		case 'm': c.min_seg = (size_t)atol(optarg); break;
		case 'q': c.q = atof(optarg); break;
		case 'd': c.drift = atof(optarg); break;
		case 'x': c.seed = strtoul(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (c.runs < 2 * c.min_seg || c.runs > MAX_RUNS || !c.samples || c.samples > MAX_SAMPLES ||
	    c.min_seg < 2 || !c.series || !c.labs || c.common < 0 || c.common > 1)
		usage();
	struct series *ss = malloc(c.series * sizeof *ss);
	if (!ss)
		return 1;
	memset(t, 0, sizeof t);
	sim_seed(c.seed);
	for (size_t l = 0; l < c.labs; l++)
		lab(&c, ss, t);
	report(&c, t);
	free(ss);
	return 0;
}
