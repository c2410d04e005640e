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
#include "core/inflate.h"
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

/* The options recorded, without CONFIG_: P(NAME) a plain one, C(NAME) a
 * member of a choice (recorded only when it is the one chosen). */
#define KERNEL_OPTIONS(P, C) \
	P(HZ) C(HZ_PERIODIC) C(NO_HZ_IDLE) C(NO_HZ_FULL) P(NO_HZ) \
	C(PREEMPT_NONE) C(PREEMPT_VOLUNTARY) C(PREEMPT) C(PREEMPT_LAZY) C(PREEMPT_RT) \
	P(PREEMPT_DYNAMIC) P(SMP) P(NR_CPUS) P(NUMA) \
	P(HIGHMEM) C(NOHIGHMEM) C(HIGHMEM4G) C(HIGHMEM64G) \
	P(TRANSPARENT_HUGEPAGE) C(TRANSPARENT_HUGEPAGE_ALWAYS) C(TRANSPARENT_HUGEPAGE_MADVISE) \
	C(TRANSPARENT_HUGEPAGE_NEVER) \
	P(CPU_FREQ) C(CPU_FREQ_DEFAULT_GOV_PERFORMANCE) C(CPU_FREQ_DEFAULT_GOV_POWERSAVE) \
	C(CPU_FREQ_DEFAULT_GOV_USERSPACE) C(CPU_FREQ_DEFAULT_GOV_ONDEMAND) \
	C(CPU_FREQ_DEFAULT_GOV_CONSERVATIVE) C(CPU_FREQ_DEFAULT_GOV_SCHEDUTIL) \
	/* x86: the checksum and memcpy the kernel builds, and the CPU it is built for */ \
	P(X86_USE_PPRO_CHECKSUM) P(X86_USE_3DNOW) P(X86_INTEL_USERCOPY) P(X86_GENERIC) \
	C(M486) C(M586) C(M586TSC) C(M586MMX) C(M686) C(MPENTIUMII) C(MPENTIUMIII) \
	C(MPENTIUMM) C(MPENTIUM4) C(MK6) C(MK7) C(MK8) C(MCRUSOE) C(MEFFICEON) \
	C(MWINCHIPC6) C(MWINCHIP3D) C(MELAN) C(MGEODEGX1) C(MGEODE_LX) C(MCYRIXIII) \
	C(MVIAC3_2) C(MVIAC7) C(MCORE2) C(MATOM) C(GENERIC_CPU) \
	/* floating point and vector units */ \
	P(MATH_EMULATION) P(PPC_FPU) P(ALTIVEC) P(SPE) P(VFP) P(NEON) P(KERNEL_MODE_NEON) \
	/* page size and addressing */ \
	C(PPC_4K_PAGES) C(PPC_16K_PAGES) C(PPC_64K_PAGES) C(PPC_256K_PAGES) \
	C(ARM64_4K_PAGES) C(ARM64_16K_PAGES) C(ARM64_64K_PAGES) P(ARM_LPAE) \
	/* how the kernel was built, and what slows every system call */ \
	C(CC_OPTIMIZE_FOR_PERFORMANCE) C(CC_OPTIMIZE_FOR_SIZE) \
	P(KASAN) P(DEBUG_PAGEALLOC) P(PROVE_LOCKING) \
	P(PAGE_TABLE_ISOLATION) P(MITIGATION_PAGE_TABLE_ISOLATION) P(DEFAULT_TCP_CONG)

/* Their names in one string, in table order, each ended by a NUL, a
 * member of a choice with a leading '*': no table of pointers (16 bytes
 * an option, 1.3 KB of the small static binary). */
#define NAME_P(n) #n "\0"
#define NAME_C(n) "*" #n "\0"
#define COUNT_ONE(n) +1
static const char option_names[] = KERNEL_OPTIONS(NAME_P, NAME_C);
enum { NOPTIONS = 0 KERNEL_OPTIONS(COUNT_ONE, COUNT_ONE) };

/* What a configuration sets, by option: the names sorted (each pointing
 * into option_names, '*' included) and each one's value (NULL: not set). */
struct config {
	const char *sorted[NOPTIONS];
	char *values[NOPTIONS];
};

/* An entry of option_names without a choice's '*'. */
static const char *opt_name(const char *n)
{
	return n + (n[0] == '*');
}

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
	return strcmp(opt_name(*(const char *const *)a), opt_name(*(const char *const *)b));
}

static void config_init(struct config *c)
{
	const char *p = option_names;

	memset(c, 0, sizeof *c);
	for (int i = 0; i < NOPTIONS; i++, p += strlen(p) + 1)
		c->sorted[i] = p;
	qsort(c->sorted, NOPTIONS, sizeof c->sorted[0], by_name);
}

/* The option's place in c->sorted, or -1. */
static int find_option(const struct config *c, const char *name)
{
	size_t lo = 0, hi = NOPTIONS;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int d = strcmp(name, opt_name(c->sorted[mid]));
		if (d == 0)
			return (int)mid;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* One line: "CONFIG_X=val" or "# CONFIG_X is not set" -> X's value. */
static void config_line(char *line, struct config *c)
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
	i = find_option(c, name);
	if (i >= 0 && !c->values[i] && !(c->sorted[i][0] == '*' && strcmp(val, "n") == 0))
		c->values[i] = val;
}

/* The value the text gives each option of the table; the values point
 * into text. */
static void config_parse(char *text, struct config *c)
{
	for (char *line = text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		config_line(line, c);
	}
}

/* Every option the text sets, as kernel.config.CONFIG_X, in table order. */
static void config_options(struct bb_kvlist *kv, const struct config *c)
{
	char key[80];
	const char *p = option_names;

	for (int i = 0; i < NOPTIONS; i++, p += strlen(p) + 1) {
		int k = find_option(c, opt_name(p));
		if (k >= 0 && c->values[k]) {
			snprintf(key, sizeof key, "kernel.config.CONFIG_%s", opt_name(p));
			bb_facts_put(kv, key, c->values[k]);
		}
	}
}

static int config_is(const struct config *c, const char *name)
{
	int k = find_option(c, name);

	return k >= 0 && c->values[k] && strcmp(c->values[k], "y") == 0;
}

/* ---- preemption ---- */

/* The model the kernel was built with: from the config if known, else the
 * version string ("#1 SMP PREEMPT_DYNAMIC ..."); NULL if unknown. */
static const char *preempt_base(const struct config *c, int have_config,
				const char *version, int *dynamic)
{
	*dynamic = strstr(version, "PREEMPT_DYNAMIC") != NULL;
	if (have_config) {
		const char *m = config_is(c, "PREEMPT_RT") ? "rt"
			      : config_is(c, "PREEMPT_LAZY") ? "lazy"
			      : config_is(c, "PREEMPT") ? "full"
			      : config_is(c, "PREEMPT_VOLUNTARY") ? "voluntary"
			      : config_is(c, "PREEMPT_NONE") ? "none" : NULL;
		*dynamic |= config_is(c, "PREEMPT_DYNAMIC");
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

static void preempt_model(struct bb_kvlist *kv, const struct config *c, int have_config,
			  const char *version, const char *cmdline)
{
	char now[64], out[96];
	int dynamic;
	const char *base = preempt_base(c, have_config, version, &dynamic);

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
	struct config c;
	char *text;

	release_version(rel, sizeof rel, ver, sizeof ver);
	bb_facts_put(kv, "kernel.release", rel);
	bb_facts_put(kv, "kernel.version", ver);
	if (bb_root_read("/proc/cmdline", cmdline, sizeof cmdline) < 0)
		cmdline[0] = '\0';
	cmdline[strcspn(cmdline, "\n")] = '\0';
	bb_facts_put(kv, "kernel.cmdline", cmdline);
	from[0] = '\0';
	text = config_text(rel, from, sizeof from);
	config_init(&c);
	if (text)
		config_parse(text, &c);
	preempt_model(kv, &c, text != NULL, ver, cmdline);
	bb_facts_put(kv, "kernel.config", from);
	config_options(kv, &c);
	free(text);
}
