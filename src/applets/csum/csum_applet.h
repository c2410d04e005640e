/* csum_applet.h - what the files of the `csum` applet share: options,
 * the variant plan, and the entry points of its parts:
 *   csum.c          options, variant selection, main and the quick profile
 *   csum_measure.c  timing (calls between two clock readings), validation
 *                   against the reference, the results model
 *   csum_render.c   the classic report's text layout and the comparison, from the model
 *   csum_data.c     --data FILE: a file's checksum with every variant
 *   csum_host.c     how compare and report read its series (built with the
 *                   analysis engine only)
 */
#ifndef BB_BENCH_CSUM_APPLET_H
#define BB_BENCH_CSUM_APPLET_H

#include "core/results.h"
#include "kernels/csum.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CSUM_MAX_SIZES 32
#define CSUM_MAX_SIZE (64u << 20)
#define CSUM_MAX_RUN 32
#define CSUM_MAX_BENCH_OFFSET 63
#define CSUM_DATA_CHUNK (64 * 1024)   /* even, so chained partial sums stay paired */
#define CSUM_DATA_MAX_DEFAULT (1ull << 30)   /* --max-bytes: bytes of --data FILE read */

/* The names of csum's series, spelt once for the code that makes them
 * (csum_series_name, csum_measure.c) and the rules that read them back
 * (csum_host.c): "[PREFIX ]bytes=N" (PREFIX "latency", "ip", "copy" or
 * none), and the same name with CSUM_COUNTER after it for the ticks or
 * cycles of the same samples. */
#define CSUM_BYTES "bytes="
#define CSUM_LATENCY "latency"
#define CSUM_COUNTER " counter"

struct csum_opts {
	size_t sizes[CSUM_MAX_SIZES];
	int nsizes;
	int sizes_given;
	uint64_t calls;        /* -N: calls per sample */
	int reps;              /* samples per measurement, the first dropped */
	const char *variants;  /* comma list, or NULL for all */
	const char *baseline;
	int list;
	int latency;
	int sections;          /* run the ip_fast_csum and csum-and-copy tables */
	const char *data;
	uint64_t offset;
	uint64_t max_bytes;    /* --data: at most this many bytes read, offset included */
};

/* The variants a run measures, in order; the baseline is sum[0] or among
 * them.  Variants this CPU cannot run are named in `unsupported`. */
struct csum_plan {
	const struct csum_variant *sum[CSUM_MAX_RUN];
	const struct csum_ip_variant *ip[CSUM_MAX_RUN];
	const struct csum_copy_variant *copy[CSUM_MAX_RUN];
	int nsum, nip, ncopy;
	const struct csum_variant *baseline;
	char unsupported[512];
};

/* csum.c */
void csum_plan_make(struct csum_plan *p, const struct csum_opts *o);

/* csum_measure.c: runs the timing modes into a new result of run; exits 1
 * if the buffers cannot be allocated. */
struct bb_result *csum_execute(struct bb_run *run, const struct csum_opts *o,
			       const struct csum_plan *plan);

/* csum_data.c */
struct bb_result *csum_data_execute(struct bb_run *run, const struct csum_opts *o,
				    const struct csum_plan *plan);

/* csum_render.c: renderers, and the helpers the parts share */
void csum_render(FILE *f, const struct bb_result *r);
void csum_summary(FILE *f, const struct bb_result *r);
void csum_data_render(FILE *f, const struct bb_result *r);
void csum_append(char *dst, size_t len, const char *item);
const char *csum_list_nth(const char *list, int i, char *buf, size_t len);
const char *csum_param_str(const struct bb_result *r, const char *key);
void csum_series_name(char *buf, size_t len, const char *prefix, size_t bytes);
const char *csum_rate_key(const char *unit);

#endif
