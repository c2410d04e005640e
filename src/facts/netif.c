/* netif.c - the facts of the interface a test's socket uses (netif.h):
 * found from the socket's local address (getsockname; then SIOCGIFCONF
 * for IPv4 and /proc/net/if_inet6 for IPv6: no netlink); then
 * MTU, queue length, link speed and duplex and the driver's name from
 * sysfs (/sys/class/net/IF, through root.h), and the driver's version,
 * firmware, bus and offloads from the ethtool ioctl (legacy get commands,
 * which every kernel since 2.6 answers).  Under a fixture root only the
 * files are read.  A few syscalls per session: well under a millisecond. */
#include "facts/netif.h"
#include "facts/root.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/ioctl.h>

#ifdef __linux__
#include <linux/ethtool.h>
#include <linux/sockios.h>
#endif

/* SIOCGIFCONF is asked for at most this many IPv4 addresses. */
#define BB_NETIF_MAX_IFCONF 4096

/* ---- which interface ---- */

/* An IPv4-mapped IPv6 address (a dual-stack listener's IPv4 peer) as IPv4. */
static void unmap_v4(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;

	if (ss->ss_family != AF_INET6)
		return;
	memcpy(&s6, ss, sizeof s6);
	if (!IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	memcpy(&s4.sin_addr, &s6.sin6_addr.s6_addr[12], 4);
	memset(ss, 0, sizeof *ss);
	memcpy(ss, &s4, sizeof s4);
}

static int is_wildcard(const struct sockaddr_storage *ss)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;

	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)ss)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	if (ss->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr, &any6,
			       sizeof any6);
	return 1;
}

/* The socket's local address, IPv4-mapped made IPv4, port 0; 0 or -1. */
static int local_address(int fd, struct sockaddr_storage *ss)
{
	socklen_t sl = sizeof *ss;

	memset(ss, 0, sizeof *ss);
	if (bb_root_is_fixture() || fd < 0 || getsockname(fd, (struct sockaddr *)ss, &sl) != 0)
		return -1;
	unmap_v4(ss);
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)(void *)ss)->sin_port = 0;
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)ss)->sin6_port = 0;
	return is_wildcard(ss) ? -1 : 0;
}

/* An IPv4 alias's label ("eth0:1") is its device's name up to the colon:
 * Linux interface names never hold one.  0, or -1 when it does not fit. */
static int put_name(const char *ifname, size_t n, char *name, size_t len)
{
	const char *colon = memchr(ifname, ':', n);

	if (colon)
		n = (size_t)(colon - ifname);
	if (n == 0 || n >= len)
		return -1;
	memcpy(name, ifname, n);
	name[n] = '\0';
	return 0;
}

/* The interface in an SIOCGIFCONF answer that holds IPv4 address a. */
static int ipv4_match(const struct ifconf *ifc, const struct in_addr *a, char *name, size_t len)
{
	size_t n = (size_t)ifc->ifc_len / sizeof(struct ifreq);

	for (size_t i = 0; i < n; i++) {
		const struct ifreq *r = &ifc->ifc_req[i];
		struct sockaddr_in s4;

		if (r->ifr_addr.sa_family != AF_INET)
			continue;
		memcpy(&s4, &r->ifr_addr, sizeof s4);
		if (s4.sin_addr.s_addr == a->s_addr)
			return put_name(r->ifr_name, strnlen(r->ifr_name, sizeof r->ifr_name), name, len);
	}
	return -1;
}

/* IPv4: the kernel's list of interfaces with an IPv4 address (SIOCGIFCONF,
 * no netlink: musl's getifaddrs hangs under qemu-user for big-endian
 * guests), asked again with a larger buffer while the answer fills it. */
static int ipv4_owner(const struct in_addr *a, char *name, size_t len)
{
	struct ifreq *req = NULL;
	struct ifconf ifc;
	int sock, rc = -1;

	if (bb_root_is_fixture() || (sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	for (size_t n = 16; n <= BB_NETIF_MAX_IFCONF; n *= 2) {
		size_t bytes = n * sizeof *req;

		free(req);
		if (!(req = calloc(n, sizeof *req)))
			break;
		ifc.ifc_len = (int)bytes;
		ifc.ifc_req = req;
		if (ioctl(sock, SIOCGIFCONF, &ifc) != 0 || ifc.ifc_len < 0 || (size_t)ifc.ifc_len > bytes)
			break;
		if ((size_t)ifc.ifc_len < bytes) {
			rc = ipv4_match(&ifc, a, name, len);
			break;
		}
	}
	free(req);
	close(sock);
	return rc;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Blanks, then a hex number of 1 to 8 digits into *v, then a blank: the
 * text from that blank on, or NULL. */
static const char *hex_field(const char *p, unsigned long *v)
{
	int digits = 0, d;

	if (*p != ' ' && *p != '\t')
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	for (*v = 0; (d = hex_digit((unsigned char)*p)) >= 0; p++) {
		if (++digits > 8)
			return NULL;
		*v = *v << 4 | (unsigned long)d;
	}
	return digits && (*p == ' ' || *p == '\t') ? p : NULL;
}

int bb_netif_inet6_line(const char *line, struct in6_addr *addr, unsigned *ifindex,
			char *name, size_t len)
{
	const char *p = line, *end;
	unsigned long field[4];

	if (len)
		name[0] = '\0';
	for (int i = 0; i < 16; i++, p += 2) {
		int hi = hex_digit((unsigned char)p[0]), lo = hi < 0 ? -1 : hex_digit((unsigned char)p[1]);

		if (lo < 0)
			return -1;
		addr->s6_addr[i] = (unsigned char)(hi << 4 | lo);
	}
	for (int f = 0; f < 4; f++)      /* index, prefix length, scope, flags */
		if (!(p = hex_field(p, &field[f])))
			return -1;
	*ifindex = (unsigned)field[0];
	p += strspn(p, " \t");
	end = p + strcspn(p, " \t\n");
	if (end[strspn(end, " \t\n")] != '\0' || memchr(p, ':', (size_t)(end - p)) ||
	    memchr(p, '/', (size_t)(end - p)))
		return -1;
	return put_name(p, (size_t)(end - p), name, len);
}

/* IPv6: /proc/net/if_inet6 (through the root, so fixtures answer too); a
 * scoped address (link-local) must also be on the socket's interface. */
static int ipv6_owner(const struct sockaddr_in6 *a, char *name, size_t len)
{
	FILE *f = bb_root_fopen("/proc/net/if_inet6");
	char line[256], ifname[IF_NAMESIZE];
	struct in6_addr addr;
	unsigned index;
	int rc = -1;

	if (!f)
		return -1;
	while (rc != 0 && fgets(line, sizeof line, f))
		if (bb_netif_inet6_line(line, &addr, &index, ifname, sizeof ifname) == 0 &&
		    !memcmp(&addr, &a->sin6_addr, sizeof addr) &&
		    (a->sin6_scope_id == 0 || a->sin6_scope_id == index) &&
		    strlen(ifname) < len) {
			memcpy(name, ifname, strlen(ifname) + 1);
			rc = 0;
		}
	fclose(f);
	return rc;
}

int bb_netif_of_address(const struct sockaddr *sa, char *name, size_t len)
{
	struct sockaddr_in s4;
	struct sockaddr_in6 s6;

	if (len)
		name[0] = '\0';
	if (!sa || len == 0)
		return -1;
	if (sa->sa_family == AF_INET) {
		memcpy(&s4, sa, sizeof s4);
		return ipv4_owner(&s4.sin_addr, name, len);
	}
	if (sa->sa_family == AF_INET6) {
		memcpy(&s6, sa, sizeof s6);
		return ipv6_owner(&s6, name, len);
	}
	return -1;
}

int bb_netif_of_socket(int fd, char *name, size_t len)
{
	struct sockaddr_storage ss;

	name[0] = '\0';
	if (local_address(fd, &ss) != 0)
		return -1;
	return bb_netif_of_address((const struct sockaddr *)&ss, name, len);
}

/* ---- sysfs ---- */

static void sysfs_path(char *buf, size_t len, const char *ifname, const char *leaf)
{
	snprintf(buf, len, "/sys/class/net/%s/%s", ifname, leaf);
}

static long long sysfs_number(const char *ifname, const char *leaf)
{
	char path[128];
	long long v;

	sysfs_path(path, sizeof path, ifname, leaf);
	return bb_root_llong(path, &v) == 0 ? v : -1;
}

/* The driver's name: the last part of the device/driver link. */
static void sysfs_driver(const char *ifname, char *buf, size_t len)
{
	char rel[128], full[4096], target[4096];
	ssize_t n;
	const char *base;

	sysfs_path(rel, sizeof rel, ifname, "device/driver");
	if (bb_root_path(full, sizeof full, rel) != 0 ||
	    (n = readlink(full, target, sizeof target - 1)) <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	n = (ssize_t)strlen(base);
	if ((size_t)n >= len)
		n = (ssize_t)len - 1;
	memcpy(buf, base, (size_t)n);
	buf[n] = '\0';
}

static void read_sysfs(const char *ifname, struct bb_netif *n)
{
	char path[128], duplex[16];
	long long speed = sysfs_number(ifname, "speed");

	n->mtu = sysfs_number(ifname, "mtu");
	n->txqueuelen = sysfs_number(ifname, "tx_queue_len");
	n->speed_mbps = speed > 0 ? speed : -1;     /* a link that is down says -1 */
	sysfs_path(path, sizeof path, ifname, "duplex");
	if (bb_root_line(path, duplex, sizeof duplex) == 0 &&
	    (!strcmp(duplex, "full") || !strcmp(duplex, "half")))
		snprintf(n->duplex, sizeof n->duplex, "%s", duplex);
	sysfs_driver(ifname, n->driver, sizeof n->driver);
}

/* ---- ethtool ---- */

#ifdef __linux__
static int ethtool(int sock, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(sock, SIOCETHTOOL, &ifr);
}

static void ethtool_drvinfo(int sock, const char *ifname, struct bb_netif *n)
{
	struct ethtool_drvinfo d;

	memset(&d, 0, sizeof d);
	d.cmd = ETHTOOL_GDRVINFO;
	if (ethtool(sock, ifname, &d) != 0)
		return;
	d.driver[sizeof d.driver - 1] = d.version[sizeof d.version - 1] = '\0';
	d.fw_version[sizeof d.fw_version - 1] = d.bus_info[sizeof d.bus_info - 1] = '\0';
	if (d.driver[0])
		snprintf(n->driver, sizeof n->driver, "%s", d.driver);
	snprintf(n->driver_version, sizeof n->driver_version, "%s", d.version);
	snprintf(n->firmware_version, sizeof n->firmware_version, "%s", d.fw_version);
	snprintf(n->bus, sizeof n->bus, "%s", d.bus_info);
}

/* Link speed and duplex where sysfs had none (older kernels). */
static void ethtool_link(int sock, const char *ifname, struct bb_netif *n)
{
	struct ethtool_cmd c;
	unsigned speed;

	memset(&c, 0, sizeof c);
	c.cmd = ETHTOOL_GSET;
	if (ethtool(sock, ifname, &c) != 0)
		return;
	speed = ethtool_cmd_speed(&c);
	if (n->speed_mbps < 0 && speed != 0 && speed != (unsigned)SPEED_UNKNOWN)
		n->speed_mbps = speed;
	if (!n->duplex[0] && (c.duplex == DUPLEX_FULL || c.duplex == DUPLEX_HALF))
		snprintf(n->duplex, sizeof n->duplex, "%s", c.duplex == DUPLEX_FULL ? "full" : "half");
}

static int ethtool_flag(int sock, const char *ifname, unsigned cmd)
{
	struct ethtool_value v = { .cmd = cmd, .data = 0 };

	return ethtool(sock, ifname, &v) == 0 ? v.data != 0 : -1;
}

static void read_ethtool(const char *ifname, struct bb_netif *n)
{
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (sock < 0)
		return;
	ethtool_drvinfo(sock, ifname, n);
	if (n->speed_mbps < 0 || !n->duplex[0])
		ethtool_link(sock, ifname, n);
	n->tso = ethtool_flag(sock, ifname, ETHTOOL_GTSO);
	n->gso = ethtool_flag(sock, ifname, ETHTOOL_GGSO);
	n->gro = ethtool_flag(sock, ifname, ETHTOOL_GGRO);
	n->rx_csum = ethtool_flag(sock, ifname, ETHTOOL_GRXCSUM);
	n->tx_csum = ethtool_flag(sock, ifname, ETHTOOL_GTXCSUM);
	n->sg = ethtool_flag(sock, ifname, ETHTOOL_GSG);
	close(sock);
}
#else
static void read_ethtool(const char *ifname, struct bb_netif *n)
{
	(void)ifname;
	(void)n;
}
#endif

void bb_netif_read(const char *name, struct bb_netif *n)
{
	memset(n, 0, sizeof *n);
	n->speed_mbps = n->mtu = n->txqueuelen = -1;
	n->tso = n->gso = n->gro = n->rx_csum = n->tx_csum = n->sg = -1;
	if (!name || !name[0] || strlen(name) >= sizeof n->name || strchr(name, '/'))
		return;
	snprintf(n->name, sizeof n->name, "%s", name);
	read_sysfs(name, n);
	if (!bb_root_is_fixture())
		read_ethtool(name, n);
}

/* ---- into a key/value list ---- */

static void put_str(struct bb_kvlist *kv, const char *prefix, const char *key, const char *v)
{
	char k[64];

	if (!v[0])
		return;
	snprintf(k, sizeof k, "%s%s", prefix, key);
	bb_kv_str(kv, k, v);
}

static void put_int(struct bb_kvlist *kv, const char *prefix, const char *key, long long v)
{
	char k[64];

	if (v < 0)
		return;
	snprintf(k, sizeof k, "%s%s", prefix, key);
	bb_kv_int(kv, k, v);
}

static void put_bool(struct bb_kvlist *kv, const char *prefix, const char *key, int v)
{
	char k[64];

	if (v < 0)
		return;
	snprintf(k, sizeof k, "%s%s", prefix, key);
	bb_kv_bool(kv, k, v);
}

void bb_netif_kv(const struct bb_netif *n, const char *prefix, struct bb_kvlist *kv)
{
	put_str(kv, prefix, "name", n->name);
	put_str(kv, prefix, "driver", n->driver);
	put_str(kv, prefix, "driver_version", n->driver_version);
	put_str(kv, prefix, "firmware_version", n->firmware_version);
	put_str(kv, prefix, "bus", n->bus);
	put_int(kv, prefix, "speed_mbps", n->speed_mbps);
	put_str(kv, prefix, "duplex", n->duplex);
	put_int(kv, prefix, "mtu", n->mtu);
	put_int(kv, prefix, "txqueuelen", n->txqueuelen);
	put_bool(kv, prefix, "tso", n->tso);
	put_bool(kv, prefix, "gso", n->gso);
	put_bool(kv, prefix, "gro", n->gro);
	put_bool(kv, prefix, "rx_checksum", n->rx_csum);
	put_bool(kv, prefix, "tx_checksum", n->tx_csum);
	put_bool(kv, prefix, "sg", n->sg);
}

/* ---- once per local address ---- */

/* The last address looked up and what it gave: a program that opens many
 * sessions (the quick suite opens ~80) pays for the lookup once. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sockaddr_storage cache_addr;
static struct bb_netif cache_if;
static int cache_valid;

int bb_netif_for_socket(int fd, struct bb_netif *n)
{
	struct sockaddr_storage ss;
	char name[IF_NAMESIZE];
	int rc = 0;

	if (local_address(fd, &ss) != 0)
		return -1;
	pthread_mutex_lock(&cache_lock);
	if (!cache_valid || memcmp(&ss, &cache_addr, sizeof ss) != 0) {
		rc = bb_netif_of_address((const struct sockaddr *)&ss, name, sizeof name);
		if (rc == 0) {
			bb_netif_read(name, &cache_if);
			cache_addr = ss;
		}
		cache_valid = rc == 0;
	}
	if (rc == 0)
		*n = cache_if;
	pthread_mutex_unlock(&cache_lock);
	return rc;
}
