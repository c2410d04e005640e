/* reader.h - reads a results file (docs/json-schema.md) back into memory
 * for `compare` and `report`, with cJSON.
 *
 * Result files are untrusted input: they may come from another machine,
 * an older boardbench or a mangled copy.  Everything is checked: size,
 * nesting depth, syntax, the schema and its version, the type of every
 * field used, array lengths, and that every sample is a finite number.
 * An object with a key twice is refused (which one was meant?).
 * The first problem ends the read with one line naming the file and the
 * key, e.g. "a.json: results[0].series[3].samples[7]: expected a finite
 * number, got null".  Every number must lie within +-BB_READ_MAX_MAGNITUDE.
 * Strings are kept with control characters (a NUL written \u0000 too) and
 * bytes that are not UTF-8 escaped as bb_escape does (\n, \t, \xNN), so
 * nothing read can move a terminal's cursor or break a line, two strings
 * that differ stay apart (compare --by, report and history group by
 * them), and every tool shows the same text. */
#ifndef BB_TOOLS_READER_H
#define BB_TOOLS_READER_H

#include <stddef.h>

#define BB_READ_MAX_BYTES (64u << 20)   /* a whole file */
#define BB_READ_MAX_DEPTH 32            /* nesting of objects and arrays */
#define BB_READ_MAX_RESULTS 4096
#define BB_READ_MAX_SERIES 65536        /* per result */
#define BB_READ_MAX_SAMPLES (1u << 20)  /* per series */
#define BB_READ_MAX_ITEMS 4096          /* keys of params, values, labels, ... */
#define BB_READ_MAX_NAME 256            /* applet, series, variant and unit names */
#define BB_READ_MAX_STRING 4096         /* any other string */
#define BB_READ_MAX_MAGNITUDE 9223372036854775808.0   /* 2^63: any number, either sign */

/* A scalar field: strings as written, numbers and booleans also as text. */
struct bb_rkv {
	char *key;
	char *s;
	double num;        /* NaN unless the value is a number or boolean */
};

struct bb_rkvs {
	struct bb_rkv *v;
	size_t n;
};

struct bb_rseries {
	char *name, *variant, *unit, *work_unit;
	double work;
	size_t discard;
	double *samples;
	size_t n;
	struct bb_rkvs values;
};

struct bb_rresult {
	char *applet;
	char *status;      /* "ok" when the file does not say */
	char *message;
	struct bb_rkvs params;
	struct bb_rseries *series;
	size_t n;
};

struct bb_rrun {
	char *path;
	char *started;     /* started_utc, or "" */
	char *caches;      /* system.caches as "L1d 32K, L2 1M", or "" */
	struct bb_rkvs tool, labels, system;
	struct bb_rresult *results;
	size_t n;
};

#define BB_READ_RESOURCE (-2)   /* not the file's fault: out of memory, a read error */

/* Read and check a file.  Returns 0, or -1 (a bad file: missing, not a
 * regular file, not valid, a duplicate key) or BB_READ_RESOURCE, with one
 * line in err.  A FIFO or device is refused without being opened for a
 * blocking read. */
int bb_read_file(const char *path, struct bb_rrun *run, char *err, size_t errlen);

/* The same for len bytes in memory, reported under the name given. */
int bb_read_buf(const char *name, const char *buf, size_t len, struct bb_rrun *run,
		char *err, size_t errlen);

void bb_rrun_free(struct bb_rrun *run);

/* A field's text, or NULL when absent. */
const char *bb_rkv_str(const struct bb_rkvs *l, const char *key);

/* A field's number, or dflt when absent or not a number. */
double bb_rkv_num(const struct bb_rkvs *l, const char *key, double dflt);

/* A short name for the run: its labels "K=V,K=V", else the file name
 * without directory and ".json". */
void bb_rrun_name(const struct bb_rrun *run, char *buf, size_t len);

#endif
