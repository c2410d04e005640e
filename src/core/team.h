/* team.h - a fixed team of worker threads that run one command at a time
 * on their own slice of the data, for applets that measure with several
 * threads (STREAM first).  The caller's thread is worker 0, so a 2-thread
 * team on a 2-core board uses exactly 2 cores.  The start and end of each
 * command are spin barriers (yielding when oversubscribed), so the time a
 * caller measures around bb_team_run() is the slowest thread's time plus
 * the barrier cost, as an OpenMP parallel-for measures it.
 */
#ifndef BB_TEAM_H
#define BB_TEAM_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

struct bb_team;
typedef void (*bb_team_fn)(void *arg, int cmd, int thread, int nthreads);

struct bb_barrier {
	atomic_uint count;
	atomic_uint generation;
	unsigned n;
	int yield;    /* more threads than CPUs: yield instead of spinning */
};

struct bb_team {
	int nthreads;
	int pin;
	pthread_t *tid;
	struct bb_barrier bar;
	atomic_int cmd;
	bb_team_fn fn;
	void *arg;
	int pin_failed;   /* set when a thread could not be pinned */
	int restore;      /* caller's affinity was saved and is restored at stop */
	cpu_set_t saved;  /* the caller's affinity before pinning */
};

/* Start nthreads-1 threads (thread 0 is the caller).  With pin, thread i is
 * bound to the i-th CPU this process may use.  Returns 0 or -1 (errno). */
int bb_team_start(struct bb_team *t, int nthreads, int pin, bb_team_fn fn, void *arg);

/* Every thread calls fn(arg, cmd, i, n); returns when all have finished. */
void bb_team_run(struct bb_team *t, int cmd);

void bb_team_stop(struct bb_team *t);

/* Contiguous share [lo, hi) of n items for thread i, boundaries rounded
 * down to multiples of `align` items (the last thread takes the rest). */
void bb_team_slice(size_t n, int i, int nthreads, size_t align, size_t *lo, size_t *hi);

void bb_barrier_init(struct bb_barrier *b, unsigned n, int yield);
void bb_barrier_wait(struct bb_barrier *b);

#endif
