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

/* src with newline, tab, CR as \n \t \r and other control characters
 * (C0, DEL, C1) as \xNN, into dst (len bytes, always terminated).  Returns
 * the escaped length, which may be len or more when dst is too small.
 * bb_warn and bb_die write every message through it. */
size_t bb_escape(char *dst, size_t len, const char *src);

/* Allocation helpers that end the program with exit 1 on failure. */
void *bb_xmalloc(size_t n);
void *bb_xcalloc(size_t n, size_t size);
void *bb_xrealloc(void *p, size_t n);
char *bb_xstrdup(const char *s);

#endif
