/* test_pages.c - unit tests for the smaps reading of src/core/pages.c:
 * bb_pages_thp_in sums the AnonHugePages of the entries inside a range,
 * says -1 when none lies inside, and is not misled by other lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/pages.h"

static const char smaps[] =
	"00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus-daemon\n"
	"Size:                328 kB\n"
	"AnonHugePages:        64 kB\n"
	"7f0000000000-7f0000400000 rw-p 00000000 00:00 0\n"
	"Size:               4096 kB\n"
	"Anonymous:          4096 kB\n"
	"AnonHugePages:      2048 kB\n"
	"FilePmdMapped:         0 kB\n"
	"VmFlags: rd wr mr mw me ac hg\n"
	"7f0000400000-7f0000600000 rw-p 00000000 00:00 0\n"
	"AnonHugePages:      2048 kB\n"
	"AnonHugePages: junk\n"
	"7fff00000000-7fff00021000 rw-p 00000000 00:00 0      [stack]\n"
	"AnonHugePages:      1024 kB\n";

/* bb_pages_thp_in over the text above for [lo, hi). */
static long long thp(unsigned long lo, unsigned long hi)
{
	FILE *f = fmemopen((void *)smaps, strlen(smaps), "r");
	long long v;

	assert_non_null(f);
	v = bb_pages_thp_in(f, lo, hi);
	fclose(f);
	return v;
}

static void test_thp_sum_inside(void **state)
{
	(void)state;
	if (sizeof(unsigned long) < 8)
		skip();
	assert_int_equal(thp(0x7f0000000000ul, 0x7f0000600000ul), 4096LL * 1024);
	assert_int_equal(thp(0x7f0000000000ul, 0x7f0000400000ul), 2048LL * 1024);
	assert_int_equal(thp(0x7f0000400000ul, 0x7f0000600000ul), 2048LL * 1024);
}

static void test_thp_none_inside(void **state)
{
	(void)state;
	if (sizeof(unsigned long) < 8)
		skip();
	assert_int_equal(thp(0x7f0000000000ul, 0x7f00003ff000ul), -1);  /* entry cut */
	assert_int_equal(thp(0x1000ul, 0x2000ul), -1);
	assert_int_equal(thp(0x00400000ul, 0x00452000ul), 64 * 1024);
}

static void test_thp_empty_and_odd(void **state)
{
	static const char odd[] = "AnonHugePages: 2048 kB\nA-\n-1-2 x\nABCDEF\n\n";
	FILE *f = fmemopen((void *)odd, strlen(odd), "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(bb_pages_thp_in(f, 0, ~0ul), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thp_sum_inside),
		cmocka_unit_test(test_thp_none_inside),
		cmocka_unit_test(test_thp_empty_and_odd),
	};

	return cmocka_run_group_tests_name("pages", tests, NULL, NULL);
}
