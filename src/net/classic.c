/* classic.c - classic ttcp's units, msec/call and rusage line (see
 * classic.h); formatting only, from numbers the caller measured. */
#include "classic.h"

#include <stdio.h>
#include <string.h>

int bb_ttcp_fmt_valid(int c)
{
	return c != 0 && strchr("kKmMgG", c) != NULL;
}

const char *bb_ttcp_fmt_unit(int c)
{
	switch (c) {
	case 'k': return "Kbit";
	case 'm': return "Mbit";
	case 'g': return "Gbit";
	case 'M': return "MB";
	case 'G': return "GB";
	default: return "KB";
	}
}

double bb_ttcp_fmt_scale(int c, double bytes)
{
	switch (c) {
	case 'k': return bytes * 8.0 / 1024.0;
	case 'm': return bytes * 8.0 / 1024.0 / 1024.0;
	case 'g': return bytes * 8.0 / 1024.0 / 1024.0 / 1024.0;
	case 'M': return bytes / 1024.0 / 1024.0;
	case 'G': return bytes / 1024.0 / 1024.0 / 1024.0;
	default: return bytes / 1024.0;
	}
}

void bb_ttcp_fmt_rate(char *buf, size_t len, int c, double bytes_per_s)
{
	snprintf(buf, len, "%.2f %s", bb_ttcp_fmt_scale(c, bytes_per_s), bb_ttcp_fmt_unit(c));
}

double bb_ttcp_msec_per_call(double real_s, double calls)
{
	return calls > 0 ? 1024.0 * real_s / calls : 0.0;
}

double bb_ttcp_clamp_time(double s)
{
	return s > 0 ? s : 0.001;
}

/* Centiseconds of a microsecond count, truncated as timeval arithmetic does. */
static long centisec(int64_t us)
{
	return us > 0 ? (long)(us / 10000) : 0;
}

/* "1.2": seconds and truncated tenths. */
static int tenths(char *buf, size_t len, int64_t us)
{
	if (us < 0)
		us = 0;
	return snprintf(buf, len, "%lld.%01d", (long long)(us / 1000000),
			 (int)(us % 1000000 / 100000));
}

/* Elapsed whole seconds as M:SS, or H:MM:SS from an hour on. */
static int elapsed(char *buf, size_t len, long secs)
{
	long h = secs / 3600, rest = secs % 3600;

	if (h)
		return snprintf(buf, len, "%ld:%02ld:%02ld", h, rest / 60, rest % 60);
	return snprintf(buf, len, "%ld:%02ld", secs / 60, secs % 60);
}

void bb_ttcp_rusage_line(char *buf, size_t len, const struct bb_ttcp_ru *ru)
{
	char user[32], sys[32], real[32];
	long t = centisec(ru->utime_us) + centisec(ru->stime_us);
	long ms = centisec(ru->real_us);

	tenths(user, sizeof user, ru->utime_us);
	tenths(sys, sizeof sys, ru->stime_us);
	elapsed(real, sizeof real, ms / 100);
	snprintf(buf, len, "%suser %ssys %sreal %ld%% %ldi+%ldd %ldmaxrss %ld+%ldpf %ld+%ldcsw",
		 user, sys, real, t * 100 / (ms ? ms : 1),
		 t ? ru->ixrss / t : 0, t ? ru->idrss_isrss / t : 0,
		 ru->maxrss_kib / 2, ru->majflt, ru->minflt, ru->nvcsw, ru->nivcsw);
}
