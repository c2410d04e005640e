/* ttcp_server_iperf2.c - iperf2's -r (tradeoff) and -d (dualtest) against
 * the ttcp server.  An iperf2 client asks for them in the header it puts
 * at the start of its stream (src/net/iperf2.h, bb_iperf2_back_of): the
 * server is then to connect back to the client, at the port the header
 * names, and send to it - after the client's own transfer (-r) or at once,
 * while it runs (-d).  This file makes that direction the test's sending
 * direction (srv_test.tx), so it is watched, counted, logged and written
 * like any other:
 *   - the connection goes to the client's own address only (the one whose
 *     connection carried the header, --allow checked again), from the
 *     local address that connection reached, at a port >= 1024;
 *   - the sockets connect without blocking the event loop (each tick looks
 *     whether they are through), within --handshake-timeout;
 *   - duration or bytes come from the header, at most SRV_BACK_MAX_S
 *     seconds; the streams from numThreads, at most --max-streams, and
 *     only as many as --max-conns leaves room for;
 *   - it counts as part of the client's test: one log line per direction
 *     (mode tcp-iperf2-r / -d, then ...-back for what the server sent),
 *     one results file with both. */
#include "ttcp_server.h"
#include "core/timer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SRV_BACK_MAX_S 600.0       /* the longest connect-back a header gets */
#define SRV_BACK_MIN_PORT 1024     /* no connect-back to a privileged port */

enum back_state { BACK_WAIT, BACK_CONNECTING, BACK_DONE };

struct srv_back {
	enum bb_iperf2_back mode;
	enum back_state state;
	struct bb_addr to;            /* the client's address, the header's port */
	struct bb_addr from;          /* the local address the client reached, port 0 */
	char dev[64];                 /* --bind's %DEV, if any */
	char to_text[BB_ADDR_TEXT + 8];
	int want;                     /* streams to open */
	struct ttcp_opts o;           /* the sending direction's options */
	int fd[BB_MAX_STREAMS];       /* sockets still connecting, -1 once handed over */
	double deadline;              /* connecting ends by then */
	char note[160];               /* a bound applied, for the results file */
};

static const char *back_name(enum bb_iperf2_back m)
{
	return m == BB_IPERF2_BACK_DUAL ? "d" : "r";
}

/* Why the header's request is not served, or NULL: the connect-back's
 * target must be the client's allowed address at an unprivileged port. */
static const char *unservable(const struct srv *v, const struct srv_test *t,
			      const struct bb_iperf2_hdr *h)
{
	if (h->port < SRV_BACK_MIN_PORT || h->port > 65535)
		return "its port is below 1024 or not a port";
	if (!bb_cidr_list_allows(&v->o->allow, &t->ip))
		return "its address is not allowed (--allow)";
	if (h->amount == 0)
		return "it announced neither a time nor a byte count";
	return NULL;
}

/* A write size for sending exactly bytes in whole writes: buflen, or the
 * largest divisor of bytes down to a quarter of it; else buflen (the last
 * write then goes beyond bytes, and the results file says so). */
static size_t whole_writes(uint64_t bytes, size_t buflen)
{
	if (bytes < buflen)
		return (size_t)bytes;
	for (size_t d = buflen; d >= buflen / 4 && d > 0; d--)
		if (bytes % d == 0)
			return d;
	return buflen;
}

/* The sending direction's options from the header, bounded. */
static void back_opts(const struct srv *v, struct srv_back *b, const struct bb_iperf2_hdr *h)
{
	struct ttcp_opts *o = &b->o;
	uint64_t bytes = bb_iperf2_bytes(h);
	double secs = bb_iperf2_seconds(h);

	*o = v->o->base;
	o->buflen = h->buflen > 0 && (uint32_t)h->buflen <= SRV_MAX_WRITE ? (size_t)h->buflen
									 : TTCP_DEFAULT_BUFLEN;
	o->time_s = 0;
	o->nbuf = 0;
	if (bytes > 0) {
		o->buflen = whole_writes(bytes, o->buflen);
		o->nbuf = (bytes + o->buflen - 1) / o->buflen;
		if (bytes % o->buflen)
			snprintf(b->note, sizeof b->note, "%llu bytes asked: %llu writes of %zu bytes",
				 (unsigned long long)bytes, (unsigned long long)o->nbuf, o->buflen);
	} else {
		o->time_s = secs < SRV_BACK_MAX_S ? secs : SRV_BACK_MAX_S;
		if (secs > SRV_BACK_MAX_S)
			snprintf(b->note, sizeof b->note, "%.0f s asked: %.0f s, the server's most",
				 secs, SRV_BACK_MAX_S);
	}
}

/* The addresses: to the client's, from the local one its connection reached. */
static int back_addrs(const struct srv *v, struct srv_back *b, int fd, const struct bb_addr *peer,
		      unsigned port)
{
	char addr[128], host[BB_ADDR_TEXT];

	b->to = *peer;
	if (b->to.ss.ss_family == AF_INET)
		((struct sockaddr_in *)&b->to.ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)&b->to.ss)->sin6_port = htons((uint16_t)port);
	b->from.len = sizeof b->from.ss;
	if (getsockname(fd, (struct sockaddr *)&b->from.ss, &b->from.len) != 0)
		return -1;
	if (b->from.ss.ss_family == AF_INET)
		((struct sockaddr_in *)&b->from.ss)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&b->from.ss)->sin6_port = 0;
	b->dev[0] = '\0';
	if (v->o->base.bind)
		bb_bind_spec_parse(v->o->base.bind, addr, sizeof addr, b->dev, sizeof b->dev);
	bb_addr_text((const struct sockaddr *)&b->to.ss, host, sizeof host);
	snprintf(b->to_text, sizeof b->to_text, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
	return 0;
}

void srv_iperf2_plan(struct srv *v, struct srv_test *t, const struct bb_iperf2_hdr *h, int fd,
		     const struct bb_addr *peer)
{
	enum bb_iperf2_back mode = bb_iperf2_back_of(h);
	const char *why;
	struct srv_back *b;

	if (mode == BB_IPERF2_BACK_NONE || t->back || t->kind != TEST_IPERF2)
		return;
	why = unservable(v, t, h);
	if (why) {
		srv_note("test %d: iperf2 -%s from %s: not connecting back: %s", t->id,
			 back_name(mode), t->who, why);
		return;
	}
	b = calloc(1, sizeof *b);
	if (!b || back_addrs(v, b, fd, peer, (unsigned)h->port) != 0) {
		srv_note("test %d: iperf2 -%s from %s: not connecting back: %s", t->id,
			 back_name(mode), t->who, b ? strerror(errno) : "out of memory");
		free(b);
		return;
	}
	b->mode = mode;
	b->want = bb_group_cap(h->threads, v->o->max_streams);
	for (int i = 0; i < BB_MAX_STREAMS; i++)
		b->fd[i] = -1;
	back_opts(v, b, h);
	t->back = b;
}

/* A socket connecting to the client, without waiting; fd or -1 (err). */
static int open_one(const struct srv *v, const struct srv_back *b, char *err, size_t errlen)
{
	struct bb_sockopt so = { SOCK_STREAM, v->o->base.sockbuf, v->o->base.nodelay, &b->from,
				 b->dev[0] ? b->dev : NULL, 0 };
	int fd = bb_sock_open(b->to.ss.ss_family, &so, err, errlen), fl;

	if (fd < 0)
		return -1;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0 ||
	    (connect(fd, (const struct sockaddr *)&b->to.ss, b->to.len) != 0 &&
	     errno != EINPROGRESS)) {
		snprintf(err, errlen, "connect: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The sending direction failed to connect: its result says why (the
 * client's own direction keeps its verdict). */
static void dir_failed(struct srv_test *t, const char *why)
{
	struct ttcp_session *s = &t->tx.s;

	if (!s->error[0])
		snprintf(s->error, sizeof s->error, "connecting back to %s: %.150s", t->back->to_text,
			 why);
}

/* Starts connecting: the sending direction and its sockets. */
static void start(struct srv *v, struct srv_test *t, double now)
{
	struct srv_back *b = t->back;
	int room = srv_conn_cap(v) - v->nconns, n = b->want < room ? b->want : room;
	char err[200];

	srv_dir_init(v, t, &t->tx, &b->o, 1, n > 0 ? n : 1);
	bb_kv_str(&t->tx.s.r->params, "iperf2_back", b->mode == BB_IPERF2_BACK_DUAL
		  ? "dualtest (-d): sent to the client while it sent" :
		  "tradeoff (-r): sent to the client after it sent");
	bb_kv_str(&t->tx.s.r->params, "iperf2_back_to", b->to_text);
	if (b->o.time_s > 0)
		bb_kv_num(&t->tx.s.r->params, "iperf2_back_time_s", b->o.time_s);
	else
		bb_kv_int(&t->tx.s.r->params, "iperf2_back_bytes",
			  (long long)(b->o.nbuf * b->o.buflen));
	if (b->note[0])
		bb_kv_str(&t->tx.s.r->params, "iperf2_back_bound", b->note);
	b->state = BACK_CONNECTING;
	b->deadline = now + v->o->handshake_s;
	if (t->join_until < b->deadline + TTCP_TICK_S)
		t->join_until = b->deadline + TTCP_TICK_S;
	if (n <= 0)
		dir_failed(t, "no room (--max-conns)");
	for (int i = 0; i < n; i++) {
		b->fd[i] = open_one(v, b, err, sizeof err);
		if (b->fd[i] < 0) {
			dir_failed(t, err);
			break;
		}
		v->nconns++;
	}
}

/* The client's own transfer is over: every stream it announced came (or
 * the join window closed) and ended. */
static int client_done(const struct srv_test *t, double now)
{
	return (t->rx.joined >= t->rx.want || now >= t->join_until) &&
	       ttcp_all_finished(&t->rx.s);
}

/* ... and complete: a tradeoff follows only a complete transfer. */
static int client_complete(const struct srv_test *t)
{
	for (int i = 0; i < t->rx.s.n; i++)
		if (!bb_end_complete(t->rx.s.st[i]->x->f.end))
			return 0;
	return t->rx.s.n > 0;
}

static void close_pending(struct srv *v, struct srv_back *b)
{
	for (int i = 0; i < BB_MAX_STREAMS; i++)
		if (b->fd[i] >= 0) {
			close(b->fd[i]);
			b->fd[i] = -1;
			v->nconns--;
		}
}

/* Hands over the sockets whose connect finished; 1 while some still wait. */
static int poll_connects(struct srv *v, struct srv_test *t, double now)
{
	struct srv_back *b = t->back;
	int waiting = 0;

	for (int i = 0; i < BB_MAX_STREAMS; i++) {
		struct pollfd p = { .fd = b->fd[i], .events = POLLOUT };
		int err = 0;
		socklen_t len = sizeof err;
		if (b->fd[i] < 0)
			continue;
		if (poll(&p, 1, 0) <= 0) {
			waiting = 1;
			continue;
		}
		if (getsockopt(b->fd[i], SOL_SOCKET, SO_ERROR, &err, &len) != 0)
			err = errno;
		if (err) {
			dir_failed(t, strerror(err));
			close(b->fd[i]);
			v->nconns--;
		} else {
			/* srv_test_add_stream owns the fd now, and closes it on failure */
			srv_test_add_stream(v, t, &t->tx, b->fd[i], &b->to, now, NULL, 0);
		}
		b->fd[i] = -1;
	}
	return waiting;
}

void srv_iperf2_tick(struct srv *v, struct srv_test *t, double now)
{
	struct srv_back *b = t->back;

	if (!b || b->state == BACK_DONE)
		return;
	if (b->state == BACK_WAIT) {
		if (t->stopping) {
			b->state = BACK_DONE;
			return;
		}
		if (b->mode == BB_IPERF2_BACK_TRADEOFF && !client_done(t, now))
			return;
		if (b->mode == BB_IPERF2_BACK_TRADEOFF && !client_complete(t)) {
			srv_note("test %d: iperf2 -r from %s: its transfer was incomplete: not "
				 "connecting back", t->id, t->who);
			b->state = BACK_DONE;
			return;
		}
		start(v, t, now);
	}
	if (!poll_connects(v, t, now))
		b->state = BACK_DONE;
	else if (now >= b->deadline || t->stopping) {
		dir_failed(t, t->stopping ? "the test was stopped"
			   : "no answer within --handshake-timeout");
		close_pending(v, b);
		b->state = BACK_DONE;
	}
	if (b->state == BACK_DONE && t->tx.joined < t->tx.want)
		t->tx.want = t->tx.joined;      /* what did not connect will not */
}

int srv_iperf2_pending(const struct srv_test *t)
{
	return t->back && t->back->state != BACK_DONE;
}

void srv_iperf2_free(struct srv *v, struct srv_test *t)
{
	if (!t->back)
		return;
	close_pending(v, t->back);
	free(t->back);
	t->back = NULL;
}

int srv_iperf2_log(const struct srv_test *t)
{
	const struct srv_back *b = t->back;
	char mode[48], verdict[400];

	if (!b)
		return 0;
	for (int i = 0; i < 2; i++) {
		const struct srv_dir *d = i == 0 ? &t->rx : &t->tx;
		uint64_t bytes;
		double secs;
		if (!d->used)
			continue;
		srv_session_totals(&d->s, &bytes, &secs);
		secs = srv_log_seconds(&d->s, secs, t->opened);
		if (t->announced > 1)
			snprintf(mode, sizeof mode, "tcp-iperf2x%d-%s%s", t->announced,
				 back_name(b->mode), i ? "-back" : "");
		else
			snprintf(mode, sizeof mode, "tcp-iperf2-%s%s", back_name(b->mode),
				 i ? "-back" : "");
		snprintf(verdict, sizeof verdict, "%s", d->s.r->message);
		srv_log(t->who, mode, bytes, secs, verdict);
	}
	return 1;
}
