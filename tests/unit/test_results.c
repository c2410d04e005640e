/* test_results.c - unit tests for the results model (src/core/results.c)
 * and the emitters that read it (src/core/emit.c): key/value lists,
 * series and their warm-up samples, the JSON document (read back with
 * cJSON), the CSV rows and their quoting, and bb_write_atomic, which must
 * leave either the complete new file or nothing new at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/emit.h"
#include "core/results.h"
#include "facts/install.h"

static char *test_argv[] = { "boardbench", "stream", "--label", "PMU=0", NULL };

/* ---- key/value lists ---- */

static void test_kv_replace_same_key(void **state)
{
	struct bb_kvlist l = { 0 };
	const struct bb_kv *kv;

	(void)state;
	bb_kv_str(&l, "a", "x");
	bb_kv_num(&l, "b", 1.5);
	bb_kv_str(&l, "a", "y");
	assert_int_equal(l.n, 2);
	kv = bb_kv_get(&l, "a");
	assert_non_null(kv);
	assert_int_equal(kv->type, BB_KV_STR);
	assert_string_equal(kv->s, "y");
	bb_kv_int(&l, "a", 7);                    /* change of type */
	assert_int_equal(l.n, 2);
	kv = bb_kv_get(&l, "a");
	assert_int_equal(kv->type, BB_KV_INT);
	assert_null(kv->s);
	assert_true(bb_kv_getnum(&l, "a", -1) == 7);
	assert_true(bb_kv_getnum(&l, "b", -1) == 1.5);
	bb_kv_free(&l);
	assert_int_equal(l.n, 0);
	assert_null(l.v);
}

static void test_kv_types_and_defaults(void **state)
{
	struct bb_kvlist l = { 0 };

	(void)state;
	bb_kv_bool(&l, "flag", 5);
	bb_kv_str(&l, "name", NULL);
	assert_int_equal(bb_kv_get(&l, "flag")->i, 1);
	assert_true(bb_kv_getnum(&l, "flag", -1) == 1);
	assert_string_equal(bb_kv_get(&l, "name")->s, "");
	assert_true(bb_kv_getnum(&l, "name", -1) == -1);     /* a string is no number */
	assert_null(bb_kv_get(&l, "missing"));
	assert_true(bb_kv_getnum(&l, "missing", 42) == 42);
	bb_kv_free(&l);
}

static void test_kv_many_keys(void **state)
{
	struct bb_kvlist l = { 0 };
	char key[16];

	(void)state;
	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof key, "k%d", i);
		bb_kv_int(&l, key, i);
	}
	for (int i = 0; i < 100; i += 2) {
		snprintf(key, sizeof key, "k%d", i);
		bb_kv_int(&l, key, -i);
	}
	assert_int_equal(l.n, 100);
	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof key, "k%d", i);
		assert_true(bb_kv_getnum(&l, key, 1e9) == (i % 2 ? i : -i));
	}
	bb_kv_free(&l);
}

/* ---- results and series ---- */

static void test_series_samples_and_discard(void **state)
{
	struct bb_run *run = bb_run_new(1, test_argv);
	struct bb_result *r = bb_run_add_result(run, "stream");
	struct bb_series *s = bb_result_add_series(r, "Triad", "c", "s", 24e6, "bytes");
	const double *kept;
	size_t n;

	(void)state;
	assert_int_equal(r->ok, 1);
	for (int i = 0; i < 100; i++)
		bb_series_add(s, i * 0.5);
	assert_int_equal(s->n, 100);
	for (int i = 0; i < 100; i++)
		assert_true(s->samples[i] == i * 0.5);
	kept = bb_series_kept(s, &n);
	assert_int_equal(n, 100);
	assert_ptr_equal(kept, s->samples);
	s->discard = 3;
	kept = bb_series_kept(s, &n);
	assert_int_equal(n, 97);
	assert_true(kept[0] == 1.5);
	s->discard = 1000;                        /* more than recorded */
	kept = bb_series_kept(s, &n);
	assert_int_equal(n, 0);
	bb_run_free(run);
}

static void test_result_find(void **state)
{
	struct bb_run *run = bb_run_new(1, test_argv);
	struct bb_result *r = bb_run_add_result(run, "stream");
	struct bb_series *a, *b, *c;

	(void)state;
	a = bb_result_add_series(r, "Copy", "c", "s", 16, "bytes");
	b = bb_result_add_series(r, "Copy", "nt-sse2", "s", 16, "bytes");
	c = bb_result_add_series(r, "Scale", NULL, "s", 16, NULL);
	for (int i = 0; i < 20; i++)               /* force the array to grow */
		bb_result_add_series(r, "Filler", "x", "s", 1, "bytes");
	assert_ptr_equal(bb_result_find(r, "Copy", "nt-sse2"), b);
	assert_ptr_equal(bb_result_find(r, "Copy", "c"), a);
	assert_ptr_equal(bb_result_find(r, "Copy", NULL), a);
	assert_ptr_equal(bb_result_find(r, "Scale", ""), c);
	assert_string_equal(c->variant, "");
	assert_string_equal(c->work_unit, "");
	assert_null(bb_result_find(r, "Triad", NULL));
	assert_null(bb_result_find(r, "Copy", "avx"));
	bb_result_set_status(r, 0, "Failed Validation");
	bb_result_set_status(r, 0, "still failed");
	assert_int_equal(r->ok, 0);
	assert_string_equal(r->message, "still failed");
	bb_run_free(run);
}

/* A run with one result: a series with a warm-up sample and tricky text. */
static struct bb_run *sample_run(void)
{
	struct bb_run *run = bb_run_new(4, test_argv);
	struct bb_result *r = bb_run_add_result(run, "stream");
	struct bb_series *s;

	bb_kv_str(&run->labels, "PMU", "0");
	bb_kv_str(&run->labels, "board", "rev \"C\", caf\xc3\xa9");
	bb_kv_int(&r->params, "array_elements", 1000000);
	s = bb_result_add_series(r, "Triad", "c", "s", 24e6, "bytes");
	s->discard = 1;
	bb_series_add(s, 9.0);
	bb_series_add(s, 3.0);
	bb_series_add(s, 1.0);
	bb_series_add(s, 2.0);
	bb_kv_num(&s->values, "best_rate_Bps", 24e6);
	s = bb_result_add_series(r, "odd, \"name\"", "", "s", 1, "bytes");
	bb_series_add(s, 0.25);
	bb_result_add_series(r, "Empty", "", "s", 1, "bytes");
	bb_result_set_status(r, 1, "Solution Validates");
	return run;
}

static char *emit_to_string(bb_emit_fn fn, const struct bb_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, run), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static cJSON *item(const cJSON *obj, const char *key)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v)
		fail_msg("JSON has no \"%s\"", key);
	return v;
}

static void check_json_header(const cJSON *doc)
{
	const cJSON *sys = item(doc, "system");

	assert_string_equal(item(doc, "schema")->valuestring, BB_SCHEMA_NAME);
	assert_int_equal(item(doc, "schema_version")->valueint, BB_SCHEMA_VERSION);
	assert_true(cJSON_IsObject(sys));
	assert_true(cJSON_IsString(item(sys, "hostname")));
	assert_true(item(sys, "cpus_online")->valuedouble >= 1);
	assert_true(item(sys, "mem_total_bytes")->valuedouble > 0);
	assert_true(cJSON_IsArray(item(sys, "caches")));
	assert_int_equal(cJSON_GetArraySize(item(doc, "command")), 4);
	assert_string_equal(cJSON_GetArrayItem(item(doc, "command"), 3)->valuestring, "PMU=0");
	assert_string_equal(item(item(doc, "labels"), "PMU")->valuestring, "0");
	assert_string_equal(item(item(doc, "labels"), "board")->valuestring,
			    "rev \"C\", caf\xc3\xa9");
	assert_true(item(item(doc, "clock"), "granularity_s")->valuedouble > 0);
}

static void check_json_series(const cJSON *ser)
{
	const cJSON *samples = item(ser, "samples"), *st = item(ser, "stats");
	static const double want[] = { 9.0, 3.0, 1.0, 2.0 };

	assert_string_equal(item(ser, "name")->valuestring, "Triad");
	assert_int_equal(item(ser, "discard")->valueint, 1);
	assert_true(item(ser, "work")->valuedouble == 24e6);
	assert_int_equal(cJSON_GetArraySize(samples), 4);  /* warm-up kept too */
	for (int i = 0; i < 4; i++)
		assert_true(cJSON_GetArrayItem(samples, i)->valuedouble == want[i]);
	assert_int_equal(item(st, "n")->valueint, 3);      /* but not in stats */
	assert_true(item(st, "min")->valuedouble == 1.0);
	assert_true(item(st, "max")->valuedouble == 3.0);
	assert_true(item(st, "median")->valuedouble == 2.0);
	assert_true(item(item(ser, "values"), "best_rate_Bps")->valuedouble == 24e6);
}

static void test_emit_json(void **state)
{
	struct bb_run *run = sample_run();
	char *out = emit_to_string(bb_emit_json, run);
	cJSON *doc = cJSON_Parse(out), *res, *series;

	(void)state;
	if (!doc)
		fail_msg("JSON does not parse:\n%s", out);
	check_json_header(doc);
	res = cJSON_GetArrayItem(item(doc, "results"), 0);
	assert_int_equal(cJSON_GetArraySize(item(doc, "results")), 1);
	assert_string_equal(item(res, "applet")->valuestring, "stream");
	assert_string_equal(item(res, "status")->valuestring, "ok");
	assert_string_equal(item(res, "message")->valuestring, "Solution Validates");
	assert_int_equal(item(item(res, "params"), "array_elements")->valueint, 1000000);
	series = item(res, "series");
	assert_int_equal(cJSON_GetArraySize(series), 3);
	check_json_series(cJSON_GetArrayItem(series, 0));
	assert_string_equal(item(cJSON_GetArrayItem(series, 1), "name")->valuestring,
			    "odd, \"name\"");
	assert_true(cJSON_IsNull(item(cJSON_GetArrayItem(series, 2), "stats")));
	cJSON_Delete(doc);
	free(out);
	bb_run_free(run);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_emit_csv(void **state)
{
	struct bb_run *run = sample_run();
	char *out = emit_to_string(bb_emit_csv, run);
	const char *labels = ",\"PMU=0;board=rev \"\"C\"\", caf\xc3\xa9\"\n";

	(void)state;
	assert_int_equal(count_lines(out), 1 + 4 + 1);  /* header + one row per sample */
	const char *head = "applet,series,variant,index,warmup,value,";

	assert_true(strncmp(out, head, strlen(head)) == 0);
	assert_non_null(strstr(out, "\nstream,Triad,c,0,1,9,s,24000000,bytes"));
	assert_non_null(strstr(out, "\nstream,Triad,c,1,0,3,s,"));
	assert_non_null(strstr(out, "\nstream,\"odd, \"\"name\"\"\",,0,0,0.25,s,1,bytes"));
	assert_non_null(strstr(out, labels));
	free(out);
	bb_run_free(run);
}

/* Many long labels (as --label allows: 63-char keys, 255-char values)
 * all reach every CSV row, none cut short. */
static void test_emit_csv_long_labels(void **state)
{
	struct bb_run *run = bb_run_new(1, test_argv);
	struct bb_series *s;
	char key[64], val[256], *out;

	(void)state;
	memset(val, 'v', 255);
	val[255] = '\0';
	for (int i = 0; i < 12; i++) {
		snprintf(key, sizeof key, "label%02d_%054d", i, 0);
		bb_kv_str(&run->labels, key, val);
	}
	s = bb_result_add_series(bb_run_add_result(run, "x"), "s", "", "s", 1, "");
	bb_series_add(s, 1.0);
	out = emit_to_string(bb_emit_csv, run);
	assert_int_equal(count_lines(out), 2);
	assert_non_null(strstr(out, "label00_"));
	assert_non_null(strstr(out, "label11_"));
	assert_true(strlen(out) > 12 * (63 + 1 + 255));
	assert_int_equal(out[strlen(out) - 257], '=');        /* last value whole */
	assert_true(strncmp(out + strlen(out) - 256, val, 255) == 0);
	free(out);
	bb_run_free(run);
}

static char *csv_field(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	bb_csv_field(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_csv_field_quoting(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "plain", "plain" }, { "", "" }, { NULL, "" },
		{ "a,b", "\"a,b\"" }, { "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" }, { "cr\r", "\"cr\r\"" },
		{ "semi;colon", "semi;colon" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = csv_field(cases[i].in);
		assert_string_equal(out, cases[i].want);
		free(out);
	}
}

/* ---- atomic writes ---- */

struct tmpdir {
	char path[64];
};

static void tmpdir_make(struct tmpdir *d)
{
	snprintf(d->path, sizeof d->path, "/tmp/bb-test-results.XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

/* Number of entries in dir other than . and ..; the names of temporary
 * files (containing ".tmp.") are counted in *tmps. */
static int dir_entries(const char *dir, int *tmps)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	*tmps = 0;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		*tmps += strstr(e->d_name, ".tmp.") != NULL;
	}
	closedir(d);
	return n;
}

/* dir holds exactly one entry, and it is no temporary file. */
static void check_only_entry(const char *dir)
{
	int tmps;

	assert_int_equal(dir_entries(dir, &tmps), 1);
	assert_int_equal(tmps, 0);
}

static void tmpdir_remove(struct tmpdir *d, const char *name)
{
	char p[128];

	snprintf(p, sizeof p, "%s/%s", d->path, name);
	unlink(p);
	rmdir(p);
	assert_int_equal(rmdir(d->path), 0);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int failing_emitter(FILE *f, const struct bb_run *run)
{
	(void)run;
	fputs("{\"half\": ", f);   /* a partial document, then failure */
	return -1;
}

static void test_write_atomic_success(void **state)
{
	struct bb_run *run = sample_run();
	struct tmpdir d;
	char path[128], err[256] = "";
	struct stat st;
	char *text;
	cJSON *doc;

	(void)state;
	tmpdir_make(&d);
	snprintf(path, sizeof path, "%s/out.json", d.path);
	write_text(path, "old contents");
	assert_int_equal(bb_write_atomic(path, bb_emit_json, run, err, sizeof err), 0);
	text = read_file(path);
	doc = cJSON_Parse(text);
	assert_non_null(doc);
	assert_int_equal(item(doc, "schema_version")->valueint, BB_SCHEMA_VERSION);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	check_only_entry(d.path);
	cJSON_Delete(doc);
	free(text);
	tmpdir_remove(&d, "out.json");
	bb_run_free(run);
}

static void test_write_atomic_emitter_fails(void **state)
{
	struct bb_run *run = sample_run();
	struct tmpdir d;
	char path[128], err[256] = "", *text;
	int tmps;

	(void)state;
	tmpdir_make(&d);
	snprintf(path, sizeof path, "%s/new.json", d.path);
	assert_int_equal(bb_write_atomic(path, failing_emitter, run, err, sizeof err), -1);
	assert_true(err[0] != '\0');
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(dir_entries(d.path, &tmps), 0);
	/* an existing file is left exactly as it was */
	write_text(path, "old contents");
	assert_int_equal(bb_write_atomic(path, failing_emitter, run, err, sizeof err), -1);
	text = read_file(path);
	assert_string_equal(text, "old contents");
	check_only_entry(d.path);
	free(text);
	tmpdir_remove(&d, "new.json");
	bb_run_free(run);
}

/* bb_write_atomic(path) must fail and say why. */
static void expect_write_fails(const char *path, const struct bb_run *run)
{
	char err[256] = "";

	assert_int_equal(bb_write_atomic(path, bb_emit_json, run, err, sizeof err), -1);
	assert_true(err[0] != '\0');
}

/* Missing directory, a file used as a directory, a directory as the target,
 * and (when not root, who may write anywhere) a read-only directory. */
static void test_write_atomic_unwritable(void **state)
{
	struct bb_run *run = sample_run();
	struct tmpdir d;
	char path[160];
	struct stat st;

	(void)state;
	tmpdir_make(&d);
	snprintf(path, sizeof path, "%s/no/such/dir/out.json", d.path);
	expect_write_fails(path, run);
	snprintf(path, sizeof path, "%s/D", d.path);
	write_text(path, "a file");
	snprintf(path, sizeof path, "%s/D/out.json", d.path);
	expect_write_fails(path, run);
	check_only_entry(d.path);
	snprintf(path, sizeof path, "%s/D", d.path);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	expect_write_fails(path, run);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	check_only_entry(d.path);
	if (geteuid() != 0) {
		assert_int_equal(chmod(d.path, 0555), 0);
		snprintf(path, sizeof path, "%s/out.json", d.path);
		expect_write_fails(path, run);
		assert_int_equal(chmod(d.path, 0755), 0);
		check_only_entry(d.path);
	}
	tmpdir_remove(&d, "D");
	bb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_replace_same_key),
		cmocka_unit_test(test_kv_types_and_defaults),
		cmocka_unit_test(test_kv_many_keys),
		cmocka_unit_test(test_series_samples_and_discard),
		cmocka_unit_test(test_result_find),
		cmocka_unit_test(test_emit_json),
		cmocka_unit_test(test_emit_csv),
		cmocka_unit_test(test_emit_csv_long_labels),
		cmocka_unit_test(test_csv_field_quoting),
		cmocka_unit_test(test_write_atomic_success),
		cmocka_unit_test(test_write_atomic_emitter_fails),
		cmocka_unit_test(test_write_atomic_unwritable),
	};

	bb_facts_install();   /* runs described and watched, as main() has them */
	return cmocka_run_group_tests_name("results", tests, NULL, NULL);
}
