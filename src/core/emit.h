/* emit.h - emitters that render a bb_run: classic text (through each
 * result's renderer), JSON (docs/json-schema.md) and CSV (one row per
 * sample).  bb_write_atomic() puts any of them in a file safely. */
#ifndef BB_EMIT_H
#define BB_EMIT_H

#include <stdio.h>

#include "results.h"

#define BB_SCHEMA_NAME "boardbench-results"
#define BB_SCHEMA_VERSION 1

int bb_emit_text(FILE *f, const struct bb_run *run);
int bb_emit_json(FILE *f, const struct bb_run *run);
int bb_emit_csv(FILE *f, const struct bb_run *run);

typedef int (*bb_emit_fn)(FILE *f, const struct bb_run *run);

/* Write path through outfile.h: "-" is standard output, a regular file is
 * replaced whole (a temporary in the same directory, fsync, rename; mode and
 * owner kept), a device or FIFO is written in place, a symlink followed.
 * On any failure the temporary is removed, a replaced file is untouched,
 * errno-style text goes to err, and -1 is returned. */
int bb_write_atomic(const char *path, bb_emit_fn fn, const struct bb_run *run,
		    char *err, size_t errlen);

/* CSV field quoting (RFC 4180): quotes when needed, doubles inner quotes. */
void bb_csv_field(FILE *f, const char *s);

#endif
