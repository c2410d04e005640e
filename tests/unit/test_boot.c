/* test_boot.c - unit tests for src/facts/boot.c: boot.id and
 * boot.uptime_s, and the board identity's order of sources on fixture
 * trees (tests/fixtures/boot/: a device tree with a serial number and one
 * without, DMI as a user reads it with placeholders only, /etc/machine-id
 * alone, nothing; tests/fixtures/boards/: DMI with serials, a device tree
 * without).  Each expected board.id is the first 16 hex digits of
 * `sha256sum` of the string boot.c documents, computed outside boardbench:
 *   printf 'boardbench board.id\ndt\nPine64 RockPro64 v2.1\nc3d9b8674f4b94f6\n' |
 *   sha256sum | cut -c1-16
 * No serial, UUID or machine id may appear in any fact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"
#include "facts/facts.h"
#include "facts/root.h"

static struct bb_kvlist kv;

static void collect(const char *root)
{
	setenv("BB_SYSROOT", root, 1);
	bb_root_reset();
	bb_kv_free(&kv);
	bb_facts_collect(&kv);
}

static const char *fact(const char *key)
{
	const struct bb_kv *v = bb_kv_get(&kv, key);

	return v ? v->s : "(absent)";
}

#define NOTE "no serial number or UUID readable: boards of one model share this id"

static void no_secret(const char *secret)
{
	for (size_t i = 0; i < kv.n; i++)
		assert_null(strstr(kv.v[i].s, secret));
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("BB_SYSROOT");
	bb_root_reset();
	bb_kv_free(&kv);
	return 0;
}

/* A device tree's model and serial number come before DMI and machine-id. */
static void test_dt_serial(void **state)
{
	(void)state;
	collect("tests/fixtures/boot/dt-serial");
	assert_string_equal(fact("board.id_source"), "dt");
	assert_string_equal(fact("board.id"), "2576aaa02b1a1adf");
	assert_string_equal(fact("board.id_note"), "(absent)");
	no_secret("c3d9b8674f4b94f6");
	no_secret("4c0d3e1f6a2b48c59e7d1a3b5c7e9f01");
}

/* A model alone is still "dt", with a note; another id than with a serial. */
static void test_dt_model(void **state)
{
	(void)state;
	collect("tests/fixtures/boot/dt-model");
	assert_string_equal(fact("board.id_source"), "dt");
	assert_string_equal(fact("board.id"), "eac4fa1eca03cf0b");
	assert_string_equal(fact("board.id_note"), NOTE);
	collect("tests/fixtures/boards/ppc440");
	assert_string_equal(fact("board.id_source"), "dt");
	assert_string_equal(fact("board.id"), "a9b82c62ef9baac7");
	assert_string_equal(fact("board.id_note"), NOTE);
}

/* DMI with serial numbers and a UUID (root reads them). */
static void test_dmi(void **state)
{
	(void)state;
	collect("tests/fixtures/boards/geode");
	assert_string_equal(fact("board.id_source"), "dmi");
	assert_string_equal(fact("board.id"), "c42a57658ec93ecf");
	assert_string_equal(fact("board.id_note"), "(absent)");
	no_secret("PCE-2D3-0815");
	no_secret("8b0a1e42");
}

/* DMI with placeholders only ("To Be Filled By O.E.M.", a zero UUID): the
 * product name alone, a note, and machine-id is not used. */
static void test_dmi_placeholders(void **state)
{
	(void)state;
	collect("tests/fixtures/boot/dmi-user");
	assert_string_equal(fact("board.id_source"), "dmi");
	assert_string_equal(fact("board.id"), "246f18baa4ad2022");
	assert_string_equal(fact("board.id_note"), NOTE);
}

/* Only /etc/machine-id: hashed, never recorded. */
static void test_machine_id(void **state)
{
	(void)state;
	collect("tests/fixtures/boot/machine-id");
	assert_string_equal(fact("board.id_source"), "machine-id");
	assert_string_equal(fact("board.id"), "9d96191cacd89cf7");
	assert_string_equal(fact("board.id_note"), "(absent)");
	no_secret("4c0d3e1f6a2b48c59e7d1a3b5c7e9f01");
}

/* Nothing to identify the board by: source "none", board.id empty; the
 * boot's id and uptime (its first figure) as the files say. */
static void test_none_and_boot(void **state)
{
	(void)state;
	collect("tests/fixtures/boot/none");
	assert_string_equal(fact("board.id_source"), "none");
	assert_string_equal(fact("board.id"), "");
	assert_string_equal(fact("boot.id"), "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b");
	assert_string_equal(fact("boot.uptime_s"), "12345.67");
	collect("tests/fixtures/boot/machine-id");
	assert_string_equal(fact("boot.id"), "(absent)");
	assert_string_equal(fact("boot.uptime_s"), "(absent)");
}

/* The same tree twice: the same id. */
static void test_stable(void **state)
{
	char first[32];

	(void)state;
	collect("tests/fixtures/boards/biglittle");
	snprintf(first, sizeof first, "%s", fact("board.id"));
	assert_int_equal(strlen(first), 16);
	assert_int_equal(strspn(first, "0123456789abcdef"), 16);
	collect("tests/fixtures/boards/biglittle");
	assert_string_equal(fact("board.id"), first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dt_serial),
		cmocka_unit_test(test_dt_model),
		cmocka_unit_test(test_dmi),
		cmocka_unit_test(test_dmi_placeholders),
		cmocka_unit_test(test_machine_id),
		cmocka_unit_test(test_none_and_boot),
		cmocka_unit_test(test_stable),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
