/* headline.h - what the applets' headlines (core/applet.h, struct
 * bb_headline) share for run --lava: the figure of one result as compare
 * takes it for one run (the median of a series' kept samples, or of the
 * rate each sample gives), and the LAVA test-case line that carries it. */
#ifndef BB_CORE_HEADLINE_H
#define BB_CORE_HEADLINE_H

#include "core/results.h"

#include <stdio.h>

/* The median of the kept samples; of work / sample for a rate. */
double bb_kept_median(const struct bb_series *s);
double bb_kept_median_rate(const struct bb_series *s);

/* The first series named name of variant, else of any variant, or NULL. */
const struct bb_series *bb_series_of(const struct bb_result *r, const char *name,
				     const char *variant);

/* "lava-test-case NAME --result pass --measurement V --units U", or
 * "--result fail" when v is not a finite value >= 0; NAME and U with
 * anything but [A-Za-z0-9._/-] as '_', safe for the shell and for LAVA. */
void bb_lava_pass(FILE *f, const char *name, double v, const char *units);
void bb_lava_fail(FILE *f, const char *name);

#endif
