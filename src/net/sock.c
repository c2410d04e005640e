/* sock.c - addresses, socket options, bounded connect and accept (see
 * sock.h). */
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <unistd.h>

#define BB_CONNECT_SLICE_MS 100

static int set_v4(const char *host, unsigned port, struct bb_addr *a)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&a->ss;

	memset(a, 0, sizeof *a);
	if (inet_pton(AF_INET, host, &sin->sin_addr) != 1)
		return -1;
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)port);
	a->len = sizeof *sin;
	return 0;
}

/* IPv6 with an optional %scope (interface name or number). */
static int set_v6(const char *host, unsigned port, struct bb_addr *a)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a->ss;
	char buf[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	char *pct;

	if (strlen(host) >= sizeof buf)
		return -1;
	memset(a, 0, sizeof *a);
	snprintf(buf, sizeof buf, "%s", host);
	pct = strchr(buf, '%');
	if (pct)
		*pct++ = '\0';
	if (inet_pton(AF_INET6, buf, &sin6->sin6_addr) != 1)
		return -1;
	if (pct && !(sin6->sin6_scope_id = if_nametoindex(pct)))
		return -1;
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons((uint16_t)port);
	a->len = sizeof *sin6;
	return 0;
}

int bb_addr_numeric(const char *host, unsigned port, int family, struct bb_addr *a)
{
	if (strcmp(host, "localhost") == 0)
		host = family == AF_INET6 ? "::1" : "127.0.0.1";
	if (set_v4(host, port, a) == 0)
		return family == AF_INET6 ? -2 : 0;
	if (set_v6(host, port, a) == 0)
		return family == AF_INET ? -2 : 0;
	return -1;
}

#if defined(BB_NO_RESOLVER)
/* The first address of the wanted family that the hosts file gives the
 * name (names compare without case, as the resolver's do). */
static int hosts_lookup(const char *path, const char *host, unsigned port, int family,
			struct bb_addr *a)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int found = -1;

	if (!f)
		return -1;
	while (found != 0 && fgets(line, sizeof line, f)) {
		char *save = NULL, *addr, *name;

		line[strcspn(line, "#\n")] = '\0';
		if (!(addr = strtok_r(line, " \t", &save)))
			continue;
		while (found != 0 && (name = strtok_r(NULL, " \t", &save)))
			if (strcasecmp(name, host) == 0)
				found = bb_addr_numeric(addr, port, family, a);
	}
	fclose(f);
	return found == 0 ? 0 : -1;
}
#endif

int bb_addr_resolve(const char *host, unsigned port, int family, int socktype,
		    struct bb_addr *a, char *err, size_t errlen)
{
	struct addrinfo hints, *res = NULL;
	char service[16];
	int rc = bb_addr_numeric(host, port, family, a);

	if (rc == 0)
		return 0;
	if (rc == -2) {
		snprintf(err, errlen, "address '%s' is not %s", host,
			 family == AF_INET6 ? "IPv6 (-6)" : "IPv4 (-4)");
		return -1;
	}
#if defined(BB_NO_RESOLVER)
	/* Built with RESOLVER=0: the C library's resolver is left out, the
	 * hosts file is read by hand (BB_HOSTS_FILE, for the tests). */
	(void)hints, (void)service, (void)res, (void)socktype;
	const char *hosts = getenv("BB_HOSTS_FILE");
	if (!hosts || !*hosts)
		hosts = "/etc/hosts";
	if (hosts_lookup(hosts, host, port, family, a) == 0)
		return 0;
	snprintf(err, errlen, "cannot resolve host '%s': not in %s, and this build "
		 "looks up no other names (made with RESOLVER=0)", host, hosts);
	return -1;
#elif defined(BB_STATIC_LINK) && defined(__GLIBC__) && !defined(__UCLIBC__)
	/* A static glibc binary would load the board's NSS modules, which must
	 * come from the very glibc it was linked with (else it may crash):
	 * names are refused instead (docs/TARGETS.md). */
	(void)hints, (void)service, (void)res, (void)socktype;
	snprintf(err, errlen, "cannot resolve host '%s': this static glibc build takes numeric "
		 "addresses only (a musl or a dynamic build looks names up)", host);
	return -1;
#else
	memset(&hints, 0, sizeof hints);
	hints.ai_family = family;
	hints.ai_socktype = socktype;
	snprintf(service, sizeof service, "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0 || !res || res->ai_addrlen > sizeof a->ss) {
		snprintf(err, errlen, "cannot resolve host '%s': %s", host,
			 rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		return -1;
	}
	memset(a, 0, sizeof *a);
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
#endif
}

void bb_addr_wildcard(int family, unsigned port, struct bb_addr *a)
{
	memset(a, 0, sizeof *a);
	if (family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a->ss;
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
		sin6->sin6_port = htons((uint16_t)port);
		a->len = sizeof *sin6;
	} else {
		struct sockaddr_in *sin = (struct sockaddr_in *)&a->ss;
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
		sin->sin_port = htons((uint16_t)port);
		a->len = sizeof *sin;
	}
}

void bb_addr_text(const struct sockaddr *sa, char *buf, size_t len)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;
		if (!inet_ntop(AF_INET, &sin->sin_addr, buf, (socklen_t)len))
			snprintf(buf, len, "?");
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
		const void *p = &sin6->sin6_addr;
		int v4 = IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr);
		if (!inet_ntop(v4 ? AF_INET : AF_INET6, v4 ? (const char *)p + 12 : p, buf,
			       (socklen_t)len))
			snprintf(buf, len, "?");
	} else {
		snprintf(buf, len, "?");
	}
}

unsigned bb_addr_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return 0;
}

int bb_bind_spec_parse(const char *spec, char *addr, size_t alen, char *dev, size_t dlen)
{
	const char *pct = strrchr(spec, '%');
	size_t an = pct ? (size_t)(pct - spec) : strlen(spec);
	const char *d = pct ? pct + 1 : "";

	if (an >= alen || strlen(d) >= dlen || (an == 0 && !d[0]))
		return -1;
	memcpy(addr, spec, an);
	addr[an] = '\0';
	snprintf(dev, dlen, "%s", d);
	return 0;
}

int bb_sock_set_tick(int fd, double tick_s)
{
	struct timeval tv;

	tv.tv_sec = (time_t)tick_s;
	tv.tv_usec = (suseconds_t)((tick_s - (double)tv.tv_sec) * 1e6);
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1000;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
		return -1;
	return 0;
}

int bb_sock_no_tick(int fd)
{
	struct timeval tv = { 0, 0 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0)
		return -1;
	return 0;
}

static int fail(int fd, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Options every socket gets before it is bound or connected. */
static int apply_options(int fd, const struct bb_sockopt *o, char *err, size_t errlen)
{
	int one = 1;

	if (o->bufsize > 0 &&
	    (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &o->bufsize, sizeof o->bufsize) != 0 ||
	     setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &o->bufsize, sizeof o->bufsize) != 0))
		return fail(-1, err, errlen, "setsockopt SO_SNDBUF/SO_RCVBUF (-b)");
	if (o->nodelay && o->type == SOCK_STREAM &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
		return fail(-1, err, errlen, "setsockopt TCP_NODELAY (-D)");
	if (o->dev && o->dev[0] &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, o->dev, (socklen_t)strlen(o->dev) + 1))
		return fail(-1, err, errlen, "setsockopt SO_BINDTODEVICE (--bind %DEV)");
	if (o->tick_s > 0 && bb_sock_set_tick(fd, o->tick_s) != 0)
		return fail(-1, err, errlen, "setsockopt SO_RCVTIMEO/SO_SNDTIMEO");
	return 0;
}

int bb_sock_open(int family, const struct bb_sockopt *o, char *err, size_t errlen)
{
	int fd = socket(family, o->type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return fail(-1, err, errlen, "socket");
	if (apply_options(fd, o, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	if (o->bind && bind(fd, (const struct sockaddr *)&o->bind->ss, o->bind->len) != 0)
		return fail(fd, err, errlen, "bind (--bind)");
	return fd;
}

static int set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	return fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* Waits for a non-blocking connect to finish: 0, -2 timeout, -3 stopped. */
static int wait_connected(int fd, double timeout_s, const atomic_int *stop)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int left_ms = (int)(timeout_s * 1000.0);

	while (left_ms > 0) {
		int slice = left_ms < BB_CONNECT_SLICE_MS ? left_ms : BB_CONNECT_SLICE_MS;
		int rc = poll(&p, 1, slice);
		if (rc > 0)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
		if (stop && atomic_load(stop))
			return -3;
		left_ms -= slice;
	}
	return -2;
}

int bb_sock_connect(int fd, const struct bb_addr *a, double timeout_s, const atomic_int *stop,
		    char *err, size_t errlen)
{
	char host[BB_ADDR_TEXT];
	int rc, soerr = 0;
	socklen_t sl = sizeof soerr;

	bb_addr_text((const struct sockaddr *)&a->ss, host, sizeof host);
	if (set_nonblock(fd, 1) != 0)
		return fail(-1, err, errlen, "fcntl O_NONBLOCK");
	rc = connect(fd, (const struct sockaddr *)&a->ss, a->len);
	if (rc != 0 && errno != EINPROGRESS) {
		soerr = errno;
	} else if (rc != 0) {
		rc = wait_connected(fd, timeout_s, stop);
		if (rc == -2 || rc == -3) {
			snprintf(err, errlen, "connect to %s port %u: %s", host,
				 bb_addr_port((const struct sockaddr *)&a->ss),
				 rc == -3 ? "interrupted" : "no answer (timed out)");
			return rc;
		}
		if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0)
			soerr = errno;
	}
	if (soerr == 0 && set_nonblock(fd, 0) != 0)
		soerr = errno;
	if (soerr) {
		snprintf(err, errlen, "connect to %s port %u: %s", host,
			 bb_addr_port((const struct sockaddr *)&a->ss), strerror(soerr));
		return -1;
	}
	return 0;
}

int bb_sock_listen(int family, const struct bb_addr *local, const struct bb_sockopt *o,
		   char *err, size_t errlen)
{
	struct bb_sockopt lo = *o;
	int one = 1, zero = 0, fd;

	lo.bind = NULL;
	fd = bb_sock_open(family, &lo, err, errlen);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
	if (bind(fd, (const struct sockaddr *)&local->ss, local->len) != 0) {
		char what[96], host[BB_ADDR_TEXT];
		bb_addr_text((const struct sockaddr *)&local->ss, host, sizeof host);
		snprintf(what, sizeof what, "bind %s port %u", host,
			 bb_addr_port((const struct sockaddr *)&local->ss));
		return fail(fd, err, errlen, what);
	}
	if (o->type == SOCK_STREAM && listen(fd, 64) != 0)
		return fail(fd, err, errlen, "listen");
	/* accept() after poll() must not block if the peer has gone meanwhile */
	if (o->type == SOCK_STREAM && set_nonblock(fd, 1) != 0)
		return fail(fd, err, errlen, "fcntl O_NONBLOCK");
	return fd;
}

int bb_sock_accept(int lfd, double timeout_s, struct bb_addr *peer)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	struct bb_addr tmp;
	int rc = poll(&p, 1, (int)(timeout_s * 1000.0));

	if (rc == 0)
		return -2;
	if (rc < 0)
		return errno == EINTR ? -2 : -1;
	if (!peer)
		peer = &tmp;
	peer->len = sizeof peer->ss;
	rc = accept4(lfd, (struct sockaddr *)&peer->ss, &peer->len, SOCK_CLOEXEC);
	if (rc < 0 && (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED))
		return -2;
	return rc;
}

/* ---- socket buffers, read back ---- */

int bb_sockbuf_granted(int stored)
{
#ifdef __linux__
	return stored / 2;
#else
	return stored;
#endif
}

static int read_buf(int fd, int opt)
{
	int v = 0;
	socklen_t sl = sizeof v;

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &sl) != 0 || v <= 0)
		return -1;
	return bb_sockbuf_granted(v);
}

int bb_sockbuf_read(int fd, int requested, struct bb_sockbuf *b)
{
	b->requested = requested > 0 ? requested : 0;
	b->snd = read_buf(fd, SO_SNDBUF);
	b->rcv = read_buf(fd, SO_RCVBUF);
	return b->snd >= 0 && b->rcv >= 0 ? 0 : -1;
}

int bb_sockbuf_capped(const struct bb_sockbuf *b)
{
	int c = 0;

	if (b->requested <= 0)
		return 0;
	if (b->snd >= 0 && b->snd < b->requested)
		c |= BB_SOCKBUF_SND_CAPPED;
	if (b->rcv >= 0 && b->rcv < b->requested)
		c |= BB_SOCKBUF_RCV_CAPPED;
	return c;
}

const char *bb_sockbuf_cap_sysctl(int capped)
{
	switch (capped & (BB_SOCKBUF_SND_CAPPED | BB_SOCKBUF_RCV_CAPPED)) {
	case BB_SOCKBUF_SND_CAPPED:
		return "net.core.wmem_max";
	case BB_SOCKBUF_RCV_CAPPED:
		return "net.core.rmem_max";
	case BB_SOCKBUF_SND_CAPPED | BB_SOCKBUF_RCV_CAPPED:
		return "net.core.wmem_max,net.core.rmem_max";
	default:
		return "";
	}
}

/* "net.core.rmem_max (131071)", or without the value when unknown. */
static void sysctl_named(char *buf, size_t len, const char *name, long long v)
{
	if (v >= 0)
		snprintf(buf, len, "%s (%lld)", name, v);
	else
		snprintf(buf, len, "%s", name);
}

void bb_sockbuf_warning(char *buf, size_t len, const char *who, const struct bb_sockbuf *b,
			long long wmem_max, long long rmem_max)
{
	int c = bb_sockbuf_capped(b), snd = c & BB_SOCKBUF_SND_CAPPED;
	char w[64], r[64];

	buf[0] = '\0';
	if (!c)
		return;
	sysctl_named(w, sizeof w, "net.core.wmem_max", wmem_max);
	sysctl_named(r, sizeof r, "net.core.rmem_max", rmem_max);
	if (c == (BB_SOCKBUF_SND_CAPPED | BB_SOCKBUF_RCV_CAPPED))
		snprintf(buf, len, "%s: warning: asked for %d-byte socket buffers, got %d to send "
			 "and %d to receive: %s and %s cap them; raise them with: sysctl -w "
			 "net.core.wmem_max=%d net.core.rmem_max=%d", who, b->requested, b->snd,
			 b->rcv, w, r, b->requested, b->requested);
	else
		snprintf(buf, len, "%s: warning: asked for a %d-byte %s buffer, got %d: %s caps it; "
			 "raise it with: sysctl -w %s=%d", who, b->requested,
			 snd ? "send" : "receive", snd ? b->snd : b->rcv, snd ? w : r,
			 bb_sockbuf_cap_sysctl(c), b->requested);
}
