/* rr_watch.c - the watchdog of rr's blocking TCP loops (see rr_watch.h):
 * a thread that waits on a condition variable for a tick at a time
 * (CLOCK_MONOTONIC), so that ending the watch wakes it at once. */
#include "applets/rr/rr_watch.h"
#include "core/stop.h"
#include "core/timer.h"

#include <sys/socket.h>
#include <time.h>

#define WATCH_TICK_S 0.2

static int stop_asked(const struct bb_rr_watch *w)
{
	return (w->stop && atomic_load(w->stop)) || bb_stopped();
}

static struct timespec deadline(double secs)
{
	struct timespec t;
	long ns;

	clock_gettime(CLOCK_MONOTONIC, &t);
	ns = t.tv_nsec + (long)(secs * 1e9);
	t.tv_sec += ns / 1000000000L;
	t.tv_nsec = ns % 1000000000L;
	return t;
}

/* One tick: 1 when the loop has ended; else *quiet grows by a tick while
 * nothing moved. */
static int tick(struct bb_rr_watch *w, double step, unsigned *seen, double *quiet)
{
	struct timespec until = deadline(step);
	unsigned now;
	int done;

	pthread_mutex_lock(&w->lock);
	while (!w->done && pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0)
		;
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	now = atomic_load_explicit(&w->progress, memory_order_relaxed);
	*quiet = now == *seen ? *quiet + step : 0;
	*seen = now;
	return done;
}

static void *watch(void *arg)
{
	struct bb_rr_watch *w = arg;
	double step = w->idle_s > 0 && w->idle_s < WATCH_TICK_S ? w->idle_s : WATCH_TICK_S;
	double quiet = 0;
	unsigned seen = atomic_load(&w->progress);

	while (!tick(w, step, &seen, &quiet)) {
		int why = stop_asked(w) ? BB_RR_WATCH_STOP
			  : w->idle_s > 0 && quiet >= w->idle_s ? BB_RR_WATCH_IDLE : BB_RR_WATCH_NONE;
		if (why != BB_RR_WATCH_NONE) {
			atomic_store(&w->why, why);
			shutdown(w->fd, SHUT_RDWR);
			break;
		}
	}
	return NULL;
}

int bb_rr_watch_start(struct bb_rr_watch *w, int fd, double idle_s, const atomic_int *stop)
{
	pthread_condattr_t ca;

	w->fd = fd;
	w->idle_s = idle_s;
	w->stop = stop;
	w->done = 0;
	w->started = 0;
	atomic_init(&w->progress, 0);
	atomic_init(&w->why, BB_RR_WATCH_NONE);
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (pthread_cond_init(&w->wake, &ca) != 0) {
		pthread_condattr_destroy(&ca);
		return -1;
	}
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->lock, NULL);
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		return -1;
	}
	w->started = 1;
	return 0;
}

enum bb_rr_watch_why bb_rr_watch_end(struct bb_rr_watch *w)
{
	if (!w->started)
		return BB_RR_WATCH_NONE;
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	w->started = 0;
	return (enum bb_rr_watch_why)atomic_load(&w->why);
}
