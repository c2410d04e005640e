/* ttcp_ctl.c - the controller of a ttcp session, shared by transmitter and
 * receiver: one worker thread per stream (signals blocked there, so
 * SIGINT reaches the controller), the stop flag (time limit, and SIGINT
 * or SIGTERM as ttcp_signal.c notes them), periodic reports (through the
 * model and the renderer), and stream buffers placed as -A/-O ask. */
#include "ttcp_applet.h"
#include "core/error.h"
#include "core/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TTCP_FORCE_AFTER_S 2.0   /* after a stop, shut sockets down if loops linger */

void ttcp_session_init(struct ttcp_session *s, const struct ttcp_opts *o, struct bb_result *r)
{
	memset(s, 0, sizeof *s);
	s->o = o;
	s->r = r;
	s->file_fd = -1;
	s->listen_fd = -1;
	atomic_init(&s->stop, 0);
	s->out = o->transmit || o->sink ? stdout : stderr;
	if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0)
		s->wake[0] = s->wake[1] = -1;    /* then the controller just ticks */
}

void ttcp_session_free(struct ttcp_session *s)
{
	for (int i = 0; i < s->n; i++) {
		if (s->st[i]->x->fd >= 0)
			close(s->st[i]->x->fd);
		free(s->st[i]->mem);
		free(s->st[i]->udp);
		free(s->st[i]);
	}
	if (s->file_fd >= 0)
		close(s->file_fd);
	for (int i = 0; i < 2; i++)
		if (s->wake[i] >= 0)
			close(s->wake[i]);
	s->wake[0] = s->wake[1] = -1;
	s->n = 0;
}

struct ttcp_stream *ttcp_stream_new(struct ttcp_session *s, int fd, size_t bufsize)
{
	const struct ttcp_opts *o = s->o;
	size_t align = o->align ? o->align : 1;
	struct ttcp_stream *t;
	uintptr_t p;

	if (s->n >= BB_MAX_STREAMS) {
		snprintf(s->error, sizeof s->error, "more than %d streams", BB_MAX_STREAMS);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (t)
		t->mem = malloc(bufsize + align + o->offset);
	if (!t || !t->mem) {
		free(t);
		snprintf(s->error, sizeof s->error, "cannot allocate a %zu-byte buffer", bufsize);
		return NULL;
	}
	p = ((uintptr_t)t->mem + align - 1) / align * align + o->offset;
	t->session = s;
	t->x = &t->own;
	bb_xfer_init(t->x, &s->cfg, fd, (unsigned)s->n, (unsigned char *)p);
	atomic_init(&t->finished, 0);
	atomic_init(&t->connected, 0);
	s->st[s->n++] = t;
	return t;
}

struct ttcp_stream *ttcp_stream_new_udp_rx(struct ttcp_session *s, int fd, size_t bufsize)
{
	struct ttcp_stream *t = ttcp_stream_new(s, fd, bufsize);

	if (!t)
		return NULL;
	t->udp = calloc(1, sizeof *t->udp);
	if (!t->udp) {
		snprintf(s->error, sizeof s->error, "out of memory");
		return NULL;                 /* freed with the session */
	}
	bb_xfer_init(&t->udp->x, &s->cfg, fd, 0, t->own.buf);
	t->own.fd = -1;
	t->x = &t->udp->x;
	return t;
}

/* Marks t finished and wakes the controller. */
static void finish(struct ttcp_stream *t)
{
	atomic_store(&t->finished, 1);
	if (t->wake_fd >= 0)
		(void)!write(t->wake_fd, "", 1);
}

static void *run_and_mark(struct ttcp_stream *t, void (*loop)(struct bb_xfer *))
{
	loop(t->x);
	finish(t);
	return NULL;
}

static void request_stop(struct ttcp_session *s, enum bb_end why)
{
	int none = 0;
	atomic_compare_exchange_strong(&s->stop, &none, (int)why);
}

/* The data ends with the last write: the socket is shut for writing at
 * once (the receiver sees the end now, not after the acknowledgements). */
void *ttcp_run_tcp_send(void *arg)
{
	struct ttcp_stream *t = arg;

	bb_tcp_send(t->x);
	if (bb_end_complete(t->x->f.end)) {
		shutdown(t->x->fd, SHUT_WR);
		bb_tcp_wait_acked(t->x);
	}
	finish(t);
	return NULL;
}

void *ttcp_run_tcp_connect_send(void *arg)
{
	struct ttcp_stream *t = arg;
	struct ttcp_session *s = t->session;

	if (bb_sock_connect(t->x->fd, &t->dest, s->o->connect_timeout_s, &s->stop, t->error,
			    sizeof t->error) != 0) {
		bb_xfer_fail(t->x, BB_END_ERROR, 0, NULL);
		request_stop(s, BB_END_ERROR);   /* every stream connects, or none sends */
		finish(t);
		return NULL;
	}
	t->connected_at = bb_now();
	atomic_store_explicit(&t->connected, 1, memory_order_release);
	return ttcp_run_tcp_send(t);
}

void *ttcp_run_tcp_recv(void *arg)
{
	return run_and_mark(arg, bb_tcp_recv);
}

void *ttcp_run_udp_send(void *arg)
{
	return run_and_mark(arg, bb_udp_send);
}

void *ttcp_run_udp_recv(void *arg)
{
	struct ttcp_stream *t = arg;

	bb_udp_recv(t->udp);
	finish(t);
	return NULL;
}

int ttcp_stream_start(struct ttcp_session *s, struct ttcp_stream *t, void *(*fn)(void *))
{
	sigset_t block, old;
	int rc;

	t->wake_fd = s->wake[1];
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&t->thread, NULL, fn, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(s->error, sizeof s->error, "cannot start a thread: %s", strerror(rc));
		return -1;
	}
	t->started = 1;
	return 0;
}

int ttcp_session_start(struct ttcp_session *s, void *(*fn)(void *))
{
	s->t0 = bb_now();
	bb_cpu_snap_take(&s->cpu0);
	for (int i = 0; i < s->n; i++)
		if (ttcp_stream_start(s, s->st[i], fn) != 0)
			return -1;
	return 0;
}

int ttcp_all_finished(const struct ttcp_session *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->st[i]->started && !atomic_load(&s->st[i]->finished))
			return 0;
	return 1;
}

/* Streams that connect in their own thread: the session's clock starts
 * at the first connect, and classic ttcp's "connect" note is printed
 * once stream 0 has connected (later than classic ttcp: not between the
 * connect and the first write). */
static void see_connects(struct ttcp_session *s)
{
	for (int i = 0; i < s->n; i++) {
		struct ttcp_stream *t = s->st[i];
		if (!t->connecting || !atomic_load_explicit(&t->connected, memory_order_acquire))
			continue;
		t->connecting = 0;
		if (s->t0 == 0 || t->connected_at < s->t0)
			s->t0 = t->connected_at;
		if (i == 0)
			ttcp_note(s->o, "connect");
	}
}

/* Loops notice the stop flag within a socket tick; one blocked elsewhere
 * (a slow stdout) is woken by shutting its socket down. */
static void force_if_stuck(struct ttcp_session *s)
{
	if (s->stopped_at <= 0 || bb_now() - s->stopped_at < TTCP_FORCE_AFTER_S ||
	    atomic_load(&s->stop) != BB_END_INTERRUPTED)
		return;
	for (int i = 0; i < s->n; i++)
		if (!atomic_load(&s->st[i]->finished) && s->st[i]->x->fd >= 0)
			shutdown(s->st[i]->x->fd, SHUT_RDWR);
}

static void check_stop(struct ttcp_session *s)
{
	if (ttcp_interrupted())
		request_stop(s, BB_END_INTERRUPTED);
	if (s->o->time_s > 0 && s->t0 > 0 && bb_now() >= s->t0 + s->o->time_s)
		request_stop(s, BB_END_TIME);
	if (atomic_load(&s->stop) && s->stopped_at <= 0)
		s->stopped_at = bb_now();
	force_if_stuck(s);
}

static void due_intervals(struct ttcp_session *s)
{
	double now = bb_now();

	if (s->o->interval_s <= 0 || s->t0 <= 0)
		return;
	if (s->next_iv <= 0)
		s->next_iv = s->t0 + s->o->interval_s;
	while (now >= s->next_iv) {
		double from = s->next_iv - s->o->interval_s;
		ttcp_model_interval(s, from - s->t0, s->next_iv - s->t0);
		ttcp_render_interval(s->out, s->r, (size_t)s->iv_count - 1);
		fflush(s->out);
		s->next_iv += s->o->interval_s;
	}
}

double ttcp_ctl_step(struct ttcp_session *s)
{
	double now, wait = TTCP_TICK_S;

	see_connects(s);
	check_stop(s);
	due_intervals(s);
	now = bb_now();
	if (s->next_iv > 0 && s->next_iv - now < wait)
		wait = s->next_iv - now;
	if (s->o->time_s > 0 && s->t0 > 0 && s->t0 + s->o->time_s - now < wait)
		wait = s->t0 + s->o->time_s - now;
	else if (s->o->time_s > 0 && s->t0 == 0 && s->o->time_s < wait)
		wait = s->o->time_s;         /* still connecting: look again before it is due */
	return wait > 0.001 ? wait : 0.001;
}

void ttcp_ctl_sleep(struct ttcp_session *s, double seconds)
{
	struct pollfd p = { .fd = s->wake[0], .events = POLLIN };
	char drain[64];

	/* A signal cuts the wait short (EINTR), as wanted. */
	if (poll(&p, 1, (int)(seconds * 1000.0) + 1) > 0)
		while (read(s->wake[0], drain, sizeof drain) > 0)
			;
}

void ttcp_join_all(struct ttcp_session *s)
{
	while (!ttcp_all_finished(s))
		ttcp_ctl_sleep(s, ttcp_ctl_step(s));
	for (int i = 0; i < s->n; i++)
		if (s->st[i]->started) {
			pthread_join(s->st[i]->thread, NULL);
			s->st[i]->started = 0;
		}
	see_connects(s);
}
