/* kernel.c - the kernel that ran the measurements: kernel.release,
 * kernel.version (from /proc/sys/kernel through the root; uname() only on
 * the live system), kernel.cmdline, kernel.preempt (the preemption model,
 * from the configuration, the version string, preempt= and debugfs), and
 * the configuration options that move these measurements as
 * kernel.config.CONFIG_X, read from /proc/config.gz (inflate.c) or else
 * /boot/config-<release>; kernel.config names the file.  An option set to
 * "is not set" is recorded as "n", except the members of a choice (HZ_*,
 * PREEMPT_*, CPU_FREQ_DEFAULT_GOV_* ...), of which only the chosen one is
 * recorded.  A typical config.gz (30 KB, 200 KB of text) takes about a
 * millisecond. */
#include "facts/facts.h"
#include "facts/inflate.h"
#include "facts/root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#define CONFIG_GZ_MAX (4u << 20)     /* compressed */
#define CONFIG_TEXT_MAX (16u << 20)  /* text */

enum { PLAIN, CHOICE };

struct option {
	const char *name;            /* without CONFIG_ */
	int choice;                  /* a member of a choice: recorded only when chosen */
};

static const struct option options[] = {
	{ "HZ", PLAIN }, { "HZ_PERIODIC", CHOICE }, { "NO_HZ_IDLE", CHOICE },
	{ "NO_HZ_FULL", CHOICE }, { "NO_HZ", PLAIN },
	{ "PREEMPT_NONE", CHOICE }, { "PREEMPT_VOLUNTARY", CHOICE }, { "PREEMPT", CHOICE },
	{ "PREEMPT_LAZY", CHOICE }, { "PREEMPT_RT", CHOICE }, { "PREEMPT_DYNAMIC", PLAIN },
	{ "SMP", PLAIN }, { "NR_CPUS", PLAIN }, { "NUMA", PLAIN },
	{ "HIGHMEM", PLAIN }, { "NOHIGHMEM", CHOICE }, { "HIGHMEM4G", CHOICE },
	{ "HIGHMEM64G", CHOICE },
	{ "TRANSPARENT_HUGEPAGE", PLAIN }, { "TRANSPARENT_HUGEPAGE_ALWAYS", CHOICE },
	{ "TRANSPARENT_HUGEPAGE_MADVISE", CHOICE }, { "TRANSPARENT_HUGEPAGE_NEVER", CHOICE },
	{ "CPU_FREQ", PLAIN }, { "CPU_FREQ_DEFAULT_GOV_PERFORMANCE", CHOICE },
	{ "CPU_FREQ_DEFAULT_GOV_POWERSAVE", CHOICE }, { "CPU_FREQ_DEFAULT_GOV_USERSPACE", CHOICE },
	{ "CPU_FREQ_DEFAULT_GOV_ONDEMAND", CHOICE },
	{ "CPU_FREQ_DEFAULT_GOV_CONSERVATIVE", CHOICE },
	{ "CPU_FREQ_DEFAULT_GOV_SCHEDUTIL", CHOICE },
	/* x86: the checksum and memcpy the kernel builds, and the CPU it is built for */
	{ "X86_USE_PPRO_CHECKSUM", PLAIN }, { "X86_USE_3DNOW", PLAIN },
	{ "X86_INTEL_USERCOPY", PLAIN }, { "X86_GENERIC", PLAIN },
	{ "M486", CHOICE }, { "M586", CHOICE }, { "M586TSC", CHOICE }, { "M586MMX", CHOICE },
	{ "M686", CHOICE }, { "MPENTIUMII", CHOICE }, { "MPENTIUMIII", CHOICE },
	{ "MPENTIUMM", CHOICE }, { "MPENTIUM4", CHOICE }, { "MK6", CHOICE }, { "MK7", CHOICE },
	{ "MK8", CHOICE }, { "MCRUSOE", CHOICE }, { "MEFFICEON", CHOICE },
	{ "MWINCHIPC6", CHOICE }, { "MWINCHIP3D", CHOICE }, { "MELAN", CHOICE },
	{ "MGEODEGX1", CHOICE }, { "MGEODE_LX", CHOICE }, { "MCYRIXIII", CHOICE },
	{ "MVIAC3_2", CHOICE }, { "MVIAC7", CHOICE }, { "MCORE2", CHOICE }, { "MATOM", CHOICE },
	{ "GENERIC_CPU", CHOICE },
	/* floating point and vector units */
	{ "MATH_EMULATION", PLAIN }, { "PPC_FPU", PLAIN }, { "ALTIVEC", PLAIN }, { "SPE", PLAIN },
	{ "VFP", PLAIN }, { "NEON", PLAIN }, { "KERNEL_MODE_NEON", PLAIN },
	/* page size and addressing */
	{ "PPC_4K_PAGES", CHOICE }, { "PPC_16K_PAGES", CHOICE }, { "PPC_64K_PAGES", CHOICE },
	{ "PPC_256K_PAGES", CHOICE }, { "ARM64_4K_PAGES", CHOICE },
	{ "ARM64_16K_PAGES", CHOICE }, { "ARM64_64K_PAGES", CHOICE }, { "ARM_LPAE", PLAIN },
	/* how the kernel was built, and what slows every system call */
	{ "CC_OPTIMIZE_FOR_PERFORMANCE", CHOICE }, { "CC_OPTIMIZE_FOR_SIZE", CHOICE },
	{ "KASAN", PLAIN }, { "DEBUG_PAGEALLOC", PLAIN }, { "PROVE_LOCKING", PLAIN },
	{ "PAGE_TABLE_ISOLATION", PLAIN }, { "MITIGATION_PAGE_TABLE_ISOLATION", PLAIN },
	{ "DEFAULT_TCP_CONG", PLAIN },
};

#define NOPTIONS (sizeof options / sizeof options[0])

/* ---- files ---- */

/* A whole file under the root into a new buffer (NUL-terminated), at
 * most max bytes; NULL if absent, unreadable or larger. */
static unsigned char *read_all(const char *path, size_t max, size_t *len)
{
	char full[4096];
	unsigned char *buf = NULL, *nb;
	size_t cap = 0, got = 0;
	int fd;

	if (bb_root_path(full, sizeof full, path))
		return NULL;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;
		if (got == cap) {
			cap = cap ? 2 * cap : 65536;
			if (cap > max + 1)
				cap = max + 1;
			if (got == cap || !(nb = realloc(buf, cap + 1)))
				goto fail;
			buf = nb;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got > max)
		goto fail_closed;
	buf[got] = '\0';
	*len = got;
	return buf;
fail:
	close(fd);
fail_closed:
	free(buf);
	return NULL;
}

/* The configuration text (NUL-terminated) and where it came from. */
static char *config_text(const char *release, char *from, size_t fromlen)
{
	size_t n, tlen;
	unsigned char *gz = read_all("/proc/config.gz", CONFIG_GZ_MAX, &n), *text = NULL;

	if (gz) {
		int rc = bb_gunzip(gz, n, &text, &tlen, CONFIG_TEXT_MAX);
		free(gz);
		snprintf(from, fromlen, "/proc/config.gz");
		if (rc == 0)
			return (char *)text;
		snprintf(from, fromlen, "/proc/config.gz (unreadable: %s)",
			 rc == BB_INFLATE_TOO_BIG ? "too large" : "not valid gzip");
	}
	if (release[0] && !strchr(release, '/')) {
		char path[300];
		snprintf(path, sizeof path, "/boot/config-%s", release);
		text = read_all(path, CONFIG_TEXT_MAX, &n);
		if (text) {
			snprintf(from, fromlen, "%s", path);
			return (char *)text;
		}
	}
	return NULL;
}

/* ---- options ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(options[*(const unsigned short *)a].name,
		      options[*(const unsigned short *)b].name);
}

static int find_option(const unsigned short *sorted, const char *name)
{
	size_t lo = 0, hi = NOPTIONS;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(name, options[sorted[mid]].name);
		if (c == 0)
			return sorted[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* One line: "CONFIG_X=val" or "# CONFIG_X is not set" -> values[X]. */
static void config_line(char *line, const unsigned short *sorted, char **values)
{
	char *name, *val, *end;
	int i;

	if (strncmp(line, "CONFIG_", 7) == 0) {
		name = line + 7;
		val = strchr(name, '=');
		if (!val)
			return;
		*val++ = '\0';
		if (val[0] == '"' && (end = strrchr(val + 1, '"')) != NULL) {
			val++;
			*end = '\0';
		}
	} else if (strncmp(line, "# CONFIG_", 9) == 0 &&
		   (end = strstr(line, " is not set")) != NULL) {
		name = line + 9;
		*end = '\0';
		val = "n";
	} else {
		return;
	}
	i = find_option(sorted, name);
	if (i >= 0 && !values[i] && !(options[i].choice == CHOICE && strcmp(val, "n") == 0))
		values[i] = val;
}

/* The value the text gives each option of the table (NULL: none); the
 * values point into text. */
static void config_parse(char *text, char **values)
{
	unsigned short sorted[NOPTIONS];

	for (size_t i = 0; i < NOPTIONS; i++)
		sorted[i] = (unsigned short)i;
	qsort(sorted, NOPTIONS, sizeof sorted[0], by_name);
	for (char *line = text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		config_line(line, sorted, values);
	}
}

/* Every option the text sets, as kernel.config.CONFIG_X, in table order. */
static void config_options(struct bb_kvlist *kv, char *const *values)
{
	char key[80];

	for (size_t i = 0; i < NOPTIONS; i++)
		if (values[i]) {
			snprintf(key, sizeof key, "kernel.config.CONFIG_%s", options[i].name);
			bb_facts_put(kv, key, values[i]);
		}
}

static int config_is(char *const *values, const char *name)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return values[i] && strcmp(values[i], "y") == 0;
	return 0;
}

/* ---- preemption ---- */

/* The model the kernel was built with: from the config if known, else the
 * version string ("#1 SMP PREEMPT_DYNAMIC ..."); NULL if unknown. */
static const char *preempt_base(char *const *values, int have_config, const char *version,
				int *dynamic)
{
	*dynamic = strstr(version, "PREEMPT_DYNAMIC") != NULL;
	if (have_config) {
		const char *m = config_is(values, "PREEMPT_RT") ? "rt"
			      : config_is(values, "PREEMPT_LAZY") ? "lazy"
			      : config_is(values, "PREEMPT") ? "full"
			      : config_is(values, "PREEMPT_VOLUNTARY") ? "voluntary"
			      : config_is(values, "PREEMPT_NONE") ? "none" : NULL;
		*dynamic |= config_is(values, "PREEMPT_DYNAMIC");
		if (m)
			return m;
	}
	if (strstr(version, "PREEMPT_RT"))
		return "rt";
	if (strstr(version, "PREEMPT_LAZY"))
		return "lazy";
	if (*dynamic)
		return NULL;
	if (strstr(version, " PREEMPT ") || strncmp(version, "PREEMPT ", 8) == 0)
		return "full";
	return version[0] ? "none or voluntary" : NULL;
}

/* With PREEMPT_DYNAMIC the model in force: debugfs's "none voluntary
 * (full) lazy", else preempt= on the command line. */
static int preempt_now(const char *cmdline, char *out, size_t len)
{
	char buf[128];
	const char *l, *r, *p;

	if (bb_root_line("/sys/kernel/debug/sched/preempt", buf, sizeof buf) == 0 &&
	    (l = strchr(buf, '(')) != NULL && (r = strchr(l, ')')) != NULL) {
		snprintf(out, len, "%.*s", (int)(r - l - 1), l + 1);
		return 0;
	}
	for (p = cmdline; (p = strstr(p, "preempt=")) != NULL; p += 8)
		if (p == cmdline || p[-1] == ' ') {
			snprintf(out, len, "%.*s", (int)strcspn(p + 8, " "), p + 8);
			return out[0] ? 0 : -1;
		}
	return -1;
}

static void preempt_model(struct bb_kvlist *kv, char *const *values, int have_config,
			  const char *version, const char *cmdline)
{
	char now[64], out[96];
	int dynamic;
	const char *base = preempt_base(values, have_config, version, &dynamic);

	if (dynamic && preempt_now(cmdline, now, sizeof now) == 0)
		base = now;
	if (!base && !dynamic)
		return;
	snprintf(out, sizeof out, "%s%s", base ? base : "dynamic",
		 dynamic && base ? " (dynamic)" : "");
	bb_facts_put(kv, "kernel.preempt", out);
}

/* ---- release, version, command line ---- */

static void release_version(char *rel, size_t rlen, char *ver, size_t vlen)
{
	struct utsname u;
	int r = bb_root_line("/proc/sys/kernel/osrelease", rel, rlen);
	int v = bb_root_line("/proc/sys/kernel/version", ver, vlen);

	if ((r || v) && !bb_root_is_fixture() && uname(&u) == 0) {
		if (r)
			snprintf(rel, rlen, "%s", u.release);
		if (v)
			snprintf(ver, vlen, "%s", u.version);
	}
}

void bb_facts_kernel(struct bb_kvlist *kv)
{
	char rel[256], ver[512], cmdline[4096], from[320];
	char *values[NOPTIONS] = { 0 }, *text;

	release_version(rel, sizeof rel, ver, sizeof ver);
	bb_facts_put(kv, "kernel.release", rel);
	bb_facts_put(kv, "kernel.version", ver);
	if (bb_root_read("/proc/cmdline", cmdline, sizeof cmdline) < 0)
		cmdline[0] = '\0';
	cmdline[strcspn(cmdline, "\n")] = '\0';
	bb_facts_put(kv, "kernel.cmdline", cmdline);
	from[0] = '\0';
	text = config_text(rel, from, sizeof from);
	if (text)
		config_parse(text, values);
	preempt_model(kv, values, text != NULL, ver, cmdline);
	bb_facts_put(kv, "kernel.config", from);
	config_options(kv, values);
	free(text);
}
