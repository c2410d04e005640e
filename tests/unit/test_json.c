/* test_json.c - unit tests for src/core/json.c: string escaping (quotes,
 * backslash, every control character, DEL, valid and invalid UTF-8) and
 * the streaming writer (nesting, commas, numbers, non-finite -> null).
 * Output is captured with open_memstream and read back with cJSON to
 * prove it parses and means what was written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	return c->f;
}

/* Close the stream; the caller frees the returned text. */
static char *cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->buf;
}

/* s as bb_json_write_string renders it (malloc'd). */
static char *escaped(const char *s)
{
	struct capture c;

	bb_json_write_string(cap_open(&c), s);
	return cap_close(&c);
}

/* Parse text as a JSON string and return a copy of its value. */
static char *parse_string(const char *text)
{
	cJSON *v = cJSON_Parse(text);
	char *s;

	if (!v)
		fail_msg("cJSON could not parse: %s", text);
	assert_true(cJSON_IsString(v));
	s = strdup(v->valuestring);
	cJSON_Delete(v);
	return s;
}

/* Assert s escapes to want and parses back to back. */
static void check_escape(const char *s, const char *want, const char *back)
{
	char *out = escaped(s);
	char *val;

	assert_string_equal(out, want);
	val = parse_string(out);
	assert_string_equal(val, back);
	free(val);
	free(out);
}

static void test_quotes_and_backslash(void **state)
{
	(void)state;
	check_escape("", "\"\"", "");
	check_escape("plain", "\"plain\"", "plain");
	check_escape("a\"b", "\"a\\\"b\"", "a\"b");
	check_escape("a\\b", "\"a\\\\b\"", "a\\b");
	check_escape("\\\"", "\"\\\\\\\"\"", "\\\"");
	check_escape("/", "\"/\"", "/");
	check_escape(NULL, "\"\"", "");
}

/* Every control character is escaped, short form or \u00XX, and comes
 * back as the same byte. */
static void test_control_chars(void **state)
{
	static const char *const shorts[0x20] = {
		['\b'] = "\\b", ['\t'] = "\\t", ['\n'] = "\\n",
		['\f'] = "\\f", ['\r'] = "\\r",
	};
	char in[2] = "", uform[16], *out, *val;

	(void)state;
	for (int c = 1; c < 0x20; c++) {
		in[0] = (char)c;
		out = escaped(in);
		snprintf(uform, sizeof uform, "\"\\u%04x\"", c);
		if (shorts[c]) {
			assert_int_equal(strlen(out), 4);
			assert_memory_equal(out + 1, shorts[c], 2);
		} else if (strcasecmp(out, uform) != 0) {
			fail_msg("0x%02x escaped as %s", c, out);
		}
		val = parse_string(out);
		assert_string_equal(val, in);
		free(val);
		free(out);
	}
}

static void test_nul_ends_string(void **state)
{
	(void)state;
	check_escape("ab\0cd", "\"ab\"", "ab");
}

static void test_del(void **state)
{
	char *out = escaped("a\x7f");
	char *val;

	(void)state;
	assert_true(strcasecmp(out, "\"a\\u007f\"") == 0);
	val = parse_string(out);
	assert_string_equal(val, "a\x7f");
	free(val);
	free(out);
}

/* Valid UTF-8, boundaries included, passes through byte for byte. */
static void test_valid_utf8(void **state)
{
	static const char *const ok[] = {
		"caf\xc3\xa9",                 /* U+00E9 */
		"\xc2\x80", "\xdf\xbf",        /* U+0080, U+07FF */
		"\xe0\xa0\x80", "\xe2\x82\xac", /* U+0800, euro sign */
		"\xed\x9f\xbf", "\xee\x80\x80", /* around the surrogates */
		"\xef\xbf\xbd", "\xef\xbf\xbf", /* U+FFFD, U+FFFF */
		"\xf0\x90\x80\x80",            /* U+10000 */
		"\xf0\x9d\x84\x9e",            /* musical G clef */
		"\xf4\x8f\xbf\xbf",            /* U+10FFFF */
		"\xce\xbcs \xe2\x89\xa4 5",   /* mixed with ASCII */
	};
	char want[64];

	(void)state;
	for (size_t i = 0; i < N_OF(ok); i++) {
		snprintf(want, sizeof want, "\"%s\"", ok[i]);
		check_escape(ok[i], want, ok[i]);
	}
}

/* Replace each "\ufffd" escape by the UTF-8 bytes of U+FFFD. */
static void decode_fffd(const char *esc, char *out)
{
	while (*esc) {
		if (strncmp(esc, "\\ufffd", 6) == 0) {
			memcpy(out, "\xef\xbf\xbd", 3);
			out += 3;
			esc += 6;
		} else {
			*out++ = *esc++;
		}
	}
	*out = '\0';
}

#define FFFD "\\ufffd"

static void test_invalid_utf8(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "\x80", FFFD },                              /* lone continuation */
		{ "a\xbf" "b", "a" FFFD "b" },
		{ "\xc0\xaf", FFFD FFFD },                     /* overlong '/' */
		{ "\xc1\xbf", FFFD FFFD },
		{ "\xe0\x80\xaf", FFFD FFFD FFFD },            /* overlong, 3 bytes */
		{ "\xf0\x80\x80\xaf", FFFD FFFD FFFD FFFD },   /* overlong, 4 bytes */
		{ "\xed\xa0\x80", FFFD FFFD FFFD },            /* U+D800 */
		{ "\xed\xbf\xbf", FFFD FFFD FFFD },            /* U+DFFF */
		{ "\xe2\x82", FFFD FFFD },                     /* truncated at end */
		{ "\xe2\x82" "A", FFFD FFFD "A" },             /* truncated by ASCII */
		{ "\xf0\x9f\x98", FFFD FFFD FFFD },
		{ "\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD },   /* above U+10FFFF */
		{ "\xf8\x88\x80\x80\x80", FFFD FFFD FFFD FFFD FFFD },
		{ "\xfe\xff", FFFD FFFD },
		{ "\xc3" "\xc3\xa9", FFFD "\xc3\xa9" },        /* resyncs */
		{ "\xe2\x82\"", FFFD FFFD "\\\"" },
	};
	char want[128], back[128];

	(void)state;
	for (size_t i = 0; i < N_OF(cases); i++) {
		snprintf(want, sizeof want, "\"%s\"", cases[i].want);
		decode_fffd(cases[i].want, back);
		if (strchr(back, '\\'))      /* the \" case */
			strcpy(strchr(back, '\\'), "\"");
		check_escape(cases[i].in, want, back);
	}
}

/* Every byte 0x01..0xff alone yields output cJSON accepts. */
static void test_every_byte_parses(void **state)
{
	char in[2] = "", *out, *val;

	(void)state;
	for (int c = 1; c < 0x100; c++) {
		in[0] = (char)c;
		out = escaped(in);
		val = parse_string(out);
		assert_true(strlen(val) >= 1);
		free(val);
		free(out);
	}
}

/* Write a fixed document through every writer call. */
static void write_document(struct bb_json *j)
{
	bb_json_obj_begin(j);
	bb_json_kint(j, "a", 1);
	bb_json_key(j, "b");
	bb_json_arr_begin(j);
	bb_json_int(j, 1);
	bb_json_uint(j, 2);
	bb_json_obj_begin(j);
	bb_json_key(j, "c");
	bb_json_null(j);
	bb_json_obj_end(j);
	bb_json_arr_end(j);
	bb_json_key(j, "d");
	bb_json_obj_begin(j);
	bb_json_obj_end(j);
	bb_json_key(j, "e");
	bb_json_arr_begin(j);
	bb_json_arr_end(j);
	bb_json_kbool(j, "f", 1);
	bb_json_kbool(j, "g", 0);
	bb_json_kstr(j, "h", "s");
	bb_json_knum(j, "i", 0.5);
	bb_json_kuint(j, "k", 7);
	bb_json_obj_end(j);
}

static char *document(int pretty)
{
	struct capture c;
	struct bb_json j;

	bb_json_init(&j, cap_open(&c), pretty);
	write_document(&j);
	return cap_close(&c);
}

static void test_writer_compact(void **state)
{
	char *out = document(0);

	(void)state;
	assert_string_equal(out, "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":{},\"e\":[],"
			    "\"f\":true,\"g\":false,\"h\":\"s\",\"i\":0.5,\"k\":7}");
	free(out);
}

static void test_writer_pretty_same_document(void **state)
{
	char *compact = document(0), *pretty = document(1);
	cJSON *a = cJSON_Parse(compact), *b = cJSON_Parse(pretty);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_true(cJSON_Compare(a, b, 1));
	assert_non_null(strchr(pretty, '\n'));
	assert_int_equal(pretty[strlen(pretty) - 1], '\n');
	assert_null(strchr(compact, '\n'));
	assert_non_null(strstr(pretty, "\"d\": {}"));
	assert_non_null(strstr(pretty, "\"e\": []"));
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(compact);
	free(pretty);
}

static void test_non_finite_is_null(void **state)
{
	struct capture c;
	struct bb_json j;
	char *out;

	(void)state;
	bb_json_init(&j, cap_open(&c), 0);
	bb_json_arr_begin(&j);
	bb_json_num(&j, NAN);
	bb_json_num(&j, INFINITY);
	bb_json_num(&j, -INFINITY);
	bb_json_num(&j, 1.5);
	bb_json_arr_end(&j);
	out = cap_close(&c);
	assert_string_equal(out, "[null,null,null,1.5]");
	free(out);
}

/* Doubles survive the trip through text exactly. */
static void test_numbers_round_trip(void **state)
{
	static const double v[] = {
		0.1, 1.0 / 3.0, 1e300, -2.5e-300, 5e-324, 123456789.123456789,
		-0.0, 2.1e9, 65.5e9,
	};
	struct capture c;
	struct bb_json j;
	char *out;
	cJSON *doc;

	(void)state;
	bb_json_init(&j, cap_open(&c), 1);
	bb_json_arr_begin(&j);
	for (size_t i = 0; i < N_OF(v); i++)
		bb_json_num(&j, v[i]);
	bb_json_arr_end(&j);
	out = cap_close(&c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_int_equal(cJSON_GetArraySize(doc), N_OF(v));
	for (size_t i = 0; i < N_OF(v); i++)
		assert_true(cJSON_GetArrayItem(doc, (int)i)->valuedouble == v[i]);
	cJSON_Delete(doc);
	free(out);
}

static void test_integer_extremes(void **state)
{
	struct capture c;
	struct bb_json j;
	char *out;
	cJSON *doc;

	(void)state;
	bb_json_init(&j, cap_open(&c), 0);
	bb_json_obj_begin(&j);
	bb_json_kint(&j, "min", LLONG_MIN);
	bb_json_kint(&j, "max", LLONG_MAX);
	bb_json_kuint(&j, "umax", UINT64_MAX);
	bb_json_obj_end(&j);
	out = cap_close(&c);
	assert_string_equal(out, "{\"min\":-9223372036854775808,"
			    "\"max\":9223372036854775807,\"umax\":18446744073709551615}");
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "umax")));
	cJSON_Delete(doc);
	free(out);
}

static void test_keys_escaped(void **state)
{
	const char *key = "we\"ird\\key\n\x01\xff";
	struct capture c;
	struct bb_json j;
	char *out;
	cJSON *doc;

	(void)state;
	bb_json_init(&j, cap_open(&c), 1);
	bb_json_obj_begin(&j);
	bb_json_kstr(&j, key, "v");
	bb_json_kstr(&j, "plain", "w");
	bb_json_obj_end(&j);
	out = cap_close(&c);
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	assert_non_null(cJSON_GetObjectItemCaseSensitive(doc, "we\"ird\\key\n\x01\xef\xbf\xbd"));
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(doc, "plain")->valuestring, "w");
	cJSON_Delete(doc);
	free(out);
}

/* [0,[1,[2,...]]] as deep as the writer allows; commas at every level. */
static void test_deep_nesting(void **state)
{
	const int levels = BB_JSON_MAX_DEPTH - 1;
	struct capture c;
	struct bb_json j;
	char *out;
	cJSON *doc, *node;

	(void)state;
	bb_json_init(&j, cap_open(&c), 1);
	for (int i = 0; i < levels; i++) {
		bb_json_arr_begin(&j);
		bb_json_int(&j, i);
	}
	for (int i = 0; i < levels; i++) {
		bb_json_str(&j, "end");
		bb_json_arr_end(&j);
	}
	out = cap_close(&c);
	doc = cJSON_Parse(out);
	if (!doc)
		fail_msg("deep document does not parse:\n%s", out);
	node = doc;
	for (int i = 0; i < levels; i++) {
		assert_int_equal(cJSON_GetArrayItem(node, 0)->valueint, i);
		node = cJSON_GetArrayItem(node, 1);
		assert_non_null(node);
	}
	assert_string_equal(node->valuestring, "end");
	cJSON_Delete(doc);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes_and_backslash),
		cmocka_unit_test(test_control_chars),
		cmocka_unit_test(test_nul_ends_string),
		cmocka_unit_test(test_del),
		cmocka_unit_test(test_valid_utf8),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_every_byte_parses),
		cmocka_unit_test(test_writer_compact),
		cmocka_unit_test(test_writer_pretty_same_document),
		cmocka_unit_test(test_non_finite_is_null),
		cmocka_unit_test(test_numbers_round_trip),
		cmocka_unit_test(test_integer_extremes),
		cmocka_unit_test(test_keys_escaped),
		cmocka_unit_test(test_deep_nesting),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
