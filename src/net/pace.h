/* pace.h - smooth pacing of a sender to a bit rate: before each write the
 * pacer says how long to wait so that the bytes sent so far never run ahead
 * of rate x elapsed time.  A sender that falls behind (a stall, a slow
 * write) may catch up by at most max_burst_s worth of bytes, never by an
 * unbounded burst.  bb_pace_delay() is pure; bb_pace_sleep_until() sleeps. */
#ifndef BB_NET_PACE_H
#define BB_NET_PACE_H

#include <stddef.h>

/* How far behind a paced sender may catch up at once: scheduling delays
 * on a busy machine are made good, a long stall is not. */
#define BB_PACE_MAX_BURST_S 0.005

struct bb_pace {
	double bytes_per_s;
	double t0;           /* when sent == 0 would have been on time */
	double sent;         /* bytes accounted so far */
	double max_burst_s;
};

void bb_pace_init(struct bb_pace *p, double bits_per_s, double now, double max_burst_s);

/* Seconds to wait (>= 0) before writing `bytes` at time now; the bytes are
 * then accounted as sent. */
double bb_pace_delay(struct bb_pace *p, double now, size_t bytes);

/* Sleeps until the bb_now() time t (returns at once if t has passed). */
void bb_pace_sleep_until(double t);

/* Asks for 1 us timer slack on the calling thread (default 50 us), so
 * that short sleeps end on time; harmless where unsupported. */
void bb_pace_thread_setup(void);

#endif
