/* units.c - SI bit-rate parsing and formatting (see units.h). */
#include "units.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

#define BB_RATE_MAX 1e12

static double suffix_scale(char c)
{
	switch (c) {
	case 'k': case 'K': return 1e3;
	case 'm': case 'M': return 1e6;
	case 'g': case 'G': return 1e9;
	default: return 0;
	}
}

int bb_parse_rate(const char *s, double *bits_per_s)
{
	char num[64];
	size_t n = s ? strlen(s) : 0;
	double scale = 1, v;

	if (n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, s, n + 1);
	if (suffix_scale(num[n - 1]) > 0) {
		scale = suffix_scale(num[n - 1]);
		num[--n] = '\0';
	}
	if (n == 0 || bb_parse_double(num, 0, BB_RATE_MAX, &v) || v <= 0)
		return -1;
	v *= scale;
	if (!(v > 0 && v <= BB_RATE_MAX))
		return -1;
	*bits_per_s = v;
	return 0;
}

void bb_fmt_si_rate(char *buf, size_t len, double bits_per_s)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (i < 4 && bits_per_s >= 1000.0) {
		bits_per_s /= 1000.0;
		i++;
	}
	snprintf(buf, len, "%.2f %sbit/s", bits_per_s, prefix[i]);
}
