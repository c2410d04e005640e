/* rr_client.c - the client side of request/response transactions (see
 * rr.h): connect and hello (with UDP, the cookie round trip of
 * docs/rr.md, so before the warm-up), the client's own cost measured with
 * no network, then the transactions, TCP in order or UDP by sequence number
 * with a timeout each.  Every response's latency goes through one
 * function, record(), which is also what the overhead loop times. */
#include "applets/rr/rr_proto.h"
#include "applets/rr/rr_watch.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/stop.h"
#include "core/timer.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OVERHEAD_LOOPS 20000
#define OVERHEAD_REPS 5

struct client {
	const struct bb_rr_client_opts *o;
	struct bb_rr_client_result *r;
	int fd;
	unsigned char hello[BB_RR_HELLO_COOKIE_BYTES];
	size_t hello_len;            /* 24, or with the server's cookie 40 */
	uint32_t key;                /* UDP: the session key from the ack */
	unsigned char *req, *resp;
	size_t resp_cap;
	uint64_t begin, warm_end, measure_start, end_at;   /* ns; end_at 0: by count */
	uint64_t measured_sent;
	uint64_t interval_ns;
	double idle;                 /* seconds without any response */
	struct bb_rr_watch *watch;   /* TCP: blocks with no socket timeout, watched; or NULL */
};

static int stop_asked(const struct client *c)
{
	return (c->o->stop && atomic_load(c->o->stop)) || bb_stopped();
}

static void finish(struct client *c, int complete, const char *fmt, const char *what)
{
	if (c->r->end[0])
		return;
	c->r->complete = complete;
	snprintf(c->r->end, sizeof c->r->end, fmt, what);
}

/* ---- recording ---- */

/* One measured response at t_done: histogram, kept samples, interval. */
static void record(struct bb_rr_client_result *r, uint64_t start, uint64_t interval_ns,
		   uint64_t lat_ns, uint64_t t_done)
{
	uint64_t bin = (t_done - start) / interval_ns;

	bb_rr_hist_add(r->hist, lat_ns);
	bb_rr_keep_add(&r->keep, (double)lat_ns * 1e-9);
	if (bin >= r->capint) {
		size_t cap = r->capint ? 2 * r->capint : 64;
		while (cap <= bin)
			cap *= 2;
		r->interval = bb_xrealloc(r->interval, cap * sizeof *r->interval);
		memset(r->interval + r->capint, 0, (cap - r->capint) * sizeof *r->interval);
		r->capint = cap;
	}
	r->interval[bin]++;
}

/* The cost of what the client adds to every transaction: the timestamp
 * pair and record(), with no network; the median of OVERHEAD_REPS loops. */
static double measure_overhead(const struct bb_rr_client_opts *o)
{
	struct bb_rr_client_result s;
	double per[OVERHEAD_REPS];

	memset(&s, 0, sizeof s);
	s.hist = bb_xmalloc(sizeof *s.hist);
	bb_rr_hist_init(s.hist);
	bb_rr_keep_init(&s.keep, o->keep_max < OVERHEAD_LOOPS ? o->keep_max : OVERHEAD_LOOPS / 2);
	for (int k = 0; k < OVERHEAD_REPS; k++) {
		uint64_t start = bb_now_ns(), t0 = start;
		for (int i = 0; i < OVERHEAD_LOOPS; i++) {
			uint64_t a = bb_now_ns(), b = bb_now_ns();
			record(&s, start, 1000000000u, b - a, b);
		}
		per[k] = (double)(bb_now_ns() - t0) * 1e-9 / OVERHEAD_LOOPS;
	}
	bb_rr_client_result_free(&s);
	return bb_median(per, OVERHEAD_REPS);
}

/* ---- connecting ---- */

static int open_and_connect(struct client *c)
{
	const struct bb_rr_client_opts *o = c->o;
	struct bb_sockopt so = { o->udp ? SOCK_DGRAM : SOCK_STREAM, 0, !o->udp, NULL, NULL, 0 };
	struct bb_addr a;
	char err[256];
	int rc;

	if (bb_addr_resolve(o->host, o->port, o->family, so.type, &a, err, sizeof err) != 0 ||
	    (c->fd = bb_sock_open(a.ss.ss_family, &so, err, sizeof err)) < 0) {
		finish(c, 0, "%s", err);
		return -1;
	}
	rc = bb_sock_connect(c->fd, &a, o->connect_timeout_s, o->stop, err, sizeof err);
	if (rc != 0) {
		finish(c, 0, "%s", rc == -2 ? "connect: timed out" : err);
		return -1;
	}
	bb_addr_text((struct sockaddr *)&a.ss, c->r->peer, BB_ADDR_TEXT);
	snprintf(c->r->peer + strlen(c->r->peer), sizeof c->r->peer - strlen(c->r->peer),
		 " port %u", o->port);
	return 0;
}

/* UDP: the server's cookie; the hello goes again with it after it. */
static void take_cookie(struct client *c, const unsigned char *msg)
{
	memcpy(c->hello + BB_RR_CTL_BYTES, msg + 8, BB_RR_COOKIE_BYTES);
	c->hello_len = BB_RR_HELLO_COOKIE_BYTES;
	send(c->fd, c->hello, c->hello_len, 0);
}

/* Waits at most timeout_s for the 24-byte ack (a UDP hello is sent again
 * every tick, and with the server's cookie once one comes).  0, or -1
 * with the reason recorded. */
static int await_ack(struct client *c, struct bb_rr_ctl *ack)
{
	unsigned char buf[64];
	size_t got = 0;
	double waited = 0;

	bb_sock_set_tick(c->fd, BB_RR_TICK_S);
	while (waited < c->o->connect_timeout_s && !stop_asked(c)) {
		ssize_t n = recv(c->fd, buf + got, (c->o->udp ? sizeof buf : BB_RR_CTL_BYTES - got), 0);
		if (n > 0 && c->o->udp && bb_rr_ctl_decode(buf, (size_t)n, ack) == 0) {
			if (ack->type == 'A')
				return 0;
			if (ack->type == 'C')
				take_cookie(c, buf);
			continue;
		}
		if (n > 0 && !c->o->udp && (got += (size_t)n) == BB_RR_CTL_BYTES)
			return bb_rr_ctl_decode(buf, got, ack) == 0 && ack->type == 'A' ? 0 :
			       (finish(c, 0, "%s", "the peer is not a boardbench rr server"), -1);
		if (n == 0 && got > 0) {
			finish(c, 0, "%s", "the peer is not a boardbench rr server (a short answer)");
			return -1;
		}
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			finish(c, 0, "no answer to the hello: %s",
			       n == 0 ? "the server closed the connection" :
			       errno == ECONNREFUSED ? "refused (no server on that port)" : strerror(errno));
			return -1;
		}
		if (n < 0) {
			waited += BB_RR_TICK_S;
			if (c->o->udp)
				send(c->fd, c->hello, c->hello_len, 0);
		}
	}
	finish(c, 0, "%s", stop_asked(c) ? "interrupted before the server answered"
					 : "the server did not answer the hello");
	return -1;
}

static int hello(struct client *c)
{
	struct bb_rr_ctl h = { 'H', c->o->udp ? BB_RR_UDP_VERSION : BB_RR_VERSION,
			       (uint32_t)c->o->udp, c->o->req, c->o->resp, c->o->inflight }, ack;
	struct bb_sockbuf b;

	bb_rr_ctl_encode(c->hello, &h);
	c->hello_len = BB_RR_CTL_BYTES;
	if (send(c->fd, c->hello, c->hello_len, MSG_NOSIGNAL) != (ssize_t)c->hello_len) {
		finish(c, 0, "sending the hello: %s", errno == ECONNREFUSED ?
		       "refused (no server on that port)" : strerror(errno));
		return -1;
	}
	if (await_ack(c, &ack) != 0)
		return -1;
	if (ack.flags != BB_RR_OK) {
		finish(c, 0, "the server refused: %s", bb_rr_status_text(ack.flags));
		return -1;
	}
	c->key = c->o->udp ? ack.inflight : 0;
	c->r->peer_sndbuf = ack.req ? (int)ack.req : -1;
	c->r->peer_rcvbuf = ack.resp ? (int)ack.resp : -1;
	bb_sockbuf_read(c->fd, 0, &b);
	c->r->sndbuf = b.snd;
	c->r->rcvbuf = b.rcv;
	return 0;
}

/* ---- the phases of the run ---- */

/* Whether a request sent at t is measured; the first one starts the clock. */
static int measured_at(struct client *c, uint64_t t)
{
	if (t < c->warm_end)
		return 0;
	if (!c->measure_start) {
		c->measure_start = t;
		c->r->warmup_done_s = (double)(t - c->begin) * 1e-9;
		if (c->o->time_s > 0)
			c->end_at = t + (uint64_t)(c->o->time_s * 1e9);
	}
	return 1;
}

/* Whether another request may go out at time t. */
static int may_send(struct client *c, uint64_t t)
{
	if (stop_asked(c) || c->r->end[0])
		return 0;
	if (c->o->count)
		return c->measured_sent < c->o->count;
	return !c->end_at || t < c->end_at;
}

/* After a response at t: whether the run is over (time mode). */
static int time_up(const struct client *c, uint64_t t)
{
	return c->end_at && t >= c->end_at;
}

static void note_done(struct client *c, uint64_t sent_at, int measured, uint64_t t)
{
	if (!measured) {
		c->r->warmup_transactions++;
		return;
	}
	record(c->r, c->measure_start, c->interval_ns, t - sent_at, t);
	c->r->completed++;
	c->r->elapsed_s = (double)(t - c->measure_start) * 1e-9;
}

/* A blocked call came back empty after a tick: 0 go on, -1 give up. */
static int idle_tick(struct client *c, double tick)
{
	c->idle += tick;
	if (stop_asked(c)) {
		c->r->interrupted = 1;
		finish(c, 0, "%s", "interrupted");
		return -1;
	}
	if (c->idle >= c->o->idle_timeout_s) {
		char what[64];
		snprintf(what, sizeof what, "%.3g", c->o->idle_timeout_s);
		finish(c, 0, "stalled: no response for %s s (idle timeout)", what);
		return -1;
	}
	return 0;
}

/* The watchdog shut the socket (the ended call is not the peer's doing):
 * 1 when it did, and the run says why. */
static int watched_end(struct client *c)
{
	char what[64];
	int why = c->watch ? atomic_load(&c->watch->why) : BB_RR_WATCH_NONE;

	if (why == BB_RR_WATCH_STOP) {
		c->r->interrupted = 1;
		finish(c, 0, "%s", "interrupted");
	} else if (why == BB_RR_WATCH_IDLE) {
		snprintf(what, sizeof what, "%.3g", c->o->idle_timeout_s);
		finish(c, 0, "stalled: no response for %s s (idle timeout)", what);
	}
	return why != BB_RR_WATCH_NONE;
}

static void io_failed(struct client *c, ssize_t n, const char *what)
{
	if (watched_end(c))
		return;
	if (n == 0)
		finish(c, 0, "%s", "connection lost: the server closed it");
	else if (errno == ECONNREFUSED)
		finish(c, 0, "%s", "connection lost: the server's port is unreachable (refused)");
	else if (errno == ECONNRESET || errno == EPIPE)
		finish(c, 0, "%s", "connection lost: reset by the server");
	else
		finish(c, 0, what, strerror(errno));
}

/* ---- TCP: responses come in order ---- */

static int tcp_send(struct client *c)
{
	size_t put = 0;

	while (put < c->o->req) {
		ssize_t n = send(c->fd, c->req + put, c->o->req - put, MSG_NOSIGNAL);
		if (n > 0) {
			put += (size_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			if (idle_tick(c, BB_RR_TICK_S))
				return -1;
		} else {
			io_failed(c, n, "send: %s");
			return -1;
		}
	}
	return 0;
}

static int tcp_recv(struct client *c)
{
	size_t got = 0;

	while (got < c->o->resp) {
		ssize_t n = recv(c->fd, c->resp + got, c->o->resp - got, 0);
		if (n > 0) {
			got += (size_t)n;
			c->idle = 0;
			if (c->watch)
				bb_rr_watch_alive(c->watch);
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			if (idle_tick(c, BB_RR_TICK_S))
				return -1;
		} else {
			io_failed(c, n, "recv: %s");
			return -1;
		}
	}
	return 0;
}

/* Blocking with no socket timeout, watched (rr_watch.h); with the
 * socket ticks when no watchdog thread could start. */
static void tcp_watch(struct client *c, struct bb_rr_watch *w)
{
	if (bb_rr_watch_start(w, c->fd, c->o->idle_timeout_s, c->o->stop) == 0 &&
	    bb_sock_no_tick(c->fd) == 0) {
		c->watch = w;
		return;
	}
	bb_rr_watch_end(w);
	bb_sock_set_tick(c->fd, BB_RR_TICK_S);
}

static void run_tcp(struct client *c)
{
	uint32_t k = c->o->inflight, head = 0, out = 0;
	uint64_t *sent_at = bb_xcalloc(k, sizeof *sent_at);
	unsigned char *meas = bb_xcalloc(k, 1);
	uint64_t t = bb_now_ns();
	struct bb_rr_watch w;

	tcp_watch(c, &w);
	for (;;) {
		while (out < k && may_send(c, t)) {
			uint32_t slot = (head + out) % k;
			sent_at[slot] = bb_now_ns();
			meas[slot] = (unsigned char)measured_at(c, sent_at[slot]);
			if (tcp_send(c))
				break;
			c->measured_sent += meas[slot];
			c->r->sent += meas[slot];
			out++;
		}
		if (!out || c->r->end[0] || tcp_recv(c))
			break;
		t = bb_now_ns();
		note_done(c, sent_at[head], meas[head], t);
		head = (head + 1) % k;
		out--;
		if (time_up(c, t))
			break;
	}
	bb_rr_watch_end(&w);
	c->watch = NULL;
	free(sent_at);
	free(meas);
}

/* ---- UDP: a window of sequence numbers, each with a timeout ---- */

struct udp_slot {
	uint64_t seq, sent_at;
	unsigned char state;     /* 0 free, 1 in flight, 2 answered */
	unsigned char measured;
};

/* A response of n bytes at t: answered, late or foreign. */
static void udp_response(struct client *c, struct udp_slot *w, uint64_t base, uint64_t next,
			 ssize_t n, uint64_t t)
{
	uint64_t seq = bb_rr_seq_get(c->resp, c->key);
	struct udp_slot *s = &w[seq % c->o->inflight];

	if ((size_t)n != c->o->resp || c->resp[0] == 0xBB || seq >= next) {
		c->r->foreign++;
		return;
	}
	if (seq < base || s->seq != seq || s->state != 1) {
		c->r->late++;
		return;
	}
	s->state = 2;
	c->idle = 0;
	note_done(c, s->sent_at, s->measured, t);
}

/* Frees the oldest slots that are answered or whose time is up. */
static uint64_t udp_expire(struct client *c, struct udp_slot *w, uint64_t base, uint64_t next,
			   uint64_t t)
{
	uint64_t tmo = (uint64_t)(c->o->timeout_s * 1e9);

	while (base < next) {
		struct udp_slot *s = &w[base % c->o->inflight];
		if (s->state == 1 && t - s->sent_at < tmo)
			break;
		if (s->state == 1 && s->measured)
			c->r->lost++;
		s->state = 0;
		base++;
	}
	return base;
}

static int udp_send(struct client *c, struct udp_slot *w, uint64_t seq)
{
	struct udp_slot *s = &w[seq % c->o->inflight];

	bb_rr_seq_put(c->req, seq, c->key);
	s->seq = seq;
	s->sent_at = bb_now_ns();
	s->measured = (unsigned char)measured_at(c, s->sent_at);
	s->state = 1;
	if (send(c->fd, c->req, c->o->req, 0) != (ssize_t)c->o->req &&
	    errno != ENOBUFS && errno != EAGAIN) {
		io_failed(c, -1, "send: %s");
		return -1;
	}
	c->measured_sent += s->measured;
	c->r->sent += s->measured;
	return 0;
}

static void run_udp(struct client *c)
{
	struct udp_slot *w = bb_xcalloc(c->o->inflight, sizeof *w);
	uint64_t base = 0, next = 0, t = bb_now_ns();
	double tick = c->o->timeout_s < BB_RR_TICK_S ? c->o->timeout_s : BB_RR_TICK_S;

	bb_sock_set_tick(c->fd, tick);
	for (;;) {
		while (next - base < c->o->inflight && may_send(c, t) && udp_send(c, w, next) == 0)
			next++;
		if (base == next || c->r->end[0])
			break;
		ssize_t n = recv(c->fd, c->resp, c->resp_cap, 0);
		t = bb_now_ns();
		if (n >= 0)
			udp_response(c, w, base, next, n, t);
		else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
			if (idle_tick(c, tick))
				break;
		} else {
			io_failed(c, -1, "recv: %s");
			break;
		}
		base = udp_expire(c, w, base, next, t);
		if (time_up(c, t))
			break;
	}
	free(w);
}

/* The end datagram, twice (it may be lost; the server's idle timeout
 * ends the session otherwise). */
static void udp_goodbye(struct client *c)
{
	struct bb_rr_ctl e = { 'E', BB_RR_UDP_VERSION, 0, 0, 0, c->key };
	unsigned char buf[BB_RR_CTL_BYTES];

	bb_rr_ctl_encode(buf, &e);
	send(c->fd, buf, sizeof buf, 0);
	send(c->fd, buf, sizeof buf, 0);
}

/* ---- the whole run ---- */

static void result_init(struct bb_rr_client_result *r, const struct bb_rr_client_opts *o)
{
	memset(r, 0, sizeof *r);
	r->hist = bb_xmalloc(sizeof *r->hist);
	bb_rr_hist_init(r->hist);
	bb_rr_keep_init(&r->keep, o->keep_max);
	r->sndbuf = r->rcvbuf = r->peer_sndbuf = r->peer_rcvbuf = -1;
}

/* How the run ended when nothing went wrong. */
static void ended(struct client *c)
{
	if (c->r->end[0])
		return;
	if (stop_asked(c)) {
		c->r->interrupted = 1;
		finish(c, 0, "%s", "interrupted");
	} else if (c->o->count && c->r->completed + c->r->lost < c->o->count) {
		finish(c, 0, "%s", "ended before every transaction was made");
	} else {
		finish(c, 1, "%s", "done");
	}
}

int bb_rr_client_run(const struct bb_rr_client_opts *o, struct bb_rr_client_result *r)
{
	struct client c = { .o = o, .r = r, .fd = -1 };
	char err[256];

	result_init(r, o);
	if (bb_rr_pin(o->pin, err, sizeof err) != 0) {
		finish(&c, 0, "%s", err);
		return -1;
	}
	r->overhead_s = measure_overhead(o);
	if (open_and_connect(&c) != 0 || hello(&c) != 0) {
		if (c.fd >= 0)
			close(c.fd);
		return -1;
	}
	c.req = bb_xcalloc(1, o->req);
	c.resp_cap = (o->udp ? BB_RR_MAX_UDP_BYTES : 0) + o->resp;
	c.resp = bb_xcalloc(1, c.resp_cap);
	c.interval_ns = (uint64_t)(BB_RR_INTERVAL_S * 1e9);
	c.begin = bb_now_ns();
	c.warm_end = c.begin + (uint64_t)(o->warmup_s * 1e9);
	if (o->udp)
		run_udp(&c);
	else
		run_tcp(&c);
	ended(&c);
	if (o->udp)
		udp_goodbye(&c);
	/* only the intervals that ended before the last response are whole */
	r->nint = (size_t)(r->elapsed_s / BB_RR_INTERVAL_S);
	if (r->nint > r->capint)
		r->nint = r->capint;
	close(c.fd);
	free(c.req);
	free(c.resp);
	return r->complete ? 0 : r->completed || r->lost ? 1 : -1;
}

void bb_rr_client_result_free(struct bb_rr_client_result *r)
{
	free(r->hist);
	bb_rr_keep_free(&r->keep);
	free(r->interval);
	memset(r, 0, sizeof *r);
}
