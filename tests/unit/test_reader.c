/* test_reader.c - unit tests for src/analysis/reader.c and jsonscan.c: a
 * results file read back with every field, and each kind of bad input
 * (not JSON, wrong schema or version, wrong types, missing keys, arrays
 * over the limits, null and out-of-range numbers, deep nesting, NUL
 * bytes, duplicate keys, a FIFO) rejected with one line naming the file
 * and the key; control characters, \u0000 and bytes that are not UTF-8
 * kept escaped, so that strings that differ stay apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/jsonscan.h"
#include "analysis/reader.h"

#define HEAD "{\"schema\": \"boardbench-results\", \"schema_version\": 1, "
#define SERIES(samples) \
	"{\"name\": \"Triad\", \"variant\": \"c\", \"unit\": \"s\", \"work\": 24000000, " \
	"\"work_unit\": \"bytes\", \"discard\": 1, \"samples\": " samples ", "          \
	"\"values\": {\"best_rate_Bps\": 1e10, \"tuned\": 0}}"
#define RESULT(series) \
	"{\"applet\": \"stream\", \"status\": \"ok\", \"params\": {\"threads\": 2, " \
	"\"pinning\": \"no\", \"nested\": {\"x\": 1}}, \"series\": [" series "]}"
#define GOOD HEAD "\"labels\": {\"PMU\": \"0\"}, \"tool\": {\"version\": \"0.1.0\"}, " \
	"\"system\": {\"hostname\": \"board\", \"cpus_online\": 2, \"caches\": "     \
	"[{\"level\": 1, \"type\": \"Data\", \"size_bytes\": 32768}]}, "             \
	"\"results\": [" RESULT(SERIES("[0.5, 0.0024, 0.0025]")) "]}"

/* Reads text; returns the reader's status and leaves the message in err. */
static int read_text(const char *text, struct bb_rrun *run, char *err, size_t len)
{
	err[0] = '\0';
	return bb_read_buf("t.json", text, strlen(text), run, err, len);
}

/* text must be rejected with a message holding every needle, on one line,
 * starting with the file name. */
static void rejects(const char *text, const char *needle1, const char *needle2)
{
	struct bb_rrun run;
	char err[768];

	if (read_text(text, &run, err, sizeof err) != -1)
		fail_msg("accepted: %.200s", text);
	bb_rrun_free(&run);
	if (strncmp(err, "t.json: ", 8) != 0 || strchr(err, '\n'))
		fail_msg("not one line naming the file: '%s'", err);
	if (!strstr(err, needle1) || (needle2 && !strstr(err, needle2)))
		fail_msg("'%s' does not say '%s' and '%s'", err, needle1, needle2 ? needle2 : "");
}

static void test_reads_good_file(void **state)
{
	struct bb_rrun run;
	char err[768], name[256];

	(void)state;
	assert_int_equal(read_text(GOOD, &run, err, sizeof err), 0);
	assert_int_equal(run.n, 1);
	assert_string_equal(run.results[0].applet, "stream");
	assert_int_equal(run.results[0].n, 1);
	const struct bb_rseries *s = &run.results[0].series[0];
	assert_string_equal(s->name, "Triad");
	assert_int_equal(s->n, 3);
	assert_int_equal(s->discard, 1);
	assert_true(s->samples[2] == 0.0025);
	assert_true(s->work == 24e6);
	assert_true(bb_rkv_num(&s->values, "best_rate_Bps", 0) == 1e10);
	assert_string_equal(bb_rkv_str(&run.results[0].params, "pinning"), "no");
	assert_true(bb_rkv_num(&run.results[0].params, "threads", 0) == 2);
	assert_null(bb_rkv_str(&run.results[0].params, "nested"));   /* skipped */
	assert_string_equal(bb_rkv_str(&run.system, "hostname"), "board");
	assert_string_equal(bb_rkv_str(&run.system, "cpus_online"), "2");
	assert_string_equal(run.caches, "L1d 32K");
	bb_rrun_name(&run, name, sizeof name);
	assert_string_equal(name, "PMU=0");
	bb_rrun_free(&run);
}

static void test_run_name_from_file(void **state)
{
	struct bb_rrun run;
	char err[768], name[256];
	const char *text = HEAD "\"results\": []}";

	(void)state;
	assert_int_equal(bb_read_buf("dir/x-1.json", text, strlen(text), &run, err, sizeof err), 0);
	bb_rrun_name(&run, name, sizeof name);
	assert_string_equal(name, "x-1");
	bb_rrun_free(&run);
}

static void test_not_json(void **state)
{
	(void)state;
	rejects("", "empty file", NULL);
	rejects("{", "not valid JSON", NULL);
	rejects("not json", "not valid JSON (line 1", NULL);
	rejects(GOOD " trailing", "not valid JSON", NULL);
	rejects(HEAD "\"results\": [{\"applet\": \"stream\", \"series\": [1,]}]}",
		"results[0].series", "not valid JSON");
}

static void test_wrong_schema(void **state)
{
	(void)state;
	rejects("[]", "expected an object at the top, got an array", NULL);
	rejects("{\"schema\": \"other\", \"schema_version\": 1, \"results\": []}", "schema:",
		"not a boardbench results file");
	rejects("{\"schema_version\": 1, \"results\": []}", "missing key \"schema\"", NULL);
	rejects("{\"schema\": \"boardbench-results\", \"schema_version\": 2, \"results\": []}",
		"schema_version:", "version 2 is not supported");
	rejects("{\"schema\": \"boardbench-results\", \"schema_version\": \"1\", \"results\": []}",
		"schema_version:", "expected a number, got a string");
	rejects(HEAD "\"results\": {}}", "results:", "expected an array, got an object");
	rejects(HEAD "\"labels\": [], \"results\": []}", "labels:", "expected an object");
	rejects(HEAD "\"tool\": 3, \"results\": []}", "tool:", "got a number");
}

static void test_wrong_types(void **state)
{
	(void)state;
	rejects(HEAD "\"results\": [" RESULT("{\"name\": 1}") "]}", "results[0].series[0].name:",
		"expected a string, got a number");
	rejects(HEAD "\"results\": [" RESULT("{\"name\": \"x\"}") "]}", "results[0].series[0]:",
		"missing key \"variant\"");
	rejects(HEAD "\"results\": [{\"series\": []}]}", "results[0]:", "missing key \"applet\"");
	rejects(HEAD "\"results\": [7]}", "results[0]:", "expected an object, got a number");
	rejects(HEAD "\"results\": [" RESULT(SERIES("[1, \"2\"]")) "]}",
		"results[0].series[0].samples[1]:", "got a string");
	rejects(HEAD "\"results\": [" RESULT(SERIES("{}")) "]}",
		"results[0].series[0].samples:", "expected an array");
	rejects(HEAD "\"results\": [{\"applet\": \"x\", \"series\": [], \"params\": []}]}",
		"results[0].params:", "expected an object");
}

/* A control character is no reason to reject a file: it is kept escaped. */
static void test_control_characters_replaced(void **state)
{
	struct bb_rrun run;
	char err[768];
	const char *text = HEAD "\"results\": [{\"applet\": \"x\\u001b[31m\\n\", \"series\": []}]}";

	(void)state;
	assert_int_equal(read_text(text, &run, err, sizeof err), 0);
	assert_string_equal(run.results[0].applet, "x\\x1B[31m\\n");
	bb_rrun_free(&run);
}

/* Labels "A\u0000x" and "A\u0000y" stay two labels (cJSON's strings end
 * at a NUL: both were "A"), as do two with different stray bytes (both
 * were kept as they came, and printed raw); a \\u0000 (an escaped
 * backslash, then "u0000") is text and stays as written. */
static void test_nul_and_bad_utf8_kept_apart(void **state)
{
	struct bb_rrun run;
	char err[768];
	const char *text = HEAD "\"labels\": {\"L\": \"A\\u0000x\", \"M\": \"A\\u0000y\", "
		"\"N\": \"A\xffx\", \"O\": \"A\xfex\", \"P\": \"A\\\\u0000\\\"\\u0000\", "
		"\"Q\": \"\xc3\xa9\xc2\x85\xe2\x82\"}, \"results\": []}";

	(void)state;
	assert_int_equal(read_text(text, &run, err, sizeof err), 0);
	assert_string_equal(bb_rkv_str(&run.labels, "L"), "A\\x00x");
	assert_string_equal(bb_rkv_str(&run.labels, "M"), "A\\x00y");
	assert_string_equal(bb_rkv_str(&run.labels, "N"), "A\\xFFx");
	assert_string_equal(bb_rkv_str(&run.labels, "O"), "A\\xFEx");
	assert_string_equal(bb_rkv_str(&run.labels, "P"), "A\\u0000\"\\x00");
	/* valid UTF-8 kept; a C1 control and a cut sequence escaped */
	assert_string_equal(bb_rkv_str(&run.labels, "Q"), "\xc3\xa9\\xC2\\x85\\xE2\\x82");
	bb_rrun_free(&run);
	/* keys too: two keys that differ after a NUL are two keys */
	text = HEAD "\"labels\": {\"A\\u0000x\": \"1\", \"A\\u0000y\": \"2\"}, \"results\": []}";
	assert_int_equal(read_text(text, &run, err, sizeof err), 0);
	assert_int_equal(run.labels.n, 2);
	assert_string_equal(bb_rkv_str(&run.labels, "A\\x00y"), "2");
	bb_rrun_free(&run);
}

static void test_numbers(void **state)
{
	struct bb_rrun run;
	char err[768];

	(void)state;
	/* the largest a 64-bit counter writes (LLONG_MAX is 2^63 as a double) is in range */
	assert_int_equal(read_text(HEAD "\"results\": [{\"applet\": \"x\", \"params\": "
				   "{\"n\": 9223372036854775807, \"m\": -9.2e18}, \"series\": []}]}",
				   &run, err, sizeof err), 0);
	bb_rrun_free(&run);
	rejects(HEAD "\"results\": [" RESULT(SERIES("[1, null]")) "]}",
		"results[0].series[0].samples[1]:", "expected a finite number, got null");
	rejects(HEAD "\"results\": [" RESULT(SERIES("[1e999]")) "]}",
		"results[0].series[0].samples[0]:", "out of range");
	/* finite, yet past 2^63: a change of 300 digits in compare */
	rejects(HEAD "\"results\": [" RESULT(SERIES("[1, 1e300]")) "]}",
		"results[0].series[0].samples[1]:", "1e+300 is out of range");
	rejects(HEAD "\"results\": [" RESULT(SERIES("[-1e19]")) "]}",
		"results[0].series[0].samples[0]:", "within +-2^63");
	rejects(HEAD "\"system\": {\"x\": 1e300}, \"results\": []}", "system.x:", "out of range");
	rejects(HEAD "\"results\": [{\"applet\": \"x\", \"params\": {\"n\": 1e999}, "
		"\"series\": []}]}", "results[0].params.n:", "out of range");
	rejects(HEAD "\"results\": [" RESULT(SERIES("[NaN]")) "]}", "not valid JSON", NULL);
	rejects(HEAD "\"results\": [" RESULT(SERIES("[]")) "]}", "results[0].series[0].discard:",
		"from 0 to the 0 samples, got 1");
}

static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	size_t len = strlen(head) + n * strlen(unit) + strlen(tail) + 1;
	char *s = malloc(len), *p = s;

	assert_non_null(s);
	p += sprintf(p, "%s", head);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s", unit);
	sprintf(p, "%s", tail);
	return s;
}

static void test_huge_array(void **state)
{
	/* BB_READ_MAX_SAMPLES + 1 samples */
	char *text = repeat(HEAD "\"results\": [{\"applet\": \"x\", \"series\": [{\"name\": \"n\", "
			    "\"variant\": \"v\", \"unit\": \"s\", \"work\": 1, \"work_unit\": \"b\", "
			    "\"discard\": 0, \"samples\": [1",
			    ",1", BB_READ_MAX_SAMPLES, "]}]}]}");

	(void)state;
	rejects(text, "results[0].series[0].samples:", "1048577 elements, more than the 1048576");
	free(text);
}

static void test_deep_nesting(void **state)
{
	char *open = repeat(HEAD "\"results\": [{\"applet\": \"x\", \"series\": [], \"params\": "
			    "{\"deep\": ", "[", 100, "");
	char *text = repeat(open, "]", 100, "}}]}");

	(void)state;
	rejects(text, "results[0].params.deep[0][0]", "nested deeper than 32 levels");
	free(open);
	free(text);
}

static void test_nul_byte(void **state)
{
	struct bb_rrun run;
	char err[768];
	const char text[] = HEAD "\"results\": []}\0{}";

	(void)state;
	assert_int_equal(bb_read_buf("t.json", text, sizeof text - 1, &run, err, sizeof err), -1);
	assert_non_null(strstr(err, "a NUL byte"));
	bb_rrun_free(&run);
}

static void test_missing_file(void **state)
{
	struct bb_rrun run;
	char err[768];

	(void)state;
	assert_int_equal(bb_read_file("/nonexistent/x.json", &run, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/x.json: cannot open"));
	assert_int_equal(bb_read_file("/", &run, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a regular file"));
}

/* An object with a key twice is refused, naming the key and where: at the
 * top, deep inside, and in an object of many keys (found by sorting). */
static void test_duplicate_keys(void **state)
{
	char *text = malloc(200000), *p;

	(void)state;
	rejects(HEAD "\"labels\": {\"PMU\": \"0\", \"x\": 1, \"PMU\": \"1\"}, \"results\": []}",
		"labels: duplicate key \"PMU\"", NULL);
	rejects(HEAD "\"results\": [], \"schema\": \"boardbench-results\"}",
		"duplicate key \"schema\"", NULL);
	rejects(HEAD "\"results\": [" RESULT(SERIES("[1, 2]") ", {\"name\": \"a\", \"name\": \"b\"}") "]}",
		"results[0].series[1]: duplicate key \"name\"", NULL);
	/* a key holding a newline, in the path or as the duplicate: still one
	 * line, the newline written as \n (a fuzzer found the first) */
	rejects(HEAD "\"results\": [], \"labels\": {\"a\\nb\": 1, \"a\\nb\": 2}}",
		"labels: duplicate key \"a\\nb\"", NULL);
	rejects(HEAD "\"results\": [], \"x\\ny\": {\"k\": 1, \"k\": 2}}",
		"x\\ny: duplicate key \"k\"", NULL);
	assert_non_null(text);
	p = text + sprintf(text, HEAD "\"results\": [], \"labels\": {");
	for (int i = 0; i < 3000; i++)
		p += sprintf(p, "\"k%d\": 1, ", i);
	sprintf(p, "\"k1234\": 2}}");
	rejects(text, "labels: duplicate key \"k1234\"", NULL);
	free(text);
}

/* A FIFO is refused at once, never opened for a blocking read. */
static void test_fifo_refused(void **state)
{
	char dir[] = "/tmp/test_reader.XXXXXX", path[64], err[768];
	struct bb_rrun run;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/x.json", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(bb_read_file(path, &run, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.json: not a regular file (a FIFO)"));
	bb_rrun_free(&run);
	unlink(path);
	rmdir(dir);
}

/* A control character in a file name is escaped, not a second line. */
static void test_name_escaped(void **state)
{
	struct bb_rrun run;
	char err[768];

	(void)state;
	assert_int_equal(bb_read_file("/nonexistent/a\nb\x1b.json", &run, err, sizeof err), -1);
	assert_non_null(strstr(err, "a\\nb\\x1B.json: cannot open"));
	assert_null(strchr(err, '\n'));
}

/* The scanner names the path at an offset and bounds the depth. */
static void test_scan(void **state)
{
	const char *t = "{\"a\": [1, {\"b\": \"[{\", \"c\": [0, 1, 2]}]}";
	char path[128];

	(void)state;
	assert_int_equal(bb_json_scan(t, strlen(t), strstr(t, "2]") - t, 32, path, sizeof path), 0);
	assert_string_equal(path, "a[1].c[2]");
	assert_int_equal(bb_json_scan(t, strlen(t), strlen(t), 2, path, sizeof path), 1);
	assert_string_equal(path, "a[1]");
	assert_int_equal(bb_json_scan("\"\\", 2, 2, 32, path, sizeof path), 0);
	assert_string_equal(path, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_good_file),
		cmocka_unit_test(test_run_name_from_file),
		cmocka_unit_test(test_not_json),
		cmocka_unit_test(test_wrong_schema),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_control_characters_replaced),
		cmocka_unit_test(test_nul_and_bad_utf8_kept_apart),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_huge_array),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_fifo_refused),
		cmocka_unit_test(test_name_escaped),
		cmocka_unit_test(test_scan),
	};

	return cmocka_run_group_tests_name("reader", tests, NULL, NULL);
}
