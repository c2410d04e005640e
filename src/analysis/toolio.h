/* toolio.h - files for `compare` and `report`: results files and
 * directories of them in, and output files written as the applets write
 * theirs (core/outfile.h: "-" is stdout, a file is written whole or not at
 * all, a device or FIFO in place, a symlink followed). */
#ifndef BB_TOOLS_TOOLIO_H
#define BB_TOOLS_TOOLIO_H

#include <stddef.h>
#include <stdio.h>

#include "core/outfile.h"
#include "analysis/reader.h"

#define BB_RUNS_MAX 10000

struct bb_runs {
	struct bb_rrun *r;
	size_t n, cap;
};

/* Reads each path: a results file, or every *.json in a directory, in
 * name order.  Exits 2 with one line on the first file that cannot be
 * read or is not valid (a FIFO or device among them is refused, never
 * waited on), 1 when the machine fails (out of memory, a read error). */
void bb_runs_load(struct bb_runs *runs, char **paths, int n);
void bb_runs_free(struct bb_runs *runs);

struct bb_out {
	FILE *f;
	const char *path;
	struct bb_outfile file;
};

/* Returns 0, or -1 after a one-line warning. */
int bb_out_open(struct bb_out *o, const char *path);

/* Flushes, syncs and renames into place (core/outfile.h); on any failure
 * removes the temporary, warns in one line and returns -1. */
int bb_out_close(struct bb_out *o);

/* Writes s to f with &, <, >, " and ' escaped for HTML and XML. */
void bb_xml_text(FILE *f, const char *s);

#endif
