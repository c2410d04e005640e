/* collect.c - the collector of system facts (see facts.h): calls every
 * reader in turn into one flat list of string keys, and the one helper the
 * readers share to store a value cleanly.  A new reader is one more line
 * in bb_facts_collect. */
#include "facts/facts.h"

#include <stdlib.h>
#include <string.h>

void bb_facts_put(struct bb_kvlist *kv, const char *key, const char *val)
{
	char *v, *s, *e;

	if (!val)
		return;
	v = strdup(val);
	if (!v)
		return;
	for (s = v; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
	for (s = v; *s == ' '; s++)
		;
	for (e = s + strlen(s); e > s && e[-1] == ' '; e--)
		;
	*e = '\0';
	if (*s)
		bb_kv_str(kv, key, s);
	free(v);
}

void bb_facts_collect(struct bb_kvlist *kv)
{
	bb_facts_dt(kv);
	bb_facts_cpu(kv);
	bb_facts_kernel(kv);
	bb_facts_firmware(kv);
	bb_facts_memory(kv);
	bb_facts_caches(kv);
	bb_facts_clocks(kv);
	bb_facts_devfreq(kv);
	bb_facts_clktree(kv);
	bb_facts_virt(kv);
	bb_facts_netsys(kv);
	bb_facts_boot(kv);
	bb_facts_user(kv);
}
