/* kv.h - ordered key/value lists (string, number, integer, boolean): a
 * result's parameters, a series' derived values, a run's labels, and the
 * system facts.  Setting a key that is present replaces its value. */
#ifndef BB_KV_H
#define BB_KV_H

#include <stddef.h>

enum bb_kv_type { BB_KV_STR, BB_KV_NUM, BB_KV_INT, BB_KV_BOOL };

struct bb_kv {
	char *key;
	enum bb_kv_type type;
	char *s;
	double d;
	long long i;
};

struct bb_kvlist {
	struct bb_kv *v;
	size_t n, cap;
};

void bb_kv_str(struct bb_kvlist *l, const char *key, const char *val);
void bb_kv_num(struct bb_kvlist *l, const char *key, double val);
void bb_kv_int(struct bb_kvlist *l, const char *key, long long val);
void bb_kv_bool(struct bb_kvlist *l, const char *key, int val);
const struct bb_kv *bb_kv_get(const struct bb_kvlist *l, const char *key);
double bb_kv_getnum(const struct bb_kvlist *l, const char *key, double dflt);
void bb_kv_free(struct bb_kvlist *l);

#endif
