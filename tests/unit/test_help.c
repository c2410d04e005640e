/* test_help.c - unit tests for src/core/help.c and the help data the build
 * made ($(BUILD)/help_data.c, scripts/help-data.sh): the stream inflates to
 * exactly bb_help_total bytes with a good CRC; the texts built lie end to
 * end in it, each a non-empty text ending in a newline; and bb_help_print
 * writes one text, byte for byte as its file holds it (the tests
 * run from the top of the source tree, as make check runs them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/help.h"
#include "core/inflate.h"

static unsigned char *inflate_all(size_t *len)
{
	unsigned char *all = NULL;

	assert_int_equal(bb_gunzip(bb_help_gz, bb_help_gz_len, &all, len, bb_help_total),
			 BB_INFLATE_OK);
	return all;
}

static void test_stream_inflates_to_total(void **state)
{
	size_t len = 0;
	unsigned char *all;

	(void)state;
	all = inflate_all(&len);
	assert_int_equal(len, bb_help_total);
	assert_true(bb_help_gz_len < bb_help_total);   /* it is compressed */
	free(all);
}

/* The spans built cover the stream end to end, in some order. */
static void test_spans_tile_the_stream(void **state)
{
	size_t sum = 0, len = 0;
	unsigned char *all = inflate_all(&len);

	(void)state;
	for (int i = 0; bb_help_files[i].path; i++) {
		const struct bb_help_span *s = bb_help_files[i].span;

		assert_true(s->length > 0);
		assert_true(s->offset + s->length <= len);
		assert_int_equal(all[s->offset + s->length - 1], '\n');
		sum += s->length;
	}
	assert_int_equal(sum, len);
	free(all);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

/* bb_help_print(X) on a file instead of stdout: the text file, exactly. */
static void test_print_is_the_text_file(void **state)
{
	char tmp[] = "/tmp/bb-help-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(STDOUT_FILENO), checked = 0;

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	for (int i = 0; bb_help_files[i].path; i++) {
		size_t want_len, got_len;
		char *want, *got;

		fflush(stdout);
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_true(dup2(fd, STDOUT_FILENO) >= 0);
		assert_int_equal(lseek(STDOUT_FILENO, 0, SEEK_SET), 0);
		bb_help_print(bb_help_files[i].span);
		fflush(stdout);
		assert_true(dup2(saved, STDOUT_FILENO) >= 0);
		want = read_file(bb_help_files[i].path, &want_len);
		got = read_file(tmp, &got_len);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
		free(want);
		free(got);
		checked++;
	}
	assert_true(checked > 0);
	close(fd);
	close(saved);
	unlink(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_inflates_to_total),
		cmocka_unit_test(test_spans_tile_the_stream),
		cmocka_unit_test(test_print_is_the_text_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
