/* live.h - a stream's byte and call counters, published by the thread that
 * moves the data and read by the thread that prints periodic reports.
 *
 * A sequence lock over 32-bit atomics: the writer makes the sequence odd,
 * stores the halves, makes it even; a reader retries while it is odd or
 * changed.  Only 32-bit atomics are used, so 32-bit targets (PowerPC,
 * ARM, i686) need no libatomic, and the writer never waits. */
#ifndef BB_NET_LIVE_H
#define BB_NET_LIVE_H

#include <stdatomic.h>
#include <stdint.h>

struct bb_live {
	atomic_uint seq;
	atomic_uint bytes_lo, bytes_hi;
	atomic_uint calls_lo, calls_hi;
};

void bb_live_init(struct bb_live *l);

static inline void bb_live_publish(struct bb_live *l, uint64_t bytes, uint64_t calls)
{
	unsigned s = atomic_load_explicit(&l->seq, memory_order_relaxed);

	atomic_store_explicit(&l->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&l->bytes_lo, (unsigned)bytes, memory_order_relaxed);
	atomic_store_explicit(&l->bytes_hi, (unsigned)(bytes >> 32), memory_order_relaxed);
	atomic_store_explicit(&l->calls_lo, (unsigned)calls, memory_order_relaxed);
	atomic_store_explicit(&l->calls_hi, (unsigned)(calls >> 32), memory_order_relaxed);
	atomic_store_explicit(&l->seq, s + 2, memory_order_release);
}

/* Returns 0 with a consistent pair, or -1 if the writer kept it busy for
 * every one of a bounded number of attempts (outputs then untouched). */
int bb_live_read(struct bb_live *l, uint64_t *bytes, uint64_t *calls);

#endif
