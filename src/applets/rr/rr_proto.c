/* rr.c - the request/response protocol's control messages, their bounds,
 * pinning, and the server (see rr.h and docs/rr.md; the client is
 * rr_client.c, the UDP server's cookie and window rr_cookie.c). */
#include "core/random.h"
#include "core/bytes.h"
#include "applets/rr/rr_proto.h"
#include "applets/rr/rr_watch.h"
#include "core/stop.h"
#include "core/timer.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- control messages ---- */

void bb_rr_ctl_encode(unsigned char *buf, const struct bb_rr_ctl *c)
{
	buf[0] = 0xBB;
	buf[1] = 'R';
	buf[2] = 'R';
	buf[3] = (unsigned char)c->type;
	bb_put_be32(buf + 4, c->version);
	bb_put_be32(buf + 8, c->flags);
	bb_put_be32(buf + 12, c->req);
	bb_put_be32(buf + 16, c->resp);
	bb_put_be32(buf + 20, c->inflight);
}

int bb_rr_ctl_decode(const unsigned char *buf, size_t len, struct bb_rr_ctl *c)
{
	if (len != BB_RR_CTL_BYTES || buf[0] != 0xBB || buf[1] != 'R' || buf[2] != 'R' ||
	    !strchr("HACE", buf[3]) || !buf[3])
		return -1;
	c->type = (char)buf[3];
	c->version = bb_get_be32(buf + 4);
	c->flags = bb_get_be32(buf + 8);
	c->req = bb_get_be32(buf + 12);
	c->resp = bb_get_be32(buf + 16);
	c->inflight = bb_get_be32(buf + 20);
	return 0;
}

const char *bb_rr_check(int udp, uint64_t req, uint64_t resp, uint64_t inflight)
{
	uint64_t lo = udp ? BB_RR_MIN_UDP_BYTES : 1, hi = udp ? BB_RR_MAX_UDP_BYTES
							       : BB_RR_MAX_TCP_BYTES;

	if (req < lo || req > hi || resp < lo || resp > hi)
		return udp ? "with UDP, requests and responses of 8..65507 bytes"
			   : "requests and responses of 1 byte..1M";
	if (inflight < 1 || inflight > BB_RR_MAX_INFLIGHT)
		return "1..256 transactions in flight";
	if (!udp && inflight * (req + resp) > BB_RR_MAX_WINDOW_BYTES)
		return "in flight x (request + response) at most 1M with TCP";
	return NULL;
}

void bb_rr_cookie_encode(unsigned char *buf, const unsigned char cookie[BB_RR_COOKIE_BYTES])
{
	struct bb_rr_ctl c = { 'C', BB_RR_UDP_VERSION, 0, 0, 0, 0 };

	bb_rr_ctl_encode(buf, &c);
	memcpy(buf + 8, cookie, BB_RR_COOKIE_BYTES);
}

void bb_rr_seq_put(unsigned char *p, uint64_t seq, uint32_t key)
{
	bb_put_be(p, seq ^ (uint64_t)key << 24, 8);
}

uint64_t bb_rr_seq_get(const unsigned char *p, uint32_t key)
{
	return bb_get_be(p, 8) ^ (uint64_t)key << 24;
}

int bb_rr_hello_status(const struct bb_rr_ctl *h, int udp)
{
	if (h->type != 'H' || h->version != (udp ? BB_RR_UDP_VERSION : BB_RR_VERSION))
		return BB_RR_BAD_VERSION;
	if (h->inflight < 1 || h->inflight > BB_RR_MAX_INFLIGHT)
		return BB_RR_BAD_INFLIGHT;
	return bb_rr_check(udp, h->req, h->resp, h->inflight) ? BB_RR_BAD_SIZES : BB_RR_OK;
}

const char *bb_rr_status_text(uint32_t status)
{
	switch (status) {
	case BB_RR_OK: return "accepted";
	case BB_RR_BAD_VERSION: return "protocol version not known to the server";
	case BB_RR_BAD_SIZES: return "request or response size out of the server's bounds";
	case BB_RR_BAD_INFLIGHT: return "transactions in flight out of the server's bounds";
	default: return "refused for a reason this client does not know";
	}
}

int bb_rr_pin(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;
	int rc;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE) {
		snprintf(err, errlen, "cannot pin to CPU %d: beyond %d", cpu, CPU_SETSIZE - 1);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	if (rc) {
		snprintf(err, errlen, "cannot pin to CPU %d: %s", cpu, strerror(rc));
		return -1;
	}
	return 0;
}

/* ---- the server ---- */

int bb_rr_server_open(const struct bb_rr_server_opts *o, unsigned *port, char *err,
		      size_t errlen)
{
	struct bb_sockopt so = { o->udp ? SOCK_DGRAM : SOCK_STREAM, 0, !o->udp, NULL, NULL, 0 };
	int family = o->family == AF_UNSPEC ? AF_INET6 : o->family;
	struct bb_addr a;
	int fd;

	if (o->bind) {
		if (bb_addr_numeric(o->bind, o->port, o->family, &a) != 0) {
			snprintf(err, errlen, "--bind %s: not a numeric address", o->bind);
			return -1;
		}
		family = a.ss.ss_family;
	} else {
		bb_addr_wildcard(family, o->port, &a);
	}
	fd = bb_sock_listen(family, &a, &so, err, errlen);
	if (fd < 0 && !o->bind && o->family == AF_UNSPEC) {   /* no IPv6: IPv4 then */
		bb_addr_wildcard(AF_INET, o->port, &a);
		fd = bb_sock_listen(AF_INET, &a, &so, err, errlen);
	}
	if (fd < 0)
		return -1;
	a.len = sizeof a.ss;
	if (getsockname(fd, (struct sockaddr *)&a.ss, &a.len) != 0) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*port = bb_addr_port((struct sockaddr *)&a.ss);
	return fd;
}

static int stopped(const atomic_int *stop)
{
	return (stop && atomic_load(stop)) || bb_stopped();
}

/* Waits for fd to become readable within timeout_s (0: for ever), looking
 * at stop every tick.  1 readable, 0 timed out or stopped, -1 error. */
static int wait_readable(int fd, double timeout_s, const atomic_int *stop)
{
	double end = bb_now() + timeout_s;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, (int)(BB_RR_TICK_S * 1000));
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
		if (stopped(stop) || (timeout_s > 0 && bb_now() >= end))
			return 0;
	}
}

static void session_end(struct bb_rr_session *s, int ok, const char *why)
{
	s->ok = ok;
	snprintf(s->end, sizeof s->end, "%s", why);
}

/* Reads exactly len bytes; 1 done, 0 clean end of stream before any, -1
 * otherwise (s->end says why).  Each wait is bounded by the idle timeout. */
static int read_full(int fd, unsigned char *buf, size_t len, const struct bb_rr_server_opts *o,
		     struct bb_rr_session *s, struct bb_rr_watch *w)
{
	size_t got = 0;
	double idle = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);
		if (n > 0) {
			got += (size_t)n;
			idle = 0;
			if (w)
				bb_rr_watch_alive(w);
		} else if (n == 0) {
			if (got == 0)
				return 0;
			session_end(s, 1, "the client closed in the middle of a request");
			return -1;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
			idle += BB_RR_TICK_S;
			if (stopped(o->stop) || idle >= o->idle_timeout_s) {
				session_end(s, 0, stopped(o->stop) ? "stopped"
								   : "no request within the idle timeout");
				return -1;
			}
		} else {
			session_end(s, 0, errno == ECONNRESET ? "connection reset by the client"
							      : strerror(errno));
			return -1;
		}
	}
	return 1;
}

static int write_full(int fd, const unsigned char *buf, size_t len,
		      const struct bb_rr_server_opts *o, struct bb_rr_session *s)
{
	size_t put = 0;
	double idle = 0;

	while (put < len) {
		ssize_t n = send(fd, buf + put, len - put, MSG_NOSIGNAL);
		if (n > 0) {
			put += (size_t)n;
			idle = 0;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			idle += BB_RR_TICK_S;
			if (stopped(o->stop) || idle >= o->idle_timeout_s) {
				session_end(s, 0, "the client read no response within the idle timeout");
				return -1;
			}
		} else {
			session_end(s, 1, "the client went away (its connection closed)");
			return -1;
		}
	}
	return 0;
}

/* The 24-byte ack with status (and, UDP, the session key) into out. */
static void encode_ack(int fd, int udp, uint32_t status, uint32_t key, unsigned char *out)
{
	struct bb_sockbuf b;
	struct bb_rr_ctl ack = { 'A', udp ? BB_RR_UDP_VERSION : BB_RR_VERSION, status, 0, 0, key };

	bb_sockbuf_read(fd, 0, &b);
	ack.req = b.snd > 0 ? (uint32_t)b.snd : 0;
	ack.resp = b.rcv > 0 ? (uint32_t)b.rcv : 0;
	bb_rr_ctl_encode(out, &ack);
}

static void answer_hello(const struct bb_rr_ctl *h, int fd, int udp, uint32_t key,
			 struct bb_rr_session *s, unsigned char *out)
{
	s->status = (uint32_t)bb_rr_hello_status(h, udp);
	if (s->status == BB_RR_OK) {
		s->req = h->req;
		s->resp = h->resp;
		s->inflight = h->inflight;
	}
	encode_ack(fd, udp, s->status, s->status == BB_RR_OK ? key : 0, out);
}

static void tcp_session(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
			struct bb_rr_watch *w)
{
	unsigned char ctl[BB_RR_CTL_BYTES], *req, *resp;
	struct bb_rr_ctl h;
	int rc;

	if (read_full(fd, ctl, sizeof ctl, o, s, w) != 1 || bb_rr_ctl_decode(ctl, sizeof ctl, &h)) {
		if (!s->end[0])
			session_end(s, 0, "no valid hello from the client");
		return;
	}
	answer_hello(&h, fd, 0, 0, s, ctl);
	if (write_full(fd, ctl, sizeof ctl, o, s) != 0)
		return;
	if (s->status != BB_RR_OK) {
		session_end(s, 0, bb_rr_status_text(s->status));
		return;
	}
	req = calloc(1, s->req);
	resp = calloc(1, s->resp);
	double t0 = bb_now();
	while (req && resp && (rc = read_full(fd, req, s->req, o, s, w)) == 1 &&
	       write_full(fd, resp, s->resp, o, s) == 0)
		s->transactions++;
	if (!req || !resp)
		session_end(s, 0, "out of memory for the buffers");
	else if (rc == 0)
		session_end(s, 1, "the client closed the connection");
	s->seconds = bb_now() - t0;
	free(req);
	free(resp);
}

/* The session blocks with no socket timeout (no timer armed per request;
 * rr_watch.h): the watchdog ends it after the idle timeout or a stop, and
 * says which.  With the socket ticks when no watchdog thread could start. */
static void watched_session(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s)
{
	struct bb_rr_watch w;
	int watched = bb_rr_watch_start(&w, fd, o->idle_timeout_s, o->stop) == 0 &&
		      bb_sock_no_tick(fd) == 0;

	if (!watched) {
		bb_rr_watch_end(&w);
		bb_sock_set_tick(fd, BB_RR_TICK_S);
	}
	tcp_session(fd, o, s, watched ? &w : NULL);
	switch (bb_rr_watch_end(&w)) {
	case BB_RR_WATCH_STOP: session_end(s, 0, "stopped"); break;
	case BB_RR_WATCH_IDLE: session_end(s, 0, "no request within the idle timeout"); break;
	default: break;
	}
}

static int serve_tcp(int lfd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
		     char *err, size_t errlen)
{
	struct bb_addr peer;
	int one = 1, fd = -2;

	while (fd == -2) {      /* -2: the client went away before accept: wait again */
		int rc = wait_readable(lfd, o->accept_timeout_s, o->stop);
		if (rc <= 0) {
			snprintf(err, errlen, rc < 0 ? "poll: %s" : "no client came", strerror(errno));
			return rc < 0 ? -1 : -2;
		}
		fd = bb_sock_accept(lfd, BB_RR_TICK_S, &peer);
	}
	if (fd < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		return -1;
	}
	bb_addr_text((struct sockaddr *)&peer.ss, s->peer, BB_ADDR_TEXT);
	snprintf(s->peer + strlen(s->peer), sizeof s->peer - strlen(s->peer), " port %u",
		 bb_addr_port((struct sockaddr *)&peer.ss));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	watched_session(fd, o, s);
	close(fd);
	return 0;
}

/* ---- UDP ---- */

/* What the UDP server keeps across one call of bb_rr_serve(): the cookie's
 * secret, the bound on answers to sources not yet verified, and the
 * session's key and window (docs/rr.md). */
struct udp_server {
	struct bb_rr_secret secret;
	struct bb_rr_bucket bucket;
	uint32_t key;
	struct bb_rr_window window;
};

/* The one way anything goes to a source not yet verified: never more than
 * the received bytes, never beyond the rate bound.  1 sent. */
static int reply_unverified(int fd, struct udp_server *u, struct bb_rr_session *s,
			    const unsigned char *out, size_t len, size_t received,
			    const struct bb_addr *to)
{
	if (len > received)
		return 0;
	if (!bb_rr_bucket_take(&u->bucket, bb_now())) {
		s->unverified_dropped++;
		return 0;
	}
	return sendto(fd, out, len, MSG_DONTWAIT, (const struct sockaddr *)&to->ss, to->len) ==
	       (ssize_t)len;
}

/* A datagram from a source not yet verified: 1 when it is a hello of our
 * version with a valid cookie (h holds it), else 0 after answering it as
 * it deserves: a hello without a valid cookie gets a cookie, one of
 * another version a refusal, anything else nothing. */
static int udp_unverified(int fd, struct udp_server *u, struct bb_rr_session *s,
			  const unsigned char *buf, size_t n, const struct bb_addr *from,
			  struct bb_rr_ctl *h)
{
	const struct sockaddr *src = (const struct sockaddr *)&from->ss;
	unsigned char out[BB_RR_CTL_BYTES], cookie[BB_RR_COOKIE_BYTES];
	int with_cookie = n == BB_RR_HELLO_COOKIE_BYTES;
	double now = bb_now();

	if ((n != BB_RR_CTL_BYTES && !with_cookie) ||
	    bb_rr_ctl_decode(buf, BB_RR_CTL_BYTES, h) != 0 || h->type != 'H')
		return 0;
	if (bb_rr_hello_status(h, 1) == BB_RR_BAD_VERSION) {
		encode_ack(fd, 1, BB_RR_BAD_VERSION, 0, out);
		reply_unverified(fd, u, s, out, sizeof out, n, from);
		return 0;
	}
	if (with_cookie && bb_rr_cookie_valid(&u->secret, src, now, buf + BB_RR_CTL_BYTES))
		return 1;
	s->cookies_refused += (uint64_t)with_cookie;
	bb_rr_cookie_make(&u->secret, src, now, cookie);
	bb_rr_cookie_encode(out, cookie);
	s->cookies_sent += (uint64_t)reply_unverified(fd, u, s, out, sizeof out, n, from);
	return 0;
}

/* Waits for a verified hello from anyone; the socket is then connected to
 * its sender, so no other source's datagram reaches the session. */
static int udp_hello(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
		     struct udp_server *u, unsigned char *buf, size_t cap, char *err,
		     size_t errlen)
{
	struct bb_addr peer;
	struct bb_rr_ctl h;

	for (;;) {
		int rc = wait_readable(fd, o->accept_timeout_s, o->stop);
		if (rc <= 0) {
			snprintf(err, errlen, rc < 0 ? "poll: %s" : "no client came", strerror(errno));
			return rc < 0 ? -1 : -2;
		}
		peer.len = sizeof peer.ss;
		ssize_t n = recvfrom(fd, buf, cap, MSG_DONTWAIT, (struct sockaddr *)&peer.ss, &peer.len);
		if (n < 0 || !udp_unverified(fd, u, s, buf, (size_t)n, &peer, &h))
			continue;
		if (connect(fd, (struct sockaddr *)&peer.ss, peer.len) != 0)
			continue;
		bb_addr_text((struct sockaddr *)&peer.ss, s->peer, BB_ADDR_TEXT);
		snprintf(s->peer + strlen(s->peer), sizeof s->peer - strlen(s->peer), " port %u",
			 bb_addr_port((struct sockaddr *)&peer.ss));
		answer_hello(&h, fd, 1, u->key, s, buf);
		send(fd, buf, BB_RR_CTL_BYTES, 0);
		return 0;
	}
}

/* A control message from the session's client: 1 go on, 0 it ended it.
 * A hello again (our ack was lost) with the session's sizes gets the same
 * ack; an end counts only with the session's key. */
static int udp_control(int fd, unsigned char *buf, size_t n, struct udp_server *u,
		       struct bb_rr_session *s)
{
	struct bb_rr_ctl c;
	size_t len = n == BB_RR_HELLO_COOKIE_BYTES ? BB_RR_CTL_BYTES : n;

	if (bb_rr_ctl_decode(buf, len, &c) != 0 || (len != n && c.type != 'H')) {
		s->malformed++;
	} else if (c.type == 'E' && c.inflight == u->key) {
		send(fd, buf, n, 0);                   /* the same 'E' back */
		return 0;
	} else if (c.type == 'H' && c.req == s->req && c.resp == s->resp &&
		   c.inflight == s->inflight && c.version == BB_RR_UDP_VERSION) {
		encode_ack(fd, 1, BB_RR_OK, u->key, buf);
		send(fd, buf, BB_RR_CTL_BYTES, 0);
	} else {
		s->foreign++;
	}
	return 1;
}

/* One datagram of the session: 1 go on, 0 the client ended it. */
static int udp_one(int fd, unsigned char *buf, size_t n, unsigned char *resp,
		   struct udp_server *u, struct bb_rr_session *s)
{
	if (n > 0 && buf[0] == 0xBB)
		return udp_control(fd, buf, n, u, s);
	if (n != s->req) {
		s->malformed++;
		return 1;
	}
	if (!bb_rr_window_accept(&u->window, bb_rr_seq_get(buf, u->key))) {
		s->foreign++;
		return 1;
	}
	memcpy(resp, buf, BB_RR_MIN_UDP_BYTES);
	if (send(fd, resp, s->resp, 0) == (ssize_t)s->resp)
		s->transactions++;
	return 1;
}

static void udp_session(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
			struct udp_server *u, unsigned char *buf, size_t cap)
{
	unsigned char *resp = calloc(1, s->resp);
	double t0 = bb_now(), idle = 0;

	if (!resp) {
		session_end(s, 0, "out of memory for the buffers");
		return;
	}
	bb_rr_window_init(&u->window);
	for (;;) {
		ssize_t n = recv(fd, buf, cap, 0);
		if (n >= 0) {
			idle = 0;
			if (!udp_one(fd, buf, (size_t)n, resp, u, s)) {
				session_end(s, 1, "the client said it was done");
				break;
			}
		} else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
			idle += BB_RR_TICK_S;
			if (stopped(o->stop) || idle >= o->idle_timeout_s) {
				session_end(s, stopped(o->stop), stopped(o->stop) ? "stopped" :
					    "no request within the idle timeout");
				break;
			}
		} else if (errno != ECONNREFUSED) {     /* an ICMP error: the client may be back */
			session_end(s, 0, strerror(errno));
			break;
		}
	}
	s->seconds = bb_now() - t0;
	free(resp);
}

/* A fresh secret and session key for this call. */
static int udp_server_init(struct udp_server *u, char *err, size_t errlen)
{
	memset(u, 0, sizeof *u);
	if (bb_random(u->secret.key, sizeof u->secret.key) != 0 ||
	    bb_random(&u->key, sizeof u->key) != 0) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	bb_rr_bucket_init(&u->bucket, bb_now());
	return 0;
}

static int serve_udp(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
		     char *err, size_t errlen)
{
	size_t cap = BB_RR_MAX_UDP_BYTES + 1;
	unsigned char *buf;
	struct sockaddr_storage none = { .ss_family = AF_UNSPEC };
	struct udp_server u;
	int rc;

	if (udp_server_init(&u, err, errlen) != 0)
		return -1;
	if (!(buf = malloc(cap))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	bb_sock_set_tick(fd, BB_RR_TICK_S);
	rc = udp_hello(fd, o, s, &u, buf, cap, err, errlen);
	if (rc == 0 && s->status == BB_RR_OK)
		udp_session(fd, o, s, &u, buf, cap);
	else if (rc == 0)
		session_end(s, 0, bb_rr_status_text(s->status));
	connect(fd, (struct sockaddr *)&none, sizeof none);   /* open to the next client */
	memset(&u, 0, sizeof u);
	free(buf);
	return rc;
}

int bb_rr_serve(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s, char *err,
		size_t errlen)
{
	memset(s, 0, sizeof *s);
	return o->udp ? serve_udp(fd, o, s, err, errlen) : serve_tcp(fd, o, s, err, errlen);
}
