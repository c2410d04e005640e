/* classic.h - the conventions of classic ttcp's report, kept so that numbers
 * line up with decades of published results:
 *   - rates in the unit -f picks: k/m/g are Kbit/Mbit/Gbit of 2^10/2^20/2^30
 *     bits, K/M/G are KB/MB/GB of 2^10/2^20/2^30 bytes (default K);
 *   - "msec/call" is 1024 x real seconds / calls (the historical factor);
 *   - the rusage line in the layout of BSD time(1)'s %U %S %E %P ... format.
 * Pure functions, no I/O: the applet's renderer calls them on the model. */
#ifndef BB_NET_CLASSIC_H
#define BB_NET_CLASSIC_H

#include <stddef.h>
#include <stdint.h>

/* 1 if c is one of k K m M g G. */
int bb_ttcp_fmt_valid(int c);

/* The unit name for -f c: "Kbit", "KB", "Mbit", ...; "KB" for anything else. */
const char *bb_ttcp_fmt_unit(int c);

/* bytes expressed in the unit of -f c (binary multiples, as classic ttcp). */
double bb_ttcp_fmt_scale(int c, double bytes);

/* "454.29 Mbit": a rate in bytes per second in the unit of -f c. */
void bb_ttcp_fmt_rate(char *buf, size_t len, int c, double bytes_per_s);

/* Classic ttcp's msec/call: 1024 * real_s / calls (0 when calls is 0). */
double bb_ttcp_msec_per_call(double real_s, double calls);

/* Classic clamp: a time of zero or less counts as 1 ms. */
double bb_ttcp_clamp_time(double s);

/* What the rusage line needs: differences over the transfer, except
 * maxrss, which is the peak (ru_maxrss, KiB on Linux). */
struct bb_ttcp_ru {
	int64_t utime_us, stime_us, real_us;
	long ixrss, idrss_isrss;   /* integral sizes; 0 on Linux */
	long maxrss_kib;
	long majflt, minflt;
	long nvcsw, nivcsw;
};

/* "0.0user 0.1sys 0:00real 60% 0i+0d 0maxrss 0+2pf 3+1506csw", as classic
 * ttcp formats it: user/sys truncated to tenths, elapsed as [H:]M:SS, CPU
 * percent from centiseconds, maxrss as ru_maxrss/2. */
void bb_ttcp_rusage_line(char *buf, size_t len, const struct bb_ttcp_ru *ru);

#endif
