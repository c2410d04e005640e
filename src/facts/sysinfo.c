/* sysinfo.c - the description of the system every run records
 * (core/sysinfo.h), read from /proc and /sys through the facts root
 * (facts/root.h); every field degrades to empty/0 when the file is missing
 * (BusyBox boards, qemu-user, containers).  The board identity facts are
 * collected by src/facts/ into si->facts.  core/results.c calls it through
 * the hook facts/install.c puts in place. */
#include "facts/sysinfo.h"
#include "core/parse.h"
#include "core/version.h"
#include "facts/facts.h"
#include "facts/root.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

/* The first line of a file under the root, trimmed; 0, or -1 with buf "". */
static int read_line(const char *path, char *buf, size_t len)
{
	return bb_root_line(path, buf, len);
}

static void trim_copy(char *dst, size_t len, const char *src)
{
	while (isspace((unsigned char)*src))
		src++;
	snprintf(dst, len, "%s", src);
	size_t n = strlen(dst);
	while (n && isspace((unsigned char)dst[n - 1]))
		dst[--n] = '\0';
}

/* First value of any of the given /proc/cpuinfo keys, in key order. */
static void cpu_model(char *out, size_t len)
{
	static const char *keys[] = { "model name", "cpu model", "cpu", "Processor",
				      "uarch", "isa", NULL };
	char line[256], best[128] = "";
	int best_rank = 99;
	FILE *f = bb_root_fopen("/proc/cpuinfo");

	if (f) {
		while (fgets(line, sizeof line, f)) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			for (int k = 0; keys[k] && k < best_rank; k++) {
				size_t kl = strlen(keys[k]);
				if (strncmp(line, keys[k], kl) == 0 &&
				    (isspace((unsigned char)line[kl]) || line[kl] == ':')) {
					trim_copy(best, sizeof best, colon + 1);
					best_rank = k;
				}
			}
		}
		fclose(f);
	}
	snprintf(out, len, "%s", best[0] ? best : "unknown");
}

/* ARM's /proc/cpuinfo names no model: the core names of the cpu.cores
 * fact ("4x 0x41:0xd03 r0p4 (Cortex-A53), 2x ... (Cortex-A72)") become
 * "Cortex-A53 + Cortex-A72"; the fact as it is when it names none. */
static void cpu_model_from_cores(char *out, size_t len, const struct bb_kvlist *facts)
{
	const struct bb_kv *kv = bb_kv_get(facts, "cpu.cores");
	const char *p, *open, *close;
	size_t n = 0;

	if (strcmp(out, "unknown") != 0 || !kv || !kv->s || !kv->s[0])
		return;
	out[0] = '\0';
	for (p = kv->s; (open = strchr(p, '(')) && (close = strchr(open, ')')); p = close + 1)
		if (n < len)
			n += snprintf(out + n, len - n, "%s%.*s", n ? " + " : "",
				      (int)(close - open - 1), open + 1);
	if (!out[0])
		snprintf(out, len, "%s", kv->s);
}

static uint64_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

static void caches(struct bb_sysinfo *si)
{
	char path[128], buf[64];

	si->ncaches = 0;
	for (int i = 0; i < 16 && si->ncaches < BB_MAX_CACHES; i++) {
		struct bb_cache *c = &si->caches[si->ncaches];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (read_line(path, buf, sizeof buf))
			break;
		c->level = atoi(buf);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		read_line(path, c->type, sizeof c->type);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		read_line(path, buf, sizeof buf);
		c->size_bytes = parse_cache_size(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
		c->line_bytes = read_line(path, buf, sizeof buf) ? 0 : atoi(buf);
		if (c->size_bytes)
			si->ncaches++;
	}
}

static void meminfo(struct bb_sysinfo *si)
{
	char line[256];
	unsigned long long kb;
	FILE *f = bb_root_fopen("/proc/meminfo");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (bb_scan_field(line, "MemTotal:", &kb) == 0)
			si->mem_total_bytes = (uint64_t)kb * 1024;
		else if (bb_scan_field(line, "MemAvailable:", &kb) == 0)
			si->mem_available_bytes = (uint64_t)kb * 1024;
	}
	fclose(f);
	if (!si->mem_available_bytes)   /* kernels before 3.14 */
		si->mem_available_bytes = si->mem_total_bytes / 2;
}

static void cpufreq(struct bb_sysinfo *si)
{
	char buf[64];
	const char *base = "/sys/devices/system/cpu/cpu0/cpufreq/";
	char path[128];

	snprintf(path, sizeof path, "%sscaling_governor", base);
	read_line(path, si->governor, sizeof si->governor);
	snprintf(path, sizeof path, "%sscaling_cur_freq", base);
	if (read_line(path, buf, sizeof buf) == 0)
		si->cur_freq_hz = bb_strtod(buf, NULL) * 1e3;
	snprintf(path, sizeof path, "%scpuinfo_max_freq", base);
	if (read_line(path, buf, sizeof buf) == 0)
		si->max_freq_hz = bb_strtod(buf, NULL) * 1e3;
}

/* "always [madvise] never" -> "madvise" */
static void thp_mode(char *out, size_t len)
{
	char buf[128];
	char *l, *r;

	out[0] = '\0';
	if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof buf))
		return;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		snprintf(out, len, "%s", l + 1);
	}
}

static void libc_version(char *out, size_t len)
{
#ifdef _CS_GNU_LIBC_VERSION
	char buf[64];
	if (confstr(_CS_GNU_LIBC_VERSION, buf, sizeof buf) > 0) {
		snprintf(out, len, "%s", buf);
		return;
	}
#endif
	snprintf(out, len, "unknown");
}

static void timestamps(struct bb_sysinfo *si)
{
	time_t now = time(NULL);

	bb_utc_stamp(si->utc, sizeof si->utc, now, 0);
	bb_utc_stamp(si->utc_compact, sizeof si->utc_compact, now, 1);
}

/* "release version": the facts' (read through the root), else uname's
 * on the live system. */
static void kernel_string(struct bb_sysinfo *si, const struct utsname *u)
{
	const struct bb_kv *rel = bb_kv_get(&si->facts, "kernel.release");
	const struct bb_kv *ver = bb_kv_get(&si->facts, "kernel.version");

	if (rel)
		snprintf(si->kernel, sizeof si->kernel, "%.64s%s%.120s", rel->s, ver ? " " : "",
			 ver ? ver->s : "");
	else if (!bb_root_is_fixture() && u->release[0])
		snprintf(si->kernel, sizeof si->kernel, "%.64s %.120s", u->release, u->version);
}

void bb_sysinfo_collect(struct bb_sysinfo *si)
{
	struct utsname u = { 0 };
	const char *tun = getenv("GLIBC_TUNABLES");
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	const union { uint16_t u; uint8_t b[2]; } probe = { 1 };

	memset(si, 0, sizeof *si);
	cpu_model(si->cpu_model, sizeof si->cpu_model);
	si->cpus_online = n > 0 ? (int)n : 1;
	caches(si);
	bb_facts_collect(&si->facts);
	cpu_model_from_cores(si->cpu_model, sizeof si->cpu_model, &si->facts);
	if (uname(&u) == 0)
		snprintf(si->arch, sizeof si->arch, "%s", u.machine);
	kernel_string(si, &u);
	meminfo(si);
	cpufreq(si);
	thp_mode(si->thp, sizeof si->thp);
	if (gethostname(si->hostname, sizeof si->hostname - 1) != 0 || !si->hostname[0])
		snprintf(si->hostname, sizeof si->hostname, "unknown");
	snprintf(si->compiler, sizeof si->compiler, "%s", BB_COMPILER);
	snprintf(si->cflags, sizeof si->cflags, "%s", BB_CFLAGS);
	libc_version(si->libc, sizeof si->libc);
	snprintf(si->glibc_tunables, sizeof si->glibc_tunables, "%s", tun ? tun : "");
	snprintf(si->endian, sizeof si->endian, "%s", probe.b[0] ? "little" : "big");
	si->pointer_bits = (int)(sizeof(void *) * 8);
	timestamps(si);
}
