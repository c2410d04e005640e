/* tally.h - like things counted for a fact: "2x 8192 MB DDR4 3200 MT/s,
 * 1x 4096 MB DDR4 2666 MT/s" (DIMMs alike), "4x 32K, 64 B lines, 4-way;
 * 2x 48K, ..." (caches alike), grouped under the key they belong to, in
 * the order first seen.  Fixed storage, no allocation. */
#ifndef BB_FACTS_TALLY_H
#define BB_FACTS_TALLY_H

#include "core/kv.h"

#define BB_TALLY_MAX 24

struct bb_tally {
	int n;
	struct {
		char key[28];    /* the fact's key: "memory.dmi", "cache.L1d" */
		char desc[72];   /* what is counted: "32K, 64 B lines, 4-way" */
		int count;
	} v[BB_TALLY_MAX];
};

/* One more of desc under key (beyond BB_TALLY_MAX kinds: not counted). */
void bb_tally_add(struct bb_tally *t, const char *key, const char *desc);

/* Each key, once, as "Nx desc" joined by sep, in the order first seen. */
void bb_tally_put(struct bb_kvlist *kv, const struct bb_tally *t, const char *sep);

#endif
