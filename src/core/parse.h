/* parse.h - strict parsing of numbers, sizes and KEY=VALUE labels (option
 * values), and the lenient readers beneath them: a decimal number as
 * strtod reads it, a "Name: number" line of a /proc file.
 *
 * Every bb_parse_ function returns 0 on success and -1 on any malformed
 * input (empty, trailing junk, negative, overflow, out of range); none
 * prints.  Callers turn -1 into a one-line usage error.
 */
#ifndef BB_PARSE_H
#define BB_PARSE_H

#include <stdint.h>

/* Unsigned integer in [min, max]. Decimal, or hex with 0x. */
int bb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Count with optional binary suffix: K=2^10, M=2^20, G=2^30 (case-insensitive,
 * an optional trailing "i" or "iB"/"B" is accepted: 4K, 4KiB, 4kb). */
int bb_parse_size(const char *s, uint64_t *out);

/* Finite decimal number in [min, max] (e.g. seconds): what bb_strtod
 * reads, with nothing before or after it.  Hex, "inf" and "nan" are
 * refused, as are numbers that overflow or fall below DBL_MIN. */
int bb_parse_double(const char *s, double min, double max, double *out);

/* A decimal number as strtod reads one, without the C library's
 * (large) float scanner: blanks, an optional sign, digits with an optional
 * '.', an optional exponent (e or E, sign, digits).  *end (when end is not
 * NULL) is set after the last character used, or to s when there is no
 * number (then 0 is returned).  Exact (correctly rounded) for up to 15
 * significant digits with a decimal exponent within +-22, within a few ulp
 * beyond (digits after the 19th only count for their place); on overflow
 * +-HUGE_VAL and on underflow (below DBL_MIN) the value with errno ERANGE,
 * as strtod.  No hex, infinity or NaN: those end the number where they
 * start ("0x10" reads 0 and stops at 'x'). */
double bb_strtod(const char *s, char **end);

/* For lines of /proc files such as "MemTotal:     16384 kB": when line
 * starts with name (its colon included), then blanks and a decimal
 * number, stores the number and returns 0; else returns -1 and leaves
 * *out alone.  A number too large is read as ULLONG_MAX. */
int bb_scan_field(const char *line, const char *name, unsigned long long *out);

/* Up to max decimal numbers separated by blanks at p (the counters of a
 * /proc/stat line) into v; returns how many were read: the line's end or
 * anything else ends them. */
int bb_scan_counters(const char *p, uint64_t *v, int max);

/* KEY=VALUE; KEY is 1..63 characters of [A-Za-z0-9_.-], VALUE is 0..255
 * printable characters.  Pointers into caller buffers are returned. */
int bb_parse_label(const char *s, char *key, int keylen, char *val, int vallen);

/* A physical register: what follows "mmio:" in --fact NAME=mmio:ADDR[:WIDTH[:MASK]]. */
struct bb_mmio {
	uint64_t addr;    /* physical address, aligned to the width */
	unsigned width;   /* bits: 8, 16, 32 (the default) or 64 */
	uint64_t mask;    /* bits kept: not 0, within the width (default all) */
};

/* "ADDR[:WIDTH[:MASK]]", each decimal or 0x hex; 0, or -1 (any field bad,
 * ADDR not a multiple of WIDTH / 8, MASK 0 or wider than WIDTH). */
int bb_parse_mmio(const char *s, struct bb_mmio *m);

#endif
