/* heat.c - clock and heat samples (see heat.h): reading cpufreq policies,
 * thermal zones and throttle counters through root.h, deciding from two
 * samples whether a measurement was throttled, and the watch that
 * core/results.c keeps on each result. */
#include "facts/heat.h"
#include "facts/root.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_DIR "/sys/devices/system/cpu"
#define ZONE_DIR "/sys/class/thermal"
#define LEGACY_MAX_CPUS 256

/* ---- small readers ---- */

static long long read_ll(const char *dir, const char *file)
{
	char path[128];
	long long v;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return bb_root_llong(path, &v) == 0 ? v : -1;
}

static void read_str(const char *dir, const char *file, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	bb_root_line(path, buf, len);
}

static int root_exists(const char *path)
{
	char full[4096];

	return bb_root_path(full, sizeof full, path) == 0 && access(full, F_OK) == 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The numbers N of the entries "<prefix>N" of dir, sorted; at most max
 * (at most 32). */
static int list_numbered(const char *dir, const char *prefix, int *ids, int max)
{
	char names[32][BB_ROOT_NAME_MAX];
	size_t pl = strlen(prefix);
	int n = bb_root_list(dir, prefix, names, max < 32 ? max : 32), k = 0;

	for (int i = 0; i < n; i++) {
		char *end;
		long v = strtol(names[i] + pl, &end, 10);
		if (names[i][pl] && !*end && v >= 0 && v < 1000000)
			ids[k++] = (int)v;
	}
	qsort(ids, (size_t)k, sizeof *ids, cmp_int);
	return k;
}

/* ---- "0 1 2 3 5" -> "0-3,5" ---- */

static void put_range(char *out, size_t len, int first, int last)
{
	size_t used = strlen(out);

	if (used + 1 >= len)
		return;
	if (first == last)
		snprintf(out + used, len - used, "%s%d", used ? "," : "", first);
	else
		snprintf(out + used, len - used, "%s%d-%d", used ? "," : "", first, last);
}

void bb_heat_cpu_list(char *out, size_t len, const char *cpus)
{
	const char *p = cpus;
	int first = -1, last = -1;
	char *end;

	out[0] = '\0';
	for (;;) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		p = end;
		if (first >= 0 && v == last + 1) {
			last = (int)v;
			continue;
		}
		if (first >= 0)
			put_range(out, len, first, last);
		first = last = (int)v;
	}
	if (first >= 0)
		put_range(out, len, first, last);
}

/* ---- cpufreq policies ---- */

static void policy_settings(struct bb_heat_policy *p)
{
	char cpus[256];

	read_str(p->dir, "affected_cpus", cpus, sizeof cpus);
	bb_heat_cpu_list(p->cpus, sizeof p->cpus, cpus);
	if (!p->cpus[0])
		snprintf(p->cpus, sizeof p->cpus, "%d", p->id);
	read_str(p->dir, "scaling_governor", p->governor, sizeof p->governor);
	read_str(p->dir, "scaling_driver", p->driver, sizeof p->driver);
	p->base_khz = read_ll(p->dir, "base_frequency");
}

static void policy_moving(struct bb_heat_policy *p)
{
	p->cur_khz = read_ll(p->dir, "scaling_cur_freq");
	p->max_khz = read_ll(p->dir, "scaling_max_freq");
}

static void add_policy(struct bb_heat_sample *s, int id, const char *dir)
{
	struct bb_heat_policy *p = &s->policy[s->npolicy++];

	memset(p, 0, sizeof *p);
	p->id = id;
	snprintf(p->dir, sizeof p->dir, "%s", dir);
	policy_settings(p);
	policy_moving(p);
}

/* Whether cpu is in a list such as "0 1 2 3" (affected_cpus). */
static int in_cpus(const char *cpus, int cpu)
{
	const char *p = cpus;
	char *end;

	for (long v = strtol(p, &end, 10); end != p; v = strtol(p, &end, 10)) {
		if (v == cpu)
			return 1;
		p = end;
	}
	return 0;
}

/* Kernels before policyN directories: cpuN/cpufreq of each policy's
 * first CPU (the others' point to it, or repeat it). */
static void legacy_policies(struct bb_heat_sample *s)
{
	char dir[48], path[96], seen[4096] = "";

	if (!root_exists(CPU_DIR "/cpu0/cpufreq"))
		return;   /* no cpufreq at all: no scan of every CPU */
	for (int cpu = 0; cpu < LEGACY_MAX_CPUS && s->npolicy < BB_HEAT_MAX_POLICIES; cpu++) {
		char cpus[256];
		snprintf(dir, sizeof dir, CPU_DIR "/cpu%d/cpufreq", cpu);
		snprintf(path, sizeof path, "%s/affected_cpus", dir);
		if (bb_root_line(path, cpus, sizeof cpus) != 0) {
			snprintf(path, sizeof path, CPU_DIR "/cpu%d", cpu);
			if (!root_exists(path))
				break;
			continue;
		}
		if (in_cpus(seen, cpu))
			continue;
		snprintf(seen + strlen(seen), sizeof seen - strlen(seen), " %s", cpus);
		add_policy(s, cpu, dir);
	}
}

static void read_policies(struct bb_heat_sample *s)
{
	int ids[BB_HEAT_MAX_POLICIES];
	int n = list_numbered(CPU_DIR "/cpufreq", "policy", ids, BB_HEAT_MAX_POLICIES);
	char dir[48];

	s->npolicy = 0;
	for (int i = 0; i < n; i++) {
		snprintf(dir, sizeof dir, CPU_DIR "/cpufreq/policy%d", ids[i]);
		add_policy(s, ids[i], dir);
	}
	if (!n)
		legacy_policies(s);
}

/* ---- thermal zones ---- */

static void zone_dir(char *dir, size_t len, int id)
{
	snprintf(dir, len, ZONE_DIR "/thermal_zone%d", id);
}

static void zone_temp(struct bb_heat_zone *z)
{
	char dir[64];

	zone_dir(dir, sizeof dir, z->id);
	z->mc = read_ll(dir, "temp");
	z->has_temp = z->mc != -1;   /* -1 millidegrees is also "unreadable" */
}

static void zone_trips(struct bb_heat_zone *z)
{
	char dir[64], file[48];

	zone_dir(dir, sizeof dir, z->id);
	read_str(dir, "type", z->type, sizeof z->type);
	for (z->ntrip = 0; z->ntrip < BB_HEAT_MAX_TRIPS; z->ntrip++) {
		struct bb_heat_trip *t = &z->trip[z->ntrip];
		snprintf(file, sizeof file, "trip_point_%d_temp", z->ntrip);
		t->mc = read_ll(dir, file);
		if (t->mc == -1)
			break;
		snprintf(file, sizeof file, "trip_point_%d_type", z->ntrip);
		read_str(dir, file, t->type, sizeof t->type);
	}
}

static void read_zones(struct bb_heat_sample *s)
{
	int ids[BB_HEAT_MAX_ZONES];
	int n = list_numbered(ZONE_DIR, "thermal_zone", ids, BB_HEAT_MAX_ZONES);

	s->nzone = n;
	for (int i = 0; i < n; i++) {
		struct bb_heat_zone *z = &s->zone[i];
		memset(z, 0, sizeof *z);
		z->id = ids[i];
		zone_trips(z);
		zone_temp(z);
	}
}

/* ---- x86 thermal throttle counters ---- */

static void read_counters(struct bb_heat_sample *s, int first)
{
	char dir[96];

	if (first)
		s->ncpu = 0;
	for (int cpu = 0; cpu < (first ? BB_HEAT_MAX_CPUS : s->ncpu); cpu++) {
		snprintf(dir, sizeof dir, CPU_DIR "/cpu%d/thermal_throttle", cpu);
		s->core_throttles[cpu] = read_ll(dir, "core_throttle_count");
		s->pkg_throttles[cpu] = read_ll(dir, "package_throttle_count");
		if (!first)
			continue;
		if (cpu == 0 && s->core_throttles[0] < 0 && s->pkg_throttles[0] < 0)
			return;   /* not x86, or no counters: one look is enough */
		snprintf(dir, sizeof dir, CPU_DIR "/cpu%d", cpu);
		if (s->core_throttles[cpu] < 0 && s->pkg_throttles[cpu] < 0 && !root_exists(dir))
			return;
		s->ncpu = cpu + 1;
	}
}

/* ---- samples ---- */

void bb_heat_read(struct bb_heat_sample *s)
{
	read_policies(s);
	read_zones(s);
	read_counters(s, 1);
}

void bb_heat_refresh(struct bb_heat_sample *s)
{
	for (int i = 0; i < s->npolicy; i++)
		policy_moving(&s->policy[i]);
	for (int i = 0; i < s->nzone; i++)
		zone_temp(&s->zone[i]);
	read_counters(s, 0);
}

int bb_heat_empty(const struct bb_heat_sample *s)
{
	return !s->npolicy && !s->nzone && !s->ncpu;
}

long long bb_heat_fastest_khz(const struct bb_heat_sample *s)
{
	long long best = -1;

	for (int i = 0; i < s->npolicy; i++)
		if (s->policy[i].cur_khz > best)
			best = s->policy[i].cur_khz;
	return best;
}

int bb_heat_hottest_mc(const struct bb_heat_sample *s, long long *mc)
{
	int found = 0;

	for (int i = 0; i < s->nzone; i++)
		if (s->zone[i].has_temp && (!found || s->zone[i].mc > *mc)) {
			*mc = s->zone[i].mc;
			found = 1;
		}
	return found ? 0 : -1;
}

/* ---- the watch on one result ---- */

struct bb_heat_watch {
	struct bb_heat_sample before, after;
	int marked;
};

/* The fastest policy's clock and the hottest zone, as result params. */
static void put_summary(struct bb_kvlist *params, const struct bb_heat_sample *s,
			const char *khz_key, const char *temp_key)
{
	long long khz = bb_heat_fastest_khz(s), mc = 0;

	if (khz > 0)
		bb_kv_int(params, khz_key, khz);
	if (bb_heat_hottest_mc(s, &mc) == 0)
		bb_kv_num(params, temp_key, (double)mc / 1000.0);
}

struct bb_heat_watch *bb_heat_watch_start(struct bb_kvlist *params)
{
	struct bb_heat_watch *w = bb_xcalloc(1, sizeof *w);

	bb_heat_read(&w->before);
	if (bb_heat_empty(&w->before)) {
		free(w);
		return NULL;
	}
	put_summary(params, &w->before, "clock.before_khz", "temp.max_before_c");
	return w;
}

int bb_heat_watch_end(struct bb_heat_watch *w, struct bb_kvlist *params, char *why,
		      size_t len)
{
	char reason[512];

	if (len)
		why[0] = '\0';
	w->after = w->before;
	bb_heat_refresh(&w->after);
	put_summary(params, &w->after, "clock.after_khz", "temp.max_after_c");
	if (w->marked || !bb_heat_throttled(&w->before, &w->after, reason, sizeof reason))
		return 0;
	w->marked = 1;
	bb_kv_bool(params, "throttled", 1);
	bb_kv_str(params, "throttle", reason);
	if (len)
		snprintf(why, len, "%s", reason);
	return 1;
}

void bb_heat_watch_free(struct bb_heat_watch *w)
{
	free(w);
}
