/* kv.c - ordered key/value lists: a result's parameters, a series' derived
 * values, a run's labels and the system facts (see kv.h). */
#include "kv.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

static struct bb_kv *kv_push(struct bb_kvlist *l, const char *key, enum bb_kv_type t)
{
	struct bb_kv *kv;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0) {
			kv = &l->v[i];
			free(kv->s);
			kv->s = NULL;
			kv->type = t;
			return kv;
		}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = bb_xrealloc(l->v, l->cap * sizeof *l->v);
	}
	kv = &l->v[l->n++];
	memset(kv, 0, sizeof *kv);
	kv->key = bb_xstrdup(key);
	kv->type = t;
	return kv;
}

void bb_kv_str(struct bb_kvlist *l, const char *key, const char *val)
{
	kv_push(l, key, BB_KV_STR)->s = bb_xstrdup(val ? val : "");
}

void bb_kv_num(struct bb_kvlist *l, const char *key, double val)
{
	kv_push(l, key, BB_KV_NUM)->d = val;
}

void bb_kv_int(struct bb_kvlist *l, const char *key, long long val)
{
	kv_push(l, key, BB_KV_INT)->i = val;
}

void bb_kv_bool(struct bb_kvlist *l, const char *key, int val)
{
	kv_push(l, key, BB_KV_BOOL)->i = !!val;
}

const struct bb_kv *bb_kv_get(const struct bb_kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

double bb_kv_getnum(const struct bb_kvlist *l, const char *key, double dflt)
{
	const struct bb_kv *kv = bb_kv_get(l, key);

	if (!kv)
		return dflt;
	if (kv->type == BB_KV_NUM)
		return kv->d;
	if (kv->type == BB_KV_INT || kv->type == BB_KV_BOOL)
		return (double)kv->i;
	return dflt;
}

void bb_kv_free(struct bb_kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].s);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
