/* netif.h - the network facts of one test rather than of the system: the
 * interface a connected socket uses (name, driver and firmware, link
 * speed and duplex, MTU, queue length, offloads), and single network
 * sysctls read by name (the sysctl that caps a socket buffer).  Files come
 * through root.h (sysfs, /proc/sys, /proc/net/if_inet6); ioctls (ethtool,
 * SIOCGIFCONF) are skipped under a fixture root.  netsys.c writes the net.* sysctls of
 * a results file's `system` (facts.h); netif.c reads the interface. */
#ifndef BB_FACTS_NETIF_H
#define BB_FACTS_NETIF_H

#include "core/kv.h"

#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>

/* A sysctl by its dotted name ("net.core.rmem_max"): its value with blanks
 * squeezed to one space, 0; or -1 with buf "" when absent. */
int bb_netsys_read(const char *name, char *buf, size_t len);
/* The same for a number sysctl: 0 and *v, or -1. */
int bb_netsys_llong(const char *name, long long *v);

#define BB_NETIF_TEXT 48

/* Unknown numbers are -1, unknown strings "", unknown offloads -1. */
struct bb_netif {
	char name[IF_NAMESIZE];
	char driver[BB_NETIF_TEXT], driver_version[BB_NETIF_TEXT];
	char firmware_version[BB_NETIF_TEXT], bus[BB_NETIF_TEXT];
	char duplex[16];              /* "full", "half" */
	long long speed_mbps, mtu, txqueuelen;
	int tso, gso, gro, rx_csum, tx_csum, sg;
};

/* The interface holding the local address of connected socket fd (lo for
 * 127.0.0.1); 0, or -1 (unbound, wildcard, no match, fixture root). */
int bb_netif_of_socket(int fd, char *name, size_t len);

/* The interface holding address sa (port and flow ignored; an IPv6 scope
 * must match the interface's index): IPv4 from the SIOCGIFCONF ioctl (not
 * under a fixture root; an alias "eth0:1" gives "eth0"), IPv6 from
 * /proc/net/if_inet6.  No netlink.  0, or -1 with name "" (no match). */
int bb_netif_of_address(const struct sockaddr *sa, char *name, size_t len);

/* One line of /proc/net/if_inet6 ("fe80...0001 02 40 20 80  eth0"): the
 * address, the interface's index and name; 0, or -1 when malformed. */
int bb_netif_inet6_line(const char *line, struct in6_addr *addr, unsigned *ifindex,
			char *name, size_t len);

/* Everything known about interface name: sysfs first, ethtool for what
 * sysfs lacks (driver, firmware, offloads; speed when sysfs has none). */
void bb_netif_read(const char *name, struct bb_netif *n);

/* Both for socket fd, remembered for its local address (later sessions
 * of the same program pay nothing); 0, or -1 as bb_netif_of_socket. */
int bb_netif_for_socket(int fd, struct bb_netif *n);

/* The known facts as keys prefix + "name", "driver", "mtu", ... */
void bb_netif_kv(const struct bb_netif *n, const char *prefix, struct bb_kvlist *kv);

#endif
