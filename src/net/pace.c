/* pace.c - the sender's pacer (see pace.h). */
#include "pace.h"
#include "core/timer.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

void bb_pace_init(struct bb_pace *p, double bits_per_s, double now, double max_burst_s)
{
	p->bytes_per_s = bits_per_s / 8.0;
	p->t0 = now;
	p->sent = 0;
	p->max_burst_s = max_burst_s;
}

double bb_pace_delay(struct bb_pace *p, double now, size_t bytes)
{
	double due = p->t0 + p->sent / p->bytes_per_s;

	if (now - due > p->max_burst_s) {
		/* Too far behind: forget the credit beyond one burst. */
		p->t0 += now - due - p->max_burst_s;
		due = now - p->max_burst_s;
	}
	p->sent += (double)bytes;
	return due > now ? due - now : 0.0;
}

void bb_pace_sleep_until(double t)
{
	struct timespec ts;

	if (t <= bb_now())
		return;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	/* bb_now() reads CLOCK_MONOTONIC: sleep to that absolute time. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void bb_pace_thread_setup(void)
{
	(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}
