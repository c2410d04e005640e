/* bench/sim_suite.h - synthetic suites for `compare`'s statistics: run
 * medians of many metrics in several applets, drawn with a given
 * run-to-run spread, optionally one applet shifted, then tested as compare
 * tests them (Welch's t on logs, the suite-wide control of multi.h, the
 * size rule with a noise threshold), runs grouped in boots that each move
 * the applet by a boot effect of their own when asked, tested on every run
 * (boots ignored) or on the boots' figures (boots as units).  Shared by the unit test
 * tests/unit/test_multi.c (a few hundred suites, asserted) and the
 * benchmark bench/compare_sim.c (thousands, reported); header-only so
 * that neither is part of the binary. */
#ifndef BB_BENCH_SIM_SUITE_H
#define BB_BENCH_SIM_SUITE_H

#include "analysis/abstats.h"
#include "analysis/multi.h"
#include "analysis/power.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIM_MAX_APPLETS 8
#define SIM_MAX_RUNS 64

struct sim_cfg {
	size_t applets;
	size_t metrics[SIM_MAX_APPLETS];  /* metrics per applet; the first is its headline */
	size_t runs;                      /* runs a side */
	double cv;                        /* run-to-run spread of a run median */
	double rho;                       /* share of the spread common to an applet's metrics */
	int shifted;                      /* applet B is shifted in, or -1 */
	double shift;                     /* B/A of every metric of that applet */
	double alpha, threshold;
	size_t boots;                     /* boots a side, `runs` runs each (0: as 1) */
	double boot_cv;                   /* spread of a boot's own effect (0: none) */
	int by_boot;                      /* test boot figures, not every run */
};

struct sim_out {
	size_t claims;                    /* rows claimed (improved, regressed) */
	size_t wrong;                     /* rows claimed outside the shifted applet, or the wrong way */
	int found;                        /* the shifted applet has a claim in the right direction */
};

static uint64_t sim_state = 0x9e3779b97f4a7c15ULL;

static void sim_seed(uint64_t s)
{
	sim_state = s ? s : 1;
}

static double sim_uniform(void)
{
	sim_state ^= sim_state >> 12;
	sim_state ^= sim_state << 25;
	sim_state ^= sim_state >> 27;
	return ((double)((sim_state * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) / 9007199254740992.0;
}

static double sim_gauss(void)
{
	return sqrt(-2 * log(sim_uniform())) * cos(2 * M_PI * sim_uniform());
}

/* One side's run medians of one applet: m metrics x runs, row-major. */
static void sim_side(double *v, size_t m, size_t runs, double sd, double rho, double factor)
{
	double common[SIM_MAX_RUNS];

	for (size_t j = 0; j < runs; j++)
		common[j] = sim_gauss();
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < runs; j++)
			v[i * runs + j] = factor * exp(sd * (sqrt(rho) * common[j] +
						       sqrt(1 - rho) * sim_gauss()));
}

/* The same with boots: `boots` groups of `per` runs, each group moved by a
 * boot effect of spread bsd (shared by the applet's metrics as the run
 * noise is, by rho); m metrics x (boots * per), row-major. */
static void sim_side_boots(double *v, size_t m, size_t boots, size_t per, double sd, double bsd,
			   double rho, double factor)
{
	size_t n = boots * per;
	double common[SIM_MAX_RUNS];

	sim_side(v, m, n, sd, rho, factor);
	for (size_t g = 0; g < boots; g++)
		common[g] = sim_gauss();
	for (size_t i = 0; i < m; i++)
		for (size_t g = 0; g < boots; g++) {
			double e = exp(bsd * (sqrt(rho) * common[g] + sqrt(1 - rho) * sim_gauss()));
			for (size_t j = 0; j < per; j++)
				v[i * n + g * per + j] *= e;
		}
}

/* A metric's boot figures: the geometric mean of each boot's runs. */
static void sim_boot_figures(const double *v, size_t boots, size_t per, double *out)
{
	for (size_t g = 0; g < boots; g++) {
		double s = 0;
		for (size_t j = 0; j < per; j++)
			s += log(v[g * per + j]);
		out[g] = exp(s / (double)per);
	}
}

/* Welch on one metric's values as the configuration tests them. */
static void sim_test(const struct sim_cfg *c, const double *a, const double *b, size_t n,
		     struct bb_welch *w)
{
	size_t boots = c->boots ? c->boots : 1;
	double fa[SIM_MAX_RUNS], fb[SIM_MAX_RUNS];

	if (!c->by_boot || boots < 2) {
		bb_welch_log(a, n, b, n, c->alpha, w);
		return;
	}
	sim_boot_figures(a, boots, n / boots, fa);
	sim_boot_figures(b, boots, n / boots, fb);
	bb_welch_log(fa, boots, fb, boots, c->alpha, w);
}

/* One comparison of a whole synthetic suite. */
static inline void sim_suite(const struct sim_cfg *c, struct sim_out *out)
{
	size_t total = 0, k = 0, boots = c->boots ? c->boots : 1, runs = c->runs * boots;
	double sd = log1p(c->cv), bsd = log1p(c->boot_cv);

	for (size_t a = 0; a < c->applets; a++)
		total += c->metrics[a];
	double *va = malloc(total * runs * sizeof *va), *vb = malloc(total * runs * sizeof *vb);
	struct bb_fam_item *it = calloc(total, sizeof *it);
	struct bb_ab *ab = calloc(total, sizeof *ab);
	static const char *const names[SIM_MAX_APPLETS] = { "a0", "a1", "a2", "a3",
							    "a4", "a5", "a6", "a7" };

	for (size_t a = 0; a < c->applets; a++) {
		size_t m = c->metrics[a];
		sim_side_boots(va + k * runs, m, boots, c->runs, sd, bsd, c->rho, 1);
		sim_side_boots(vb + k * runs, m, boots, c->runs, sd, bsd, c->rho,
			       (int)a == c->shifted ? c->shift : 1);
		for (size_t i = 0; i < m; i++, k++) {
			struct bb_welch w;
			sim_test(c, va + k * runs, vb + k * runs, runs, &w);
			ab[k] = (struct bb_ab){ .ratio = w.ratio, .lo = w.lo, .hi = w.hi, .have_p = 1 };
			it[k] = (struct bb_fam_item){ .applet = names[a], .p = w.p, .headline = i == 0 };
		}
	}
	bb_fam_decide(it, total, c->alpha, NULL, 0);
	memset(out, 0, sizeof *out);
	k = 0;
	for (size_t a = 0; a < c->applets; a++)
		for (size_t i = 0; i < c->metrics[a]; i++, k++) {
			enum bb_verdict v;
			if (!it[k].significant)
				continue;
			v = bb_size_verdict(&ab[k], BB_BETTER_HIGHER, c->threshold);
			if (v != BB_V_IMPROVED && v != BB_V_REGRESSED)
				continue;
			out->claims++;
			int right = (int)a == c->shifted && (v == BB_V_IMPROVED) == (c->shift > 1);
			out->found |= right;
			out->wrong += !right;
		}
	free(va);
	free(vb);
	free(it);
	free(ab);
}

#endif
