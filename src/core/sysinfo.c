/* sysinfo.c - what is computed from a system's description (sysinfo.h)
 * without reading the system: UTC stamps and the largest cache.  The
 * description itself is read by the facts floor (facts/sysinfo.c). */
#include "core/sysinfo.h"

#include <stdio.h>
#include <time.h>

/* snprintf, not strftime: strftime brings the C library's time-zone code
 * into a static binary (4 KB of musl's) for a UTC stamp. */
void bb_utc_stamp(char *buf, size_t len, time_t t, int compact)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "unknown");
		return;
	}
	snprintf(buf, len, compact ? "%04d%02d%02dT%02d%02d%02dZ" : "%04d-%02d-%02dT%02d:%02d:%02dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

uint64_t bb_sysinfo_largest_cache(const struct bb_sysinfo *si)
{
	uint64_t m = 0;
	for (int i = 0; i < si->ncaches; i++)
		if (si->caches[i].size_bytes > m)
			m = si->caches[i].size_bytes;
	return m;
}
