/* guard.h - buffers fenced by PROT_NONE pages, and calls whose memory
 * faults come back as a value instead of ending the process.
 *
 * The correctness checkers in src/kernels/ (csum_check.c, mem_check.c) use
 * both: they place a variant's buffer so that it ends at (or starts right
 * after) a guard page, run the variant through bb_guard_run, and report a
 * read or write one byte outside the buffer as a failure naming the case,
 * where it would otherwise have been a crash of the whole selftest.
 */
#ifndef BB_GUARD_H
#define BB_GUARD_H

#include <stddef.h>

/* Usable bytes [lo, hi) with a PROT_NONE page right before lo and another
 * starting at hi.  lo is page aligned; hi - lo is a whole number of pages. */
struct bb_guarded {
	unsigned char *map;      /* the whole mapping, for munmap; NULL if none */
	size_t map_bytes;
	unsigned char *lo;       /* the first usable byte */
	unsigned char *hi;       /* one past the last: the trailing guard page */
};

/* Maps at least `bytes` usable bytes, readable and writable, rounded up to
 * whole pages.  Returns 0, or -1 with errno set and g->map NULL. */
int bb_guarded_map(struct bb_guarded *g, size_t bytes);

/* Unmaps; harmless on a buffer whose mapping failed or was already undone. */
void bb_guarded_unmap(struct bb_guarded *g);

typedef void (*bb_guard_fn)(void *arg);

/* Runs fn(arg) with SIGSEGV and SIGBUS caught.  Returns 0 when fn returned,
 * or the signal that cut it short (fn is then abandoned where it faulted;
 * keep what it must report in *arg, not in its locals).  The handlers in
 * place before are back when this returns, either way.  Runs may nest (an
 * inner fault lands in the inner run); one thread at a time. */
int bb_guard_run(bb_guard_fn fn, void *arg);

#endif
