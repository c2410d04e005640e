/* json.h - a small streaming JSON writer (RFC 8259) for the emitters.
 *
 * The writer tracks nesting so callers never place commas by hand.  Strings
 * are escaped: quotes, backslashes and control characters; valid UTF-8 passes
 * through unchanged, and each byte of an invalid sequence becomes U+FFFD, so
 * the output always parses.  Non-finite numbers are written as null.
 */
#ifndef BB_JSON_H
#define BB_JSON_H

#include <stdint.h>
#include <stdio.h>

#define BB_JSON_MAX_DEPTH 32

struct bb_json {
	FILE *f;
	int depth;
	int count[BB_JSON_MAX_DEPTH];  /* items written at each level */
	int after_key;
	int pretty;
};

void bb_json_init(struct bb_json *j, FILE *f, int pretty);
void bb_json_obj_begin(struct bb_json *j);
void bb_json_obj_end(struct bb_json *j);
void bb_json_arr_begin(struct bb_json *j);
void bb_json_arr_end(struct bb_json *j);
void bb_json_key(struct bb_json *j, const char *key);
void bb_json_str(struct bb_json *j, const char *s);
void bb_json_num(struct bb_json *j, double v);
void bb_json_int(struct bb_json *j, long long v);
void bb_json_uint(struct bb_json *j, uint64_t v);
void bb_json_bool(struct bb_json *j, int v);
void bb_json_null(struct bb_json *j);

/* Shorthands for "key": value inside an object. */
void bb_json_kstr(struct bb_json *j, const char *key, const char *s);
void bb_json_knum(struct bb_json *j, const char *key, double v);
void bb_json_kint(struct bb_json *j, const char *key, long long v);
void bb_json_kuint(struct bb_json *j, const char *key, uint64_t v);
void bb_json_kbool(struct bb_json *j, const char *key, int v);

/* Write s as a quoted, escaped JSON string. */
void bb_json_write_string(FILE *f, const char *s);

#endif
