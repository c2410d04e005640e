/* live.c - the reader side of the published counters (see live.h). */
#include "live.h"

#define BB_LIVE_TRIES 1000

void bb_live_init(struct bb_live *l)
{
	atomic_init(&l->seq, 0);
	atomic_init(&l->bytes_lo, 0);
	atomic_init(&l->bytes_hi, 0);
	atomic_init(&l->calls_lo, 0);
	atomic_init(&l->calls_hi, 0);
}

int bb_live_read(struct bb_live *l, uint64_t *bytes, uint64_t *calls)
{
	for (int i = 0; i < BB_LIVE_TRIES; i++) {
		unsigned s1 = atomic_load_explicit(&l->seq, memory_order_acquire);
		uint64_t b, c;

		if (s1 & 1)
			continue;
		b = atomic_load_explicit(&l->bytes_lo, memory_order_relaxed) |
		    (uint64_t)atomic_load_explicit(&l->bytes_hi, memory_order_relaxed) << 32;
		c = atomic_load_explicit(&l->calls_lo, memory_order_relaxed) |
		    (uint64_t)atomic_load_explicit(&l->calls_hi, memory_order_relaxed) << 32;
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&l->seq, memory_order_relaxed) == s1) {
			*bytes = b;
			*calls = c;
			return 0;
		}
	}
	return -1;
}
