/* xfer.c - what the transfer loops share: end reasons, stop and idle
 * checks, fault recording, writing received data out, touching bytes. */
#include "xfer.h"
#include "core/timer.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#define BB_SOURCE_TICK_MS 250

const char *bb_end_text(enum bb_end e)
{
	switch (e) {
	case BB_END_RUNNING: return "running";
	case BB_END_DONE: return "done";
	case BB_END_TIME: return "time limit reached";
	case BB_END_INTERRUPTED: return "interrupted";
	case BB_END_IDLE: return "stalled (idle timeout)";
	case BB_END_RESET: return "connection lost (peer reset or closed)";
	case BB_END_REFUSED: return "peer port unreachable (refused)";
	case BB_END_ERROR: return "error";
	}
	return "?";
}

int bb_end_complete(enum bb_end e)
{
	return e == BB_END_DONE || e == BB_END_TIME;
}

void bb_xfer_init(struct bb_xfer *x, const struct bb_xfer_cfg *cfg, int fd, unsigned id,
		  unsigned char *buf)
{
	memset(x, 0, sizeof *x);
	x->cfg = cfg;
	x->fd = fd;
	x->id = id;
	x->buf = buf;
	bb_live_init(&x->live);
	bb_iperf2_probe_init(&x->peer.iperf2);
	atomic_init(&x->peer.decided, 0);
	atomic_init(&x->peer.streams, 0);
}

void bb_xfer_span(const struct bb_xfer *x, double *from, double *to)
{
	int bytes = x->n.t_first > 0;

	*from = bytes ? x->n.t_first : x->n.t_start;
	*to = bytes ? x->n.t_last : x->n.t_end;
	if (*to < *from)
		*to = *from;
}

int bb_xfer_stopped(const struct bb_xfer *x)
{
	return atomic_load_explicit(x->cfg->stop, memory_order_relaxed) != 0;
}

int bb_xfer_fail(struct bb_xfer *x, enum bb_end end, int err, const char *what)
{
	if (x->f.end == BB_END_RUNNING) {
		x->f.end = end;
		x->f.err = err;
		x->f.what = what;
	}
	return -1;
}

int bb_xfer_errno(struct bb_xfer *x, int err, const char *what)
{
	if (err == EPIPE || err == ECONNRESET || err == ENOTCONN || err == ETIMEDOUT ||
	    err == EHOSTUNREACH || err == ENETUNREACH)
		return bb_xfer_fail(x, BB_END_RESET, err, what);
	return bb_xfer_fail(x, BB_END_ERROR, err, what);
}

int bb_xfer_idle(double *since, double limit_s)
{
	double now = bb_now();

	if (*since == 0) {
		*since = now;
		return 0;
	}
	return now - *since >= limit_s;
}

int bb_xfer_write_out(struct bb_xfer *x, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(x->cfg->dst_fd, p, n);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		} else if (w < 0 && errno != EINTR) {
			return bb_xfer_fail(x, BB_END_ERROR, errno, "write to stdout");
		}
	}
	return 0;
}

void bb_xfer_touch(struct bb_xfer *x, const unsigned char *p, size_t n)
{
	uint32_t sum = x->touch_sum;

	for (size_t i = 0; i < n; i++)
		sum += p[i];
	x->touch_sum = sum;
}

ssize_t bb_xfer_read_source(struct bb_xfer *x)
{
	struct pollfd p = { .fd = x->cfg->src_fd, .events = POLLIN };

	for (;;) {
		ssize_t r;
		if (bb_xfer_stopped(x)) {
			int why = atomic_load(x->cfg->stop);
			return bb_xfer_fail(x, why ? (enum bb_end)why : BB_END_INTERRUPTED, 0, NULL);
		}
		if (poll(&p, 1, BB_SOURCE_TICK_MS) == 0)
			continue;
		r = read(x->cfg->src_fd, x->buf, x->cfg->buflen);
		if (r >= 0)
			return r;
		if (errno != EINTR && errno != EAGAIN)
			return bb_xfer_fail(x, BB_END_ERROR, errno, "read stdin");
	}
}
