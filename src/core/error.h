/* error.h - uniform diagnostics and exit codes for every applet.
 *
 * Exit codes follow docs/DESIGN.md ("Errors"): 2 for a bad option or value, 1 for a
 * resource failure (memory, file, socket), 0 for success.  Messages are a
 * single line prefixed with the program and applet name.
 */
#ifndef BB_ERROR_H
#define BB_ERROR_H

#include <stddef.h>

enum { BB_EXIT_OK = 0, BB_EXIT_FAIL = 1, BB_EXIT_USAGE = 2 };

/* Set by bb_die and bb_die_usage: the exit has said why already. */
extern int bb_error_exit;

void bb_set_prog(const char *name);
const char *bb_prog(void);

void bb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Called before every bb_warn/bb_die message (NULL: nothing): the quick
 * suite's progress line then ends first (core/progress.c). */
void bb_error_before(void (*fn)(void));
_Noreturn void bb_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void bb_die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* src with newline, tab, CR as \n \t \r, other control characters (C0,
 * DEL, C1) and every byte of no valid UTF-8 sequence as \xNN, into dst
 * (len bytes, always terminated): one line of valid UTF-8 that moves no
 * cursor.  Returns the escaped length, which may be len or more when dst
 * is too small; 4 x strlen(src) + 1 bytes always do.  bb_warn and bb_die
 * write every message through it, and the results reader every string. */
size_t bb_escape(char *dst, size_t len, const char *src);

/* Length of the valid UTF-8 sequence at s (1 for ASCII, 2..4), or 0 when
 * s starts no valid one (a stray byte, an overlong form, a surrogate). */
int bb_utf8_len(const unsigned char *s);

/* Allocation helpers that end the program with exit 1 on failure. */
void *bb_xmalloc(size_t n);
void *bb_xcalloc(size_t n, size_t size);
void *bb_xrealloc(void *p, size_t n);
char *bb_xstrdup(const char *s);

#endif
