/* bench/compare_sim.c - what `compare` claims over synthetic whole suites
 * (bench/sim_suite.h): the share of A/A comparisons that claim anything,
 * and the share of comparisons that find a shift of one applet, per
 * applet.  The suite has 150 metrics in 5 applets shaped like the quick
 * suite's (stream 4, lat 70, csum 30, mem 42, ttcp 4; the first metric of
 * each is its headline).  Built and run by `make sim`; see
 * docs/benchmarks/compare.md.
 *
 *   compare_sim [-n SUITES] [-r RUNS] [-c CV] [-p RHO] [-s SHIFT] [-b]
 *
 *   -n SUITES  comparisons per figure (default 1000)
 *   -r RUNS    runs a side (default 5)
 *   -c CV      run-to-run spread of a run median, a fraction (default 0.02)
 *   -p RHO     share of that spread common to an applet's metrics (default 0.5)
 *   -s SHIFT   the shift of one applet, a fraction (default 0.05)
 *   -b         the boots table instead: runs grouped in boots, each boot
 *              moving the applet by an effect of its own whose spread is a
 *              multiple of the run-to-run spread; the A/A false-claim rate
 *              and the share finding stream's SHIFT, with the boots ignored
 *              (every run a unit) and with the boots as the units */
#include "sim_suite.h"

#include <stdio.h>
#include <unistd.h>

static const char *const applet_names[] = { "stream", "lat", "csum", "mem", "ttcp" };

static double arg_num(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "compare_sim: %s: expected a number from %g to %g, got '%s'\n", opt,
			lo, hi, s);
		exit(2);
	}
	return v;
}

/* Runs n suites of cfg; returns the share with any claim, and the share
 * in which the shifted applet was found. */
static void run_many(struct sim_cfg *cfg, size_t n, double *any, double *found, double *wrong)
{
	size_t a = 0, f = 0, w = 0;

	for (size_t i = 0; i < n; i++) {
		struct sim_out o;
		sim_suite(cfg, &o);
		a += o.claims > 0;
		f += o.found;
		w += o.wrong > 0;
	}
	*any = (double)a / (double)n;
	*found = (double)f / (double)n;
	*wrong = (double)w / (double)n;
}

/* The boots table: designs (boots x runs a side) against the spread of
 * a boot's own effect as a multiple of the run-to-run spread. */
static void boots_table(struct sim_cfg base, size_t n)
{
	static const double ratios[] = { 0.01, 0.03, 0.1, 0.3, 1, 3, 10 };
	static const size_t designs[][2] = { { 1, 5 }, { 3, 5 }, { 5, 3 } };
	double shift = base.shift;

	printf("suites of 150 metrics in 5 applets, run-to-run CV %.1f%%, rho %.2f, alpha %.2f, "
	       "threshold %.0f%%; %zu comparisons per cell; A/A: share of comparisons claiming "
	       "anything; found: share finding stream %+.0f%%\n\n", 100 * base.cv, base.rho,
	       base.alpha, 100 * base.threshold, n, 100 * (shift - 1));
	printf("| boot spread / run spread | design | boots ignored: A/A | found | boots as units: "
	       "A/A | found |\n|---|---|---|---|---|---|\n");
	for (size_t r = 0; r < sizeof ratios / sizeof ratios[0]; r++)
		for (size_t d = 0; d < sizeof designs / sizeof designs[0]; d++) {
			struct sim_cfg c = base;
			double any[2], found[2], wrong;
			c.boots = designs[d][0];
			c.runs = designs[d][1];
			c.boot_cv = ratios[r] * base.cv;
			for (int u = 0; u < 2; u++) {
				c.by_boot = u;
				c.shifted = -1;
				run_many(&c, n, &any[u], &found[u], &wrong);
				c.shifted = 0;
				c.shift = shift;
				run_many(&c, n, &wrong, &found[u], &wrong);
			}
			printf("| %g | %zu boot%s x %zu runs | %.1f%% | %.1f%% | ", ratios[r],
			       designs[d][0], designs[d][0] == 1 ? "" : "s", designs[d][1],
			       100 * any[0], 100 * found[0]);
			if (designs[d][0] < 3)
				printf("- (fewer than 3 boots) | - |\n");
			else
				printf("%.1f%% | %.1f%% |\n", 100 * any[1], 100 * found[1]);
		}
}

int main(int argc, char **argv)
{
	struct sim_cfg cfg = { .applets = 5, .metrics = { 4, 70, 30, 42, 4 }, .runs = 5,
			       .cv = 0.02, .rho = 0.5, .shifted = -1, .shift = 1.05,
			       .alpha = 0.05, .threshold = 0.02 };
	size_t n = 1000;
	double any, found, wrong;
	int opt, boots = 0;

	while ((opt = getopt(argc, argv, "n:r:c:p:s:b")) != -1) {
		switch (opt) {
		case 'n': n = (size_t)arg_num("-n", optarg, 10, 1e6); break;
		case 'r': cfg.runs = (size_t)arg_num("-r", optarg, 2, SIM_MAX_RUNS); break;
		case 'c': cfg.cv = arg_num("-c", optarg, 0, 1); break;
		case 'p': cfg.rho = arg_num("-p", optarg, 0, 1); break;
		case 's': cfg.shift = 1 + arg_num("-s", optarg, -0.9, 10); break;
		case 'b': boots = 1; break;
		default:
			fprintf(stderr, "usage: compare_sim [-n SUITES] [-r RUNS] [-c CV] [-p RHO] "
					"[-s SHIFT] [-b]\n");
			return 2;
		}
	}
	sim_seed(20261130);
	if (boots) {
		boots_table(cfg, n);
		return 0;
	}
	run_many(&cfg, n, &any, &found, &wrong);
	printf("suites of 150 metrics in 5 applets, %zu runs a side, run-to-run CV %.1f%%, "
	       "rho %.2f, alpha %.2f, threshold %.0f%%; %zu comparisons per row\n\n", cfg.runs,
	       100 * cfg.cv, cfg.rho, cfg.alpha, 100 * cfg.threshold, n);
	printf("| B | comparisons claiming anything | finding the shift | claiming something else |\n");
	printf("|---|---|---|---|\n");
	printf("| same as A (A/A) | %.1f%% | - | - |\n", 100 * any);
	for (int a = 0; a < (int)cfg.applets; a++) {
		cfg.shifted = a;
		run_many(&cfg, n, &any, &found, &wrong);
		printf("| %s (%zu metrics) %+.0f%% | %.1f%% | %.1f%% | %.1f%% |\n", applet_names[a],
		       cfg.metrics[a], 100 * (cfg.shift - 1), 100 * any, 100 * found, 100 * wrong);
	}
	return 0;
}
