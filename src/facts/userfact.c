/* userfact.c - the facts the user names: --fact NAME=PATH records what a
 * file holds (a debugfs or sysfs register, a U-Boot variable saved by
 * fw_printenv) and --fact NAME=mmio:ADDR[:WIDTH[:MASK]] a physical
 * register read through /dev/mem (devmem.c), each as "fact.NAME", so that
 * compare names the one that differs between A and B.  A file's text is
 * kept with its runs of blanks, newlines and NULs made one blank; a file
 * that is not text is written in hex ("0x" and its bytes in order, as a
 * device tree cell reads); at most BB_USER_FACT_MAX bytes.  An absolute
 * PATH is read under the facts root, a relative one as given.  A file or
 * register that cannot be read ends the program with one line the first
 * time the facts are collected (before anything is measured); later
 * (run --repeat, a server's tests) its value says why and a warning is
 * printed. */
#include "facts/facts.h"
#include "facts/devmem.h"
#include "facts/root.h"
#include "core/cli.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define BB_USER_FACT_MAX 2000   /* bytes of a file: its hex still fits a results string */

static int collected;   /* a collection has finished: failures are recorded, not fatal */

/* PATH opened for reading without blocking (absolute: under the root):
 * the descriptor, or -1 with why and *usage (the path itself is wrong). */
static int open_fact(const char *path, char *why, size_t wl, int *usage)
{
	char full[4096];
	struct stat st;
	int fd, e;

	*usage = 1;
	if (path[0] == '/' ? bb_root_path(full, sizeof full, path)
			   : (size_t)snprintf(full, sizeof full, "%s", path) >= sizeof full) {
		snprintf(why, wl, "path too long");
		return -1;
	}
	fd = open(full, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
		return fd;
	e = fd < 0 ? errno : EISDIR;
	if (fd >= 0)
		close(fd);
	*usage = e == ENOENT || e == ENOTDIR || e == EISDIR;
	snprintf(why, wl, "%s", strerror(e));
	return -1;
}

/* Whole file into buf (at most BB_USER_FACT_MAX bytes): the count, or -1
 * with why, *usage set when the path itself is wrong. */
static ssize_t read_small(const char *path, unsigned char *buf, char *why, size_t wl, int *usage)
{
	ssize_t got = 0, n = 0;
	int fd = open_fact(path, why, wl, usage), e;

	if (fd < 0)
		return -1;
	while (got <= BB_USER_FACT_MAX && (n = read(fd, buf + got, BB_USER_FACT_MAX + 1 - got)) > 0)
		got += n;
	e = errno;
	close(fd);
	*usage = got > BB_USER_FACT_MAX;
	if (n < 0 && e != EAGAIN && e != EINTR) {
		snprintf(why, wl, "%s", strerror(e));
		return -1;
	}
	if (got > BB_USER_FACT_MAX) {
		snprintf(why, wl, "more than %d bytes: a fact is one register or setting",
			 BB_USER_FACT_MAX);
		return -1;
	}
	return got;
}

/* Text (printable UTF-8, blanks, NULs) with each run of blanks one blank,
 * or else "0x" and the bytes in hex; b[n] is 0. */
static void content_text(const unsigned char *b, size_t n, char *out)
{
	size_t o = 0, i;
	int u = 1;

	for (i = 0; i < n && u; i += u ? (size_t)u : 1)
		u = b[i] < 0x20 ? (b[i] == 0 || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')
				: b[i] == 0x7f ? 0 : bb_utf8_len(b + i);
	if (!u) {
		out[o++] = '0';
		out[o++] = 'x';
		for (i = 0; i < n; i++) {
			out[o++] = "0123456789abcdef"[b[i] >> 4];
			out[o++] = "0123456789abcdef"[b[i] & 15];
		}
		out[o] = '\0';
		return;
	}
	for (i = 0; i < n; i++) {
		int blank = b[i] <= ' ';
		if (!blank)
			out[o++] = (char)b[i];
		else if (o && out[o - 1] != ' ')
			out[o++] = ' ';
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

/* The value of one --fact: 0, or -1 (why in val) with *usage. */
static int fact_value(const char *spec, char *val, size_t len, int *usage)
{
	unsigned char buf[BB_USER_FACT_MAX + 4];
	struct bb_mmio m;
	uint64_t v;
	ssize_t n;

	*usage = 0;
	if (strncmp(spec, "mmio:", 5) == 0) {
		if (bb_parse_mmio(spec + 5, &m) || bb_devmem_read(&m, &v, val, len))
			return -1;
		snprintf(val, len, "0x%0*llx", (int)m.width / 4, (unsigned long long)v);
		return 0;
	}
	if ((n = read_small(spec, buf, val, len, usage)) < 0)
		return -1;
	buf[n] = 0;   /* a UTF-8 sequence cut by the end reads as not text */
	content_text(buf, (size_t)n, val);
	if (!val[0])
		snprintf(val, len, "(empty)");
	return 0;
}

void bb_facts_user(struct bb_kvlist *kv)
{
	const struct bb_kvlist *l = bb_cli_facts();
	char key[80], val[2 * BB_USER_FACT_MAX + 8], why[sizeof val + 32];
	int usage;

	for (size_t i = 0; i < l->n; i++) {
		const char *name = l->v[i].key, *spec = l->v[i].s;
		snprintf(key, sizeof key, "fact.%s", name);
		if (fact_value(spec, val, sizeof val, &usage) == 0) {
			bb_kv_str(kv, key, val);
			continue;
		}
		if (!collected && usage)
			bb_die_usage("invalid value '%s=%s' for --fact (%s)", name, spec, val);
		if (!collected)
			bb_die("--fact %s=%s: %s", name, spec, val);
		bb_warn("--fact %s=%s: %s", name, spec, val);
		snprintf(why, sizeof why, "(unreadable: %s)", val);
		bb_kv_str(kv, key, why);
	}
	collected = 1;
}
