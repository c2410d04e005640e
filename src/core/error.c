/* error.c - one-line diagnostics, exit codes and checked allocation. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char prog_name[64] = "boardbench";

void bb_set_prog(const char *name)
{
	snprintf(prog_name, sizeof prog_name, "%s", name);
}

const char *bb_prog(void)
{
	return prog_name;
}

static void vmessage(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", prog_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	exit(BB_EXIT_FAIL);
}

void bb_die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
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
