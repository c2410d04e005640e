/* udp_xfer.c - the UDP transfer loops, classic ttcp's protocol with
 * boardbench's additions (udphdr.h) and iperf2's (iperf2.h):
 *   sender:   start sentinel, nbuf datagrams of buflen bytes (each with a
 *             sequence header in source mode; several per send with UDP
 *             GSO; paced with --rate), then end sentinels and tallies;
 *             with --iperf2 no sentinels: iperf2's header in every
 *             datagram, then its final datagram until the server reports;
 *   receiver: one socket for every stream; the clock runs from the first
 *             datagram or start sentinel to the end sentinel of every
 *             announced stream (or a classic peer's second sentinel, or
 *             an iperf2 client's final datagram, answered with a report);
 *             loss, reordering and jitter per stream from the headers;
 *             UDP GRO batches split back into datagrams.
 * Every datagram is a peer's word: the receiver takes the test's peer from
 * the first one it accepts, each stream's source from its first datagram,
 * and counts what comes from elsewhere, with an implausible sequence
 * number (udpstat.h), empty or over-length as refused, never as data. */
#include "xfer.h"
#include "pace.h"
#include "udphdr.h"
#include "iperf2.h"
#include "core/timer.h"

#include <errno.h>
#include <poll.h>
#include <netinet/in.h>
#include <stdio.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_UDP
#define SOL_UDP 17
#endif

#define BB_PACE_MIN_SLEEP_S 20e-6
#define BB_END_SENTINELS 4          /* the end sentinel is sent this many times */
#define BB_ENOBUFS_PAUSE_NS 1000000L
#define BB_TALLIES 2                /* the tally is sent this many times */
#define BB_TALLY_WAIT_MS 100        /* the receiver waits this long for tallies */
#define BB_TALLY_WAIT_FIXED_MS 1000 /* ... from a peer agreed beforehand, whose count matters */
#define BB_IPERF2_FIN_WAIT_S 2.0    /* an iperf2 client waits this long for the report */
#define BB_IPERF2_FIN_GAP_MS 10     /* ... sending its final datagram again this often */
#define BB_IPERF2_LINGER_MS 300     /* the receiver answers repeated final datagrams */
#define BB_IPERF2_QUIET_MS 50       /* ... until they stop this long */

int bb_udp_set_gso(int fd, size_t seg)
{
#ifdef UDP_SEGMENT
	int v = (int)seg;
	return setsockopt(fd, SOL_UDP, UDP_SEGMENT, &v, sizeof v);
#else
	(void)fd;
	(void)seg;
	errno = ENOPROTOOPT;
	return -1;
#endif
}

int bb_udp_set_gro(int fd)
{
#ifdef UDP_GRO
	int one = 1;
	return setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof one);
#else
	(void)fd;
	errno = ENOPROTOOPT;
	return -1;
#endif
}

static int stop_end(struct bb_xfer *x)
{
	int why = atomic_load(x->cfg->stop);
	return bb_xfer_fail(x, why ? (enum bb_end)why : BB_END_INTERRUPTED, 0, NULL);
}

static void send_sentinel(struct bb_xfer *x, enum bb_sentinel kind)
{
	unsigned char s[BB_UDP_SENTINEL_LEN];

	bb_udp_sentinel_put(s, kind, x->id);
	(void)send(x->fd, s, sizeof s, MSG_NOSIGNAL);
}

static void send_tally(struct bb_xfer *x, uint64_t datagrams)
{
	unsigned char p[BB_UDP_HDR_LEN];
	struct bb_udp_tally t = { x->id, x->cfg->nstreams, datagrams, x->n.bytes };

	bb_udp_tally_put(p, &t);
	(void)send(x->fd, p, sizeof p, MSG_NOSIGNAL);
}

/* Sequence headers for the segs datagrams of the next send. */
static void stamp(struct bb_xfer *x, unsigned segs, uint64_t seq)
{
	struct bb_udp_hdr h = { x->id, x->cfg->nstreams, seq, bb_now_ns() };

	for (unsigned k = 0; k < segs; k++, h.seq++)
		bb_udp_hdr_put(x->buf + (size_t)k * x->cfg->buflen, &h);
}

static uint64_t realtime_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

/* iperf2's amount word: bytes, or the duration in 10 ms units (negative). */
static int32_t iperf2_amount(const struct bb_xfer_cfg *c)
{
	uint64_t bytes = c->nbuf * (uint64_t)c->buflen;

	if (c->time_s > 0)
		return -(int32_t)(c->time_s * 100.0 + 0.5);   /* at most 86400 s: fits */
	return bytes > INT32_MAX ? INT32_MAX : (int32_t)bytes;
}

/* iperf2's headers for the segs datagrams of the next send (ids from 1). */
static void stamp_iperf2(struct bb_xfer *x, unsigned segs, uint64_t seq)
{
	const struct bb_xfer_cfg *c = x->cfg;
	uint64_t now = realtime_us();

	for (unsigned k = 0; k < segs; k++)
		bb_iperf2_dgram_put(x->buf + (size_t)k * c->buflen, c->buflen, (int64_t)(seq + k + 1),
				    now, (int)c->nstreams, c->port, iperf2_amount(c));
}

/* Sends len bytes as one call, retrying while the kernel is short of
 * buffers (as classic ttcp does) or the socket tick expires. */
static int send_datagrams(struct bb_xfer *x, size_t len)
{
	struct timespec pause = { 0, BB_ENOBUFS_PAUSE_NS };
	double since = 0;

	for (;;) {
		ssize_t r = send(x->fd, x->buf, len, MSG_NOSIGNAL);
		if (r >= 0) {
			x->n.bytes += (uint64_t)r;
			x->n.calls++;
			return 0;
		}
		if (errno == ECONNREFUSED)
			return bb_xfer_fail(x, BB_END_REFUSED, errno, "send");
		if (errno == ENOBUFS) {
			x->enobufs++;
			nanosleep(&pause, NULL);
		} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return bb_xfer_errno(x, errno, "send");
		}
		if (bb_xfer_stopped(x))
			return stop_end(x);
		if (bb_xfer_idle(&since, x->cfg->idle_s))
			return bb_xfer_fail(x, BB_END_IDLE, 0, NULL);
	}
}

/* One send of up to gso_segs datagrams; returns datagrams sent, 0 at the
 * end of stdin, -1 on failure. */
static long send_round(struct bb_xfer *x, uint64_t seq, uint64_t left, struct bb_pace *pc)
{
	const struct bb_xfer_cfg *c = x->cfg;
	unsigned segs = c->gso_segs > 1 ? c->gso_segs : 1;
	size_t len;

	if (left && left < segs)
		segs = (unsigned)left;
	len = (size_t)segs * c->buflen;
	if (c->src_fd >= 0) {
		ssize_t r = bb_xfer_read_source(x);
		if (r <= 0)
			return r;
		len = (size_t)r;
		segs = 1;
	} else if (c->iperf2) {
		stamp_iperf2(x, segs, seq);
	} else if (c->udp_header) {
		stamp(x, segs, seq);
	}
	if (pc) {
		double now = bb_now(), wait = bb_pace_delay(pc, now, len);
		if (wait >= BB_PACE_MIN_SLEEP_S)
			bb_pace_sleep_until(now + wait);
	}
	return send_datagrams(x, len) == 0 ? (long)segs : -1;
}

/* iperf2's end: the final datagram (data too, counted, as iperf counts
 * it) with the negated next sequence number, again every 10 ms, one lower
 * each time, until the server's report comes (or 2 s, or --idle-timeout). */
static void iperf2_finish(struct bb_xfer *x, uint64_t sent)
{
	const struct bb_xfer_cfg *c = x->cfg;
	struct pollfd p = { .fd = x->fd, .events = POLLIN };
	double wait = c->idle_s < BB_IPERF2_FIN_WAIT_S ? c->idle_s : BB_IPERF2_FIN_WAIT_S;
	double end = bb_now() + wait;
	unsigned char rep[2048];
	int64_t id = (int64_t)sent + 1;

	do {
		ssize_t r;
		bb_iperf2_dgram_put(x->buf, c->buflen, -id, realtime_us(), (int)c->nstreams,
				    c->port, iperf2_amount(c));
		r = send(x->fd, x->buf, c->buflen, MSG_NOSIGNAL);
		if (r > 0 && x->fin_tries == 0) {
			x->n.bytes += (uint64_t)r;
			x->n.calls++;
			x->n.t_end = bb_now();
		}
		x->fin_tries++;
		id++;
		while (poll(&p, 1, BB_IPERF2_FIN_GAP_MS) > 0) {
			r = recv(x->fd, rep, sizeof rep, MSG_DONTWAIT);
			if (r > 0 && bb_iperf2_report_get(rep, (size_t)r, &x->srv) == 0) {
				x->srv_ok = 1;
				return;
			}
			if (r < 0 && errno == ECONNREFUSED)
				return;              /* nobody listens: no report will come */
			if (r < 0)
				break;
		}
	} while (bb_now() < end && atomic_load(c->stop) != BB_END_INTERRUPTED);
}

void bb_udp_send(struct bb_xfer *x)
{
	const struct bb_xfer_cfg *c = x->cfg;
	struct bb_pace pc;
	uint64_t seq = 0;
	struct timespec gap = { 0, 1000000 };

	if (!c->iperf2)
		send_sentinel(x, BB_SENT_START);
	x->n.t_start = bb_now();
	if (c->rate_bps > 0) {
		bb_pace_init(&pc, c->rate_bps, x->n.t_start, BB_PACE_MAX_BURST_S);
		bb_pace_thread_setup();
	}
	while (c->nbuf == 0 || seq < c->nbuf) {
		long sent;
		if (bb_xfer_stopped(x)) {
			stop_end(x);
			break;
		}
		sent = send_round(x, seq, c->nbuf ? c->nbuf - seq : 0, c->rate_bps > 0 ? &pc : NULL);
		if (sent <= 0)
			break;
		seq += (uint64_t)sent;
		if (c->publish)
			bb_live_publish(&x->live, x->n.bytes, x->n.calls);
	}
	x->n.t_end = bb_now();
	if (x->f.end == BB_END_RUNNING)
		x->f.end = BB_END_DONE;
	if (c->iperf2) {
		if (x->f.end != BB_END_REFUSED)
			iperf2_finish(x, seq);
		return;
	}
	for (int i = 0; i < BB_END_SENTINELS && x->f.end != BB_END_REFUSED; i++) {
		send_sentinel(x, BB_SENT_END);
		nanosleep(&gap, NULL);
	}
	for (int i = 0; i < BB_TALLIES && c->udp_header && x->f.end != BB_END_REFUSED; i++)
		send_tally(x, seq);
}

/* ---- receiver ---- */

struct source {
	const struct sockaddr_storage *addr;
	socklen_t len;
};

static int same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr));
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return 0;
}

static unsigned port_of(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)a)->sin_port);
	if (a->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
	return 0;
}

static int same_endpoint(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	return same_host(a, b) && port_of(a) == port_of(b);
}

static void start_clock(struct bb_udp_rx *u, double now)
{
	if (!u->going) {
		u->going = 1;
		u->x.n.t_start = now;
	}
}

/* The first accepted datagram names the test's peer. */
static void take_peer(struct bb_udp_rx *u, const struct source *s)
{
	if (!u->peer_len && s->len) {
		u->peer = *s->addr;
		u->peer_len = s->len;
	}
}

/* Whether stream i may take datagrams of this kind from s: it has none
 * yet, or they came from s. */
static int slot_ok(const struct bb_udp_rx *u, unsigned i, int kind, const struct source *s)
{
	if (i >= BB_MAX_STREAMS)
		return 0;
	if (!u->src_len[i])
		return !u->fixed;
	return u->kind[i] == kind && same_endpoint(&u->src[i], s->addr);
}

static void slot_claim(struct bb_udp_rx *u, unsigned i, int kind, const struct source *s)
{
	if (!u->src_len[i] && s->len) {
		u->src[i] = *s->addr;
		u->src_len[i] = s->len;
		u->kind[i] = (unsigned char)kind;
	}
}

/* Bit i set for each stream i the sender announced (one if none). */
static uint64_t stream_mask(const struct bb_udp_rx *u)
{
	unsigned want = u->nstreams ? u->nstreams : 1;
	return want >= 64 ? ~0ull : (1ull << want) - 1;
}

/* 1 once every announced stream (or the one classic stream) has ended. */
static int all_ended(const struct bb_udp_rx *u)
{
	return (u->ended & stream_mask(u)) == stream_mask(u);
}

/* A sender's tally: its stream has ended, and sent this many.  From the
 * stream's own source only, and no more than it could have sent. */
static int tally(struct bb_udp_rx *u, const struct bb_udp_tally *t, uint64_t now_ns,
		 const struct source *s)
{
	const struct bb_udp_flow *f;

	if (!slot_ok(u, t->stream, BB_UDP_KIND_BB, s)) {
		u->refused.foreign_peer++;
		return 0;
	}
	f = &u->flows[t->stream];
	if (t->datagrams > bb_udp_seq_bound(f, now_ns, u->since_ns,
					    f->datagram_len ? f->datagram_len : BB_UDP_HDR_LEN)) {
		u->refused.foreign_seq++;
		return 0;
	}
	bb_udp_flow_tally(&u->flows[t->stream], t->datagrams);
	u->ended |= 1ull << t->stream;
	u->tallied |= 1ull << t->stream;
	return all_ended(u);
}

/* A datagram of stream i with sequence number seq (from 0): counted (a
 * duplicate too, apart), or refused.  1 if it was counted. */
static int sequenced(struct bb_udp_rx *u, unsigned i, int kind, uint64_t seq, uint64_t send_ns,
		     size_t n, uint64_t now_ns, const struct source *s)
{
	struct bb_udp_flow *f = &u->flows[i];

	if (!slot_ok(u, i, kind, s)) {
		u->refused.foreign_peer++;
		return 0;
	}
	if (seq > bb_udp_seq_bound(f, now_ns, u->since_ns, n)) {
		u->refused.foreign_seq++;
		return 0;
	}
	if (f->datagram_len && n > f->datagram_len) {
		u->refused.over_length++;
		return 0;
	}
	slot_claim(u, i, kind, s);
	bb_udp_flow_add(f, seq, send_ns, now_ns, n);
	return 1;
}

/* The stream of an iperf2 client at s: the one it has, or a new one for a
 * datagram that starts a stream plausibly; -1 if none. */
static int iperf2_slot(struct bb_udp_rx *u, const struct bb_iperf2_dgram *d,
		       const struct source *s)
{
	for (unsigned i = 0; i < BB_MAX_STREAMS; i++)
		if (u->src_len[i] && u->kind[i] == BB_UDP_KIND_IPERF2 &&
		    same_endpoint(&u->src[i], s->addr))
			return (int)i;
	/* A new stream starts with data, not with its final datagram, and an
	 * iperf2 client opens no more streams than it announced. */
	if (d->seq <= 0 || (!d->has_hdr && d->seq > BB_UDP_SEQ_SLACK) ||
	    (u->nstreams && u->iperf2_flows >= u->nstreams))
		return -1;
	for (unsigned i = 0; i < BB_MAX_STREAMS; i++)
		if (!u->src_len[i] && !u->flows[i].datagram_len)
			return (int)i;
	return -1;
}

/* The report iperf2's client waits for, about stream i. */
static void iperf2_report(struct bb_udp_rx *u, unsigned i, const struct source *s)
{
	const struct bb_udp_flow *f = &u->flows[i];
	struct bb_iperf2_report r;
	unsigned char p[BB_IPERF2_REPORT_LEN];
	double secs = u->x.n.t_end - u->x.n.t_start, j = f->jitter_ns * 1e-9;

	memset(&r, 0, sizeof r);
	r.bytes = f->bytes;
	if (secs < 0)
		secs = 0;
	r.sec = (uint32_t)secs;
	r.usec = (uint32_t)((secs - (double)r.sec) * 1e6);
	r.lost = (int64_t)bb_udp_flow_lost(f);
	r.out_of_order = (int64_t)f->out_of_order;
	r.datagrams = (int64_t)bb_udp_flow_expected(f);
	r.jitter_sec = (uint32_t)j;
	r.jitter_usec = (uint32_t)((j - (double)r.jitter_sec) * 1e6);
	bb_iperf2_report_put(p, &r);
	if (sendto(u->x.fd, p, sizeof p, MSG_NOSIGNAL, (const struct sockaddr *)s->addr, s->len) > 0)
		u->reports_sent++;
}

/* An iperf2 client's datagram; 1 when the test is over, -1 when it was
 * not counted (refused, or a final datagram repeated). */
static int iperf2_datagram(struct bb_udp_rx *u, unsigned i, const struct bb_iperf2_dgram *d,
			   size_t n, uint64_t now_ns, const struct source *s)
{
	uint64_t id = d->seq < 0 ? 0 - (uint64_t)d->seq : (uint64_t)d->seq;
	uint64_t send_ns = (uint64_t)d->tv_sec * 1000000000u + (uint64_t)d->tv_usec * 1000u;
	int first = !u->flows[i].datagram_len;

	if (u->ended & (1ull << i)) {
		if (d->seq < 0 && slot_ok(u, i, BB_UDP_KIND_IPERF2, s))
			iperf2_report(u, i, s);       /* our report was lost: again */
		else
			u->refused.foreign_peer++;
		return -1;
	}
	if (!sequenced(u, i, BB_UDP_KIND_IPERF2, id - 1, send_ns, n, now_ns, s))
		return -1;
	if (d->has_hdr && (unsigned)d->threads > u->nstreams)
		u->nstreams = d->threads < BB_MAX_STREAMS ? (unsigned)d->threads : BB_MAX_STREAMS;
	u->iperf2_flows += first;
	if (d->seq > 0)
		return 0;
	u->ended |= 1ull << i;                /* its final datagram: data too, as iperf counts it */
	u->x.n.t_end = (double)now_ns * 1e-9;
	iperf2_report(u, i, s);
	return all_ended(u);
}

/* A datagram that is not a sentinel or tally: 1 when the test is over,
 * -1 if it was refused (or was a repeated final datagram). */
static int data_datagram(struct bb_udp_rx *u, const unsigned char *p, size_t n,
			 uint64_t now_ns, const struct source *s)
{
	struct bb_udp_hdr h;
	struct bb_iperf2_dgram d;
	int over = 0, slot;

	if (bb_udp_hdr_get(p, n, &h) == 0) {
		if (h.stream >= BB_MAX_STREAMS) {
			u->refused.foreign_seq++;
			return -1;
		}
		if (!sequenced(u, h.stream, BB_UDP_KIND_BB, h.seq, h.send_ns, n, now_ns, s))
			return -1;
		if (h.nstreams > u->nstreams)
			u->nstreams = h.nstreams < BB_MAX_STREAMS ? h.nstreams : BB_MAX_STREAMS;
	} else if (bb_iperf2_dgram_get(p, n, &d) == 0 && (slot = iperf2_slot(u, &d, s)) >= 0) {
		over = iperf2_datagram(u, (unsigned)slot, &d, n, now_ns, s);
		if (over < 0)
			return -1;
	} else if (bb_iperf2_dgram_get(p, n, &d) == 0 && (u->iperf2_flows || d.has_hdr)) {
		/* iperf2's form from none of its streams, or one that starts
		 * none (a final or wild number first) */
		if (u->iperf2_flows)
			u->refused.foreign_peer++;
		else
			u->refused.foreign_seq++;
		return -1;
	} else {
		u->plain++;
		u->plain_bytes += n;
	}
	u->datagrams++;
	u->x.n.bytes += n;
	return over;
}

/* Handles one datagram from s; returns 1 when the transfer is over. */
static int datagram(struct bb_udp_rx *u, const unsigned char *p, size_t n, uint64_t now_ns,
		    const struct source *s)
{
	unsigned id = 0;
	double now = (double)now_ns * 1e-9;
	struct bb_udp_tally t;
	int r;

	if (n == 0) {
		u->refused.zero_length++;
		return 0;
	}
	if (u->peer_len && s->len && (u->fixed ? !same_endpoint(&u->peer, s->addr)
					       : !same_host(&u->peer, s->addr))) {
		u->refused.foreign_peer++;
		return 0;
	}
	if (bb_udp_tally_get(p, n, &t) == 0)
		return tally(u, &t, now_ns, s);
	switch (bb_udp_sentinel_get(p, n, &id)) {
	case BB_SENT_NONE:
		r = data_datagram(u, p, n, now_ns, s);
		if (r < 0)
			return 0;
		take_peer(u, s);
		start_clock(u, now);
		u->x.n.t_end = now;          /* the last sign of life so far */
		if (u->x.cfg->touch)
			bb_xfer_touch(&u->x, p, n);
		if (u->x.cfg->dst_fd >= 0 && bb_xfer_write_out(&u->x, p, n) != 0)
			return 1;
		return r;
	case BB_SENT_START:
		if (!slot_ok(u, id, BB_UDP_KIND_BB, s)) {
			u->refused.foreign_peer++;
			return 0;
		}
		slot_claim(u, id, BB_UDP_KIND_BB, s);
		take_peer(u, s);
		start_clock(u, now);
		u->x.n.t_end = now;
		return 0;
	case BB_SENT_END:
		if (!slot_ok(u, id, BB_UDP_KIND_BB, s)) {
			u->refused.foreign_peer++;
			return 0;
		}
		u->x.n.t_end = now;
		u->ended |= 1ull << id;
		return all_ended(u);
	case BB_SENT_CLASSIC:
		if (!u->going) {
			take_peer(u, s);
			start_clock(u, now);
			u->x.n.t_end = now;
			return 0;
		}
		if (s->len && !same_endpoint(&u->peer, s->addr)) {
			u->refused.foreign_peer++;      /* only the test's own peer ends it */
			return 0;
		}
		u->x.n.t_end = now;
		return 1;
	}
	return 0;
}

/* The segment size of a GRO batch, or 0 when the datagram came alone. */
static size_t gro_size(struct msghdr *m)
{
#ifdef UDP_GRO
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(m); cm; cm = CMSG_NXTHDR(m, cm))
		if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int v;
			memcpy(&v, CMSG_DATA(cm), sizeof v);
			return v > 0 ? (size_t)v : 0;
		}
#else
	(void)m;
#endif
	return 0;
}

/* Splits what one recvmsg() returned; 1 when the transfer is over. */
static int batch(struct bb_udp_rx *u, size_t len, size_t seg, const struct source *s)
{
	uint64_t now_ns = bb_now_ns();
	int over = 0;

	if (len == 0)
		return datagram(u, u->x.buf, 0, now_ns, s);
	if (seg == 0 || seg > len)
		seg = len;
	for (size_t off = 0; off < len && !over; off += seg)
		over = datagram(u, u->x.buf + off, len - off < seg ? len - off : seg, now_ns, s);
	if (u->x.cfg->publish)
		bb_live_publish(&u->x.live, u->x.n.bytes, u->x.n.calls);
	return over;
}

/* A quiet socket tick: 1 when the receiver should give up. */
static int udp_quiet(struct bb_udp_rx *u, double *since)
{
	const struct bb_xfer_cfg *c = u->x.cfg;

	if (bb_xfer_stopped(&u->x)) {
		stop_end(&u->x);
		return 1;
	}
	if (!u->going && c->first_s <= 0)
		return 0;                    /* wait for a sender as long as it takes */
	if (bb_xfer_idle(since, u->going ? c->idle_s : c->first_s)) {
		bb_xfer_fail(&u->x, BB_END_IDLE, 0, NULL);
		return 1;
	}
	return 0;
}

/* After the end: the senders' tallies, for a bounded time, and the
 * reports again for iperf2 clients that repeat their final datagram (our
 * report was lost) until they fall quiet. */
static void after_end(struct bb_udp_rx *u)
{
	struct pollfd p = { .fd = u->x.fd, .events = POLLIN };
	int iperf2 = u->iperf2_flows > 0;
	double end = bb_now() + (iperf2 ? BB_IPERF2_LINGER_MS : u->fixed ? BB_TALLY_WAIT_FIXED_MS
								    : BB_TALLY_WAIT_MS) * 1e-3;

	for (;;) {
		int tallies = u->nstreams && !iperf2 &&
			      (u->tallied & stream_mask(u)) != stream_mask(u);
		int left = (int)((end - bb_now()) * 1e3);
		struct sockaddr_storage from;
		struct source s = { &from, sizeof from };
		struct bb_udp_tally t;
		struct bb_iperf2_dgram d;
		int slot;
		ssize_t r;

		if ((!tallies && !iperf2) || left <= 0)
			return;
		if (iperf2 && left > BB_IPERF2_QUIET_MS)
			left = BB_IPERF2_QUIET_MS;
		if (poll(&p, 1, left) <= 0)
			return;
		r = recvfrom(u->x.fd, u->x.buf, u->x.cfg->read_size, MSG_DONTWAIT,
			     (struct sockaddr *)&from, &s.len);
		if (r <= 0)
			continue;
		if (bb_udp_tally_get(u->x.buf, (size_t)r, &t) == 0)
			tally(u, &t, bb_now_ns(), &s);
		else if (iperf2 && bb_iperf2_dgram_get(u->x.buf, (size_t)r, &d) == 0 && d.seq < 0 &&
			 (slot = iperf2_slot(u, &d, &s)) >= 0 && (u->ended & (1ull << slot)))
			iperf2_report(u, (unsigned)slot, &s);
	}
}

/* A sender numbers every datagram of a stream or none: datagrams without
 * a sequence number beside sequenced streams are nobody's data (a stray
 * or forged one, an iperf2 final number before its stream): refused, their
 * bytes taken out again. */
static void refuse_plain(struct bb_udp_rx *u)
{
	int sequenced = 0;

	for (unsigned i = 0; i < BB_MAX_STREAMS && !sequenced; i++)
		sequenced = u->flows[i].datagram_len != 0;
	if (!sequenced || !u->plain)
		return;
	u->refused.foreign_seq = bb_udp_sat_add(u->refused.foreign_seq, u->plain);
	u->datagrams -= u->plain;
	u->x.n.bytes -= u->plain_bytes;
	u->plain = u->plain_bytes = 0;
}

void bb_udp_rx_fix(struct bb_udp_rx *u, const struct sockaddr_storage *peer, socklen_t len,
		   unsigned nstreams)
{
	u->peer = *peer;
	u->peer_len = len;
	u->nstreams = nstreams < BB_MAX_STREAMS ? nstreams : BB_MAX_STREAMS;
	for (unsigned i = 0; i < u->nstreams; i++) {
		u->src[i] = *peer;
		u->src_len[i] = len;
		u->kind[i] = BB_UDP_KIND_BB;
	}
	u->fixed = 1;
}

void bb_udp_recv(struct bb_udp_rx *u)
{
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
	struct iovec iov = { u->x.buf, u->x.cfg->read_size };
	double since = 0;

	u->since_ns = bb_now_ns();
	for (;;) {
		struct sockaddr_storage from;
		struct msghdr m = { .msg_name = &from, .msg_namelen = sizeof from,
				    .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = control.buf, .msg_controllen = sizeof control.buf };
		ssize_t r = recvmsg(u->x.fd, &m, 0);
		if (r >= 0) {
			struct source s = { &from, m.msg_namelen <= sizeof from ? m.msg_namelen : 0 };
			since = 0;
			u->x.n.calls++;
			if (m.msg_flags & MSG_TRUNC) {
				u->refused.over_length++;   /* longer than the read buffer */
				continue;
			}
			if (batch(u, (size_t)r, gro_size(&m), &s))
				break;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (udp_quiet(u, &since))
				break;
		} else if (errno != EINTR && errno != ECONNREFUSED) {
			bb_xfer_errno(&u->x, errno, "recv");
			break;
		}
	}
	if (u->x.f.end == BB_END_RUNNING) {
		u->x.f.end = BB_END_DONE;
		after_end(u);
	}
	refuse_plain(u);
	if (!u->going)
		u->x.n.t_start = u->x.n.t_end = bb_now();   /* nothing came */
}

int bb_udp_rx_doubt(const struct bb_udp_rx *u, char *why, size_t len)
{
	char what[160];

	for (unsigned i = 0; i < BB_MAX_STREAMS; i++)
		if (bb_udp_flow_doubt(&u->flows[i], what, sizeof what)) {
			snprintf(why, len, "stream %u: %s", i, what);
			return 1;
		}
	return 0;
}
