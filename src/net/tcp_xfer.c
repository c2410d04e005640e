/* tcp_xfer.c - the TCP transfer loops: the sender writes buflen-byte
 * buffers (the pattern, stdin, sendfile or MSG_ZEROCOPY), paced if asked;
 * the receiver reads with a large buffer whatever the sender's write size,
 * looks at the first bytes for an iperf2 header, and counts everything.
 * The loops do one system call per buffer and nothing else that costs: no
 * poll(), no lock; the receiver reads the (vDSO) clock once per read so
 * that a stalled transfer ends at its last data. */
#include "xfer.h"
#include "pace.h"
#include "zcopy.h"
#include "core/timer.h"

#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A paced TCP sender sleeps only when it is this far ahead (iperf3's
 * --pacing-timer default), so that it wakes about once a millisecond,
 * not once a write: at 1 Gbit/s with 8 KiB writes that is 1000 wake-ups
 * a second instead of 15000, which the CPU cost at a fixed rate would
 * count.  TCP's own flow control evens out the bursts (at most a
 * millisecond's worth). */
#define BB_PACE_MIN_SLEEP_S 1e-3
#define BB_ZC_REAP_EVERY 32

static int stop_end(struct bb_xfer *x)
{
	int why = atomic_load(x->cfg->stop);
	return bb_xfer_fail(x, why ? (enum bb_end)why : BB_END_INTERRUPTED, 0, NULL);
}

/* A call timed out (socket tick) or was refused for a moment: stop, give
 * up after idle_s, or go on waiting. */
static int quiet(struct bb_xfer *x, double *since)
{
	if (bb_xfer_stopped(x))
		return stop_end(x);
	if (bb_xfer_idle(since, x->cfg->idle_s))
		return bb_xfer_fail(x, BB_END_IDLE, 0, NULL);
	return 0;
}

static int send_all(struct bb_xfer *x, const unsigned char *p, size_t n, int flags)
{
	double since = 0;

	while (n > 0) {
		ssize_t r = send(x->fd, p, n, flags | MSG_NOSIGNAL);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
			x->n.bytes += (uint64_t)r;
			x->n.calls++;
			since = 0;
			if (flags & MSG_ZEROCOPY)
				x->zc.sent++;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (quiet(x, &since))
				return -1;
		} else if (errno == ENOBUFS && (flags & MSG_ZEROCOPY)) {
			struct pollfd pe = { .fd = x->fd, .events = 0 };
			poll(&pe, 1, 1);             /* notices pending: reap them */
			bb_zc_reap(x->fd, &x->zc);
			if (quiet(x, &since))
				return -1;
		} else if (errno != EINTR) {
			return bb_xfer_errno(x, errno, "send");
		}
	}
	return 0;
}

/* sendfile() n bytes from the pattern file (from its start) or from stdin
 * (its current offset); *eof set when stdin has no more. */
static int sendfile_all(struct bb_xfer *x, size_t n, int *eof)
{
	int pattern = x->cfg->src_fd < 0;
	off_t off = 0;
	double since = 0;

	while (n > 0) {
		ssize_t r = sendfile(x->fd, x->cfg->file_fd, pattern ? &off : NULL, n);
		if (r > 0) {
			n -= (size_t)r;
			x->n.bytes += (uint64_t)r;
			x->n.calls++;
			since = 0;
		} else if (r == 0) {
			*eof = 1;
			return 0;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (quiet(x, &since))
				return -1;
		} else if (errno != EINTR) {
			return bb_xfer_errno(x, errno, "sendfile");
		}
	}
	return 0;
}

/* One buffer of the transfer; *eof set when the source is exhausted. */
static int send_buffer(struct bb_xfer *x, int *eof)
{
	const struct bb_xfer_cfg *c = x->cfg;
	size_t n = c->buflen;

	if (c->zerocopy == BB_ZC_SENDFILE)
		return sendfile_all(x, n, eof);
	if (c->src_fd >= 0) {
		ssize_t r = bb_xfer_read_source(x);
		if (r <= 0) {
			*eof = r == 0;
			return r < 0 ? -1 : 0;
		}
		n = (size_t)r;
	}
	if (c->zerocopy == BB_ZC_MSG) {
		if (x->zc.sent % BB_ZC_REAP_EVERY == 0)
			bb_zc_reap(x->fd, &x->zc);
		return send_all(x, x->buf, n, MSG_ZEROCOPY);
	}
	return send_all(x, x->buf, n, 0);
}

static void pace(struct bb_pace *p, size_t bytes)
{
	double now = bb_now();
	double wait = bb_pace_delay(p, now, bytes);

	if (wait >= BB_PACE_MIN_SLEEP_S)
		bb_pace_sleep_until(now + wait);
}

void bb_tcp_send(struct bb_xfer *x)
{
	const struct bb_xfer_cfg *c = x->cfg;
	struct bb_pace pc;
	int eof = 0;

	x->n.t_start = bb_now();
	if (c->rate_bps > 0) {
		bb_pace_init(&pc, c->rate_bps, x->n.t_start, BB_PACE_MAX_BURST_S);
		bb_pace_thread_setup();
	}
	for (uint64_t i = 0; !eof && (c->nbuf == 0 || i < c->nbuf); i++) {
		if (bb_xfer_stopped(x)) {
			stop_end(x);
			break;
		}
		if (c->rate_bps > 0)
			pace(&pc, c->buflen);
		if (send_buffer(x, &eof) != 0)
			break;
		if (c->publish)
			bb_live_publish(&x->live, x->n.bytes, x->n.calls);
	}
	x->n.t_end = bb_now();
	if (x->f.end == BB_END_RUNNING)
		x->f.end = BB_END_DONE;
}

/* A pending error on the socket (the peer reset it), as an errno or 0. */
static int socket_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof err;

	return getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 ? err : 0;
}

void bb_tcp_wait_acked(struct bb_xfer *x)
{
	double limit = bb_now() + x->cfg->idle_s;
	struct timespec ms = { 0, 1000000 };
	int queued = 0, err;

	if (x->cfg->zerocopy == BB_ZC_MSG)
		bb_zc_wait_all(x->fd, &x->zc, x->cfg->idle_s);
	/* A time limit has set the stop flag too: only SIGINT cuts this short. */
	while (atomic_load(x->cfg->stop) != BB_END_INTERRUPTED && bb_now() < limit) {
		if (ioctl(x->fd, TIOCOUTQ, &queued) != 0)
			return;                  /* cannot tell: classic end stands */
		if (queued == 0) {
			x->acked_at = bb_now();
			return;
		}
		if ((err = socket_error(x->fd)) != 0) {
			x->f.end = BB_END_RUNNING;
			bb_xfer_errno(x, err, "waiting for acknowledgements");
			return;
		}
		nanosleep(&ms, NULL);
	}
	if (queued > 0 && atomic_load(x->cfg->stop) != BB_END_INTERRUPTED) {
		x->f.end = BB_END_RUNNING;   /* the last bytes were never acknowledged */
		bb_xfer_fail(x, BB_END_IDLE, 0, NULL);
	}
}

/* Feeds the stream's first bytes to the iperf2 probe until it decides. */
static void probe(struct bb_xfer *x, const unsigned char *p, size_t n)
{
	struct bb_peer_probe *pp = &x->peer;

	if (bb_iperf2_probe_feed(&pp->iperf2, p, n) == BB_IPERF2_NEED_MORE)
		return;
	if (pp->iperf2.verdict == BB_IPERF2_FOUND)
		atomic_store(&pp->streams, pp->iperf2.hdr.threads);
	atomic_store(&pp->decided, 1);
}

static void probe_eof(struct bb_xfer *x)
{
	bb_iperf2_probe_eof(&x->peer.iperf2);
	atomic_store(&x->peer.decided, 1);
}

/* ---- the first byte's arrival ----
 * The receiver's clock runs from its first byte.  Its first read comes a
 * wake-up, an accept and a thread's start after the sender's first write,
 * with what arrived meanwhile; so the listening socket asks the kernel to
 * stamp what it receives (SO_TIMESTAMPING, software: when the stack took
 * the segment; an accepted socket inherits it), and the first byte is
 * read alone with the stamp of its segment, then the stamps go off.
 * Where the kernel gives none, the read's own time stands. */
#define BB_TS_RX_SOFTWARE (1u << 3)   /* SOF_TIMESTAMPING_RX_SOFTWARE */
#define BB_TS_SOFTWARE (1u << 4)      /* SOF_TIMESTAMPING_SOFTWARE */

static int stamps_on(int fd, unsigned flags)
{
#ifdef SO_TIMESTAMPING
	return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof flags);
#else
	(void)fd;
	(void)flags;
	return -1;
#endif
}

int bb_tcp_stamp_arrivals(int listen_fd)
{
	return stamps_on(listen_fd, BB_TS_RX_SOFTWARE | BB_TS_SOFTWARE);
}

/* The segment's arrival in bb_now()'s clock, or now when none came. */
static double arrival(struct msghdr *m, double now)
{
#ifdef SO_TIMESTAMPING
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		struct timespec ts, real;
		double at;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_TIMESTAMPING ||
		    c->cmsg_len < CMSG_LEN(sizeof ts))
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof ts);
		clock_gettime(CLOCK_REALTIME, &real);
		at = now - ((double)(real.tv_sec - ts.tv_sec) + (double)(real.tv_nsec - ts.tv_nsec) * 1e-9);
		if (ts.tv_sec > 0 && at <= now && at > now - 60)
			return at;
	}
#else
	(void)m;
#endif
	return now;
}

/* The first byte, alone; *at its arrival. */
static ssize_t first_byte(struct bb_xfer *x, double *at)
{
	union { char b[CMSG_SPACE(3 * sizeof(struct timespec))]; struct cmsghdr align; } ctl;
	struct iovec iov = { x->buf, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
			    .msg_controllen = sizeof ctl.b };
	ssize_t r = recvmsg(x->fd, &m, 0);

	if (r > 0) {
		*at = arrival(&m, bb_now());
		stamps_on(x->fd, 0);
	}
	return r;
}

/* Handles one successful read; -1 if writing it out failed. */
static int received(struct bb_xfer *x, size_t n)
{
	const struct bb_xfer_cfg *c = x->cfg;

	x->n.bytes += n;
	x->n.calls++;
	if (!atomic_load_explicit(&x->peer.decided, memory_order_relaxed))
		probe(x, x->buf, n);
	if (c->touch)
		bb_xfer_touch(x, x->buf, n);
	if (c->dst_fd >= 0 && bb_xfer_write_out(x, x->buf, n) != 0)
		return -1;
	if (c->publish)
		bb_live_publish(&x->live, x->n.bytes, x->n.calls);
	return 0;
}

void bb_tcp_recv(struct bb_xfer *x)
{
	double since = 0, at = 0;
	int first = x->n.t_first == 0 && x->cfg->stamp_first;

	for (;;) {
		ssize_t r;
		if (bb_xfer_stopped(x)) {
			stop_end(x);
			break;
		}
		r = first ? first_byte(x, &at) : recv(x->fd, x->buf, x->cfg->read_size, 0);
		if (r > 0) {
			since = 0;
			x->n.t_last = bb_now();
			if (x->n.t_first == 0)
				x->n.t_first = first ? at : x->n.t_last;
			first = 0;
			x->n.t_end = x->n.t_last;   /* a stall ends the transfer at the last data */
			if (received(x, (size_t)r) != 0)
				break;
		} else if (r == 0) {
			x->f.end = BB_END_DONE;
			break;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (quiet(x, &since))
				break;
		} else if (errno != EINTR) {
			bb_xfer_errno(x, errno, "recv");
			break;
		}
	}
	if (x->f.end != BB_END_IDLE || x->n.t_end == 0)
		x->n.t_end = bb_now();
	probe_eof(x);
}
