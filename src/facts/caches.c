/* caches.c - the caches of every CPU, as sysfs's cacheinfo and the device
 * tree describe them, each level counted once per instance (a cache
 * shared by four CPUs is one), instances alike grouped, in CPU order:
 *   cache.L1d, cache.L1i, cache.L2, cache.L3   (sysfs: size, line, ways)
 *       "4x 32K, 64 B lines, 4-way; 2x 32K, 64 B lines, 2-way"
 *   cache.dt.L1d, cache.dt.L1i, cache.dt.L2    (the tree's cpu nodes' d-/i-
 *       cache-size, -line-size, -sets, and its cache nodes: l2-cache0 ...)
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

/* "L1d", "L1i", "L2": the level and, for split caches, d or i. */
static void level_name(char *buf, size_t len, int level, const char *type)
{
	snprintf(buf, len, "L%d%s", level % 10, type);
}

static void read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (bb_root_line(path, buf, len))
		buf[0] = '\0';
}

/* cpuN/cache/indexK, when cpu is the first of the CPUs sharing it. */
static void sysfs_index(struct bb_tally *t, int cpu, int index)
{
	char dir[96], v[5][24], key[24], desc[72];

	snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, index);
	read_attr(dir, "shared_cpu_list", v[0], sizeof v[0]);
	if (v[0][0] && atoi(v[0]) < cpu)
		return;
	read_attr(dir, "level", v[0], sizeof v[0]);
	if (atoi(v[0]) < 1)
		return;
	level_name(v[0], sizeof v[0], atoi(v[0]), "");
	read_attr(dir, "type", v[1], sizeof v[1]);
	read_attr(dir, "size", v[2], sizeof v[2]);
	read_attr(dir, "coherency_line_size", v[3], sizeof v[3]);
	read_attr(dir, "ways_of_associativity", v[4], sizeof v[4]);
	snprintf(key, sizeof key, "cache.%s%s", v[0], strcmp(v[1], "Data") == 0 ? "d" :
		 strcmp(v[1], "Instruction") == 0 ? "i" : "");
	snprintf(desc, sizeof desc, "%s%s%s%s%s%s%s", v[2][0] ? v[2] : "size unknown",
		 v[3][0] ? ", " : "", v[3], v[3][0] ? " B lines" : "",
		 v[4][0] && strcmp(v[4], "0") ? ", " : "", v[4][0] && strcmp(v[4], "0") ? v[4] : "",
		 v[4][0] && strcmp(v[4], "0") ? "-way" : "");
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
	if (v[1])
		snprintf(desc + strlen(desc), sizeof desc - strlen(desc), ", %u B lines", v[1]);
	if (v[2])
		snprintf(desc + strlen(desc), sizeof desc - strlen(desc), ", %u sets", v[2]);
	bb_tally_add(t, key, desc);
}

/* The nodes named like caches (l2-cache0, l3-cache@..., cache-controller@...)
 * in the node rel ("" the root, "cpus") of the tree. */
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
	dt_cache_nodes(t, "");
}

void bb_facts_caches(struct bb_kvlist *kv)
{
	struct bb_tally t = { 0 };

	sysfs_caches(&t);
	dt_caches(&t);
	bb_tally_put(kv, &t, "; ");
}
