/* pct.c - percentages as short text (see pct.h). */
#include "analysis/pct.h"

#include <math.h>
#include <stdio.h>

const char *bb_pct(char *buf, size_t len, double percent, int sign)
{
	if (!(fabs(percent) >= 1e5))   /* NaN as "nan%", as printf says it */
		snprintf(buf, len, sign ? "%+.1f%%" : "%.1f%%", percent);
	else
		snprintf(buf, len, sign ? "%+.2e%%" : "%.2e%%", percent);
	return buf;
}
