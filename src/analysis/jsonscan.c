/* jsonscan.c - where am I in this JSON text?  A stack of frames (object
 * key or array index) advanced by the structural characters, with strings
 * skipped so brackets inside them do not count.  See jsonscan.h. */
#include "analysis/jsonscan.h"

#include <stdio.h>
#include <string.h>

#define SCAN_MAX_DEPTH 64
#define SCAN_KEY 48

struct frame {
	int array;
	int want_key;          /* objects: the next string is a key */
	size_t index;          /* arrays: the element being read */
	char key[SCAN_KEY];    /* objects: the last key read, "" before one */
};

struct scan {
	struct frame f[SCAN_MAX_DEPTH];
	int depth;
};

/* Skips the string whose opening quote is at buf[i]; returns the index of
 * the closing quote (or len) and copies a printable prefix into key. */
static size_t skip_string(const char *buf, size_t len, size_t i, char *key)
{
	size_t k = 0;

	for (i++; i < len && buf[i] != '"'; i++) {
		if (buf[i] == '\\' && i + 1 < len)
			i++;
		if (k + 1 < SCAN_KEY)
			key[k++] = (buf[i] >= 0x20 && buf[i] < 0x7f) ? buf[i] : '?';
	}
	key[k] = '\0';
	return i;
}

static void build_path(const struct scan *s, char *path, size_t len)
{
	size_t n = 0;

	path[0] = '\0';
	for (int d = 0; d < s->depth && n + 1 < len; d++) {
		const struct frame *f = &s->f[d];
		if (f->array)
			snprintf(path + n, len - n, "[%zu]", f->index);
		else if (f->key[0])
			snprintf(path + n, len - n, "%s%s", n ? "." : "", f->key);
		n += strlen(path + n);
	}
}

static void on_string(struct scan *s, const char *key)
{
	struct frame *f = s->depth ? &s->f[s->depth - 1] : NULL;

	if (f && !f->array && f->want_key) {
		snprintf(f->key, sizeof f->key, "%s", key);
		f->want_key = 0;
	}
}

static void on_comma(struct scan *s)
{
	struct frame *f = s->depth ? &s->f[s->depth - 1] : NULL;

	if (!f)
		return;
	if (f->array)
		f->index++;
	else
		f->want_key = 1;
}

static void open_frame(struct scan *s, int array)
{
	struct frame *f = &s->f[s->depth++];

	memset(f, 0, sizeof *f);
	f->array = array;
	f->want_key = !array;
}

int bb_json_scan(const char *buf, size_t len, size_t stop, int max_depth, char *path,
		 size_t pathlen)
{
	struct scan s = { .depth = 0 };
	char key[SCAN_KEY];

	if (max_depth > SCAN_MAX_DEPTH)
		max_depth = SCAN_MAX_DEPTH;
	if (stop > len)
		stop = len;
	for (size_t i = 0; i < stop; i++) {
		switch (buf[i]) {
		case '"':
			i = skip_string(buf, len, i, key);
			on_string(&s, key);
			break;
		case '{':
		case '[':
			if (s.depth >= max_depth) {
				build_path(&s, path, pathlen);
				return 1;
			}
			open_frame(&s, buf[i] == '[');
			break;
		case '}':
		case ']':
			if (s.depth)
				s.depth--;
			break;
		case ',':
			on_comma(&s);
			break;
		default:
			break;
		}
	}
	build_path(&s, path, pathlen);
	return 0;
}
