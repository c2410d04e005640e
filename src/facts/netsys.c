/* netsys.c - the network sysctls that move a throughput result, recorded
 * in a results file's `system` under their sysctl names ("net.core.rmem_max"
 * -> "131071"), read from /proc/sys through root.h.  Multi-value sysctls
 * (net.ipv4.tcp_rmem) keep their values separated by one space, so a file
 * diffs the same whatever whitespace the kernel printed.  A sysctl the
 * kernel does not have is left out.  About 20 small reads: well under a
 * millisecond. */
#include "facts/facts.h"
#include "facts/netif.h"
#include "facts/root.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const netsys_names[] = {
	"net.core.rmem_max",
	"net.core.wmem_max",
	"net.core.rmem_default",
	"net.core.wmem_default",
	"net.core.netdev_max_backlog",
	"net.core.default_qdisc",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_window_scaling",
	"net.ipv4.tcp_timestamps",
	"net.ipv4.tcp_sack",
	"net.ipv4.tcp_adv_win_scale",
	"net.ipv4.tcp_moderate_rcvbuf",
	"net.ipv4.tcp_slow_start_after_idle",
	"net.ipv4.tcp_mtu_probing",
};

/* "net.core.rmem_max" -> "/proc/sys/net/core/rmem_max"; -1 if too long. */
static int sysctl_path(const char *name, char *path, size_t len)
{
	int n = snprintf(path, len, "/proc/sys/%s", name);

	if (n < 0 || (size_t)n >= len)
		return -1;
	for (char *p = path + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

/* Runs of blanks (tabs in tcp_rmem) become one space; ends trimmed. */
static void squeeze_blanks(char *s)
{
	char *w = s;
	int blank = 0;

	for (const char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			blank = w != s;
			continue;
		}
		if (blank)
			*w++ = ' ';
		blank = 0;
		*w++ = *r;
	}
	*w = '\0';
}

int bb_netsys_read(const char *name, char *buf, size_t len)
{
	char path[256];

	buf[0] = '\0';
	if (sysctl_path(name, path, sizeof path) != 0 || bb_root_read(path, buf, len) < 0)
		return -1;
	squeeze_blanks(buf);
	return buf[0] ? 0 : -1;
}

int bb_netsys_llong(const char *name, long long *v)
{
	char path[256];

	if (sysctl_path(name, path, sizeof path) != 0)
		return -1;
	return bb_root_llong(path, v);
}

void bb_facts_netsys(struct bb_kvlist *kv)
{
	char val[256];

	for (size_t i = 0; i < sizeof netsys_names / sizeof netsys_names[0]; i++)
		if (bb_netsys_read(netsys_names[i], val, sizeof val) == 0)
			bb_kv_str(kv, netsys_names[i], val);
}
