/* jsonscan.h - a bounded scan of JSON text that knows where it is: the key
 * path ("results[0].series[3].samples") at a byte offset, and whether the
 * nesting goes deeper than a limit.  It never builds a tree, allocates
 * nothing and accepts any bytes, so the reader can check a file's depth
 * before cJSON recurses into it, and name the key where cJSON found a
 * syntax error.  It is not a validator: cJSON decides what is JSON. */
#ifndef BB_TOOLS_JSONSCAN_H
#define BB_TOOLS_JSONSCAN_H

#include <stddef.h>

/* Scans buf[0..len) up to offset stop.  Returns 1 when an object or
 * array opens deeper than max_depth before stop (path then names where),
 * else 0 with path naming the key or element being read at stop.
 * max_depth is at most 64; path is always NUL-terminated. */
int bb_json_scan(const char *buf, size_t len, size_t stop, int max_depth, char *path,
		 size_t pathlen);

#endif
