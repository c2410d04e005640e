/* ttcp_server_udp.c - UDP tests between `ttcp --to-server HOST -u` and
 * `ttcp -r --server`: what both ends do alike.  Each end has at most two
 * UDP sockets, both bound to the address of its control connection: one
 * receives, unconnected, so that a stranger's datagrams reach it and are
 * counted as foreign; one sends, connected to the far end's receiving
 * port, and its streams share it (dup()).  The ports travel on the
 * control connection (REQUEST, ACCEPT: docs/protocol.md), so a receiver
 * knows the one address and port its test's datagrams come from before
 * the first arrives (bb_udp_rx_fix), and a server sends only to the
 * address of the control connection it accepted.  The loops and the
 * figures (loss, reordering, RFC 3550 jitter, refused datagrams) are the
 * classic UDP receiver's and sender's (src/net/udp_xfer.c, udpstat.c);
 * this file sets them up, carries their figures in RESULTs and says when
 * the two ends' figures disagree. */
#include "ttcp_server.h"
#include "core/timer.h"
#include "net/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#define UDP_READ_SIZE 65536          /* a whole datagram, whatever its length */

/* A v4-mapped IPv6 address as plain IPv4 (a dual-stack server's control
 * connection has one; its UDP sockets are IPv4 then). */
static void unmap(struct bb_addr *a)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
	struct sockaddr_in s4;

	if (a->ss.ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		return;
	memset(&s4, 0, sizeof s4);
	s4.sin_family = AF_INET;
	s4.sin_port = s6->sin6_port;
	memcpy(&s4.sin_addr, s6->sin6_addr.s6_addr + 12, 4);
	memset(&a->ss, 0, sizeof a->ss);
	memcpy(&a->ss, &s4, sizeof s4);
	a->len = sizeof s4;
}

static void set_port(struct bb_addr *a, unsigned port)
{
	if (a->ss.ss_family == AF_INET)
		((struct sockaddr_in *)&a->ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons((uint16_t)port);
}

/* One end of the control connection ctl (local or peer), unmapped. */
static int ctl_end(int ctl, int peer, struct bb_addr *a)
{
	int rc;

	a->len = sizeof a->ss;
	if (peer)
		rc = getpeername(ctl, (struct sockaddr *)&a->ss, &a->len);
	else
		rc = getsockname(ctl, (struct sockaddr *)&a->ss, &a->len);
	if (rc != 0)
		return -1;
	unmap(a);
	return 0;
}

int srv_udp_socket(int ctl, int sockbuf, unsigned *port, char *err, size_t errlen)
{
	struct bb_addr local;
	struct bb_sockopt so = { SOCK_DGRAM, sockbuf, 0, &local, NULL, TTCP_TICK_S };
	int fd;

	if (ctl_end(ctl, 0, &local) != 0) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		return -1;
	}
	set_port(&local, 0);
	fd = bb_sock_open(local.ss.ss_family, &so, err, errlen);
	if (fd < 0)
		return -1;
	local.len = sizeof local.ss;
	if (getsockname(fd, (struct sockaddr *)&local.ss, &local.len) != 0) {
		snprintf(err, errlen, "getsockname: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*port = bb_addr_port((const struct sockaddr *)&local.ss);
	return fd;
}

int srv_udp_peer(int ctl, unsigned port, struct bb_addr *a)
{
	if (ctl_end(ctl, 1, a) != 0)
		return -1;
	set_port(a, port);
	return 0;
}

int srv_udp_connect(int fd, int ctl, unsigned port, char *err, size_t errlen)
{
	struct bb_addr to;

	if (srv_udp_peer(ctl, port, &to) != 0 ||
	    connect(fd, (const struct sockaddr *)&to.ss, to.len) != 0) {
		snprintf(err, errlen, "UDP connect to the peer's port %u: %s", port, strerror(errno));
		return -1;
	}
	return 0;
}

void srv_udp_config(struct ttcp_session *s, double rate_bps, uint64_t nbuf, double first_s)
{
	struct bb_xfer_cfg *c = &s->cfg;
	int tx = s->o->transmit;

	c->buflen = s->o->buflen;
	c->read_size = UDP_READ_SIZE;
	c->nbuf = tx ? nbuf : 0;
	c->src_fd = c->dst_fd = c->file_fd = -1;
	c->publish = 1;
	c->rate_bps = tx ? rate_bps : 0;
	c->idle_s = s->o->idle_timeout_s;
	c->first_s = tx ? 0 : first_s;
	c->udp_header = tx;
	c->gso_segs = 1;
	c->iperf2 = 0;
	c->nstreams = (unsigned)s->o->streams;
	c->stop = &s->stop;
}

int srv_udp_open_rx(struct ttcp_session *s, int fd, int ctl, unsigned from_port)
{
	struct bb_addr from;
	struct ttcp_stream *t;
	int before = s->n;

	if (srv_udp_peer(ctl, from_port, &from) != 0 ||
	    !(t = ttcp_stream_new_udp_rx(s, fd, s->cfg.read_size))) {
		if (!s->error[0])
			snprintf(s->error, sizeof s->error, "UDP receiver: %s", strerror(errno));
		if (s->n == before)
			close(fd);
		return -1;
	}
	bb_udp_rx_fix(t->udp, &from.ss, from.len, (unsigned)s->o->streams);
	bb_addr_text((const struct sockaddr *)&from.ss, t->peer, sizeof t->peer);
	ttcp_model_socket(s, t);
	return 0;
}

int srv_udp_open_tx(struct ttcp_session *s, int fd)
{
	for (int i = 0; i < s->o->streams; i++) {
		int f = i == 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 0);
		struct ttcp_stream *t = f >= 0 ? ttcp_stream_new(s, f, s->cfg.buflen) : NULL;
		if (!t) {
			if (!s->error[0])
				snprintf(s->error, sizeof s->error, "UDP stream %d: %s", i,
					 strerror(errno));
			if (f >= 0)
				close(f);
			return -1;
		}
		bb_pattern_fill(t->x->buf, s->cfg.buflen);
		ttcp_model_socket(s, t);
	}
	return 0;
}

int srv_udp_go(struct ttcp_session *s)
{
	return ttcp_session_start(s, s->o->transmit ? ttcp_run_udp_send : ttcp_run_udp_recv);
}

/* A count of the model as a RESULT field (bounded as the field is). */
static void put_count(struct bb_ctl_msg *m, enum bb_ctl_field f, const struct bb_series *t,
		      const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&t->values, key);
	uint64_t big = (uint64_t)1 << 62;

	if (kv && kv->type == BB_KV_INT && kv->i >= 0)
		bb_ctl_set(m, f, (uint64_t)kv->i < big ? (uint64_t)kv->i : big);
}

void srv_udp_result(const struct ttcp_session *s, struct bb_ctl_msg *m)
{
	const struct bb_series *t = bb_result_find(s->r, "transfer", "total");
	uint64_t sent = 0;
	double j;

	if (!s->o->udp)
		return;
	if (s->o->transmit) {
		for (int i = 0; i < s->n; i++)
			sent += s->st[i]->x->n.calls;          /* one datagram per send */
		bb_ctl_set(m, BB_CF_DATAGRAMS, sent);
		return;
	}
	if (!t || !bb_kv_get(&t->values, "udp_datagrams"))
		return;
	put_count(m, BB_CF_DATAGRAMS, t, "udp_datagrams");
	put_count(m, BB_CF_LOST, t, "udp_lost");
	put_count(m, BB_CF_OUT_OF_ORDER, t, "udp_out_of_order");
	put_count(m, BB_CF_FOREIGN, t, "udp_foreign_datagrams");
	put_count(m, BB_CF_MALFORMED, t, "udp_malformed_datagrams");
	put_count(m, BB_CF_DUPLICATES, t, "udp_duplicates");
	j = bb_kv_getnum(&t->values, "udp_jitter_s", 0) * 1e9;
	bb_ctl_set(m, BB_CF_JITTER_NS, j < 0 ? 0 : j > 1e12 ? 1000000000000ull : (uint64_t)j);
}

static const struct bb_udp_rx *rx_of(const struct ttcp_session *s)
{
	return s->o->udp && !s->o->transmit && s->n ? s->st[0]->udp : NULL;
}

void srv_udp_doubt_local(const struct ttcp_session *s, char *why, size_t len)
{
	const struct bb_udp_rx *u = rx_of(s);
	int n = s->o->streams;

	why[0] = '\0';
	if (!u || !bb_end_complete(u->x.f.end))
		return;                              /* the loop's own end says why */
	for (int i = 0; i < n; i++)
		if (!(u->tallied & (1ull << i))) {
			snprintf(why, len, "stream %d's tally of datagrams sent never came (a lost "
				 "tail would go unseen)", i);
			return;
		}
	if (u->x.n.bytes != u->datagrams * s->cfg.buflen)
		snprintf(why, len, "%llu bytes in %llu datagrams: not all of the %zu bytes asked",
			 (unsigned long long)u->x.n.bytes, (unsigned long long)u->datagrams,
			 s->cfg.buflen);
}

void srv_udp_doubt_count(const struct ttcp_session *s, uint64_t sent, char *why, size_t len)
{
	const struct bb_udp_rx *u = rx_of(s);
	uint64_t got = 0, lost = 0;

	why[0] = '\0';
	if (!u)
		return;
	for (int i = 0; i < BB_MAX_STREAMS; i++) {
		got = bb_udp_sat_add(got, u->flows[i].received);
		lost = bb_udp_sat_add(lost, bb_udp_flow_lost(&u->flows[i]));
	}
	got = bb_udp_sat_add(got, u->plain);
	if (bb_udp_sat_add(got, lost) != sent)
		snprintf(why, len, "the sender sent %llu datagrams; %llu came and %llu were lost "
			 "here", (unsigned long long)sent, (unsigned long long)got,
			 (unsigned long long)lost);
}
