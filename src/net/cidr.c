/* cidr.c - address prefixes for the ttcp server's --allow (see cidr.h).
 * Both families live in one 128-bit space: an IPv4 prefix /n is the
 * IPv4-mapped prefix /(96+n), so an IPv4 client reaching a dual-stack
 * socket and an IPv4-only socket match the same rule. */
#include "net/cidr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

int bb_ip_from_sockaddr(const struct sockaddr *sa, struct bb_ip *ip)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)sa;
		memcpy(ip->b, v4mapped, 12);
		memcpy(ip->b + 12, &s4->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		memcpy(ip->b, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		return 0;
	}
	return -1;
}

int bb_ip_equal(const struct bb_ip *a, const struct bb_ip *b)
{
	return memcmp(a->b, b->b, 16) == 0;
}

/* The prefix length after '/', or max when there is none; -1 if bad. */
static int prefix_len(const char *slash, int max)
{
	char *end;
	long v;

	if (!slash)
		return max;
	if (slash[1] < '0' || slash[1] > '9')
		return -1;
	v = strtol(slash + 1, &end, 10);
	return *end || v < 0 || v > max ? -1 : (int)v;
}

static int host_bits_zero(const struct bb_ip *ip, unsigned bits)
{
	for (unsigned i = bits; i < 128; i++)
		if (ip->b[i / 8] & (0x80u >> (i % 8)))
			return 0;
	return 1;
}

int bb_cidr_parse(const char *text, struct bb_cidr *c, char *err, size_t errlen)
{
	char addr[64];
	const char *slash = strchr(text, '/');
	size_t alen = slash ? (size_t)(slash - text) : strlen(text);
	unsigned char v6[16];
	int len, v4;

	if (alen == 0 || alen >= sizeof addr)
		goto bad;
	memcpy(addr, text, alen);
	addr[alen] = '\0';
	v4 = inet_pton(AF_INET, addr, v6) == 1;
	if (!v4 && inet_pton(AF_INET6, addr, v6) != 1)
		goto bad;
	len = prefix_len(slash, v4 ? 32 : 128);
	if (len < 0)
		goto bad;
	if (v4) {
		memcpy(c->net.b, v4mapped, 12);
		memcpy(c->net.b + 12, v6, 4);
		c->bits = 96u + (unsigned)len;
	} else {
		memcpy(c->net.b, v6, 16);
		c->bits = (unsigned)len;
	}
	if (!host_bits_zero(&c->net, c->bits)) {
		snprintf(err, errlen, "'%s': bits set after the prefix length", text);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "'%s': expected ADDRESS[/BITS], IPv4 or IPv6", text);
	return -1;
}

int bb_cidr_list_parse(const char *text, struct bb_cidr_list *l, char *err, size_t errlen)
{
	const char *p = text;

	l->n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char one[80];
		if (n == 0 || n >= sizeof one) {
			snprintf(err, errlen, "'%s': an empty or overlong prefix in the list", text);
			return -1;
		}
		if (l->n >= BB_CIDR_MAX) {
			snprintf(err, errlen, "more than %d prefixes", BB_CIDR_MAX);
			return -1;
		}
		memcpy(one, p, n);
		one[n] = '\0';
		if (bb_cidr_parse(one, &l->c[l->n], err, errlen) != 0)
			return -1;
		l->n++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int bb_cidr_match(const struct bb_cidr *c, const struct bb_ip *ip)
{
	unsigned full = c->bits / 8, rest = c->bits % 8;

	if (memcmp(c->net.b, ip->b, full) != 0)
		return 0;
	if (rest == 0)
		return 1;
	return ((c->net.b[full] ^ ip->b[full]) & (0xffu << (8 - rest)) & 0xffu) == 0;
}

int bb_cidr_list_allows(const struct bb_cidr_list *l, const struct bb_ip *ip)
{
	if (l->n == 0)
		return 1;
	for (size_t i = 0; i < l->n; i++)
		if (bb_cidr_match(&l->c[i], ip))
			return 1;
	return 0;
}
