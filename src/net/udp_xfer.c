/* udp_xfer.c - the UDP transfer loops, classic ttcp's protocol with
 * boardbench's additions (udphdr.h):
 *   sender:   start sentinel, nbuf datagrams of buflen bytes (each with a
 *             sequence header in source mode; several per send with UDP
 *             GSO; paced with --rate), then end sentinels;
 *   receiver: one socket for every stream; the clock runs from the first
 *             datagram or start sentinel to the end sentinel of every
 *             announced stream (or a classic peer's second sentinel);
 *             loss, reordering and jitter per stream from the headers;
 *             UDP GRO batches split back into datagrams. */
#include "xfer.h"
#include "pace.h"
#include "udphdr.h"
#include "core/timer.h"

#include <errno.h>
#include <poll.h>
#include <netinet/in.h>
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

void bb_udp_send(struct bb_xfer *x)
{
	const struct bb_xfer_cfg *c = x->cfg;
	struct bb_pace pc;
	uint64_t seq = 0;
	struct timespec gap = { 0, 1000000 };

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
	for (int i = 0; i < BB_END_SENTINELS && x->f.end != BB_END_REFUSED; i++) {
		send_sentinel(x, BB_SENT_END);
		nanosleep(&gap, NULL);
	}
	for (int i = 0; i < BB_TALLIES && c->udp_header && x->f.end != BB_END_REFUSED; i++)
		send_tally(x, seq);
}

/* ---- receiver ---- */

static void start_clock(struct bb_udp_rx *u, double now)
{
	if (!u->going) {
		u->going = 1;
		u->x.n.t_start = now;
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

/* A sender's tally: its stream has ended, and sent this many. */
static int tally(struct bb_udp_rx *u, const struct bb_udp_tally *t)
{
	if (t->stream < BB_MAX_STREAMS) {
		u->flows[t->stream].sent = t->datagrams;
		u->ended |= 1ull << t->stream;
		u->tallied |= 1ull << t->stream;
	}
	return all_ended(u);
}

static void data_datagram(struct bb_udp_rx *u, const unsigned char *p, size_t n,
			  uint64_t now_ns)
{
	struct bb_udp_hdr h;

	u->datagrams++;
	u->x.n.bytes += n;
	if (bb_udp_hdr_get(p, n, &h) != 0 || h.stream >= BB_MAX_STREAMS) {
		u->plain++;
		return;
	}
	if (h.nstreams > u->nstreams)
		u->nstreams = h.nstreams < BB_MAX_STREAMS ? h.nstreams : BB_MAX_STREAMS;
	bb_udp_flow_add(&u->flows[h.stream], h.seq, h.send_ns, now_ns, n);
}

/* Handles one datagram; returns 1 when the transfer is over. */
static int datagram(struct bb_udp_rx *u, const unsigned char *p, size_t n, uint64_t now_ns)
{
	unsigned id = 0;
	double now = (double)now_ns * 1e-9;
	struct bb_udp_tally t;

	if (bb_udp_tally_get(p, n, &t) == 0)
		return tally(u, &t);
	u->x.n.t_end = now;                  /* the last sign of life so far */
	switch (bb_udp_sentinel_get(p, n, &id)) {
	case BB_SENT_NONE:
		start_clock(u, now);
		data_datagram(u, p, n, now_ns);
		if (u->x.cfg->touch)
			bb_xfer_touch(&u->x, p, n);
		if (u->x.cfg->dst_fd >= 0 && bb_xfer_write_out(&u->x, p, n) != 0)
			return 1;
		return 0;
	case BB_SENT_START:
		start_clock(u, now);
		return 0;
	case BB_SENT_END:
		if (id < BB_MAX_STREAMS)
			u->ended |= 1ull << id;
		return all_ended(u);
	case BB_SENT_CLASSIC:
		if (!u->going) {
			start_clock(u, now);
			return 0;
		}
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
static int batch(struct bb_udp_rx *u, size_t len, size_t seg)
{
	uint64_t now_ns = bb_now_ns();
	int over = 0;

	if (seg == 0 || seg > len)
		seg = len;
	for (size_t off = 0; off < len && !over; off += seg)
		over = datagram(u, u->x.buf + off, len - off < seg ? len - off : seg, now_ns);
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

/* After the end: the senders' tallies, for a bounded time. */
static void collect_tallies(struct bb_udp_rx *u)
{
	struct pollfd p = { .fd = u->x.fd, .events = POLLIN };
	double end = bb_now() + BB_TALLY_WAIT_MS * 1e-3;
	struct bb_udp_tally t;

	while (u->nstreams && (u->tallied & stream_mask(u)) != stream_mask(u)) {
		int left = (int)((end - bb_now()) * 1e3);
		ssize_t r;
		if (left <= 0 || poll(&p, 1, left) <= 0)
			return;
		r = recv(u->x.fd, u->x.buf, u->x.cfg->read_size, MSG_DONTWAIT);
		if (r > 0 && bb_udp_tally_get(u->x.buf, (size_t)r, &t) == 0)
			tally(u, &t);
	}
}

void bb_udp_recv(struct bb_udp_rx *u)
{
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
	struct iovec iov = { u->x.buf, u->x.cfg->read_size };
	double since = 0;

	for (;;) {
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = control.buf, .msg_controllen = sizeof control.buf };
		ssize_t r = recvmsg(u->x.fd, &m, 0);
		if (r >= 0) {
			since = 0;
			u->x.n.calls++;
			if (batch(u, (size_t)r, gro_size(&m)))
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
		collect_tallies(u);
	}
	if (!u->going)
		u->x.n.t_start = u->x.n.t_end = bb_now();   /* nothing came */
}
