/* lavalog.h - results files carried in a LAVA job's log (docs/history.md,
 * "From LAVA"): on the board, `boardbench run` output is followed by
 *   BOARDBENCH-JSON-BEGIN <name>
 *   ...the results file, as it is, line by line...
 *   BOARDBENCH-JSON-END
 * which reaches the lab's server either as the plain console text or
 * inside LAVA's log.yaml, where each console line is a
 *   - {"dt": "...", "lvl": "target", "msg": "LINE"}
 * entry.  Both are read; anything before a marker on its line (a console
 * timestamp) is ignored, and so is every line outside the markers. */
#ifndef BB_HISTORY_LAVALOG_H
#define BB_HISTORY_LAVALOG_H

#include <stddef.h>

#define HIST_LAVA_BEGIN "BOARDBENCH-JSON-BEGIN"
#define HIST_LAVA_END "BOARDBENCH-JSON-END"
#define HIST_FILE_MAX (256u << 20)   /* a LAVA log; a results file is held to the reader's */

/* A regular file read whole (at most HIST_FILE_MAX bytes), NUL-terminated;
 * NULL with err for anything else. */
char *hist_slurp(const char *path, size_t *len, char *err, size_t errlen);

int hist_lava_has_markers(const char *buf, size_t len);

/* Calls each(ctx, name, text, len) for every block, name being
 * "PATH: NAME" (or "PATH: block N").  Returns the number of blocks, 0
 * with err when none is whole (a BEGIN without its END). */
size_t hist_lava_blocks(const char *path, const char *buf, size_t len,
			void (*each)(void *ctx, const char *name, const char *text, size_t n),
			void *ctx, char *err, size_t errlen);

#endif
