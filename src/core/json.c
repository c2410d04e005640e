/* json.c - streaming JSON writer with strict string escaping. */
#include "json.h"
#include "error.h"

#include <math.h>
#include <string.h>

void bb_json_init(struct bb_json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof *j);
	j->f = f;
	j->pretty = pretty;
}

static void indent(struct bb_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator and indentation before any value or key. */
static void before_item(struct bb_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0 && j->count[j->depth]++ > 0)
		fputc(',', j->f);
	if (j->depth > 0)
		indent(j);
}

static void open_(struct bb_json *j, char c)
{
	before_item(j);
	fputc(c, j->f);
	if (j->depth < BB_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->count[j->depth] = 0;
}

static void close_(struct bb_json *j, char c)
{
	int had = j->count[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->f);
	if (j->depth == 0 && j->pretty)
		fputc('\n', j->f);
}

void bb_json_obj_begin(struct bb_json *j) { open_(j, '{'); }
void bb_json_obj_end(struct bb_json *j) { close_(j, '}'); }
void bb_json_arr_begin(struct bb_json *j) { open_(j, '['); }
void bb_json_arr_end(struct bb_json *j) { close_(j, ']'); }

void bb_json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		int n;
		switch (*s) {
		case '"': fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		case '\b': fputs("\\b", f); s++; continue;
		case '\f': fputs("\\f", f); s++; continue;
		default: break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		n = bb_utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		fwrite(s, 1, (size_t)n, f);
		s += n;
	}
	fputc('"', f);
}

void bb_json_key(struct bb_json *j, const char *key)
{
	before_item(j);
	bb_json_write_string(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void bb_json_str(struct bb_json *j, const char *s)
{
	before_item(j);
	bb_json_write_string(j->f, s);
}

void bb_json_num(struct bb_json *j, double v)
{
	before_item(j);
	if (isfinite(v))
		fprintf(j->f, "%.17g", v);
	else
		fputs("null", j->f);
}

void bb_json_int(struct bb_json *j, long long v)
{
	before_item(j);
	fprintf(j->f, "%lld", v);
}

void bb_json_uint(struct bb_json *j, uint64_t v)
{
	before_item(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void bb_json_bool(struct bb_json *j, int v)
{
	before_item(j);
	fputs(v ? "true" : "false", j->f);
}

void bb_json_null(struct bb_json *j)
{
	before_item(j);
	fputs("null", j->f);
}

void bb_json_kstr(struct bb_json *j, const char *k, const char *s) { bb_json_key(j, k); bb_json_str(j, s); }
void bb_json_knum(struct bb_json *j, const char *k, double v) { bb_json_key(j, k); bb_json_num(j, v); }
void bb_json_kint(struct bb_json *j, const char *k, long long v) { bb_json_key(j, k); bb_json_int(j, v); }
void bb_json_kuint(struct bb_json *j, const char *k, uint64_t v) { bb_json_key(j, k); bb_json_uint(j, v); }
void bb_json_kbool(struct bb_json *j, const char *k, int v) { bb_json_key(j, k); bb_json_bool(j, v); }
