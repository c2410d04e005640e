/* rounds.c - the alternating order of rounds.h: the variants of one
 * comparison take their samples in turn, one each per round, the first
 * rotating from round to round. */
#include "rounds.h"
#include "stop.h"

int bb_round_turn(int round, int k, int n)
{
	if (n <= 0 || round < 0 || k < 0 || k >= n)
		return -1;
	return (int)(((long long)round + k) % n);
}

int bb_rounds_run(int rounds, int n, bb_turn_fn fn, void *ctx)
{
	for (int round = 0; round < rounds; round++) {
		if (bb_stopped())
			return round;
		for (int k = 0; k < n; k++)
			fn(ctx, round, bb_round_turn(round, k, n));
	}
	return rounds;
}
