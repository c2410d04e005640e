/* headline.c - the figures and LAVA lines of headline.h. */
#include "core/headline.h"
#include "core/error.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAVA test case names and units: [A-Za-z0-9._/-], anything else '_', so
 * that the line is safe for the shell and for LAVA alike. */
static void put_safe(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(strchr("._-/", *s) || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
			      (*s >= 'A' && *s <= 'Z') ? *s : '_', f);
}

void bb_lava_fail(FILE *f, const char *name)
{
	fputs("lava-test-case ", f);
	put_safe(f, name);
	fputs(" --result fail\n", f);
}

void bb_lava_pass(FILE *f, const char *name, double v, const char *units)
{
	if (!isfinite(v) || v < 0) {
		bb_lava_fail(f, name);
		return;
	}
	fputs("lava-test-case ", f);
	put_safe(f, name);
	fprintf(f, " --result pass --measurement %.3f --units ", v);
	put_safe(f, units);
	fputc('\n', f);
}

double bb_kept_median(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);

	return bb_median(x, n);
}

/* A rate per sample, as compare takes it, not work over the median time. */
double bb_kept_median_rate(const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	double *r = bb_xcalloc(n ? n : 1, sizeof *r), m;

	for (size_t i = 0; i < n; i++)
		r[i] = s->work / x[i];
	m = bb_median(r, n);
	free(r);
	return m;
}

const struct bb_series *bb_series_of(const struct bb_result *r, const char *name,
				     const char *variant)
{
	const struct bb_series *s = bb_result_find(r, name, variant);

	return s ? s : bb_result_find(r, name, NULL);
}
