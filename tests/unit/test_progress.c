/* test_progress.c - unit tests for what a waiting or interrupting user
 * sees: sizes in binary units without exponents (core/progress.c), and a
 * result cut by a signal marked "interrupted", never "ok", keeping only
 * series with kept samples (core/results.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <string.h>

#include "core/progress.h"
#include "core/results.h"
#include "core/stop.h"

static const char *fmt(double bytes)
{
	static char buf[32];
	bb_fmt_bytes(buf, sizeof buf, bytes);
	return buf;
}

static void test_fmt_bytes(void **state)
{
	(void)state;
	assert_string_equal(fmt(0), "0 B");
	assert_string_equal(fmt(1000), "1000 B");
	assert_string_equal(fmt(1024), "1 KiB");
	assert_string_equal(fmt(38.1 * 1024), "38.1 KiB");
	assert_string_equal(fmt(609 * 1024), "609 KiB");
	assert_string_equal(fmt(1.19 * 1048576), "1.19 MiB");
	assert_string_equal(fmt(1023.0 * 1048576), "1023 MiB");
	assert_string_equal(fmt(1024.0 * 1048576), "1 GiB");        /* never 1.02e+03 MiB */
	assert_string_equal(fmt(3.1 * 1073741824.0), "3.1 GiB");
	assert_string_equal(fmt(4096.0 * 1073741824.0), "4 TiB");
	for (double b = 1; b < 1e15; b *= 1.37)
		assert_null(strchr(fmt(b), 'e'));
}

static void test_fmt_duration(void **state)
{
	char buf[32];

	(void)state;
	bb_fmt_duration(buf, sizeof buf, 0.2);
	assert_string_equal(buf, "about 1 s");
	bb_fmt_duration(buf, sizeof buf, 25);
	assert_string_equal(buf, "about 25 s");
	bb_fmt_duration(buf, sizeof buf, 300);
	assert_string_equal(buf, "about 5 min");
}

static void test_result_interrupted(void **state)
{
	static char *argv[] = { "boardbench", "stream", NULL };
	struct bb_run *run = bb_run_new(2, argv);
	struct bb_result *r = bb_run_add_result(run, "stream");
	struct bb_series *kept = bb_result_add_series(r, "Copy", "c", "s", 1, "bytes");
	struct bb_series *warm = bb_result_add_series(r, "Scale", "c", "s", 1, "bytes");

	(void)state;
	bb_result_add_series(r, "Add", "c", "s", 1, "bytes");   /* no sample */
	kept->discard = warm->discard = 1;
	bb_series_add(kept, 1.0);
	bb_series_add(kept, 2.0);
	bb_series_add(warm, 1.0);                               /* warm-up only */
	assert_string_equal(bb_result_status(r), "ok");
	bb_stop_take(SIGINT);
	bb_result_set_interrupted(r, "1 of 10 rounds");
	assert_string_equal(bb_result_status(r), "interrupted");
	assert_false(r->ok);
	assert_string_equal(r->message, "interrupted by SIGINT: kept 1 of 10 rounds");
	assert_int_equal(r->n, 1);
	assert_string_equal(r->series[0]->name, "Copy");
	bb_result_set_status(r, 0, "failed validation");
	r->interrupted = 0;
	assert_string_equal(bb_result_status(r), "failed");
	bb_run_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_result_interrupted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
