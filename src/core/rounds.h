/* rounds.h - the order in which the variants of a comparison take their
 * samples: round by round, every variant one sample per round (ABAB...),
 * so that a drift of the clock frequency, or a neighbour's load, during
 * the run falls on all of them alike.  The variant that goes first moves
 * on by one each round, so none always runs right after the same one.
 * mem and csum measure each row of their tables this way.
 */
#ifndef BB_ROUNDS_H
#define BB_ROUNDS_H

/* The variant (0..n-1) that takes turn k (0..n-1) of round `round` (>= 0):
 * round 0 runs 0, 1, ..., n-1; round 1 runs 1, ..., n-1, 0; and so on.
 * -1 when an argument is out of range. */
int bb_round_turn(int round, int k, int n);

/* Called once per turn with the round and the variant taking it. */
typedef void (*bb_turn_fn)(void *ctx, int round, int variant);

/* fn for every turn of rounds 0..rounds-1 of n variants, in order: each
 * variant gets exactly `rounds` calls, one per round.  Nothing when rounds
 * or n is not positive.  A SIGINT/SIGTERM (core/stop.h) ends it between
 * rounds, so every variant has the same number of samples.  Returns the
 * rounds run. */
int bb_rounds_run(int rounds, int n, bb_turn_fn fn, void *ctx);

#endif
