/* clocks.c - the clock.* and thermal.* system facts: per cpufreq policy
 * its CPUs, driver, governor and limits, per thermal zone its type and
 * trip points, read through root.h by the sampler of heat.h.  What moves
 * by design (the current clock, a temperature) has a key ending in ".now",
 * which compare never calls a difference:
 *   clock.policy0.cpus = "0-3"        clock.policy0.governor = "ondemand"
 *   clock.policy0.driver              clock.policy0.min_khz, max_khz (the
 *   clock.policy0.cpuinfo_min_khz,    scaling limits), base_khz (x86 HWP)
 *     cpuinfo_max_khz (the hardware's) clock.policy0.khz.now
 *   thermal.zone0.type = "cpu-thermal"  thermal.zone0.temp_c.now = 45.2
 *   thermal.zone0.trip0.type = "passive"  thermal.zone0.trip0.temp_c = 85 */
#include "facts/facts.h"
#include "facts/heat.h"
#include "facts/root.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>

static void put_khz(struct bb_kvlist *kv, const char *pre, const char *key, const char *dir,
		    const char *file)
{
	char path[128], k[96];
	long long v;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(k, sizeof k, "%s.%s", pre, key);
	if (bb_root_llong(path, &v) == 0 && v > 0)
		bb_kv_int(kv, k, v);
}

static void put_str(struct bb_kvlist *kv, const char *pre, const char *key, const char *val)
{
	char k[96];

	snprintf(k, sizeof k, "%s.%s", pre, key);
	if (val[0])
		bb_kv_str(kv, k, val);
}

static void policy_facts(struct bb_kvlist *kv, const struct bb_heat_policy *p)
{
	char pre[48], k[96];

	snprintf(pre, sizeof pre, "clock.policy%d", p->id);
	put_str(kv, pre, "cpus", p->cpus);
	put_str(kv, pre, "driver", p->driver);
	put_str(kv, pre, "governor", p->governor);
	put_khz(kv, pre, "min_khz", p->dir, "scaling_min_freq");
	put_khz(kv, pre, "max_khz", p->dir, "scaling_max_freq");
	put_khz(kv, pre, "cpuinfo_min_khz", p->dir, "cpuinfo_min_freq");
	put_khz(kv, pre, "cpuinfo_max_khz", p->dir, "cpuinfo_max_freq");
	if (p->base_khz > 0) {
		snprintf(k, sizeof k, "%s.base_khz", pre);
		bb_kv_int(kv, k, p->base_khz);
	}
	if (p->cur_khz > 0) {
		snprintf(k, sizeof k, "%s.khz.now", pre);
		bb_kv_int(kv, k, p->cur_khz);
	}
}

static void zone_facts(struct bb_kvlist *kv, const struct bb_heat_zone *z)
{
	char pre[48], k[96], trip[24];

	snprintf(pre, sizeof pre, "thermal.zone%d", z->id);
	put_str(kv, pre, "type", z->type);
	if (z->has_temp) {
		snprintf(k, sizeof k, "%s.temp_c.now", pre);
		bb_kv_num(kv, k, (double)z->mc / 1000.0);
	}
	for (int i = 0; i < z->ntrip; i++) {
		snprintf(k, sizeof k, "%s.trip%d.temp_c", pre, i);
		bb_kv_num(kv, k, (double)z->trip[i].mc / 1000.0);
		snprintf(trip, sizeof trip, "trip%d.type", i);
		put_str(kv, pre, trip, z->trip[i].type);
	}
}

void bb_facts_clocks(struct bb_kvlist *kv)
{
	struct bb_heat_sample *s = bb_xmalloc(sizeof *s);   /* not on a small stack */

	bb_heat_read(s);
	for (int i = 0; i < s->npolicy; i++)
		policy_facts(kv, &s->policy[i]);
	for (int i = 0; i < s->nzone; i++)
		zone_facts(kv, &s->zone[i]);
	free(s);
}
