/* ttcp_server_test.c - a test of the ttcp server: its one or two
 * directions (each a ttcp_session whose streams run in threads), the
 * bounds watched on every tick of the event loop (the streams must come
 * within the join window; each keeps the minimum rate), and its end:
 * boardbench peers exchange RESULTs, the model is filled, one log line is
 * printed and, with --json-dir, one results file is written whole. */
#include "core/random.h"
#include "ttcp_server.h"
#include "core/outfile.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "net/pattern.h"
#include "core/sha256.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void stop_test(struct srv_test *t, enum bb_end why);
static void srv_test_discard(struct srv *v, struct srv_test *t);
static void set_why(struct srv_test *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Direction d of t from base (the server's options, or a REQUEST's). */
static void dir_init(struct srv *v, struct srv_test *t, struct srv_dir *d,
		     const struct ttcp_opts *base, int transmit, int want)
{
	struct bb_result *r = bb_run_add_result(t->run, "ttcp");
	struct bb_xfer_cfg *c;

	r->render = ttcp_render;
	r->summary = ttcp_summary;
	d->used = 1;
	d->want = want;
	d->o = *base;
	d->o.transmit = transmit;
	d->o.sink = 1;
	d->o.streams = want;
	d->o.idle_timeout_s = v->o->idle_s;
	d->o.quiet_notes = 1;
	d->o.rcvlowat = transmit ? 0 : TTCP_RX_LOWAT;
	ttcp_session_init(&d->s, &d->o, r);
	c = &d->s.cfg;
	c->buflen = d->o.buflen;
	c->read_size = d->o.read_size ? d->o.read_size : SRV_READ_SIZE;
	c->src_fd = -1;
	c->dst_fd = -1;
	c->publish = 1;                  /* the minimum rate reads the live counters */
	c->idle_s = v->o->idle_s;
	c->file_fd = -1;
	c->nstreams = (unsigned)want;
	c->stop = &d->s.stop;
	if (transmit)
		c->nbuf = d->o.time_s > 0 ? 0 : d->o.nbuf;
}

void srv_dir_init(struct srv *v, struct srv_test *t, struct srv_dir *d,
		  const struct ttcp_opts *base, int transmit, int want)
{
	dir_init(v, t, d, base, transmit, want);
}

struct srv_test *srv_test_new(struct srv *v, enum srv_kind kind, const char *who,
			      const struct bb_ip *ip)
{
	struct srv_test *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->id = ++v->next_id;
	t->kind = kind;
	snprintf(t->who, sizeof t->who, "%s", who);
	t->ip = *ip;
	t->ctl_fd = -1;
	t->opened = bb_now();
	t->join_until = t->opened + SRV_JOIN_S;
	t->run = bb_run_new(v->o->argc, v->o->argv);
	t->next = v->tests;
	v->tests = t;
	v->ntests++;
	if (kind != TEST_BB)
		dir_init(v, t, &t->rx, &v->o->base, 0, 1);
	return t;
}

static int set_lowat(int fd, int lowat)
{
	return lowat > 1 ? setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof lowat) : 0;
}

static int make_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

/* Counts the bytes read before the stream was handed over as its first. */
static void count_first_bytes(struct bb_xfer *x, const unsigned char *pre, size_t n)
{
	if (n == 0)
		return;
	x->n.bytes = n;
	x->n.calls = 1;
	x->n.t_end = x->n.t_first = x->n.t_last = bb_now();
	if (bb_iperf2_probe_feed(&x->peer.iperf2, pre, n) != BB_IPERF2_NEED_MORE) {
		if (x->peer.iperf2.verdict == BB_IPERF2_FOUND)
			atomic_store(&x->peer.streams, x->peer.iperf2.hdr.threads);
		atomic_store(&x->peer.decided, 1);
	}
	bb_live_publish(&x->live, n, 1);
}

int srv_test_add_stream(struct srv *v, struct srv_test *t, struct srv_dir *d, int fd,
			const struct bb_addr *peer, double opened, const unsigned char *pre,
			size_t n)
{
	struct ttcp_session *s = &d->s;
	int tx = d->o.transmit;
	struct ttcp_stream *st;

	if (make_blocking(fd) != 0 || bb_sock_set_tick(fd, TTCP_TICK_S) != 0 ||
	    (!tx && set_lowat(fd, (int)d->o.rcvlowat) != 0) ||
	    !(st = ttcp_stream_new(s, fd, tx ? s->cfg.buflen : s->cfg.read_size))) {
		if (!t->why[0])
			snprintf(t->why, sizeof t->why, "stream setup: %.200s",
				 s->error[0] ? s->error : strerror(errno));
		close(fd);
		v->nconns--;
		return -1;
	}
	if (tx)
		bb_pattern_fill(st->x->buf, s->cfg.buflen);
	bb_addr_text((const struct sockaddr *)&peer->ss, st->peer, sizeof st->peer);
	ttcp_model_socket(s, st);
	st->x->n.t_start = opened;
	count_first_bytes(st->x, pre, n);
	if (s->n == 1) {
		s->t0 = opened;
		bb_cpu_snap_take(&s->cpu0);
	}
	bb_minrate_start(&d->mr[s->n - 1], v->o->min_rate_bps / 8, v->o->rate_window_s, bb_now(),
			 n);
	d->joined++;
	return ttcp_stream_start(s, st, tx ? ttcp_run_tcp_send : ttcp_run_tcp_recv);
}

/* A UDP REQUEST the server cannot serve: why, else "". */
static void udp_limits(struct srv *v, const struct bb_ctl_msg *q, char *why, size_t len)
{
	uint64_t streams = q->num[BB_CF_STREAMS], rate = q->num[BB_CF_UDP_RATE];
	int has_rate = bb_ctl_has(q, BB_CF_UDP_RATE);

	why[0] = '\0';
	if (q->num[BB_CF_WRITE_LEN] < SRV_UDP_MIN_WRITE)
		snprintf(why, len, "a UDP write_len of at least %d bytes (the sequence header)",
			 SRV_UDP_MIN_WRITE);
	else if (has_rate && (double)rate < v->o->min_rate_bps)
		snprintf(why, len, "udp_rate %llu bit/s is below this server's minimum rate of "
			 "%.0f bit/s (--min-rate)", (unsigned long long)rate, v->o->min_rate_bps);
	else if (q->num[BB_CF_DIRECTION] != BB_CTL_TO_SERVER &&
		 (double)rate * (double)streams > v->o->max_udp_bps)
		snprintf(why, len, "udp_rate %llu bit/s x %llu streams is above this server's "
			 "%.0f bit/s (--max-udp-rate)", (unsigned long long)rate,
			 (unsigned long long)streams, v->o->max_udp_bps);
}

/* Data connections accepted tests still wait for. */
static int promised(const struct srv *v)
{
	int n = 0;

	for (const struct srv_test *t = v->tests; t; t = t->next)
		for (int i = 0; i < 2 && !t->stopping; i++) {
			const struct srv_dir *d = i == 0 ? &t->rx : &t->tx;
			if (d->used && !d->udp && d->want > d->joined)
				n += d->want - d->joined;
		}
	return n;
}

/* A TCP test is accepted only when its data connections will have room
 * (silent connections make room for them), so that tests waiting for
 * theirs cannot take every place. */
static int conn_room(const struct srv *v, const struct bb_ctl_msg *q)
{
	int need = (int)q->num[BB_CF_STREAMS] * (q->num[BB_CF_DIRECTION] == BB_CTL_BOTH ? 2 : 1);
	int held = v->nconns;

	for (const struct srv_conn *c = v->conns; c; c = c->next)
		held -= c->state == CONN_FIRST && c->n == 0;
	return q->num[BB_CF_PROTO] != 0 || held + promised(v) + need <= srv_conn_cap(v);
}

/* A REQUEST the server cannot serve: why, else "". */
static void request_limits(struct srv *v, const struct bb_ctl_msg *q, char *why,
			   size_t len)
{
	uint64_t streams = q->num[BB_CF_STREAMS], wl = q->num[BB_CF_WRITE_LEN];
	int both = q->num[BB_CF_DIRECTION] == BB_CTL_BOTH;

	why[0] = '\0';
	if (q->num[BB_CF_PROTO] != 0)
		udp_limits(v, q, why, len);
	if (why[0])
		return;
	if (streams > (uint64_t)v->o->max_streams)
		snprintf(why, len, "%llu streams asked, this server allows %d (--max-streams)",
			 (unsigned long long)streams, v->o->max_streams);
	else if (both && streams * 2 > BB_MAX_STREAMS)
		snprintf(why, len, "--bidir with %llu streams: at most %d each way",
			 (unsigned long long)streams, BB_MAX_STREAMS / 2);
	else if (wl > SRV_MAX_WRITE)
		snprintf(why, len, "write_len %llu above this server's %u",
			 (unsigned long long)wl, SRV_MAX_WRITE);
	else if (bb_ctl_has(q, BB_CF_BYTES) && q->num[BB_CF_BYTES] % wl != 0)
		snprintf(why, len, "bytes must be a multiple of write_len");
	else if (!conn_room(v, q))
		snprintf(why, len, "busy: no room for %llu more connections (this server's %s)",
			 (unsigned long long)streams * (both ? 2 : 1),
			 srv_conn_cap(v) < v->o->max_conns ? "RLIMIT_NOFILE" : "--max-conns");
	else if (!srv_test_room(v, bb_now()))
		snprintf(why, len, "busy: %d tests running (this server's --max-tests)",
			 v->ntests);
}

/* The options of direction d of a UDP test. */
static void udp_opts(struct srv *v, const struct bb_ctl_msg *q, struct ttcp_opts *o)
{
	*o = v->o->base;
	o->udp = 1;
	o->buflen = (size_t)q->num[BB_CF_WRITE_LEN];
	o->rate_bps = (double)q->num[BB_CF_UDP_RATE];
}

/* The UDP sockets and streams of t: its receiver starts at once (it knows
 * the one source its datagrams may come from), its senders after ACCEPT. */
static int udp_setup(struct srv *v, struct srv_test *t, const struct bb_ctl_msg *q,
		     char *why, size_t len)
{
	int bufsz = v->o->base.sockbuf, fd;
	struct srv_dir *d;

	for (int k = 0; k < 2; k++) {
		d = k == 0 ? &t->rx : &t->tx;
		if (!d->used)
			continue;
		d->udp = 1;
		d->joined = d->want;
		d->joined_mask = ~0ull;
		srv_udp_config(&d->s, d->o.rate_bps, d->o.nbuf, v->o->handshake_s);
		ttcp_model_params(&d->s);
		fd = srv_udp_socket(t->ctl_fd, bufsz, k == 0 ? &t->udp_rx_port : &t->udp_tx_port,
				    why, len);
		if (fd < 0)
			return -1;
		if (k == 1 && srv_udp_connect(fd, t->ctl_fd, (unsigned)q->num[BB_CF_UDP_RX_PORT],
					      why, len) != 0) {
			close(fd);
			return -1;
		}
		if ((k == 0 ? srv_udp_open_rx(&d->s, fd, t->ctl_fd,
					      (unsigned)q->num[BB_CF_UDP_TX_PORT])
			    : srv_udp_open_tx(&d->s, fd)) != 0) {
			snprintf(why, len, "%s", d->s.error);
			return -1;
		}
	}
	if (t->rx.used && srv_udp_go(&t->rx.s) != 0) {
		snprintf(why, len, "%s", t->rx.s.error);
		return -1;
	}
	for (int i = 0; t->rx.used && i < t->rx.s.n; i++)
		bb_minrate_start(&t->rx.mr[i], v->o->min_rate_bps / 8, v->o->rate_window_s,
				 bb_now(), 0);
	return 0;
}

void srv_test_udp_go(struct srv *v, struct srv_test *t)
{
	if (!t->udp || !t->tx.used)
		return;
	if (srv_udp_go(&t->tx.s) != 0) {
		set_why(t, "%s", t->tx.s.error);
		stop_test(t, BB_END_ERROR);
	}
	for (int i = 0; i < t->tx.s.n; i++)
		bb_minrate_start(&t->tx.mr[i], v->o->min_rate_bps / 8, v->o->rate_window_s,
				 bb_now(), 0);
}

struct srv_test *srv_test_from_request(struct srv *v, const struct bb_ctl_msg *q,
				       const char *who, const struct bb_ip *ip, int ctl_fd,
				       char *why, size_t whylen)
{
	int dir = (int)q->num[BB_CF_DIRECTION], n = (int)q->num[BB_CF_STREAMS];
	int has_bytes = bb_ctl_has(q, BB_CF_BYTES), udp = q->num[BB_CF_PROTO] != 0;
	unsigned char token[BB_CTL_TOKEN];
	struct ttcp_opts uo;
	struct srv_test *t;

	request_limits(v, q, why, whylen);
	if (!why[0] && bb_random(token, sizeof token) != 0)
		snprintf(why, whylen, "the server has no randomness for a token");
	if (why[0])
		return NULL;
	t = srv_test_new(v, TEST_BB, who, ip);
	if (!t) {
		snprintf(why, whylen, "the server is out of memory");
		return NULL;
	}
	memcpy(t->token, token, sizeof token);
	t->ctl_fd = ctl_fd;
	t->direction = dir;
	t->udp = udp;
	t->join_until = bb_now() + v->o->handshake_s;
	udp_opts(v, q, &uo);
	if (dir != BB_CTL_TO_CLIENT) {
		dir_init(v, t, &t->rx, udp ? &uo : &v->o->base, 0, n);
		t->rx.bytes_each = has_bytes && !udp ? q->num[BB_CF_BYTES] : 0;
	}
	if (dir != BB_CTL_TO_SERVER) {
		struct ttcp_opts o = udp ? uo : v->o->base;
		o.buflen = (size_t)q->num[BB_CF_WRITE_LEN];
		o.time_s = has_bytes ? 0 : (double)q->num[BB_CF_DURATION_MS] / 1000.0;
		o.nbuf = has_bytes ? q->num[BB_CF_BYTES] / q->num[BB_CF_WRITE_LEN] : 0;
		dir_init(v, t, &t->tx, &o, 1, n);
	}
	if (udp && udp_setup(v, t, q, why, whylen) != 0) {
		t->ctl_fd = -1;                  /* the caller refuses and closes it */
		stop_test(t, BB_END_ERROR);
		srv_test_discard(v, t);
		return NULL;
	}
	return t;
}

/* A running test with a stream behind the minimum rate for a second or
 * more of its window, or NULL. */
static struct srv_test *slowest(struct srv *v, double now)
{
	for (struct srv_test *t = v->tests; t; t = t->next)
		for (int k = 0; k < 2 && !t->stopping; k++) {
			struct srv_dir *d = k ? &t->tx : &t->rx;
			for (int i = 0; d->used && i < d->s.n; i++) {
				uint64_t bytes, calls;
				if (!atomic_load(&d->s.st[i]->finished) &&
				    bb_live_read(&d->s.st[i]->x->live, &bytes, &calls) == 0 &&
				    bb_minrate_behind(&d->mr[i], now, bytes, 1.0))
					return t;
			}
		}
	return NULL;
}

int srv_test_room(struct srv *v, double now)
{
	int active = 0;
	struct srv_test *t;

	for (t = v->tests; t; t = t->next)
		active += !t->stopping;
	if (active < v->o->max_tests)
		return 1;
	t = slowest(v, now);
	if (!t)
		return 0;
	set_why(t, "below the minimum rate (%.0f bit/s, --min-rate) when a new test needed "
		"its place", v->o->min_rate_bps);
	stop_test(t, BB_END_IDLE);
	return 1;
}

struct srv_test *srv_test_by_token(struct srv *v, const unsigned char *token)
{
	for (struct srv_test *t = v->tests; t; t = t->next)
		if (t->kind == TEST_BB && bb_mac_equal(t->token, token, BB_CTL_TOKEN))
			return t;
	return NULL;
}

struct srv_test *srv_test_group(struct srv *v, const struct bb_ip *ip, int announced,
				double now)
{
	for (struct srv_test *t = v->tests; t; t = t->next) {
		struct bb_group g = { t->ip, t->announced, t->rx.joined, t->opened,
				      t->kind == TEST_IPERF2 && t->rx.joined < t->rx.want };
		if (bb_group_pick(&g, 1, ip, announced, now, SRV_JOIN_S) == 0)
			return t;
	}
	return NULL;
}

static struct srv_dir *dir_of(struct srv_test *t, int i)
{
	return i == 0 ? &t->rx : &t->tx;
}

static void stop_test(struct srv_test *t, enum bb_end why)
{
	t->stopping = 1;
	for (int i = 0; i < 2; i++) {
		int none = 0;
		if (dir_of(t, i)->used)
			atomic_compare_exchange_strong(&dir_of(t, i)->s.stop, &none, (int)why);
	}
}

static void set_why(struct srv_test *t, const char *fmt, ...)
{
	va_list ap;

	if (t->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof t->why, fmt, ap);
	va_end(ap);
}

/* The join window closed: streams that did not come will not. */
static void close_join(struct srv_test *t)
{
	for (int i = 0; i < 2; i++) {
		struct srv_dir *d = dir_of(t, i);
		if (!d->used || d->joined >= d->want)
			continue;
		set_why(t, "%d of %d streams connected within %.0f s%s", d->joined, d->want,
			t->join_until - t->opened, t->emfile ? "; accept failed for lack of file descriptors "
			"(EMFILE/ENFILE)" : "");
		d->want = d->joined;
	}
}

/* The minimum rate of every running stream of d. */
static void watch_rate(struct srv_test *t, struct srv_dir *d, double now, double min_bps)
{
	for (int i = 0; i < d->s.n; i++) {
		struct ttcp_stream *st = d->s.st[i];
		uint64_t bytes, calls, got;
		if (atomic_load(&st->finished) || bb_live_read(&st->x->live, &bytes, &calls) != 0)
			continue;
		if (bb_minrate_check(&d->mr[i], now, bytes, &got)) {
			set_why(t, "stream %d moved %llu bytes in %.1f s, below the minimum rate "
				"of %.0f bit/s (--min-rate)", i, (unsigned long long)got,
				now - d->mr[i].win_start, min_bps);
			stop_test(t, BB_END_IDLE);
		}
	}
}

static int joined_all(const struct srv_test *t)
{
	return (!t->rx.used || t->rx.joined >= t->rx.want) &&
	       (!t->tx.used || t->tx.joined >= t->tx.want);
}

static int data_finished(struct srv_test *t)
{
	if (srv_iperf2_pending(t))
		return 0;
	for (int i = 0; i < 2; i++)
		if (dir_of(t, i)->used && !ttcp_all_finished(&dir_of(t, i)->s))
			return 0;
	return joined_all(t);
}

static void join_threads(struct srv_test *t)
{
	for (int i = 0; i < 2; i++) {
		struct srv_dir *d = dir_of(t, i);
		if (!d->used)
			continue;
		ttcp_join_all(&d->s);
		bb_cpu_snap_take(&d->s.cpu1);
		if (d->s.t0 == 0)
			d->s.cpu0 = d->s.cpu1;
		for (int k = 0; k < d->s.n; k++)
			bb_tcpinfo_get(d->s.st[k]->x->fd, &d->s.st[k]->ti);
	}
}

/* What only the server knows: the bytes a boardbench client announced or
 * says it sent, against what came. */
static void cross_check(struct srv_test *t)
{
	uint64_t got;
	double secs;
	char why[200];

	if (t->kind != TEST_BB)
		return;
	if (t->rx.used && t->udp) {
		srv_udp_doubt_local(&t->rx.s, why, sizeof why);
		if (!why[0] && t->have_res[1] && bb_ctl_has(&t->peer_res[1], BB_CF_DATAGRAMS))
			srv_udp_doubt_count(&t->rx.s, t->peer_res[1].num[BB_CF_DATAGRAMS], why,
					    sizeof why);
		else if (!why[0] && t->have_res[1])
			snprintf(why, sizeof why, "the client's result has no count of datagrams");
		if (why[0])
			set_why(t, "%s", why);
	} else if (t->rx.used) {
		for (int i = 0; i < t->rx.s.n && t->rx.bytes_each; i++)
			if (t->rx.s.st[i]->x->n.bytes != t->rx.bytes_each)
				set_why(t, "stream %d: %llu bytes of the %llu asked for", i,
					(unsigned long long)t->rx.s.st[i]->x->n.bytes,
					(unsigned long long)t->rx.bytes_each);
		srv_session_totals(&t->rx.s, &got, &secs);
		if (t->have_res[1] && t->peer_res[1].num[BB_CF_RX_BYTES] != got)
			set_why(t, "the client sent %llu bytes, %llu came",
				(unsigned long long)t->peer_res[1].num[BB_CF_RX_BYTES],
				(unsigned long long)got);
	}
	for (int role = 0; role < 2; role++)
		if (dir_of(t, role == 1 ? 0 : 1)->used && !t->have_res[role])
			set_why(t, "the client's result never came%s",
				t->ctl_gone ? " (it closed the control connection)" : "");
	for (int role = 0; role < 2; role++)
		if (t->have_res[role] && t->peer_res[role].num[BB_CF_STATUS] != 0)
			set_why(t, "the client's end is incomplete");
}

static const char *mode_of(const struct srv_test *t, char *buf, size_t len)
{
	static const char *const bb[2][3] = { { "bb-tcp", "bb-tcp-reverse", "bb-tcp-bidir" },
					      { "bb-udp", "bb-udp-reverse", "bb-udp-bidir" } };

	if (t->kind == TEST_BB)
		return bb[t->udp ? 1 : 0][t->direction < 3 ? t->direction : 0];
	if (t->kind == TEST_CLASSIC)
		return "tcp";
	if (t->announced > 1)
		snprintf(buf, len, "tcp-iperf2x%d", t->announced);
	else
		snprintf(buf, len, "tcp-iperf2");
	return buf;
}

static const char *without(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) == 0 ? s + n : s;
}

/* "complete" (with a UDP receiver's note of the datagrams it refused),
 * or "incomplete: why". */
static void verdict_of(const struct srv_test *t, char *buf, size_t len)
{
	const char *m = t->rx.used ? t->rx.s.r->message : NULL;

	snprintf(buf, len, "%s", t->udp && m && !strncmp(m, "complete", 8) ? m : "complete");
	for (int i = 0; i < 2; i++) {
		const struct srv_dir *d = i == 0 ? &t->rx : &t->tx;
		if (d->used && !d->s.r->ok) {
			snprintf(buf, len, "incomplete: %s", without(d->s.r->message, "incomplete: "));
			return;
		}
	}
}

static void write_json(struct srv *v, struct srv_test *t)
{
	struct bb_cli cli = v->o->cli;
	char path[4096], stamp[32];

	if (!v->o->json_dir)
		return;
	bb_utc_stamp(stamp, sizeof stamp, time(NULL), 1);
	snprintf(path, sizeof path, "%s/ttcp-%s-%d.json", v->o->json_dir, stamp, t->id);
	cli.json = path;
	cli.csv = NULL;
	if (bb_cli_finish(t->run, &cli) != 0)
		srv_note("test %d: results file %s not written", t->id, path);
}

/* The model of each direction, the log line, the file; then t is freed. */
static void finish(struct srv *v, struct srv_test *t)
{
	uint64_t bytes = 0, b;
	double secs = 0, s;
	char mode[32], verdict[400];

	for (int i = 0; i < 2; i++) {
		struct srv_dir *d = dir_of(t, i);
		if (!d->used)
			continue;
		if (t->why[0] && !d->s.error[0])
			snprintf(d->s.error, sizeof d->s.error, "%s", t->why);
		ttcp_model_finish(&d->s);
		srv_session_totals(&d->s, &b, &s);
		s = srv_log_seconds(&d->s, s, t->opened);
		bytes += b;
		if (s > secs)
			secs = s;
	}
	verdict_of(t, verdict, sizeof verdict);
	if (!srv_iperf2_log(t))
		srv_log(t->who, mode_of(t, mode, sizeof mode), bytes, secs, verdict);
	write_json(v, t);
}

static void send_results(struct srv_test *t)
{
	char err[128];

	for (int i = 0; i < 2 && t->ctl_fd >= 0 && !t->ctl_gone; i++) {
		struct srv_dir *d = dir_of(t, i);
		struct bb_ctl_msg m;
		if (!d->used)
			continue;
		srv_result_of(&d->s, i == 0 ? 0 : 1, &m);
		if (srv_ctl_send(t->ctl_fd, &m, err, sizeof err) != 0)
			t->ctl_gone = 1;
	}
}

static void test_free(struct srv *v, struct srv_test *t)
{
	struct srv_test **pp = &v->tests;

	while (*pp && *pp != t)
		pp = &(*pp)->next;
	if (*pp)
		*pp = t->next;
	srv_iperf2_free(v, t);
	for (int i = 0; i < 2; i++) {
		struct srv_dir *d = dir_of(t, i);
		if (!d->used)
			continue;
		if (!d->udp)
			v->nconns -= d->s.n;     /* accepted connections; UDP sockets are not */
		ttcp_session_free(&d->s);
	}
	if (t->ctl_fd >= 0) {
		close(t->ctl_fd);
		v->nconns--;
	}
	bb_run_free(t->run);
	v->ntests--;
	free(t);
}

/* A sending direction that ended shuts its sockets for writing, so the
 * client sees the end at once (while the other direction may go on). */
static void shut_when_sent(const struct srv_test *t, struct srv_dir *d)
{
	if (!d->o.transmit || d->udp || d->shut || !joined_all(t) || !ttcp_all_finished(&d->s))
		return;
	for (int i = 0; i < d->s.n; i++)
		shutdown(d->s.st[i]->x->fd, SHUT_WR);
	d->shut = 1;
}

/* A test whose UDP setup failed before ACCEPT: its threads stopped, no
 * log line (the REFUSE is logged), freed. */
static void srv_test_discard(struct srv *v, struct srv_test *t)
{
	for (int i = 0; i < 2; i++)
		if (dir_of(t, i)->used)
			ttcp_join_all(&dir_of(t, i)->s);
	test_free(v, t);
}

/* One tick of one test; 1 when it ended (and was freed).  *wait falls to
 * the time until a running direction's next event (its --time, a report). */
static int tick_one(struct srv *v, struct srv_test *t, double now, double *wait)
{
	srv_iperf2_tick(v, t, now);
	if (!joined_all(t) && now >= t->join_until)
		close_join(t);
	if (t->kind == TEST_BB && t->ctl_gone && !t->data_done) {
		set_why(t, "the client closed the control connection during the test");
		stop_test(t, BB_END_RESET);
		close_join(t);
	}
	for (int i = 0; i < 2; i++) {
		struct srv_dir *d = dir_of(t, i);
		if (!d->used)
			continue;
		double w = ttcp_ctl_step(&d->s);
		if (!atomic_load(&d->s.stop) && w < *wait)
			*wait = w;
		watch_rate(t, d, now, v->o->min_rate_bps);
		shut_when_sent(t, d);
	}
	if (!t->data_done) {
		if (!data_finished(t))
			return 0;
		t->data_done = now;
		t->result_until = now + SRV_RESULT_S;
		join_threads(t);
	}
	if (t->kind == TEST_BB && !t->ctl_gone && now < t->result_until &&
	    ((t->rx.used && !t->have_res[1]) || (t->tx.used && !t->have_res[0])))
		return 0;                /* the client's RESULTs, for a while */
	cross_check(t);
	finish(v, t);
	send_results(t);
	test_free(v, t);
	return 1;
}

double srv_tests_tick(struct srv *v, double now)
{
	struct srv_test *t = v->tests, *next;
	double wait = TTCP_TICK_S;

	for (; t; t = next) {
		next = t->next;
		tick_one(v, t, now, &wait);
	}
	return wait;
}

/* One message the client sent on its control connection after ACCEPT. */
static void ctl_message(struct srv_test *t, const struct bb_ctl_msg *m)
{
	if (m->type == BB_CTL_RESULT) {
		int role = (int)m->num[BB_CF_ROLE];
		t->peer_res[role] = *m;
		t->have_res[role] = 1;
	} else if (m->type == BB_CTL_REFUSE) {
		set_why(t, "the client gave up: %s", m->reason);
		t->ctl_gone = 1;
	} else {
		set_why(t, "a %s message during the test", bb_ctl_type_name(m->type));
		t->ctl_gone = 1;
	}
}

void srv_test_ctl_readable(struct srv *v, struct srv_test *t)
{
	ssize_t r = recv(t->ctl_fd, t->cbuf + t->cn, sizeof t->cbuf - t->cn, MSG_DONTWAIT);
	struct bb_ctl_msg m;
	char why[160];
	size_t used;

	(void)v;
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		t->ctl_gone = 1;
		return;
	}
	if (r < 0)
		return;
	t->cn += (size_t)r;
	while (t->cn > 0 && !t->ctl_gone) {
		enum bb_ctl_parse p = bb_ctl_parse(t->cbuf, t->cn, &m, &used, why, sizeof why);
		if (p == BB_CTL_NEED_MORE)
			return;
		if (p == BB_CTL_BAD) {
			set_why(t, "the client's control message: %s", why);
			srv_ctl_refuse(t->ctl_fd, why);
			t->ctl_gone = 1;
			return;
		}
		ctl_message(t, &m);
		memmove(t->cbuf, t->cbuf + used, t->cn - used);
		t->cn -= used;
	}
}

void srv_tests_finish_all(struct srv *v)
{
	for (struct srv_test *t = v->tests; t; t = t->next) {
		set_why(t, "interrupted: the server was stopped (SIGTERM or SIGINT)");
		stop_test(t, BB_END_INTERRUPTED);
		t->join_until = 0;
	}
	while (v->tests) {
		double now = bb_now();
		for (struct srv_test *t = v->tests; t; t = t->next)
			if (t->data_done)
				t->result_until = now;
		srv_tests_tick(v, now);
		if (v->tests)
			ttcp_ctl_sleep(&(v->tests->rx.used ? &v->tests->rx : &v->tests->tx)->s,
				       TTCP_TICK_S);
	}
}
