/* ttcp_rx.c - the receiver (-r): listens (TCP) or binds (UDP), then
 *   TCP: accepts the first connection (waiting at most --accept-timeout),
 *        and more while fewer have come than --streams asks or than an
 *        iperf2 peer's header announces (each within --connect-timeout);
 *        one receiving thread per connection;
 *   UDP: one receiving thread on the one socket for every stream;
 * and fills the model when every stream has ended.  Data goes to stdout
 * unless -s; the report then goes to stderr. */
#include "ttcp_applet.h"
#include "core/timer.h"

#include <errno.h>
#include <sys/socket.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* TCP: 256 KiB whatever the writes (fewer calls for small ones), 128 KiB
 * for writes above that: a 1 MiB write read in 1 MiB (the size it used to
 * be) or 256 KiB blocks moved 26-29 Gbit/s at 0.39-0.44 CPU s per GB on
 * loopback, in 128-192 KiB blocks 32-38 at 0.31-0.36 (docs/BENCHMARKS.md,
 * issue 25).  UDP: a whole datagram or GRO batch, at least 256 KiB. */
size_t ttcp_default_read_size(size_t buflen, int udp)
{
	if (udp)
		return buflen > TTCP_RX_MIN_READ ? buflen : TTCP_RX_MIN_READ;
	return buflen > TTCP_RX_BIG_READ ? TTCP_RX_BIG_READ : TTCP_RX_MIN_READ;
}

static void rx_config(struct ttcp_session *s)
{
	const struct ttcp_opts *o = s->o;
	struct bb_xfer_cfg *c = &s->cfg;
	size_t rd = o->read_size ? o->read_size : ttcp_default_read_size(o->buflen, o->udp);

	if (o->udp && rd < 65536)
		rd = 65536;                  /* a whole datagram, or a GRO batch */
	c->buflen = o->buflen;
	c->read_size = rd;
	c->src_fd = -1;
	c->dst_fd = o->sink ? -1 : 1;
	c->touch = o->touch;
	c->publish = o->interval_s > 0;
	c->idle_s = o->idle_timeout_s;
	c->first_s = o->accept_timeout_s;
	c->file_fd = -1;
	c->nstreams = (unsigned)o->streams;
	c->stop = &s->stop;
}

/* The address to listen on: --bind, or the wildcard of -4/-6 (default:
 * IPv6 accepting IPv4 too, or IPv4 on a kernel without IPv6). */
static int listen_socket(struct ttcp_session *s)
{
	const struct ttcp_opts *o = s->o;
	struct bb_sockopt so = { o->udp ? SOCK_DGRAM : SOCK_STREAM, o->sockbuf, o->nodelay,
				 NULL, NULL, TTCP_TICK_S };
	char addr[128], dev[64];
	int family = o->family == AF_INET ? AF_INET : AF_INET6, fd;

	if (o->bind) {
		if (bb_bind_spec_parse(o->bind, addr, sizeof addr, dev, sizeof dev) != 0 ||
		    (addr[0] && bb_addr_numeric(o->bind, o->port, o->family, &s->local) != 0 &&
		     bb_addr_numeric(addr, o->port, o->family, &s->local) != 0)) {
			snprintf(s->error, sizeof s->error, "--bind '%s': not a numeric address"
				 "[%%device] of the family asked for", o->bind);
			return -1;
		}
		so.dev = dev[0] ? dev : NULL;
		if (addr[0])
			family = s->local.ss.ss_family;
	}
	if (!o->bind || !addr[0])
		bb_addr_wildcard(family, o->port, &s->local);
	fd = bb_sock_listen(family, &s->local, &so, s->error, sizeof s->error);
	if (fd < 0 && family == AF_INET6 && o->family == AF_UNSPEC && (!o->bind || !addr[0]) &&
	    (errno == EAFNOSUPPORT || errno == EADDRNOTAVAIL)) {
		bb_addr_wildcard(AF_INET, o->port, &s->local);
		s->error[0] = '\0';
		fd = bb_sock_listen(AF_INET, &s->local, &so, s->error, sizeof s->error);
	}
	return fd;
}

/* Streams to wait for: --streams, or more if an iperf2 peer announced
 * them (bounded); only one when the data goes to stdout. */
static int wanted(const struct ttcp_session *s)
{
	int want = s->o->streams;

	if (!s->o->sink)
		return 1;
	for (int i = 0; i < s->n; i++) {
		int k = atomic_load(&s->st[i]->x->peer.streams);
		if (k > want)
			want = k < BB_MAX_STREAMS ? k : BB_MAX_STREAMS;
	}
	return want;
}

/* A bulk receiver need not wake for every segment: recv() waits for
 * --rcvlowat bytes (or the socket tick, or the end). */
static int set_lowat(const struct ttcp_session *s, int fd)
{
	int lowat = (int)s->o->rcvlowat;

	if (lowat <= 1)
		return 0;
	if ((size_t)lowat > s->cfg.read_size)
		lowat = (int)s->cfg.read_size;
	return setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof lowat);
}

static int add_connection(struct ttcp_session *s, int fd, const struct bb_addr *peer)
{
	struct ttcp_stream *t;

	if (bb_sock_set_tick(fd, TTCP_TICK_S) != 0 || set_lowat(s, fd) != 0 ||
	    !(t = ttcp_stream_new(s, fd, s->cfg.read_size))) {
		if (!s->error[0])
			snprintf(s->error, sizeof s->error, "setsockopt: %s", strerror(errno));
		close(fd);
		return -1;
	}
	bb_addr_text((const struct sockaddr *)&peer->ss, t->peer, sizeof t->peer);
	t->x->n.t_start = bb_now();
	if (s->n == 1)
		s->t0 = t->x->n.t_start;
	/* reading first: the socket's facts after (the interface at the end) */
	if (ttcp_stream_start(s, t, ttcp_run_tcp_recv) != 0)
		return -1;
	if (s->n == 1)
		bb_cpu_snap_take(&s->cpu0);
	ttcp_note(s->o, "accept from %s", t->peer);
	ttcp_model_sockbuf(s, t);
	return 0;
}

/* Whether to stop accepting; *since tracks how long every accepted
 * stream has been finished while more were expected. */
static int accept_done(struct ttcp_session *s, double *since, double first_deadline)
{
	double now = bb_now();

	if (atomic_load(&s->stop))
		return 1;
	if (s->n == 0) {
		if (first_deadline > 0 && now >= first_deadline) {
			snprintf(s->error, sizeof s->error, "no connection within %g s "
				 "(--accept-timeout)", s->o->accept_timeout_s);
			return 1;
		}
		return 0;
	}
	if (!ttcp_all_finished(s)) {
		*since = 0;
		return 0;
	}
	if (s->n >= wanted(s))
		return 1;
	if (*since == 0)
		*since = now;
	return now - *since >= s->o->connect_timeout_s;
}

/* Waits up to wait s for a connection or a finishing worker; a new
 * connection's fd, -2 if none came, -1 on error. */
static int next_connection(struct ttcp_session *s, int lfd, double wait, struct bb_addr *peer)
{
	struct pollfd p[2] = { { .fd = lfd, .events = POLLIN },
			       { .fd = s->wake[0], .events = POLLIN } };
	char drain[64];

	if (poll(p, 2, (int)(wait * 1000.0) + 1) <= 0)
		return -2;
	if (p[1].revents)
		while (read(s->wake[0], drain, sizeof drain) > 0)
			;
	return p[0].revents ? bb_sock_accept(lfd, 0, peer) : -2;
}

/* With -s, a connection that arrives while streams run joins the test
 * (an iperf2 client opens its streams at once and announces them only in
 * their first bytes); without -s only the first is taken. */
static void accept_streams(struct ttcp_session *s, int lfd)
{
	double since = 0, first_deadline = 0;
	struct bb_addr peer;

	if (s->o->accept_timeout_s > 0)
		first_deadline = bb_now() + s->o->accept_timeout_s;
	while (!s->error[0] && !accept_done(s, &since, first_deadline)) {
		double wait = ttcp_ctl_step(s);
		int fd;
		if ((!s->o->sink && s->n >= 1) || s->n >= BB_MAX_STREAMS) {
			ttcp_ctl_sleep(s, wait);
			continue;
		}
		fd = next_connection(s, lfd, wait, &peer);
		if (fd >= 0)
			add_connection(s, fd, &peer);
		else if (fd == -1 && errno != EMFILE && errno != ENFILE)
			snprintf(s->error, sizeof s->error, "accept: %s", strerror(errno));
	}
}

static void receive_udp(struct ttcp_session *s, int fd)
{
	struct ttcp_stream *t = ttcp_stream_new_udp_rx(s, fd, s->cfg.read_size);

	if (!t) {
		close(fd);
		return;
	}
	if (s->o->gro && bb_udp_set_gro(fd) != 0) {
		snprintf(s->error, sizeof s->error, "--gro: UDP_GRO: %s (kernel 5.0+)",
			 strerror(errno));
		return;
	}
	t->udp->gro = s->o->gro;
	ttcp_model_socket(s, t);
	s->t0 = bb_now();
	bb_cpu_snap_take(&s->cpu0);
	ttcp_stream_start(s, t, ttcp_run_udp_recv);
}

/* An iperf2 client's -r or -d asks the receiver to connect back; only
 * the server does (ttcp_server_iperf2.c): say so, once. */
static void note_back_request(const struct ttcp_session *s)
{
	for (int i = 0; i < s->n; i++) {
		const struct bb_iperf2_probe *pr = &s->st[i]->x->peer.iperf2;
		if (pr->verdict == BB_IPERF2_FOUND &&
		    bb_iperf2_back_of(&pr->hdr) != BB_IPERF2_BACK_NONE) {
			ttcp_note(s->o, "the iperf2 client asked for %s (the receiver connects back "
				  "and sends): only `ttcp -r --server` does that",
				  bb_iperf2_back_of(&pr->hdr) == BB_IPERF2_BACK_DUAL ? "-d" : "-r");
			return;
		}
	}
}

int ttcp_receive(struct ttcp_session *s)
{
	int lfd = s->listen_fd;

	rx_config(s);
	ttcp_model_params(s);
	if (lfd < 0)
		lfd = listen_socket(s);
	if (lfd >= 0 && !s->o->udp)
		s->cfg.stamp_first = bb_tcp_stamp_arrivals(lfd) == 0;
	if (lfd >= 0) {
		if (!s->o->quiet_notes) {
			ttcp_render_header(s->out, s->r);
			fflush(s->out);
		}
		if (s->o->udp)
			receive_udp(s, lfd);   /* the stream owns the socket now */
		else
			accept_streams(s, lfd);
	}
	ttcp_join_all(s);
	note_back_request(s);
	bb_cpu_snap_take(&s->cpu1);
	if (s->t0 == 0)
		s->cpu0 = s->cpu1;
	for (int i = 0; i < s->n && !s->o->udp; i++)
		bb_tcpinfo_get(s->st[i]->x->fd, &s->st[i]->ti);
	if (s->n > 0 && !s->o->udp)
		ttcp_model_interface(s, s->st[0]);
	if (lfd >= 0 && !s->o->udp && lfd != s->listen_fd)
		close(lfd);
	ttcp_model_finish(s);
	return s->r->ok ? 0 : 1;
}
