/* cidr.h - who may connect to a ttcp server (--allow CIDR[,CIDR...]):
 * addresses of either family held as 16 bytes (IPv4 as ::ffff:a.b.c.d, as
 * a dual-stack socket reports them), prefixes parsed strictly and matched
 * bit by bit.  Pure: no I/O, no allocation; tests/unit/test_ttcp_server.c
 * checks it. */
#ifndef BB_NET_CIDR_H
#define BB_NET_CIDR_H

#include <stddef.h>
#include <sys/socket.h>

#define BB_CIDR_MAX 16          /* prefixes in one --allow list */

struct bb_ip {
	unsigned char b[16];        /* IPv4: ::ffff:a.b.c.d */
};

struct bb_cidr {
	struct bb_ip net;
	unsigned bits;              /* prefix length counted on the 128 bits */
};

struct bb_cidr_list {
	struct bb_cidr c[BB_CIDR_MAX];
	size_t n;
};

/* The address of a socket address (AF_INET or AF_INET6); 0 or -1. */
int bb_ip_from_sockaddr(const struct sockaddr *sa, struct bb_ip *ip);
int bb_ip_equal(const struct bb_ip *a, const struct bb_ip *b);

/* "10.0.0.0/8", "192.168.1.7" (a /32), "fd00::/8", "::1"; host bits must be
 * zero.  0, or -1 with one line in err. */
int bb_cidr_parse(const char *text, struct bb_cidr *c, char *err, size_t errlen);
/* A comma-separated list of at most BB_CIDR_MAX prefixes. */
int bb_cidr_list_parse(const char *text, struct bb_cidr_list *l, char *err, size_t errlen);
int bb_cidr_match(const struct bb_cidr *c, const struct bb_ip *ip);
/* 1 if ip is in one of the prefixes (an empty list allows everyone). */
int bb_cidr_list_allows(const struct bb_cidr_list *l, const struct bb_ip *ip);

#endif
