/* caches.c - the caches of every CPU, as sysfs's cacheinfo and the device
 * tree describe them, each level counted once per instance (a cache
 * shared by four CPUs is one), instances alike grouped, in CPU order:
 *   cache.L1d, cache.L1i, cache.L2, cache.L3   (sysfs: size, line, ways)
 *       "4x 32K, 64 B lines, 4-way; 2x 32K, 64 B lines, 2-way"
 *   cache.dt.L1d, cache.dt.L1i, cache.dt.L2    (the tree's cpu nodes' d-/i-
 *       cache-size, -line-size, -sets, and the cache nodes beside them in
 *       /cpus: l2-cache0 ...)
 *       "4x 32K, 64 B lines, 128 sets"
 * On a big.LITTLE board each cluster's caches show as a group of their
 * own.  system.caches (cpu0's, sysfs) stays as it was; on ARM, sysfs
 * often has levels without sizes, which the tree may then supply. */
#include "facts/facts.h"
#include "facts/dtprop.h"
#include "facts/root.h"
#include "facts/tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_CPUS_MAX 1024
#define CACHE_INDEXES_MAX 8

static void read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (bb_root_line(path, buf, len))
		buf[0] = '\0';
}

/* desc += ", 64 B lines" and the like: fmt with the one string v. */
static void add(char *desc, size_t len, const char *fmt, const char *v)
{
	size_t n = strlen(desc);

	snprintf(desc + n, len - n, fmt, v);
}

/* cpuN/cache/indexK, when cpu is the first of the CPUs sharing it. */
static void sysfs_index(struct bb_tally *t, int cpu, int index)
{
	char dir[96], shared[16], level[4], type[16], size[16], line[8], ways[8], key[24], desc[72];

	snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, index);
	read_attr(dir, "shared_cpu_list", shared, sizeof shared);
	read_attr(dir, "level", level, sizeof level);
	if ((shared[0] && atoi(shared) < cpu) || atoi(level) < 1)
		return;
	read_attr(dir, "type", type, sizeof type);
	read_attr(dir, "size", size, sizeof size);
	read_attr(dir, "coherency_line_size", line, sizeof line);
	read_attr(dir, "ways_of_associativity", ways, sizeof ways);
	snprintf(key, sizeof key, "cache.L%s%s", level, strcmp(type, "Data") == 0 ? "d" :
		 strcmp(type, "Instruction") == 0 ? "i" : "");
	snprintf(desc, sizeof desc, "%s", size[0] ? size : "size unknown");
	if (line[0])
		add(desc, sizeof desc, ", %s B lines", line);
	if (ways[0] && strcmp(ways, "0"))
		add(desc, sizeof desc, ", %s-way", ways);
	bb_tally_add(t, key, desc);
}

static void sysfs_caches(struct bb_tally *t)
{
	char path[64];
	long long level;

	/* CPUs offline have no cache directory: 8 in a row missing end the list */
	for (int cpu = 0, missing = 0; cpu < CACHE_CPUS_MAX && missing < 8; cpu++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index0/level", cpu);
		if (bb_root_llong(path, &level)) {
			missing++;
			continue;
		}
		missing = 0;
		for (int i = 0; i < CACHE_INDEXES_MAX; i++)
			sysfs_index(t, cpu, i);
	}
}

/* "32K", or bytes when not whole KiB. */
static void size_text(char *buf, size_t len, uint32_t bytes)
{
	if (bytes % 1024 == 0)
		snprintf(buf, len, "%uK", bytes / 1024);
	else
		snprintf(buf, len, "%u B", bytes);
}

/* One cache of the tree: props prefix ("d-cache-", "i-cache-", "cache-")
 * of node, counted under cache.dt.NAME. */
static void dt_cache(struct bb_tally *t, const char *node, const char *prefix, const char *name)
{
	char prop[32], key[32], size[16], desc[72];
	uint32_t v[3] = { 0, 0, 0 };
	static const char *const what[] = { "size", "line-size", "sets" };

	for (int i = 0; i < 3; i++) {
		snprintf(prop, sizeof prop, "%s%s", prefix, what[i]);
		bb_dt_cells(node, prop, &v[i], 1);
	}
	if (!v[0])
		return;
	size_text(size, sizeof size, v[0]);
	snprintf(key, sizeof key, "cache.dt.%s", name);
	snprintf(desc, sizeof desc, "%s", size);
	if (v[1] && snprintf(size, sizeof size, "%u", v[1]) > 0)
		add(desc, sizeof desc, ", %s B lines", size);
	if (v[2] && snprintf(size, sizeof size, "%u", v[2]) > 0)
		add(desc, sizeof desc, ", %s sets", size);
	bb_tally_add(t, key, desc);
}

/* The nodes named like caches (l2-cache0, l2-cache-cl0, l3-cache@...) in
 * the node rel of the tree (/cpus, where arm64 trees put them). */
static void dt_cache_nodes(struct bb_tally *t, const char *rel)
{
	char names[48][BB_ROOT_NAME_MAX], node[2 * BB_ROOT_NAME_MAX], name[8], dir[96];
	uint32_t level;
	int n;

	snprintf(dir, sizeof dir, "%s/%s", bb_dt_base(), rel);
	n = bb_root_list(dir, "", names, 48);
	for (int i = 0; i < n; i++) {
		if (!strstr(names[i], "cache"))
			continue;
		snprintf(node, sizeof node, "%s%s%.63s", rel, rel[0] ? "/" : "", names[i]);
		level = names[i][0] == 'l' && names[i][1] >= '1' && names[i][1] <= '9' ?
			(uint32_t)(names[i][1] - '0') : 2;
		bb_dt_cells(node, "cache-level", &level, 1);
		snprintf(name, sizeof name, "L%u", level % 10);
		dt_cache(t, node, "cache-", name);
	}
}

static void dt_caches(struct bb_tally *t)
{
	char cpus[64][BB_ROOT_NAME_MAX], node[BB_ROOT_NAME_MAX + 8], dir[96];
	int n;

	if (!bb_dt_base())
		return;
	snprintf(dir, sizeof dir, "%s/cpus", bb_dt_base());
	n = bb_root_list(dir, "cpu@", cpus, 64);
	for (int i = 0; i < n; i++) {
		snprintf(node, sizeof node, "cpus/%.63s", cpus[i]);
		dt_cache(t, node, "d-cache-", "L1d");
		dt_cache(t, node, "i-cache-", "L1i");
	}
	dt_cache_nodes(t, "cpus");
}

void bb_facts_caches(struct bb_kvlist *kv)
{
	struct bb_tally t = { 0 };

	sysfs_caches(&t);
	dt_caches(&t);
	bb_tally_put(kv, &t, "; ");
}
