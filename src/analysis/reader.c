/* reader.c - results JSON -> struct bb_rrun, checking every field used
 * (see reader.h).  The path of the key being read is kept as the reader
 * descends, so the first problem is reported as "FILE: KEY: what". */
#include "analysis/reader.h"
#include "analysis/jsonscan.h"
#include "core/emit.h"
#include "core/error.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rd {
	char file[256];
	char path[512];
	size_t plen;
	char *err;
	size_t errlen;
};

/* One line into r->err: the file, where in it (when the fault is the
 * file's), and what. */
static void say(struct rd *r, int where, const char *fmt, va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (where && r->plen)
		snprintf(r->err, r->errlen, "%s: %s: %s", r->file, r->path, msg);
	else
		snprintf(r->err, r->errlen, "%s: %s", r->file, msg);
}

static int fail(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(r, 1, fmt, ap);
	va_end(ap);
	return -1;
}

/* The same line, for a failure of the machine rather than of the file
 * (out of memory, a read error): the caller exits 1, not 2. */
static int fail_resource(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail_resource(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(r, 0, fmt, ap);
	va_end(ap);
	return BB_READ_RESOURCE;
}

/* cJSON returns NULL for bad JSON and for a failed allocation alike: its
 * allocations go through here so that the second can be told apart. */
static int cjson_oom;

static void *cjson_malloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		cjson_oom = 1;
	return p;
}

static void cjson_hooks(void)
{
	static int installed;
	cJSON_Hooks h = { cjson_malloc, free };

	if (!installed)
		cJSON_InitHooks(&h);
	installed = 1;
}

/* A key joins the path escaped (bb_escape): a newline in a key name must
 * not make the error about it two lines. */
static size_t push_key(struct rd *r, const char *key)
{
	size_t old = r->plen;

	snprintf(r->path + old, sizeof r->path - old, "%s", old ? "." : "");
	r->plen = strlen(r->path);
	bb_escape(r->path + r->plen, sizeof r->path - r->plen, key);
	r->plen = strlen(r->path);
	return old;
}

static size_t push_index(struct rd *r, size_t i)
{
	size_t old = r->plen;

	snprintf(r->path + old, sizeof r->path - old, "[%zu]", i);
	r->plen = strlen(r->path);
	return old;
}

static void pop(struct rd *r, size_t old)
{
	r->plen = old;
	r->path[old] = '\0';
}

/* Copy with control characters and bytes that are not UTF-8 escaped
 * (bb_escape: \n, \t, \xNN). */
static char *clean_dup(const char *s)
{
	size_t len = 4 * strlen(s) + 1;
	char *d = bb_xmalloc(len);

	bb_escape(d, len, s);
	return d;
}

static const char *type_name(const cJSON *v)
{
	if (!v)
		return "nothing";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsArray(v))
		return "an array";
	return "an object";
}

/* ---- scalar fields ---- */

static int want_type(struct rd *r, const cJSON *v, int ok, const char *what)
{
	return ok ? 0 : fail(r, "expected %s, got %s", what, type_name(v));
}

static int read_string(struct rd *r, const cJSON *v, size_t max, char **out)
{
	if (want_type(r, v, cJSON_IsString(v), "a string"))
		return -1;
	if (strlen(v->valuestring) > max)
		return fail(r, "a string of %zu bytes, more than the %zu allowed",
			    strlen(v->valuestring), max);
	*out = clean_dup(v->valuestring);
	return 0;
}

/* Every number of a results file: finite, of magnitude at most 2^63, so
 * that no figure derived from it prints with hundreds of digits. */
static int in_range(struct rd *r, const cJSON *v)
{
	if (!isfinite(v->valuedouble))
		return fail(r, "expected a finite number, got one out of range");
	if (fabs(v->valuedouble) > BB_READ_MAX_MAGNITUDE)
		return fail(r, "%g is out of range: numbers in results files lie within +-2^63 "
			    "(9.2e18)", v->valuedouble);
	return 0;
}

static int read_finite(struct rd *r, const cJSON *v, double *out)
{
	if (want_type(r, v, cJSON_IsNumber(v), "a finite number"))
		return -1;
	if (in_range(r, v))
		return -1;
	*out = v->valuedouble;
	return 0;
}

/* obj[key]: the item, NULL when absent (an error when required). */
static const cJSON *member(struct rd *r, const cJSON *obj, const char *key, int required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v && required)
		fail(r, "missing key \"%s\"", key);
	return v;
}

/* A string member; dflt (copied) when absent and dflt is given. */
static int get_string(struct rd *r, const cJSON *obj, const char *key, size_t max,
		      const char *dflt, char **out)
{
	const cJSON *v = member(r, obj, key, dflt == NULL);
	size_t old;
	int rc;

	if (!v) {
		if (!dflt)
			return -1;
		*out = bb_xstrdup(dflt);
		return 0;
	}
	old = push_key(r, key);
	rc = read_string(r, v, max, out);
	pop(r, old);
	return rc;
}

static int get_finite(struct rd *r, const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = member(r, obj, key, 1);
	size_t old;
	int rc;

	if (!v)
		return -1;
	old = push_key(r, key);
	rc = read_finite(r, v, out);
	pop(r, old);
	return rc;
}

/* ---- key/value objects (tool, system, labels, params, values) ---- */

static void kv_set(struct bb_rkv *kv, const cJSON *v)
{
	char num[64];

	kv->num = NAN;
	if (cJSON_IsNumber(v)) {
		kv->num = v->valuedouble;
		snprintf(num, sizeof num, "%.17g", v->valuedouble);
		kv->s = bb_xstrdup(num);
	} else if (cJSON_IsBool(v)) {
		kv->num = cJSON_IsTrue(v);
		kv->s = bb_xstrdup(cJSON_IsTrue(v) ? "true" : "false");
	} else {
		kv->s = bb_xstrdup("");
	}
}

/* One scalar member; objects and arrays inside are skipped. */
static int kv_add(struct rd *r, struct bb_rkvs *l, const cJSON *v)
{
	struct bb_rkv *kv;
	size_t old;

	if (cJSON_IsObject(v) || cJSON_IsArray(v))
		return 0;
	old = push_key(r, v->string ? v->string : "?");
	kv = &l->v[l->n];
	if (strlen(v->string ? v->string : "") > BB_READ_MAX_NAME) {
		pop(r, old);
		return fail(r, "a key longer than %d bytes", BB_READ_MAX_NAME);
	}
	if ((cJSON_IsString(v) && read_string(r, v, BB_READ_MAX_STRING, &kv->s)) ||
	    (cJSON_IsNumber(v) && in_range(r, v))) {
		pop(r, old);
		return -1;
	}
	if (cJSON_IsString(v))
		kv->num = NAN;
	else
		kv_set(kv, v);
	kv->key = clean_dup(v->string ? v->string : "");
	l->n++;
	pop(r, old);
	return 0;
}

/* An optional object of scalars. */
static int get_kvs(struct rd *r, const cJSON *obj, const char *key, struct bb_rkvs *l)
{
	const cJSON *o = member(r, obj, key, 0), *v;
	size_t old, n;
	int rc = 0;

	if (!o)
		return 0;
	old = push_key(r, key);
	if (want_type(r, o, cJSON_IsObject(o), "an object")) {
		pop(r, old);
		return -1;
	}
	n = (size_t)cJSON_GetArraySize(o);
	if (n > BB_READ_MAX_ITEMS)
		rc = fail(r, "%zu keys, more than the %d allowed", n, BB_READ_MAX_ITEMS);
	else
		l->v = bb_xcalloc(n, sizeof *l->v);
	cJSON_ArrayForEach(v, o) {
		if (rc || (rc = kv_add(r, l, v)))
			break;
	}
	if (!rc)
		pop(r, old);
	return rc;
}

/* ---- arrays ---- */

/* obj[key] as an array of at most max elements; its size in *n. */
static const cJSON *get_array(struct rd *r, const cJSON *obj, const char *key, size_t max,
			      size_t *n)
{
	const cJSON *a = member(r, obj, key, 1);
	size_t old;

	if (!a)
		return NULL;
	old = push_key(r, key);
	if (want_type(r, a, cJSON_IsArray(a), "an array"))
		return NULL;
	*n = (size_t)cJSON_GetArraySize(a);
	if (*n > max) {
		fail(r, "%zu elements, more than the %zu allowed", *n, max);
		return NULL;
	}
	pop(r, old);
	return a;
}

typedef int (*read_fn)(struct rd *r, const cJSON *v, void *out);

/* Reads each element of the array a (obj[key]) into base[i] with fn. */
static int read_each(struct rd *r, const char *key, const cJSON *a, void *base, size_t size,
		     read_fn fn)
{
	size_t i = 0, old = push_key(r, key);
	const cJSON *v;

	cJSON_ArrayForEach(v, a) {
		size_t at = push_index(r, i);
		if (fn(r, v, (char *)base + size * i++))
			return -1;
		pop(r, at);
	}
	pop(r, old);
	return 0;
}

static int read_sample(struct rd *r, const cJSON *v, void *out)
{
	return read_finite(r, v, out);
}

static int read_samples(struct rd *r, const cJSON *obj, struct bb_rseries *s)
{
	const cJSON *a = get_array(r, obj, "samples", BB_READ_MAX_SAMPLES, &s->n);

	if (!a)
		return -1;
	s->samples = bb_xcalloc(s->n, sizeof *s->samples);
	return read_each(r, "samples", a, s->samples, sizeof *s->samples, read_sample);
}

static int read_discard(struct rd *r, const cJSON *obj, struct bb_rseries *s)
{
	double d;
	size_t old;

	if (get_finite(r, obj, "discard", &d))
		return -1;
	old = push_key(r, "discard");
	if (d < 0 || d != floor(d) || d > (double)s->n) {
		fail(r, "expected a whole number from 0 to the %zu samples, got %g", s->n, d);
		return -1;
	}
	pop(r, old);
	s->discard = (size_t)d;
	return 0;
}

static int read_work(struct rd *r, const cJSON *obj, struct bb_rseries *s)
{
	size_t old;

	if (get_finite(r, obj, "work", &s->work))
		return -1;
	if (s->work >= 0)
		return 0;
	old = push_key(r, "work");
	fail(r, "expected a number of 0 or more, got %g", s->work);
	pop(r, old);
	return -1;
}

static int read_series(struct rd *r, const cJSON *o, void *out)
{
	struct bb_rseries *s = out;

	if (want_type(r, o, cJSON_IsObject(o), "an object"))
		return -1;
	if (get_string(r, o, "name", BB_READ_MAX_NAME, NULL, &s->name) ||
	    get_string(r, o, "variant", BB_READ_MAX_NAME, NULL, &s->variant) ||
	    get_string(r, o, "unit", BB_READ_MAX_NAME, NULL, &s->unit) ||
	    get_string(r, o, "work_unit", BB_READ_MAX_NAME, NULL, &s->work_unit) ||
	    read_work(r, o, s) || read_samples(r, o, s) || read_discard(r, o, s))
		return -1;
	return get_kvs(r, o, "values", &s->values);
}

static int read_result(struct rd *r, const cJSON *o, void *out)
{
	struct bb_rresult *res = out;
	const cJSON *a;

	if (want_type(r, o, cJSON_IsObject(o), "an object"))
		return -1;
	if (get_string(r, o, "applet", BB_READ_MAX_NAME, NULL, &res->applet) ||
	    get_string(r, o, "status", BB_READ_MAX_NAME, "ok", &res->status) ||
	    get_string(r, o, "message", BB_READ_MAX_STRING, "", &res->message) ||
	    get_kvs(r, o, "params", &res->params))
		return -1;
	if (!(a = get_array(r, o, "series", BB_READ_MAX_SERIES, &res->n)))
		return -1;
	res->series = bb_xcalloc(res->n, sizeof *res->series);
	return read_each(r, "series", a, res->series, sizeof *res->series, read_series);
}

/* ---- the top level ---- */

static int check_schema(struct rd *r, const cJSON *root)
{
	const cJSON *v;
	char *name = NULL;
	int rc;

	if (want_type(r, root, cJSON_IsObject(root), "an object at the top"))
		return -1;
	if (get_string(r, root, "schema", BB_READ_MAX_NAME, NULL, &name))
		return -1;
	rc = strcmp(name, BB_SCHEMA_NAME) == 0;
	free(name);
	if (!rc) {
		push_key(r, "schema");
		return fail(r, "expected \"%s\": not a boardbench results file", BB_SCHEMA_NAME);
	}
	if (!(v = member(r, root, "schema_version", 1)))
		return -1;
	push_key(r, "schema_version");
	if (!cJSON_IsNumber(v))
		return want_type(r, v, 0, "a number");
	if (v->valuedouble != BB_SCHEMA_VERSION)
		return fail(r, "version %g is not supported (this boardbench reads %d)",
			    v->valuedouble, BB_SCHEMA_VERSION);
	pop(r, 0);
	return 0;
}

/* system.caches -> "L1d 32K, L2 1M": for the report's metadata table. */
static void read_caches(const cJSON *root, struct bb_rrun *run)
{
	const cJSON *sys = cJSON_GetObjectItemCaseSensitive(root, "system");
	const cJSON *a = sys ? cJSON_GetObjectItemCaseSensitive(sys, "caches") : NULL, *c;
	char buf[512] = "";
	size_t n = 0;

	if (!cJSON_IsArray(a))
		a = NULL;
	cJSON_ArrayForEach(c, a) {
		const cJSON *lv = cJSON_GetObjectItemCaseSensitive(c, "level");
		const cJSON *ty = cJSON_GetObjectItemCaseSensitive(c, "type");
		const cJSON *sz = cJSON_GetObjectItemCaseSensitive(c, "size_bytes");
		if (!cJSON_IsNumber(lv) || !cJSON_IsNumber(sz) || n + 1 >= sizeof buf)
			continue;
		snprintf(buf + n, sizeof buf - n, "%sL%.0f%s %.0fK", n ? ", " : "",
			 fmin(fmax(lv->valuedouble, 0), 9),
			 cJSON_IsString(ty) && strcmp(ty->valuestring, "Data") == 0 ? "d" :
			 cJSON_IsString(ty) && strcmp(ty->valuestring, "Instruction") == 0 ? "i" : "",
			 fmin(fmax(sz->valuedouble / 1024, 0), 1e12));
		n = strlen(buf);
	}
	run->caches = clean_dup(buf);
}

static int read_results(struct rd *r, const cJSON *root, struct bb_rrun *run)
{
	const cJSON *a = get_array(r, root, "results", BB_READ_MAX_RESULTS, &run->n);

	if (!a)
		return -1;
	run->results = bb_xcalloc(run->n, sizeof *run->results);
	return read_each(r, "results", a, run->results, sizeof *run->results, read_result);
}

static int read_root(struct rd *r, const cJSON *root, struct bb_rrun *run)
{
	if (check_schema(r, root) ||
	    get_string(r, root, "started_utc", BB_READ_MAX_NAME, "", &run->started) ||
	    get_kvs(r, root, "tool", &run->tool) || get_kvs(r, root, "labels", &run->labels) ||
	    get_kvs(r, root, "system", &run->system))
		return -1;
	read_caches(root, run);
	return read_results(r, root, run);
}

/* ---- duplicate keys ---- */

static int cmp_member(const void *a, const void *b)
{
	return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* A key that appears twice in the object o, or NULL: sorted, so that an
 * object of many keys costs n log n, not n^2. */
static const char *duplicate_key(const cJSON *o)
{
	const cJSON *v, **m;
	const char *dup = NULL;
	size_t n = 0;

	cJSON_ArrayForEach(v, o)
		n++;
	if (n < 2)
		return NULL;
	m = bb_xcalloc(n, sizeof *m);
	n = 0;
	cJSON_ArrayForEach(v, o)
		m[n++] = v;
	qsort(m, n, sizeof *m, cmp_member);
	for (size_t i = 1; i < n && !dup; i++)
		if (strcmp(m[i - 1]->string, m[i]->string) == 0)
			dup = m[i]->string;
	free(m);
	return dup;
}

/* No object anywhere in v has a key twice: which of the two was meant
 * cannot be known, so neither is used.  Depth is bounded by the scan. */
static int check_keys(struct rd *r, const cJSON *v)
{
	const cJSON *c;
	const char *dup;
	char shown[BB_READ_MAX_NAME + 1];
	size_t i = 0;

	if (cJSON_IsObject(v) && (dup = duplicate_key(v))) {
		bb_escape(shown, sizeof shown, dup);   /* one line, whatever the key holds */
		return fail(r, "duplicate key \"%s\"", shown);
	}
	cJSON_ArrayForEach(c, v) {
		size_t old = cJSON_IsObject(v) ? push_key(r, c->string) : push_index(r, i);
		if (check_keys(r, c))
			return -1;
		pop(r, old);
		i++;
	}
	return 0;
}

/* Syntax, size and depth problems, found before or by cJSON. */
static int syntax_error(struct rd *r, const char *buf, size_t len, size_t at)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < at && i < len; i++, col++)
		if (buf[i] == '\n') {
			line++;
			col = 0;
		}
	bb_json_scan(buf, len, at, BB_READ_MAX_DEPTH, r->path, sizeof r->path);
	r->plen = strlen(r->path);
	return fail(r, "not valid JSON (line %zu, column %zu)", line, col);
}

/* The text with each \u0000 inside a string made \\x00, which cJSON reads
 * as the text \x00: a NUL would end its C string there and make "A\u0000x"
 * and "A\u0000y" one.  NULL (nothing to change) or a new text, NUL-ended. */
static char *nul_escapes(const char *buf, size_t len, size_t *outlen)
{
	char *out, *o;
	int in_string = 0;

	if (!memmem(buf, len, "\\u0000", 6))
		return NULL;
	o = out = bb_xmalloc(len + 1);
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '"')
			in_string = !in_string;
		if (in_string && buf[i] == '\\' && len - i >= 6 && memcmp(buf + i, "\\u0000", 6) == 0) {
			memcpy(o, "\\\\x00", 5);
			o += 5;
			i += 5;
			continue;
		}
		*o++ = buf[i];
		if (in_string && buf[i] == '\\' && i + 1 < len)
			*o++ = buf[++i];   /* an escaped character, \" and \\ included */
	}
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}

/* Parses buf (len bytes, a NUL after them) after the checks cJSON does not
 * make: emptiness, NUL bytes, depth; then no key twice in an object. */
static int parse_text(struct rd *r, const char *buf, size_t len, cJSON **root)
{
	const char *end = NULL;

	if (len == 0)
		return fail(r, "empty file");
	if (memchr(buf, '\0', len))
		return fail(r, "a NUL byte at offset %zu: not a JSON text",
			    (size_t)((const char *)memchr(buf, '\0', len) - buf));
	if (bb_json_scan(buf, len, len, BB_READ_MAX_DEPTH, r->path, sizeof r->path)) {
		r->plen = strlen(r->path);
		return fail(r, "nested deeper than %d levels", BB_READ_MAX_DEPTH);
	}
	/* len + 1 takes in the NUL the caller placed after the text, so that
	 * cJSON can insist nothing follows the value. */
	cjson_hooks();
	cjson_oom = 0;
	*root = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (!*root && cjson_oom)
		return fail_resource(r, "out of memory reading %zu bytes of JSON", len);
	if (!*root)
		return syntax_error(r, buf, len, end ? (size_t)(end - buf) : len);
	if (check_keys(r, *root)) {
		cJSON_Delete(*root);
		*root = NULL;
		return -1;
	}
	return 0;
}

/* The text as parse_text reads it: a \u0000 read as the text \x00. */
static int parse_checked(struct rd *r, const char *buf, size_t len, cJSON **root)
{
	char *nul_free = memchr(buf, '\0', len) ? NULL : nul_escapes(buf, len, &len);
	int rc = parse_text(r, nul_free ? nul_free : buf, len, root);

	free(nul_free);
	return rc;
}

static void set_name(struct rd *r, const char *name, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	bb_escape(r->file, sizeof r->file, name);   /* "a\nb.json": one line whatever the name */
	r->err = err;
	r->errlen = errlen;
}

/* buf must have a NUL at buf[len]. */
static int read_text(const char *name, const char *buf, size_t len, struct bb_rrun *run,
		     char *err, size_t errlen)
{
	struct rd r;
	cJSON *root = NULL;
	int rc;

	set_name(&r, name, err, errlen);
	memset(run, 0, sizeof *run);
	run->path = clean_dup(name);
	if ((rc = parse_checked(&r, buf, len, &root)))
		return rc;
	rc = read_root(&r, root, run);
	cJSON_Delete(root);
	return rc;
}

int bb_read_buf(const char *name, const char *buf, size_t len, struct bb_rrun *run,
		char *err, size_t errlen)
{
	char *copy = bb_xmalloc(len + 1);
	int rc;

	memcpy(copy, buf, len);
	copy[len] = '\0';
	rc = read_text(name, copy, len, run, err, errlen);
	free(copy);
	return rc;
}

static const char *kind_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : "not a file";
}

/* The whole file, NUL-terminated, in *buf; -1 (the file) or
 * BB_READ_RESOURCE (the machine) with err set on failure.  Opened without
 * blocking and checked to be a regular file first: a FIFO named x.json
 * would otherwise wait for a writer forever. */
static int slurp(struct rd *r, const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	size_t size;
	int e;

	if (fd < 0)
		return fail(r, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return fail_resource(r, "cannot stat: %s", strerror(e));
	}
	if (!S_ISREG(st.st_mode) || st.st_size > BB_READ_MAX_BYTES) {
		close(fd);
		if (!S_ISREG(st.st_mode))
			return fail(r, "not a regular file (%s): not read", kind_name(st.st_mode));
		return fail(r, "%lld bytes, more than the %u allowed", (long long)st.st_size,
			    BB_READ_MAX_BYTES);
	}
	size = (size_t)st.st_size;
	if (!(*buf = malloc(size + 1))) {
		close(fd);
		return fail_resource(r, "out of memory reading %zu bytes", size);
	}
	for (*len = 0; *len < size;) {
		ssize_t got = read(fd, *buf + *len, size - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			e = got < 0 ? errno : 0;
			close(fd);
			free(*buf);
			*buf = NULL;
			return e ? fail_resource(r, "read error: %s", strerror(e))
				 : fail(r, "shorter than its size: changed while read");
		}
		*len += (size_t)got;
	}
	(*buf)[*len] = '\0';
	close(fd);
	return 0;
}

int bb_read_file(const char *path, struct bb_rrun *run, char *err, size_t errlen)
{
	struct rd r;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	set_name(&r, path, err, errlen);
	memset(run, 0, sizeof *run);
	if ((rc = slurp(&r, path, &buf, &len)))
		return rc;
	rc = read_text(path, buf, len, run, err, errlen);
	free(buf);
	return rc;
}

/* ---- access and cleanup ---- */

static void kvs_free(struct bb_rkvs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].s);
	}
	free(l->v);
}

static void series_free(struct bb_rseries *s)
{
	free(s->name);
	free(s->variant);
	free(s->unit);
	free(s->work_unit);
	free(s->samples);
	kvs_free(&s->values);
}

void bb_rrun_free(struct bb_rrun *run)
{
	for (size_t i = 0; i < run->n && run->results; i++) {
		struct bb_rresult *res = &run->results[i];
		for (size_t j = 0; j < res->n && res->series; j++)
			series_free(&res->series[j]);
		free(res->series);
		free(res->applet);
		free(res->status);
		free(res->message);
		kvs_free(&res->params);
	}
	free(run->results);
	free(run->path);
	free(run->started);
	free(run->caches);
	kvs_free(&run->tool);
	kvs_free(&run->labels);
	kvs_free(&run->system);
	memset(run, 0, sizeof *run);
}

const char *bb_rkv_str(const struct bb_rkvs *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].s;
	return NULL;
}

double bb_rkv_num(const struct bb_rkvs *l, const char *key, double dflt)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return isnan(l->v[i].num) ? dflt : l->v[i].num;
	return dflt;
}

void bb_rrun_name(const struct bb_rrun *run, char *buf, size_t len)
{
	const char *base, *p = run->path ? run->path : "";
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < run->labels.n && n + 1 < len; i++) {
		snprintf(buf + n, len - n, "%s%s=%s", i ? "," : "", run->labels.v[i].key,
			 run->labels.v[i].s);
		n = strlen(buf);
	}
	if (n)
		return;
	base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
	snprintf(buf, len, "%s", base);
	n = strlen(buf);
	if (n > 5 && strcmp(buf + n - 5, ".json") == 0)
		buf[n - 5] = '\0';
}
