/* mem_applet.h - what the files of the `mem` applet share: options and
 * the plan (mem.c), the measurements that fill the results model
 * (mem_measure.c), the text rendered from it (mem_render.c), and the names
 * of its series, which the analysis engine reads back (mem_host.c). */
#ifndef BB_MEM_APPLET_H
#define BB_MEM_APPLET_H

#include <stdint.h>
#include <stdio.h>

#include "core/results.h"
#include "kernels/mem.h"

enum mem_mode { MEM_MODE_TOT, MEM_MODE_PAGE, MEM_MODE_SWEEP };

/* The names of mem's series, spelt once for the code that makes them and
 * the rules that read them back: tot "tot_OP" (tot_memcpy); page "OP STATE"
 * (clear_page cold, copy_page hot); sweep "OP:BYTES" (memcpy:4096). */
#define MEM_TOT_PREFIX "tot_"
#define MEM_PAGE_SEP " "
#define MEM_SWEEP_SEP ":"

#define MEM_MAX_RUN 32
#define MEM_MAX_SIZES 32   /* sweep --sizes */

/* tot: every length from TOT_MIN_LEN to TOT_MAX_LEN, TOT_ROUNDS times. */
#define MEM_TOT_MIN_LEN 2
#define MEM_TOT_MAX_LEN 4095
#define MEM_TOT_ROUNDS 4
/* tot's default passes (kept samples) to average, as the report's "averaged
 * over 4 test runs". */
#define MEM_TOT_PASSES 4

struct mem_opts {
	enum mem_mode mode;
	const char *variants;   /* comma list, or NULL for every variant */
	const char *baseline;   /* NULL: libc if it runs, else the first */
	const char *ops;        /* comma list, or NULL for the mode's default */
	int repeat;             /* kept samples per cell, after one warm-up; 0: the mode's default */
	uint64_t min_size;      /* sweep */
	uint64_t max_size;      /* sweep; 0 = default */
	int min_given;          /* --min-size was given */
	uint64_t sizes[MEM_MAX_SIZES];   /* sweep --sizes, ascending, no duplicates */
	int nsizes;             /* 0: the doubling series from min_size to max_size */
	uint64_t arena;         /* page: cold arena bytes; 0 = default */
	int list;
};

struct mem_plan {
	const struct mem_variant *run[MEM_MAX_RUN];   /* run[0] is the baseline */
	int nrun;
	enum mem_op ops[MEM_NOPS];
	int nops;
	const struct mem_variant *unsup[MEM_MAX_RUN];   /* asked for, but this CPU cannot */
	int nunsup;
	char unsupported[256];   /* the same as a comma list */
};

/* Fill r with one series per (row, variant); exit 1 on a resource failure.
 * A copy that fails validation marks r failed with a message. */
/* Whether a SIGINT/SIGTERM (core/stop.h) cut the measurement short. */
int mem_measure_cut(void);
void mem_measure_tot(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		     const struct mem_plan *p);
void mem_measure_page(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		      const struct mem_plan *p);
void mem_measure_sweep(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		       const struct mem_plan *p);

void mem_render(FILE *f, const struct bb_result *r);
void mem_summary(FILE *f, const struct bb_result *r);

#endif
