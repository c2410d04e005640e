/* mem_check.h - the correctness check of every memory primitive variant,
 * shared by `boardbench selftest` and the unit tests.
 *
 * Each operation is compared with a plain reference at every size 0..8192
 * and every source and destination alignment 0..63 (one pair per size
 * through a scrambled schedule, and every destination alignment for sizes
 * up to 256), with buffers that end at a PROT_NONE guard page (an over-read
 * or over-write faults, and the fault is reported, not fatal) and guard
 * bytes before and after the destination that must stay untouched.  On
 * x86 the x87 register stack must be empty after every call (an MMX kernel
 * must end with emms or femms).
 */
#ifndef BB_KERNELS_MEM_CHECK_H
#define BB_KERNELS_MEM_CHECK_H

#include <stdio.h>

#include "mem.h"

#define MEM_CHECK_MAX_SIZE 8192
#define MEM_CHECK_MAX_ALIGN 64
#define MEM_CHECK_GUARD 64       /* guard bytes each side of the destination */

struct mem_check {
	long checks;        /* calls compared with the reference */
	long failures;
	char first[256];    /* the first failure, one line; "" if none */
};

/* Checks v's function for op (v must have one, and be supported here).
 * Returns the number of failures; fills res.  Returns -1 with res->first
 * set if the buffers could not be mapped. */
long mem_check_op(const struct mem_variant *v, enum mem_op op, struct mem_check *res);

/* The selftest row: every variant and operation this CPU supports, one
 * pass/fail line per variant on f (with verbose, one per operation too);
 * unsupported variants are listed as such.  Returns the failures. */
long mem_selftest(FILE *f, int verbose);

#endif
