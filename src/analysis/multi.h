/* multi.h - how `compare` keeps a whole suite of metrics from claiming
 * changes that are not there (the multiplicity control).
 *
 * The suite's error rate alpha is split evenly among the applets compared
 * (Bonferroni): each gets a = alpha / A.  Within an applet:
 *   1. the gate: the applet shows a change when its headline metric (the
 *      number its classic report quotes: Triad, ttcp's throughput, ...)
 *      has p <= a/2, or when Simes' test over all its metrics passes at
 *      a/2 (some k-th smallest p <= (a/2) k / m);
 *   2. only then are its metrics sorted with Benjamini-Hochberg at a: the
 *      metrics whose p is at most the largest p(k) <= a k / m are claimed,
 *      and the headline too when it opened the gate.
 * When nothing changed anywhere (an A/A comparison) a claim needs some
 * gate to open, which happens with probability at most a/2 + a/2 per
 * applet (Simes holds for independent and positively dependent p-values),
 * so at most alpha over the suite.  Inside an applet that did change, the
 * expected share of false claims is at most a (Benjamini-Hochberg).
 * Every tested metric is a member, whatever it measures (rr's rate and its
 * latency percentiles, ttcp's per-stream rows alike).  A twin (the same
 * samples as a member in another unit: ticks beside seconds) is not: it is
 * never claimed.  Rows outside the control (calib, the CPU-speed probe:
 * the machine's evidence, not a claim about B) are tested at plain alpha
 * for compare's warning. */
#ifndef BB_TOOLS_MULTI_H
#define BB_TOOLS_MULTI_H

#include <stddef.h>

struct bb_fam_item {
	const char *applet;
	double p;              /* NaN: no p-value (too few samples, not compared) */
	int headline;          /* the applet's headline row */
	int twin;              /* the same samples as another row: never claimed */
	int outside;           /* not under the control: tested at plain alpha */
	/* out */
	int significant;       /* claimed as a change (before the size rules) */
	double level;          /* the level a lone change in this row must pass */
};

struct bb_fam_applet {
	const char *applet;
	size_t members;        /* rows in the family (not twins, with a p) */
	double a;              /* this applet's share of alpha */
	int gate;              /* 0 closed, 1 by its headline, 2 by Simes */
	double cutoff;         /* BH: p at or below this is claimed (-1: none; 0 when
				* the p claimed are 0, constant sides that differ) */
};

/* Decides `significant` and `level` for every item, whatever the order.
 * Returns the number of applets under the control; fills at most `max`
 * entries of `apps` (may be NULL). */
size_t bb_fam_decide(struct bb_fam_item *it, size_t n, double alpha,
		     struct bb_fam_applet *apps, size_t max);

#endif
