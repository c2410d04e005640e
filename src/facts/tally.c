/* tally.c - like things counted, per key (see tally.h). */
#include "facts/tally.h"
#include "facts/facts.h"

#include <stdio.h>
#include <string.h>

void bb_tally_add(struct bb_tally *t, const char *key, const char *desc)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0 && strcmp(t->v[i].desc, desc) == 0) {
			t->v[i].count++;
			return;
		}
	if (t->n == BB_TALLY_MAX)
		return;
	snprintf(t->v[t->n].key, sizeof t->v[t->n].key, "%s", key);
	snprintf(t->v[t->n].desc, sizeof t->v[t->n].desc, "%s", desc);
	t->v[t->n++].count = 1;
}

void bb_tally_put(struct bb_kvlist *kv, const struct bb_tally *t, const char *sep)
{
	char out[1024];

	for (int i = 0; i < t->n; i++) {
		size_t o = 0;
		int first = 1;
		for (int k = 0; k < i && first; k++)
			first = strcmp(t->v[k].key, t->v[i].key) != 0;
		for (int k = i; k < t->n && first && o < sizeof out; k++)
			if (strcmp(t->v[k].key, t->v[i].key) == 0)
				o += (size_t)snprintf(out + o, sizeof out - o, "%s%dx %s", o ? sep : "",
						      t->v[k].count, t->v[k].desc);
		if (first)
			bb_facts_put(kv, t->v[i].key, out);
	}
}
