/* clocks.c - the clock.* and thermal.* system facts: per cpufreq policy
 * its CPUs, driver, governor and limits, per thermal zone its type and
 * trip points, read through root.h by the sampler of heat.h.  What moves
 * by design (the current clock, a temperature) has a key ending in ".now",
 * which compare never calls a difference:
 *   clock.policy0.cpus = "0-3"        clock.policy0.governor = "ondemand"
 *   clock.policy0.driver              clock.policy0.min_khz, max_khz (the
 *   clock.policy0.cpuinfo_min_khz,    scaling limits), base_khz (x86 HWP)
 *     cpuinfo_max_khz (the hardware's) clock.policy0.khz.now
 *   clock.policy0.available_khz = "600000 1200000" (the operating points)
 *   clock.boost = "1" (cpufreq's boost switch: turbo, where the driver has
 *   one), clock.intel_pstate.status, clock.intel_pstate.no_turbo
 *   thermal.zone0.type = "cpu-thermal"  thermal.zone0.temp_c.now = "45.2"
 *   thermal.zone0.trip0.type = "passive"  thermal.zone0.trip0.temp_c = "85"
 * Every value is a string, as facts are (facts.h): kHz as sysfs says
 * them, degrees Celsius from millidegrees with no digit made up. */
#include "facts/facts.h"
#include "facts/heat.h"
#include "facts/root.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>

static void put_str(struct bb_kvlist *kv, const char *pre, const char *key, const char *val)
{
	char k[96];

	snprintf(k, sizeof k, "%s.%s", pre, key);
	if (val[0])
		bb_kv_str(kv, k, val);
}

static void put_ll(struct bb_kvlist *kv, const char *pre, const char *key, long long v)
{
	char val[32];

	snprintf(val, sizeof val, "%lld", v);
	put_str(kv, pre, key, val);
}

static void put_khz(struct bb_kvlist *kv, const char *pre, const char *key, const char *dir,
		    const char *file)
{
	char path[128];
	long long v;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (bb_root_llong(path, &v) == 0 && v > 0)
		put_ll(kv, pre, key, v);
}

static void put_file(struct bb_kvlist *kv, const char *pre, const char *key, const char *dir,
		     const char *file)
{
	char path[128], k[96], v[512];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(k, sizeof k, "%s.%s", pre, key);
	if (bb_root_line(path, v, sizeof v) == 0)
		bb_facts_put(kv, k, v);
}

/* Millidegrees as degrees: 45200 -> "45.2", 85000 -> "85", -5500 -> "-5.5". */
static void put_celsius(struct bb_kvlist *kv, const char *pre, const char *key, long long mc)
{
	char val[40];
	unsigned long long a = mc < 0 ? 0ULL - (unsigned long long)mc : (unsigned long long)mc;
	size_t n;

	n = (size_t)snprintf(val, sizeof val, "%s%llu.%03llu", mc < 0 ? "-" : "", a / 1000, a % 1000);
	while (n && val[n - 1] == '0')
		val[--n] = '\0';
	if (n && val[n - 1] == '.')
		val[--n] = '\0';
	put_str(kv, pre, key, val);
}

static void policy_facts(struct bb_kvlist *kv, const struct bb_heat_policy *p)
{
	char pre[48];

	snprintf(pre, sizeof pre, "clock.policy%d", p->id);
	put_str(kv, pre, "cpus", p->cpus);
	put_str(kv, pre, "driver", p->driver);
	put_str(kv, pre, "governor", p->governor);
	put_khz(kv, pre, "min_khz", p->dir, "scaling_min_freq");
	put_khz(kv, pre, "max_khz", p->dir, "scaling_max_freq");
	put_khz(kv, pre, "cpuinfo_min_khz", p->dir, "cpuinfo_min_freq");
	put_khz(kv, pre, "cpuinfo_max_khz", p->dir, "cpuinfo_max_freq");
	put_file(kv, pre, "available_khz", p->dir, "scaling_available_frequencies");
	if (p->base_khz > 0)
		put_ll(kv, pre, "base_khz", p->base_khz);
	if (p->cur_khz > 0)
		put_ll(kv, pre, "khz.now", p->cur_khz);
}

static void zone_facts(struct bb_kvlist *kv, const struct bb_heat_zone *z)
{
	char pre[48], key[24];

	snprintf(pre, sizeof pre, "thermal.zone%d", z->id);
	put_str(kv, pre, "type", z->type);
	if (z->has_temp)
		put_celsius(kv, pre, "temp_c.now", z->mc);
	for (int i = 0; i < z->ntrip; i++) {
		snprintf(key, sizeof key, "trip%d.temp_c", i);
		put_celsius(kv, pre, key, z->trip[i].mc);
		snprintf(key, sizeof key, "trip%d.type", i);
		put_str(kv, pre, key, z->trip[i].type);
	}
}

void bb_facts_clocks(struct bb_kvlist *kv)
{
	struct bb_heat_sample *s = bb_xmalloc(sizeof *s);   /* not on a small stack */

	bb_heat_read(s);
	for (int i = 0; i < s->npolicy; i++)
		policy_facts(kv, &s->policy[i]);
	put_file(kv, "clock", "boost", "/sys/devices/system/cpu/cpufreq", "boost");
	put_file(kv, "clock", "intel_pstate.status", "/sys/devices/system/cpu/intel_pstate", "status");
	put_file(kv, "clock", "intel_pstate.no_turbo", "/sys/devices/system/cpu/intel_pstate",
		 "no_turbo");
	for (int i = 0; i < s->nzone; i++)
		zone_facts(kv, &s->zone[i]);
	free(s);
}
