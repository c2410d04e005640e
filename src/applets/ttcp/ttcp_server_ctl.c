/* ttcp_server_ctl.c - control messages over a blocking or non-blocking
 * socket with a deadline (the client's whole session, the server's
 * replies), and the RESULT a session's totals make (a UDP session's
 * figures: ttcp_server_udp.c).  A message is read
 * header first, then exactly the payload it announces (at most
 * BB_CTL_MAX_PAYLOAD), so no byte of what follows is consumed. */
#include "ttcp_server.h"
#include "core/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int srv_ctl_send(int fd, const struct bb_ctl_msg *m, char *err, size_t errlen)
{
	unsigned char out[BB_CTL_MAX_MSG];
	size_t len = bb_ctl_build(m, out, sizeof out), off = 0;
	double until = bb_now() + 5.0;

	if (len == 0) {
		snprintf(err, errlen, "cannot build a %s message", bb_ctl_type_name(m->type));
		return -1;
	}
	while (off < len) {
		ssize_t r = send(fd, out + off, len - off, MSG_NOSIGNAL);
		if (r > 0) {
			off += (size_t)r;
		} else if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && bb_now() < until) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			poll(&p, 1, 100);
		} else if (r < 0 && errno == EINTR) {
			continue;
		} else {
			snprintf(err, errlen, "sending %s: %s", bb_ctl_type_name(m->type),
				 r < 0 ? strerror(errno) : "timed out");
			return -1;
		}
	}
	return 0;
}

void srv_ctl_refuse(int fd, const char *reason)
{
	struct bb_ctl_msg m;
	char err[128];
	size_t i;

	bb_ctl_init(&m, BB_CTL_REFUSE);
	snprintf(m.reason, sizeof m.reason, "%s", reason[0] ? reason : "refused");
	for (i = 0; m.reason[i]; i++)          /* printable ASCII only */
		if ((unsigned char)m.reason[i] < 0x20 || (unsigned char)m.reason[i] > 0x7e)
			m.reason[i] = '?';
	m.have |= 1u << BB_CF_REASON;
	srv_ctl_send(fd, &m, err, sizeof err);
}

/* Reads exactly n bytes before until; 0, 1 at a clean end, -1 error/timeout. */
static int read_exact(int fd, unsigned char *p, size_t n, double until, char *err, size_t errlen)
{
	while (n > 0) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		double left = until - bb_now();
		ssize_t r;
		if (left <= 0) {
			snprintf(err, errlen, "no answer within the time limit");
			return -1;
		}
		if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		r = recv(fd, p, n, MSG_DONTWAIT);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
		} else if (r == 0) {
			snprintf(err, errlen, "the peer closed the control connection");
			return 1;
		} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			snprintf(err, errlen, "control connection: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

int srv_ctl_recv(int fd, double timeout_s, struct bb_ctl_msg *m, char *err, size_t errlen)
{
	unsigned char buf[BB_CTL_MAX_MSG];
	double until = bb_now() + timeout_s;
	size_t used;
	enum bb_ctl_parse r;

	if (read_exact(fd, buf, BB_CTL_HDR, until, err, errlen) != 0)
		return -1;
	r = bb_ctl_parse(buf, BB_CTL_HDR, m, &used, err, errlen);
	if (r == BB_CTL_NEED_MORE && used > BB_CTL_HDR) {
		if (read_exact(fd, buf + BB_CTL_HDR, used - BB_CTL_HDR, until, err, errlen) != 0)
			return -1;
		r = bb_ctl_parse(buf, used, m, &used, err, errlen);
	}
	return r == BB_CTL_OK ? 0 : -1;
}

void srv_session_totals(const struct ttcp_session *s, uint64_t *bytes, double *seconds)
{
	double t0 = 0, t1 = 0;

	*bytes = 0;
	for (int i = 0; i < s->n; i++) {
		const struct bb_xfer *x = s->st[i]->x;
		double from, to;
		bb_xfer_span(x, &from, &to);
		*bytes += x->n.bytes;
		if (from > 0 && (t0 == 0 || from < t0))
			t0 = from;
		if (to > t1)
			t1 = to;
	}
	*seconds = t0 > 0 && t1 > t0 ? t1 - t0 : 0;
}

double srv_log_seconds(const struct ttcp_session *s, double seconds, double since)
{
	return s->r->ok || since <= 0 ? seconds : bb_now() - since;
}

static uint64_t tv_us(const struct timeval *a, const struct timeval *b)
{
	int64_t d = (int64_t)(b->tv_sec - a->tv_sec) * 1000000 + (b->tv_usec - a->tv_usec);
	return d > 0 ? (uint64_t)d : 0;
}

void srv_result_of(const struct ttcp_session *s, int role, struct bb_ctl_msg *m)
{
	uint64_t bytes;
	double secs;
	int status = s->r->ok ? 0 : s->r->interrupted ? 2 : 1;

	srv_session_totals(s, &bytes, &secs);
	bb_ctl_init(m, BB_CTL_RESULT);
	bb_ctl_set(m, BB_CF_ROLE, (uint64_t)role);
	bb_ctl_set(m, BB_CF_STATUS, (uint64_t)status);
	bb_ctl_set(m, BB_CF_RX_BYTES, bytes);
	bb_ctl_set(m, BB_CF_ELAPSED_US, (uint64_t)(secs * 1e6));
	bb_ctl_set(m, BB_CF_CPU_USER_US, tv_us(&s->cpu0.ru.ru_utime, &s->cpu1.ru.ru_utime));
	bb_ctl_set(m, BB_CF_CPU_SYS_US, tv_us(&s->cpu0.ru.ru_stime, &s->cpu1.ru.ru_stime));
	srv_udp_result(s, m);
}

int srv_key_load(const char *path, unsigned char *key, size_t cap, size_t *len, char *err,
		 size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0;
	ssize_t r = 0;

	if (fd < 0) {
		snprintf(err, errlen, "cannot read it: %s", strerror(errno));
		return -1;
	}
	while (n < cap && (r = read(fd, key + n, cap - n)) > 0)
		n += (size_t)r;
	if (r >= 0 && n == cap && read(fd, &(unsigned char){ 0 }, 1) > 0) {
		close(fd);
		snprintf(err, errlen, "a key of at most %zu bytes", cap);
		return -1;
	}
	close(fd);
	if (n > 0 && key[n - 1] == '\n')
		n--;
	if (r < 0 || n == 0) {
		snprintf(err, errlen, r < 0 ? "cannot read it" : "the key file is empty");
		return -1;
	}
	*len = n;
	return 0;
}
