/* pct.h - a change as a percentage, in text that stays a few characters
 * long whatever the data: "+5.4%" below 10^5 percent, "+6.25e+299%"
 * beyond, so that a results file holding extreme (yet finite) figures
 * never makes compare, report or history print a number of 300 digits. */
#ifndef BB_TOOLS_PCT_H
#define BB_TOOLS_PCT_H

#include <stddef.h>

#define BB_PCT_LEN 24   /* room for any percentage bb_pct writes */

/* percent as "%+.1f%%" (with sign set) or "%.1f%%", in exponent form at
 * 10^5 percent and beyond; returns buf. */
const char *bb_pct(char *buf, size_t len, double percent, int sign);

#endif
