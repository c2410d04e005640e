/* facts_fixture.h - what the facts tests share (test_facts.c,
 * test_facts_hw.c): a fixture board of tests/fixtures/boards/ as the facts
 * root, its facts collected into kv, and the assertions on them.  Included
 * once per test program, after cmocka.h. */
#ifndef BB_TESTS_FACTS_FIXTURE_H
#define BB_TESTS_FACTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "facts/facts.h"
#include "facts/root.h"

#define BOARDS "tests/fixtures/boards/"

static struct bb_kvlist kv;

/* root as BB_SYSROOT (NULL: the live system), kv emptied. */
static void use_root(const char *root)
{
	if (root)
		setenv("BB_SYSROOT", root, 1);
	else
		unsetenv("BB_SYSROOT");
	bb_root_reset();
	bb_kv_free(&kv);
}

static void collect(const char *board)
{
	char root[256];

	snprintf(root, sizeof root, BOARDS "%s", board);
	use_root(root);
	bb_facts_collect(&kv);
}

static const char *fact(const char *key)
{
	const struct bb_kv *v = bb_kv_get(&kv, key);

	return v ? v->s : NULL;
}

#define assert_fact(key, val) assert_string_equal(fact(key) ? fact(key) : "(absent)", (val))
#define assert_no_fact(key) assert_null(fact(key))

#endif
