/* parse.h - strict parsing of numbers, sizes and KEY=VALUE labels.
 *
 * Every function returns 0 on success and -1 on any malformed input
 * (empty, trailing junk, negative, overflow, out of range); it never
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

/* Positive finite decimal number (e.g. seconds). */
int bb_parse_double(const char *s, double min, double max, double *out);

/* KEY=VALUE; KEY is 1..63 characters of [A-Za-z0-9_.-], VALUE is 0..255
 * printable characters.  Pointers into caller buffers are returned. */
int bb_parse_label(const char *s, char *key, int keylen, char *val, int vallen);

#endif
