/* ttcp_tx.c - the transmitter (-t): resolves the receiver, opens every
 * stream, then runs one sending thread per stream until -n buffers, --time
 * or the end of stdin, and fills the model.  A TCP stream's thread
 * connects (within --connect-timeout) and writes at once: its socket's
 * facts are read before the connect and after the transfer.  Classic
 * ttcp's "socket"/"connect" notes go to stderr. */
#include "ttcp_applet.h"
#include "core/timer.h"
#include "net/pattern.h"
#include "net/zcopy.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define TTCP_GSO_MAX_SEGS 64        /* the kernel's UDP_MAX_SEGMENTS */
#define TTCP_GSO_MAX_BYTES 65000    /* one GSO send stays below 64 KiB */

static unsigned gso_segments(const struct ttcp_opts *o)
{
	size_t segs;

	if (!o->gso)
		return 1;
	segs = TTCP_GSO_MAX_BYTES / o->buflen;
	if (segs > TTCP_GSO_MAX_SEGS)
		segs = TTCP_GSO_MAX_SEGS;
	return segs ? (unsigned)segs : 1;
}

static void tx_config(struct ttcp_session *s)
{
	const struct ttcp_opts *o = s->o;
	struct bb_xfer_cfg *c = &s->cfg;

	c->buflen = o->buflen;
	c->nbuf = o->time_s > 0 ? 0 : o->nbuf;
	c->src_fd = o->sink ? -1 : 0;
	c->dst_fd = -1;
	c->publish = o->interval_s > 0;
	c->rate_bps = o->rate_bps;
	c->idle_s = o->idle_timeout_s;
	c->zerocopy = o->zerocopy;
	c->file_fd = -1;
	c->udp_header = o->udp && o->sink && o->buflen >= 24 && !o->iperf2;
	c->iperf2 = o->iperf2;
	c->port = o->port;
	c->time_s = o->time_s;
	c->gso_segs = o->udp && o->sink ? gso_segments(o) : 1;
	c->nstreams = (unsigned)o->streams;
	c->stop = &s->stop;
}

/* --bind ADDR[%DEV] for a socket of the peer's family. */
static int local_address(struct ttcp_session *s, int family, struct bb_addr *a, char *dev,
			 size_t devlen, int *have_addr)
{
	char addr[128];

	*have_addr = 0;
	dev[0] = '\0';
	if (!s->o->bind)
		return 0;
	if (bb_bind_spec_parse(s->o->bind, addr, sizeof addr, dev, devlen) != 0 ||
	    (addr[0] && bb_addr_numeric(s->o->bind, 0, family, a) != 0 &&
	     bb_addr_numeric(addr, 0, family, a) != 0)) {
		snprintf(s->error, sizeof s->error, "--bind '%s': not a numeric %s address[%%device]",
			 s->o->bind, family == AF_INET6 ? "IPv6" : "IPv4");
		return -1;
	}
	*have_addr = addr[0] != '\0';
	return 0;
}

/* Per-socket extras after connect: zero copy, UDP GSO. */
static int tx_socket_extras(struct ttcp_session *s, int fd)
{
	if (s->cfg.zerocopy == BB_ZC_MSG && bb_zc_enable(fd) != 0) {
		snprintf(s->error, sizeof s->error, "--zerocopy=msg: SO_ZEROCOPY: %s (kernel 4.14+ "
			 "for TCP, 5.0+ for UDP)", strerror(errno));
		return -1;
	}
	if (s->cfg.gso_segs > 1 && bb_udp_set_gso(fd, s->cfg.buflen) != 0) {
		snprintf(s->error, sizeof s->error, "--gso: UDP_SEGMENT: %s (kernel 4.18+)",
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int open_stream(struct ttcp_session *s, const struct bb_addr *peer, int i)
{
	const struct ttcp_opts *o = s->o;
	int family = peer->ss.ss_family, have_local, fd;
	struct bb_addr local;
	char dev[64];
	struct bb_sockopt so = { o->udp ? SOCK_DGRAM : SOCK_STREAM, o->sockbuf, o->nodelay,
				 NULL, NULL, TTCP_TICK_S };
	struct ttcp_stream *t;

	if (local_address(s, family, &local, dev, sizeof dev, &have_local) != 0)
		return -1;
	so.bind = have_local ? &local : NULL;
	so.dev = dev[0] ? dev : NULL;
	fd = bb_sock_open(family, &so, s->error, sizeof s->error);
	if (fd < 0)
		return -1;
	if (i == 0)
		ttcp_note(o, "socket");
	t = ttcp_stream_new(s, fd, o->buflen * s->cfg.gso_segs);
	if (!t) {
		close(fd);
		return -1;
	}
	bb_pattern_fill(t->x->buf, o->buflen * s->cfg.gso_segs);
	if (!o->udp) {                   /* the stream's thread connects (ttcp_ctl.c) */
		t->dest = *peer;
		t->connecting = 1;
		ttcp_model_sockbuf(s, t);
		return tx_socket_extras(s, fd);
	}
	if (bb_sock_connect(fd, peer, o->connect_timeout_s, &s->stop, s->error,
			    sizeof s->error) != 0)
		return -1;
	if (i == 0)
		ttcp_note(o, "connect");
	ttcp_model_socket(s, t);
	return tx_socket_extras(s, fd);
}

static int sendfile_source(struct ttcp_session *s)
{
	if (s->cfg.zerocopy != BB_ZC_SENDFILE)
		return 0;
	if (!s->o->sink) {
		s->cfg.file_fd = 0;          /* stdin, a regular file (checked with the options) */
		return 0;
	}
	s->file_fd = bb_zc_pattern_file(s->cfg.buflen);
	if (s->file_fd < 0) {
		snprintf(s->error, sizeof s->error, "--zerocopy=sendfile: cannot make the pattern "
			 "file: %s", strerror(errno));
		return -1;
	}
	s->cfg.file_fd = s->file_fd;
	return 0;
}

/* TCP: the clock starts when the first stream has connected (ttcp_ctl.c),
 * the CPU count just before. */
static int start_all(struct ttcp_session *s)
{
	if (s->o->udp)
		return ttcp_session_start(s, ttcp_run_udp_send);
	bb_cpu_snap_take(&s->cpu0);
	for (int i = 0; i < s->n; i++)
		if (ttcp_stream_start(s, s->st[i], ttcp_run_tcp_connect_send) != 0)
			return -1;
	return 0;
}

/* After a TCP transfer: the first connect error, and the interface. */
static void tcp_after(struct ttcp_session *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->st[i]->error[0] && !s->error[0])
			snprintf(s->error, sizeof s->error, "%s", s->st[i]->error);
		bb_tcpinfo_get(s->st[i]->x->fd, &s->st[i]->ti);
	}
	if (s->n > 0 && s->t0 > 0)
		ttcp_model_interface(s, s->st[0]);
}

int ttcp_transmit(struct ttcp_session *s)
{
	const struct ttcp_opts *o = s->o;
	struct bb_addr peer;

	tx_config(s);
	ttcp_model_params(s);
	if (bb_addr_resolve(o->host, o->port, o->family, o->udp ? SOCK_DGRAM : SOCK_STREAM,
			    &peer, s->error, sizeof s->error) == 0 &&
	    sendfile_source(s) == 0) {
		if (!o->quiet_notes) {
			ttcp_render_header(s->out, s->r);
			fflush(s->out);
		}
		for (int i = 0; i < o->streams && !s->error[0]; i++)
			open_stream(s, &peer, i);
		if (!s->error[0])
			start_all(s);
	}
	ttcp_join_all(s);
	bb_cpu_snap_take(&s->cpu1);
	if (!o->udp)
		tcp_after(s);
	if (s->t0 == 0)
		s->cpu0 = s->cpu1;          /* nothing was sent: no CPU to count */
	ttcp_model_finish(s);
	return s->r->ok ? 0 : 1;
}
