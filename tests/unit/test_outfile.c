/* test_outfile.c - unit tests for src/core/outfile.c (what an output file
 * may replace) and bb_escape in src/core/error.c (messages stay one line).
 * Devices, FIFOs, other owners and standard output are tested end to end
 * in tests/integration/test_files.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/outfile.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/test_outfile.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *at(const char *name)
{
	static char path[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof path[i], "%s/%s", dir, name);
	return path[i];
}

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
	struct bb_outfile o;

	if (bb_outfile_open(&o, path, err, errlen))
		return -1;
	fputs(text, o.f);
	return bb_outfile_commit(&o, err, errlen);
}

static void assert_holds(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, text);
}

/* Only the names given are in the directory: no temporary left behind. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, "..") != 0);
	closedir(d);
	return n;
}

static void test_escape(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(bb_escape(buf, sizeof buf, "plain 'x' \\ ok"), 14);
	assert_string_equal(buf, "plain 'x' \\ ok");
	bb_escape(buf, sizeof buf, "a\nb\tc\rd\x1b[2J\x7f");
	assert_string_equal(buf, "a\\nb\\tc\\rd\\x1B[2J\\x7F");
	bb_escape(buf, sizeof buf, "C1 \xc2\x9b and \xc3\xa9");   /* CSI escaped, é kept */
	assert_string_equal(buf, "C1 \\xC2\\x9B and \xc3\xa9");
	/* bytes of no valid UTF-8 (stray, overlong, a surrogate, cut short) */
	bb_escape(buf, sizeof buf, "\xff\xc0\xaf\xed\xa0\x80 \xf0\x9f\x98\x80 \xe2\x82");
	assert_string_equal(buf, "\\xFF\\xC0\\xAF\\xED\\xA0\\x80 \xf0\x9f\x98\x80 \\xE2\\x82");
	assert_int_equal(bb_escape(buf, 4, "a\nbcdef"), 8);   /* truncated, terminated */
	assert_string_equal(buf, "a\\n");
}

static void test_new_and_replaced(void **state)
{
	char err[256];
	struct stat st;

	(void)state;
	assert_int_equal(write_text(at("new.json"), "one", err, sizeof err), 0);
	assert_holds(at("new.json"), "one");
	assert_int_equal(chmod(at("new.json"), 0640), 0);
	assert_int_equal(write_text(at("new.json"), "two", err, sizeof err), 0);
	assert_holds(at("new.json"), "two");
	assert_int_equal(stat(at("new.json"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1);
}

static void test_abort_keeps_old(void **state)
{
	struct bb_outfile o;
	char err[256];

	(void)state;
	assert_int_equal(write_text(at("keep.json"), "old", err, sizeof err), 0);
	assert_int_equal(bb_outfile_open(&o, at("keep.json"), err, sizeof err), 0);
	fputs("half", o.f);
	bb_outfile_abort(&o);
	assert_holds(at("keep.json"), "old");
	assert_int_equal(entries(), 1);
}

static void test_symlink_followed(void **state)
{
	char err[256];
	struct stat st;

	(void)state;
	assert_int_equal(write_text(at("target.json"), "old", err, sizeof err), 0);
	assert_int_equal(symlink("target.json", at("link.json")), 0);
	assert_int_equal(write_text(at("link.json"), "new", err, sizeof err), 0);
	assert_int_equal(lstat(at("link.json"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_holds(at("target.json"), "new");
	assert_int_equal(symlink("nowhere.json", at("dangling.json")), 0);
	assert_int_equal(write_text(at("dangling.json"), "x", err, sizeof err), -1);
	assert_non_null(strstr(err, "symbolic link to nothing"));
	assert_int_equal(lstat(at("nowhere.json"), &st), -1);
	assert_int_equal(entries(), 3);
}

static void test_refused(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(write_text(dir, "x", err, sizeof err), -1);
	assert_non_null(strstr(err, "a directory"));
	assert_int_equal(bb_outfile_check(dir, err, sizeof err), 2);
	assert_int_equal(bb_outfile_check("", err, sizeof err), 2);
	assert_int_equal(bb_outfile_check("x/", err, sizeof err), 2);
	assert_int_equal(bb_outfile_check("/nonexistent/x.json", err, sizeof err), 1);
	assert_int_equal(bb_outfile_check(at("fine.json"), err, sizeof err), 0);
	assert_int_equal(mkfifo(at("f.json"), 0600), 0);
	assert_int_equal(bb_outfile_check(at("f.json"), err, sizeof err), 0);
	assert_int_equal(write_text(at("f.json"), "x", err, sizeof err), -1);   /* no reader */
	assert_non_null(strstr(err, "nobody reads"));
	assert_int_equal(bb_outfile_is_stdout("-"), 1);
	assert_int_equal(bb_outfile_is_stdout("/dev/stdout"), 1);
	assert_int_equal(bb_outfile_is_stdout("-x"), 0);
}

/* /dev/null is written in place and stays what it is. */
static void test_device_in_place(void **state)
{
	char err[256];
	struct stat st;

	(void)state;
	assert_int_equal(write_text("/dev/null", "x", err, sizeof err), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(write_text("/dev/full", "x", err, sizeof err), -1);
		assert_non_null(strstr(err, "No space"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test_setup_teardown(test_new_and_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_keeps_old, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test(test_device_in_place),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
