/* multi.c - the multiplicity control of `compare`: Bonferroni among the
 * applets, a headline-or-Simes gate within each, Benjamini-Hochberg
 * behind the gate (see multi.h for why it holds). */
#include "analysis/multi.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_p(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static int member(const struct bb_fam_item *it)
{
	return !it->outside && !it->twin && isfinite(it->p);
}

/* The largest p(k) with p(k) <= level k / m over sorted p, or -1. */
static double step_up(const double *p, size_t m, double level)
{
	for (size_t k = m; k > 0; k--)
		if (p[k - 1] <= level * (double)k / (double)m)
			return p[k - 1];
	return -1;
}

/* The gate and cutoff of one applet; `a` is already set. */
static void decide_applet(struct bb_fam_item *it, size_t n, struct bb_fam_applet *ap)
{
	double *p = bb_xmalloc((n ? n : 1) * sizeof *p), head = NAN, simes;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (it[i].outside || strcmp(it[i].applet, ap->applet) != 0)
			continue;
		if (member(&it[i]))
			p[m++] = it[i].p;
		if (it[i].headline && isfinite(it[i].p))
			head = it[i].p;
	}
	qsort(p, m, sizeof *p, cmp_p);
	ap->members = m;
	simes = isfinite(head) ? ap->a / 2 : ap->a;
	ap->gate = isfinite(head) && head <= ap->a / 2 ? 1 : m && step_up(p, m, simes) >= 0 ? 2 : 0;
	ap->cutoff = ap->gate && m ? step_up(p, m, ap->a) : -1;
	for (size_t i = 0; i < n; i++) {
		struct bb_fam_item *x = &it[i];
		if (x->outside || strcmp(x->applet, ap->applet) != 0)
			continue;
		x->level = x->headline ? ap->a / 2 : m ? simes / (double)m : ap->a;
		x->significant = !x->twin && ap->gate && isfinite(x->p) &&
				 ((ap->cutoff >= 0 && x->p <= ap->cutoff) ||
				  (x->headline && ap->gate == 1));
	}
	free(p);
}

/* Appends each applet with a member once, in order of first appearance. */
static size_t list_applets(const struct bb_fam_item *it, size_t n, const char ***out)
{
	const char **names = bb_xcalloc(n ? n : 1, sizeof *names);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;
		if (!member(&it[i]))
			continue;
		for (j = 0; j < k && strcmp(names[j], it[i].applet) != 0; j++)
			;
		if (j == k)
			names[k++] = it[i].applet;
	}
	*out = names;
	return k;
}

size_t bb_fam_decide(struct bb_fam_item *it, size_t n, double alpha,
		     struct bb_fam_applet *apps, size_t max)
{
	const char **names;
	size_t k = list_applets(it, n, &names);

	for (size_t i = 0; i < n; i++) {
		it[i].significant = it[i].outside && isfinite(it[i].p) && it[i].p < alpha;
		it[i].level = alpha;   /* rows of an applet with no member keep alpha, unclaimed */
	}
	for (size_t j = 0; j < k; j++) {
		struct bb_fam_applet ap = { .applet = names[j], .a = alpha / (double)k };
		decide_applet(it, n, &ap);
		if (apps && j < max)
			apps[j] = ap;
	}
	free(names);
	return k;
}
