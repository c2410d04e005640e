/* sock.h - the socket chores of a network benchmark, each with a bounded
 * wait and a one-line reason on failure:
 *   - addresses: numeric IPv4/IPv6 and "localhost" without the resolver
 *     (a static binary on a board has no NSS modules), names through
 *     getaddrinfo();
 *   - opening a socket with the options a test asks for, binding it to a
 *     local address or device;
 *   - connecting within a timeout, listening, accepting within a timeout.
 * Functions that fail write "what: why" into err and return a negative
 * number; they never print and never exit. */
#ifndef BB_NET_SOCK_H
#define BB_NET_SOCK_H

#include <stdatomic.h>
#include <stddef.h>
#include <sys/socket.h>

#define BB_ADDR_TEXT 64

struct bb_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Numeric address or "localhost" for family (AF_UNSPEC, AF_INET or
 * AF_INET6).  "fe80::1%eth0" sets the IPv6 scope.  Returns 0, -1 when host
 * is not numeric, -2 when it is but not of the family asked for. */
int bb_addr_numeric(const char *host, unsigned port, int family, struct bb_addr *a);

/* bb_addr_numeric(), then getaddrinfo() for names.  0 or -1 with err. */
int bb_addr_resolve(const char *host, unsigned port, int family, int socktype,
		    struct bb_addr *a, char *err, size_t errlen);

/* The wildcard address of family (AF_INET or AF_INET6) and port. */
void bb_addr_wildcard(int family, unsigned port, struct bb_addr *a);

/* "127.0.0.1", "::1"; an IPv4-mapped IPv6 address prints as IPv4. */
void bb_addr_text(const struct sockaddr *sa, char *buf, size_t len);
unsigned bb_addr_port(const struct sockaddr *sa);

/* --bind ADDR[%DEV]: splits at the last '%'.  ADDR or DEV may be empty but
 * not both.  Returns 0, or -1 if a part does not fit or both are empty. */
int bb_bind_spec_parse(const char *spec, char *addr, size_t alen, char *dev, size_t dlen);

struct bb_sockopt {
	int type;                      /* SOCK_STREAM or SOCK_DGRAM */
	int bufsize;                   /* SO_SNDBUF and SO_RCVBUF; 0 leaves them */
	int nodelay;                   /* TCP_NODELAY */
	const struct bb_addr *bind;    /* local address, or NULL */
	const char *dev;               /* SO_BINDTODEVICE, or NULL */
	double tick_s;                 /* SO_RCVTIMEO/SO_SNDTIMEO; 0 leaves them */
};

/* socket() with the options applied and bound if asked; fd or -1. */
int bb_sock_open(int family, const struct bb_sockopt *o, char *err, size_t errlen);

/* Sets SO_RCVTIMEO and SO_SNDTIMEO to tick_s; 0 or -1. */
int bb_sock_set_tick(int fd, double tick_s);
/* Clears them: calls block until they can go on (no timer armed). */
int bb_sock_no_tick(int fd);

/* Connects within timeout_s (stop, if not NULL, is checked every 100 ms).
 * Returns 0, -1 on error (refused, unreachable), -2 on timeout, -3 if
 * stopped.  The socket is left blocking. */
int bb_sock_connect(int fd, const struct bb_addr *a, double timeout_s, const atomic_int *stop,
		    char *err, size_t errlen);

/* Opens, binds and (for TCP) listens on local, non-blocking; fd or -1. */
int bb_sock_listen(int family, const struct bb_addr *local, const struct bb_sockopt *o,
		   char *err, size_t errlen);

/* Waits at most timeout_s for a connection; fd, -1 on error (errno set),
 * -2 on timeout.  The peer's address goes to peer if not NULL. */
int bb_sock_accept(int lfd, double timeout_s, struct bb_addr *peer);

/* Socket buffers as a user compares them with what was asked: Linux
 * stores double the SO_SNDBUF/SO_RCVBUF it grants (the second half pays
 * for its bookkeeping) and reads that back, so granted = stored / 2 there.
 * A request above net.core.wmem_max/rmem_max is cut to it silently. */
struct bb_sockbuf {
	int requested;    /* what was asked for both (-b), 0 = none: kernel defaults */
	int snd, rcv;     /* granted bytes, -1 unknown */
};

#define BB_SOCKBUF_SND_CAPPED 1
#define BB_SOCKBUF_RCV_CAPPED 2

/* What the kernel grants for a stored (read back) value. */
int bb_sockbuf_granted(int stored);
/* Reads back both buffers of fd; 0, or -1 with the unknown ones at -1. */
int bb_sockbuf_read(int fd, int requested, struct bb_sockbuf *b);
/* Which buffers came out smaller than asked (BB_SOCKBUF_*_CAPPED bits). */
int bb_sockbuf_capped(const struct bb_sockbuf *b);
/* The sysctl(s) that cap them: "net.core.rmem_max", "net.core.wmem_max",
 * both joined by a comma, or "" when nothing is capped. */
const char *bb_sockbuf_cap_sysctl(int capped);
/* The one warning line (no newline) for a capped buffer, "" when none:
 *   who: warning: asked for a 262144-byte receive buffer, got 131071:
 *   net.core.rmem_max (131071) caps it; raise it with: sysctl -w ...
 * wmem_max/rmem_max are the sysctls' values, -1 when unknown. */
void bb_sockbuf_warning(char *buf, size_t len, const char *who, const struct bb_sockbuf *b,
			long long wmem_max, long long rmem_max);

#endif
