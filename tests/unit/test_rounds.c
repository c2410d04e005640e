/* test_rounds.c - unit tests for src/core/rounds.c: the alternating order
 * in which mem and csum take their variants' samples.  Checks the exact
 * order for small cases worked out by hand, that every round is a
 * permutation whose first variant rotates, that each variant gets one
 * sample per round, and the out-of-range and empty cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>

#include "core/rounds.h"

#define MAX_TURNS 256

struct record {
	int round[MAX_TURNS], variant[MAX_TURNS];
	int n;
};

static void record_turn(void *ctx, int round, int variant)
{
	struct record *rec = ctx;

	assert_true(rec->n < MAX_TURNS);
	rec->round[rec->n] = round;
	rec->variant[rec->n] = variant;
	rec->n++;
}

/* Three variants, four rounds: ABC BCA CAB ABC. */
static void test_three_by_hand(void **state)
{
	static const int want[4][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 } };

	(void)state;
	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 3; k++)
			assert_int_equal(bb_round_turn(r, k, 3), want[r][k]);
}

/* Two variants: ABBAABBA, every pair of rounds balanced. */
static void test_two_run_order(void **state)
{
	static const int want[] = { 0, 1, 1, 0, 0, 1, 1, 0 };
	struct record rec = { .n = 0 };

	(void)state;
	bb_rounds_run(4, 2, record_turn, &rec);
	assert_int_equal(rec.n, 8);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(rec.variant[i], want[i]);
		assert_int_equal(rec.round[i], i / 2);
	}
}

/* Every round is a permutation of 0..n-1 and round r starts with r mod n. */
static void test_rounds_are_rotations(void **state)
{
	(void)state;
	for (int n = 1; n <= 9; n++)
		for (int r = 0; r <= 2 * n + 1; r++) {
			int seen[9] = { 0 };
			assert_int_equal(bb_round_turn(r, 0, n), r % n);
			for (int k = 0; k < n; k++) {
				int v = bb_round_turn(r, k, n);
				assert_in_range(v, 0, n - 1);
				seen[v]++;
			}
			for (int v = 0; v < n; v++)
				assert_int_equal(seen[v], 1);
		}
}

/* bb_rounds_run: rounds in order, each variant exactly once per round. */
static void test_run_one_sample_per_round(void **state)
{
	struct record rec = { .n = 0 };
	int per[5] = { 0 };

	(void)state;
	bb_rounds_run(7, 5, record_turn, &rec);
	assert_int_equal(rec.n, 35);
	for (int i = 0; i < rec.n; i++) {
		assert_int_equal(rec.round[i], i / 5);
		assert_int_equal(rec.variant[i], bb_round_turn(i / 5, i % 5, 5));
		per[rec.variant[i]]++;
	}
	for (int v = 0; v < 5; v++)
		assert_int_equal(per[v], 7);
}

static void test_single_variant(void **state)
{
	struct record rec = { .n = 0 };

	(void)state;
	bb_rounds_run(3, 1, record_turn, &rec);
	assert_int_equal(rec.n, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rec.variant[i], 0);
}

static void test_empty_and_out_of_range(void **state)
{
	struct record rec = { .n = 0 };

	(void)state;
	bb_rounds_run(0, 4, record_turn, &rec);
	bb_rounds_run(4, 0, record_turn, &rec);
	bb_rounds_run(-1, 3, record_turn, &rec);
	assert_int_equal(rec.n, 0);
	assert_int_equal(bb_round_turn(0, 0, 0), -1);
	assert_int_equal(bb_round_turn(0, 3, 3), -1);
	assert_int_equal(bb_round_turn(0, -1, 3), -1);
	assert_int_equal(bb_round_turn(-1, 0, 3), -1);
	assert_int_equal(bb_round_turn(INT_MAX, 2, 3), (int)(((long long)INT_MAX + 2) % 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_by_hand),
		cmocka_unit_test(test_two_run_order),
		cmocka_unit_test(test_rounds_are_rotations),
		cmocka_unit_test(test_run_one_sample_per_round),
		cmocka_unit_test(test_single_variant),
		cmocka_unit_test(test_empty_and_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
