/* error.c - one-line diagnostics (escaped, so always one line), exit codes
 * and checked allocation. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char prog_name[64] = "boardbench";
int bb_error_exit;

void bb_set_prog(const char *name)
{
	snprintf(prog_name, sizeof prog_name, "%s", name);
}

const char *bb_prog(void)
{
	return prog_name;
}

int bb_utf8_len(const unsigned char *s)
{
	int n;
	unsigned min;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) { n = 2; cp = s[0] & 0x1f; min = 0x80; }
	else if ((s[0] & 0xf0) == 0xe0) { n = 3; cp = s[0] & 0x0f; min = 0x800; }
	else if ((s[0] & 0xf8) == 0xf0) { n = 4; cp = s[0] & 0x07; min = 0x10000; }
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

size_t bb_escape(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (const unsigned char *s = (const unsigned char *)src; *s;) {
		char esc[16];
		int u = bb_utf8_len(s), step = u ? u : 1;
		if (*s == '\n' || *s == '\t' || *s == '\r')
			snprintf(esc, sizeof esc, "\\%c", *s == '\n' ? 'n' : *s == '\t' ? 't' : 'r');
		else if (*s < 0x20 || *s == 0x7f || !u)
			snprintf(esc, sizeof esc, "\\x%02X", *s);
		else if (*s == 0xc2 && s[1] <= 0x9f)   /* C1 controls in UTF-8 (u is 2) */
			snprintf(esc, sizeof esc, "\\xC2\\x%02X", s[1]);
		else
			memcpy(esc, s, (size_t)u), esc[u] = '\0';
		s += step;
		for (const char *e = esc; *e; e++, n++)
			if (n + 1 < len)
				dst[n] = *e;
	}
	if (len)
		dst[n < len ? n : len - 1] = '\0';
	return n;
}

static void (*before)(void);

void bb_error_before(void (*fn)(void))
{
	before = fn;
}

/* One line, whatever the arguments hold: a newline or control character
 * in a file name or option value is written escaped (\n, \t, \xNN), so it
 * can neither forge a second line nor move the terminal's cursor. */
static void vmessage(const char *fmt, va_list ap)
{
	char text[1024], line[4096], *big = NULL;
	const char *msg = text;
	va_list copy;
	int n;

	fflush(stdout);
	if (before)
		before();
	va_copy(copy, ap);
	n = vsnprintf(text, sizeof text, fmt, ap);
	if (n >= (int)sizeof text && (big = malloc((size_t)n + 1))) {
		vsnprintf(big, (size_t)n + 1, fmt, copy);
		msg = big;
	}
	va_end(copy);
	fprintf(stderr, "%s: ", prog_name);
	if (bb_escape(line, sizeof line, msg) < sizeof line) {
		fputs(line, stderr);
	} else {
		char *esc = malloc(4 * strlen(msg) + 1);
		if (esc)
			bb_escape(esc, 4 * strlen(msg) + 1, msg);
		fputs(esc ? esc : line, stderr);
		free(esc);
	}
	fputc('\n', stderr);
	free(big);
}

void bb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
}

void bb_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	bb_error_exit = 1;
	exit(BB_EXIT_FAIL);
}

void bb_die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	bb_error_exit = 1;
	exit(BB_EXIT_USAGE);
}

void *bb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		bb_die("out of memory allocating %zu bytes", n);
	return p;
}

void *bb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		bb_die("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

void *bb_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		bb_die("out of memory allocating %zu bytes", n);
	return q;
}

char *bb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = bb_xmalloc(n);
	memcpy(d, s, n);
	return d;
}
