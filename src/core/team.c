/* team.c - worker threads, pinning and spin barriers (see team.h). */
#include "team.h"
#include "error.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#define TEAM_QUIT (-1)

void bb_barrier_init(struct bb_barrier *b, unsigned n, int yield)
{
	atomic_init(&b->count, 0);
	atomic_init(&b->generation, 0);
	b->n = n;
	b->yield = yield;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

void bb_barrier_wait(struct bb_barrier *b)
{
	unsigned gen = atomic_load_explicit(&b->generation, memory_order_acquire);
	unsigned spins = 0;

	if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) + 1 == b->n) {
		atomic_store_explicit(&b->count, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(&b->generation, 1, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen) {
		if (b->yield || ++spins > 100000)
			sched_yield();
		else
			cpu_relax();
	}
}

void bb_team_slice(size_t n, int i, int nthreads, size_t align, size_t *lo, size_t *hi)
{
	size_t per = n / (size_t)nthreads;

	*lo = (per * (size_t)i) / align * align;
	*hi = i == nthreads - 1 ? n : (per * (size_t)(i + 1)) / align * align;
}

/* Bind the calling thread to the i-th CPU of `allowed`, the caller's mask
 * saved before any pinning.  Reading the mask afresh here would be wrong:
 * a worker inherits the mask of the thread that created it, which is
 * already pinned to one CPU, so every worker would land on that CPU. */
static int pin_self(const cpu_set_t *allowed, int i)
{
	cpu_set_t one;
	int seen = 0, cpus = CPU_COUNT(allowed);

	if (cpus <= 0)
		return -1;
	i %= cpus;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, allowed))
			continue;
		if (seen++ == i) {
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			return sched_setaffinity(0, sizeof one, &one);
		}
	}
	return -1;
}

struct worker_arg {
	struct bb_team *team;
	int index;
};

static void *worker(void *p)
{
	struct worker_arg wa = *(struct worker_arg *)p;
	struct bb_team *t = wa.team;

	free(p);
	if (t->pin && (!t->restore || pin_self(&t->saved, wa.index) != 0))
		t->pin_failed = 1;
	for (;;) {
		bb_barrier_wait(&t->bar);
		int cmd = atomic_load_explicit(&t->cmd, memory_order_acquire);
		if (cmd == TEAM_QUIT)
			break;
		t->fn(t->arg, cmd, wa.index, t->nthreads);
		bb_barrier_wait(&t->bar);
	}
	return NULL;
}

int bb_team_start(struct bb_team *t, int nthreads, int pin, bb_team_fn fn, void *arg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	t->nthreads = nthreads;
	t->pin = pin;
	t->fn = fn;
	t->arg = arg;
	t->pin_failed = 0;
	atomic_init(&t->cmd, 0);
	bb_barrier_init(&t->bar, (unsigned)nthreads, cpus > 0 && nthreads > cpus);
	t->tid = bb_xcalloc((size_t)nthreads, sizeof *t->tid);
	t->restore = pin && sched_getaffinity(0, sizeof t->saved, &t->saved) == 0;
	if (pin && (!t->restore || pin_self(&t->saved, 0) != 0))
		t->pin_failed = 1;
	for (int i = 1; i < nthreads; i++) {
		struct worker_arg *wa = bb_xmalloc(sizeof *wa);
		wa->team = t;
		wa->index = i;
		int rc = pthread_create(&t->tid[i], NULL, worker, wa);
		if (rc != 0) {
			free(wa);
			/* shrink the team to the threads that exist, then stop them */
			t->nthreads = i;
			t->bar.n = (unsigned)i;
			bb_team_stop(t);
			errno = rc;
			return -1;
		}
	}
	return 0;
}

void bb_team_run(struct bb_team *t, int cmd)
{
	atomic_store_explicit(&t->cmd, cmd, memory_order_release);
	bb_barrier_wait(&t->bar);
	t->fn(t->arg, cmd, 0, t->nthreads);
	bb_barrier_wait(&t->bar);
}

void bb_team_stop(struct bb_team *t)
{
	if (!t->tid)
		return;
	atomic_store_explicit(&t->cmd, TEAM_QUIT, memory_order_release);
	bb_barrier_wait(&t->bar);
	for (int i = 1; i < t->nthreads; i++)
		pthread_join(t->tid[i], NULL);
	free(t->tid);
	t->tid = NULL;
	if (t->restore)
		sched_setaffinity(0, sizeof t->saved, &t->saved);
}
