/* rr_watch.h - a watchdog for the blocking TCP loops of rr (client and
 * server).  A socket with SO_RCVTIMEO arms and cancels a kernel timer in
 * every call that blocks: once per transaction at each end, on the path
 * being measured (sockperf blocks without one).  So the TCP loops block
 * with no socket timeout, and this thread looks every tick instead: when
 * the loop has made no progress for the idle limit, or a stop was asked
 * (the flag, or SIGINT/SIGTERM), it shuts the socket down, which ends the
 * blocked call at once.  The loop tells progress with bb_rr_watch_alive(),
 * one relaxed atomic increment. */
#ifndef BB_NET_RR_WATCH_H
#define BB_NET_RR_WATCH_H

#include <pthread.h>
#include <stdatomic.h>

enum bb_rr_watch_why { BB_RR_WATCH_NONE, BB_RR_WATCH_IDLE, BB_RR_WATCH_STOP };

struct bb_rr_watch {
	int fd;
	double idle_s;
	const atomic_int *stop;       /* or NULL */
	atomic_uint progress;         /* bumped by the loop */
	atomic_int why;               /* enum bb_rr_watch_why: what made it shut fd */
	int done;                     /* under lock: the loop has ended */
	int started;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
};

/* Starts watching fd; 0, or -1 (no thread: the caller keeps its socket
 * timeouts instead). */
int bb_rr_watch_start(struct bb_rr_watch *w, int fd, double idle_s, const atomic_int *stop);

static inline void bb_rr_watch_alive(struct bb_rr_watch *w)
{
	atomic_fetch_add_explicit(&w->progress, 1, memory_order_relaxed);
}

/* Ends the watch (at once) and returns why it shut the socket, if it did. */
enum bb_rr_watch_why bb_rr_watch_end(struct bb_rr_watch *w);

#endif
