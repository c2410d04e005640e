/* ttcp_server.c - `boardbench ttcp -r --server`: a receiver left running
 * on a lab network.  It serves test after test until SIGTERM/SIGINT,
 * several at once from different clients (--max-tests), each test on
 * connections of its own (see ttcp_server_conn.c), and prints one log
 * line per test or refused connection on stdout.  This file holds the
 * options, the listening socket and the event loop: one thread polls the
 * listening socket, the connections still in their first bytes or
 * handshake, the control connections of running tests and the tests' wake
 * pipes, and gives every test a tick; stream threads only move data.
 * At the connection cap (--max-conns, or what RLIMIT_NOFILE leaves) and
 * when accept fails for lack of descriptors, the oldest connection silent
 * for SRV_EVICT_S makes room; while none has been silent that long, new
 * ones wait in the kernel's backlog (no busy loop, no newcomer refused
 * while a silent one will soon go).
 * Its --help is src/applets/ttcp/help_server.txt. */
#include "ttcp_server.h"
#include "core/error.h"
#include "core/help.h"
#include "core/parse.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "facts/facts.h"
#include "net/units.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

BB_HELP_TEXT(ttcp_server);

#define SRV_ACCEPT_BURST 64
#define SRV_BACKOFF_MIN_S 0.05
#define SRV_BACKOFF_MAX_S 1.0
#define SRV_EVICT_S 0.2             /* silent this long: the first to go at the cap */
#define SRV_BACKLOG 1024            /* the kernel caps it at net.core.somaxconn */

void srv_note(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ttcp-r: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void srv_log(const char *who, const char *mode, uint64_t bytes, double seconds,
	     const char *verdict)
{
	char stamp[32], rate[32];

	bb_utc_stamp(stamp, sizeof stamp, time(NULL), 0);
	if (seconds > 0)
		snprintf(rate, sizeof rate, "%.2f", (double)bytes * 8 / seconds / 1e6);
	else
		snprintf(rate, sizeof rate, "-");
	printf("%s %s %s %llu bytes %.2f s %s Mbit/s %s\n", stamp, who, mode,
	       (unsigned long long)bytes, seconds, rate, verdict);
	fflush(stdout);
}

static double secs_arg(const char *opt, const char *arg, double min)
{
	double v;

	if (bb_parse_double(arg, min, 86400, &v) || v < min)
		bb_die_value(opt, arg, min > 0 ? "expected seconds > 0, at most 86400"
					       : "expected seconds >= 0, at most 86400");
	return v;
}

static void allow_arg(struct srv_opts *o, const char *arg)
{
	char err[160];

	if (bb_cidr_list_parse(arg, &o->allow, err, sizeof err) != 0)
		bb_die_value("--allow", arg, err);
}

static void key_arg(struct srv_opts *o, const char *arg)
{
	char err[200];

	if (srv_key_load(arg, o->key, sizeof o->key, &o->keylen, err, sizeof err) != 0)
		bb_die_value("--key", arg, err);
}

static void dir_arg(struct srv_opts *o, const char *arg)
{
	struct stat st;

	if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode) || access(arg, W_OK) != 0)
		bb_die_value("--json-dir", arg, "expected a writable directory");
	o->json_dir = arg;
}

static int server_opt(struct srv_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case TO_SERVER: case 'r': return 1;
	case 'p': o->base.port = (unsigned)bb_size_arg("-p", arg, 1, 65535, "expected a port 1..65535"); return 1;
	case '4': o->base.family = AF_INET; return 1;
	case '6': o->base.family = AF_INET6; return 1;
	case 'b': o->base.sockbuf = (int)bb_size_arg("-b", arg, 1, 1u << 30, "expected bytes 1..1G"); return 1;
	case 'D': o->base.nodelay = 1; return 1;
	case TO_BIND: o->base.bind = arg; return 1;
	case TO_READ_SIZE:
		o->base.read_size = bb_size_arg("--read-size", arg, 1, 16u << 20, "expected bytes 1..16M");
		return 1;
	case TO_MAX_TESTS: o->max_tests = (int)bb_size_arg("--max-tests", arg, 1, 64, "expected 1..64"); return 1;
	case TO_MAX_CONNS: o->max_conns = (int)bb_size_arg("--max-conns", arg, 1, 4096, "expected 1..4096"); return 1;
	case TO_MAX_STREAMS:
		o->max_streams = (int)bb_size_arg("--max-streams", arg, 1, BB_MAX_STREAMS, "expected 1..64");
		return 1;
	case TO_HANDSHAKE: o->handshake_s = secs_arg("--handshake-timeout", arg, 0.01); return 1;
	case TO_IDLE_TIMEOUT: o->idle_s = secs_arg("--idle-timeout", arg, 0.01); return 1;
	case TO_MIN_RATE:
		if (strcmp(arg, "0") == 0)
			o->min_rate_bps = 0;
		else if (bb_parse_rate(arg, &o->min_rate_bps))
			bb_die_value("--min-rate", arg, "expected bits/s, e.g. 64k, or 0");
		return 1;
	case TO_RATE_WINDOW: o->rate_window_s = secs_arg("--rate-window", arg, 0.1); return 1;
	case TO_MAX_UDP_RATE:
		if (bb_parse_rate(arg, &o->max_udp_bps))
			bb_die_value("--max-udp-rate", arg, "expected bits/s > 0, e.g. 100M");
		return 1;
	case TO_ALLOW: allow_arg(o, arg); return 1;
	case TO_KEY: key_arg(o, arg); return 1;
	case TO_JSON_DIR: dir_arg(o, arg); return 1;
	}
	return 0;
}

static void parse(int argc, char **argv, struct srv_opts *o)
{
	int opt;

	bb_cli_begin();
	while ((opt = ttcp_getopt(argc, argv, TTCP_MODE_SERVER)) != -1) {
		if (opt == 'h') {
			bb_help_print(&bb_help_ttcp_server);
			exit(0);
		}
		if (bb_cli_common(opt, optarg, &o->cli) || server_opt(o, opt, optarg))
			continue;
		bb_cli_bad(opt, argv);
	}
	bb_cli_no_operands(argc, argv);
}

static void defaults(struct srv_opts *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->base.family = AF_UNSPEC;
	o->base.port = TTCP_DEFAULT_PORT;
	o->base.buflen = TTCP_DEFAULT_BUFLEN;
	o->base.nbuf = TTCP_DEFAULT_NBUF;
	o->base.align = TTCP_DEFAULT_ALIGN;
	o->base.fmt = 'K';
	o->base.streams = 1;
	o->base.connect_timeout_s = 10;
	o->max_tests = SRV_MAX_TESTS;
	o->max_conns = SRV_MAX_CONNS;
	o->max_streams = SRV_MAX_STREAMS;
	o->handshake_s = SRV_HANDSHAKE_S;
	o->idle_s = SRV_IDLE_S;
	o->min_rate_bps = SRV_MIN_RATE_BPS;
	o->rate_window_s = SRV_RATE_WINDOW_S;
	o->max_udp_bps = SRV_MAX_UDP_BPS;
	o->argc = argc;
	o->argv = argv;
}

/* The listening socket: --bind, or the wildcard of -4/-6 (default IPv6
 * taking IPv4 too, or IPv4 where the kernel has no IPv6). */
static int listen_on(const struct srv_opts *o, char *err, size_t errlen)
{
	struct bb_sockopt so = { SOCK_STREAM, o->base.sockbuf, o->base.nodelay, NULL, NULL, 0 };
	int family = o->base.family == AF_INET ? AF_INET : AF_INET6, fd;
	char addr[128], dev[64];
	struct bb_addr local;

	addr[0] = dev[0] = '\0';
	if (o->base.bind) {
		if (bb_bind_spec_parse(o->base.bind, addr, sizeof addr, dev, sizeof dev) != 0 ||
		    (addr[0] && bb_addr_numeric(addr, o->base.port, o->base.family, &local) != 0)) {
			snprintf(err, errlen, "--bind '%s': not a numeric address[%%device]",
				 o->base.bind);
			return -1;
		}
		so.dev = dev[0] ? dev : NULL;
		if (addr[0])
			family = local.ss.ss_family;
	}
	if (!addr[0])
		bb_addr_wildcard(family, o->base.port, &local);
	fd = bb_sock_listen(family, &local, &so, err, errlen);
	if (fd < 0 && family == AF_INET6 && o->base.family == AF_UNSPEC && !addr[0] &&
	    (errno == EAFNOSUPPORT || errno == EADDRNOTAVAIL)) {
		bb_addr_wildcard(AF_INET, o->base.port, &local);
		fd = bb_sock_listen(AF_INET, &local, &so, err, errlen);
	}
	/* A long backlog: connections the cap holds back wait there in the
	 * order they came, so a flood queues beside a legitimate client
	 * rather than taking every slot and dropping its SYN. */
	if (fd >= 0)
		(void)listen(fd, SRV_BACKLOG);
	return fd;
}

/* accept4 failed for lack of descriptors or memory: stop accepting for a
 * while (doubling up to a second), and let waiting tests know. */
static void back_off(struct srv *v, int err, double now)
{
	v->backoff_s = v->backoff_s <= 0 ? SRV_BACKOFF_MIN_S : v->backoff_s * 2;
	if (v->backoff_s > SRV_BACKOFF_MAX_S)
		v->backoff_s = SRV_BACKOFF_MAX_S;
	v->accept_pause_until = now + v->backoff_s;
	if (v->emfile_count++ == 0 || v->backoff_s >= SRV_BACKOFF_MAX_S)
		srv_note("accept: %s; accepting again in %.2f s (%lu times so far)", strerror(err),
			 v->backoff_s, v->emfile_count);
	for (struct srv_test *t = v->tests; t; t = t->next)
		t->emfile = 1;
}

/* Descriptors RLIMIT_NOFILE leaves for connections: the limit less those
 * open now (the listening socket among them) and a spare. */
static void fd_budget(struct srv *v)
{
	struct rlimit rl;
	int open = 0;

	v->fd_budget = INT_MAX / 2;
	v->nofile = 0;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > (rlim_t)1 << 20)
		return;
	v->nofile = (int)rl.rlim_cur;
	for (int fd = 0; fd < v->nofile && fd < 4096; fd++)
		open += fcntl(fd, F_GETFD) != -1;
	v->fd_budget = v->nofile - open - SRV_FD_SPARE;
}

int srv_conn_cap(const struct srv *v)
{
	int room = v->fd_budget < 1 ? 1 : v->fd_budget;

	return room < v->o->max_conns ? room : v->o->max_conns;
}

/* What caps the connections now, as the log says it. */
static void cap_reason(const struct srv *v, int err, char *buf, size_t len)
{
	if (err == ENFILE)
		snprintf(buf, len, "ENFILE");
	else if (err == EMFILE || srv_conn_cap(v) < v->o->max_conns)
		snprintf(buf, len, "no file descriptor left (RLIMIT_NOFILE %d)", v->nofile);
	else
		snprintf(buf, len, "--max-conns reached");
}

/* Room for one more connection: the oldest that has said nothing for
 * SRV_EVICT_S goes (a flood of silent connections cannot keep clients
 * that speak at once out).  1 when it went; else 0, and *until is when
 * the oldest silent one may go (new ones wait in the backlog until
 * then), or 0 when none can (every connection speaks or runs a test). */
static int make_room(struct srv *v, double now, int err, double *until)
{
	struct srv_conn *old = NULL;
	char why[96], verdict[160];

	for (struct srv_conn *c = v->conns; c; c = c->next)
		if (c->state == CONN_FIRST && c->n == 0)
			old = c;                 /* the list is newest first: the last is oldest */
	*until = 0;
	if (!old)
		return 0;
	if (now - old->opened < SRV_EVICT_S) {
		*until = old->opened + SRV_EVICT_S;
		return 0;
	}
	cap_reason(v, err, why, sizeof why);
	snprintf(verdict, sizeof verdict, "empty: closed for a newer connection (%s)", why);
	srv_conn_drop(v, old, verdict);
	return 1;
}

static void take(struct srv *v, int fd, const struct bb_addr *peer)
{
	struct bb_ip ip;
	char who[BB_ADDR_TEXT + 8], host[BB_ADDR_TEXT], why[96], verdict[160];

	v->nconns++;
	if (bb_ip_from_sockaddr((const struct sockaddr *)&peer->ss, &ip) == 0 &&
	    bb_cidr_list_allows(&v->o->allow, &ip) && v->nconns <= srv_conn_cap(v)) {
		srv_conn_add(v, fd, peer);
		return;
	}
	bb_addr_text((const struct sockaddr *)&peer->ss, host, sizeof host);
	snprintf(who, sizeof who, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host,
		 bb_addr_port((const struct sockaddr *)&peer->ss));
	cap_reason(v, 0, why, sizeof why);
	snprintf(verdict, sizeof verdict, "refused: too many connections open (%s)",
		 why[0] == '-' ? "--max-conns" : why);
	srv_log(who, "-", 0, 0, v->nconns > srv_conn_cap(v) ? verdict
		: "refused: address not allowed (--allow)");
	close(fd);
	v->nconns--;
}

/* At the cap: room made, or accepting waits (0) until a silent one may go;
 * with none to go, the next one is accepted and refused at once. */
static int room_for_one(struct srv *v, double now)
{
	double until;

	if (v->nconns < srv_conn_cap(v) || make_room(v, now, 0, &until))
		return 1;
	if (until <= 0)
		return 1;
	v->accept_pause_until = until;
	return 0;
}

static void accept_some(struct srv *v, double now)
{
	for (int i = 0; i < SRV_ACCEPT_BURST && room_for_one(v, now); i++) {
		struct bb_addr peer;
		double until;
		int fd;
		peer.len = sizeof peer.ss;
		fd = accept4(v->lfd, (struct sockaddr *)&peer.ss, &peer.len,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0) {
			v->backoff_s = 0;
			take(v, fd, &peer);
		} else if (errno == EMFILE || errno == ENFILE) {
			int err = errno;
			if (make_room(v, now, err, &until))
				continue;                /* a descriptor is free: again */
			back_off(v, err, now);
			if (until > 0 && until < v->accept_pause_until)
				v->accept_pause_until = until;   /* a silent one may go sooner */
			return;
		} else if (errno == ENOBUFS || errno == ENOMEM) {
			back_off(v, errno, now);
			return;
		} else if (errno != ECONNABORTED && errno != EINTR && errno != EPROTO) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				srv_note("accept: %s", strerror(errno));
			return;
		}
	}
}

/* What one poll() watches, and who each entry belongs to. */
struct watch {
	struct pollfd *p;
	void **who;
	int *kind;                   /* 0 listen, 1 pending conn, 2 control, 3 wake pipe */
	size_t n, cap;
};

static void watch_add(struct watch *w, int fd, int kind, void *who)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct pollfd *p = realloc(w->p, cap * sizeof *p);
		void **o = p ? realloc(w->who, cap * sizeof *o) : NULL;
		int *k = o ? realloc(w->kind, cap * sizeof *k) : NULL;
		if (p)
			w->p = p;
		if (o)
			w->who = o;
		if (!k)
			return;              /* out of memory: that fd waits for a tick */
		w->kind = k;
		w->cap = cap;
	}
	w->p[w->n] = (struct pollfd){ .fd = fd, .events = POLLIN };
	w->who[w->n] = who;
	w->kind[w->n++] = kind;
}

static void watch_build(struct srv *v, struct watch *w, double now)
{
	w->n = 0;
	if (now >= v->accept_pause_until)
		watch_add(w, v->lfd, 0, NULL);
	for (struct srv_conn *c = v->conns; c; c = c->next)
		watch_add(w, c->fd, 1, c);
	for (struct srv_test *t = v->tests; t; t = t->next) {
		if (t->ctl_fd >= 0 && !t->ctl_gone)
			watch_add(w, t->ctl_fd, 2, t);
		if (t->rx.used && t->rx.s.wake[0] >= 0)
			watch_add(w, t->rx.s.wake[0], 3, NULL);
		if (t->tx.used && t->tx.s.wake[0] >= 0)
			watch_add(w, t->tx.s.wake[0], 3, NULL);
	}
}

/* Connections first, each of which may free only itself; accepting last,
 * as it may close a pending connection (make_room) met earlier. */
static void serve_ready(struct srv *v, struct watch *w, double now)
{
	char drain[64];
	int listen_ready = 0;

	for (size_t i = 0; i < w->n; i++) {
		if (!w->p[i].revents)
			continue;
		switch (w->kind[i]) {
		case 0: listen_ready = 1; break;
		case 1: srv_conn_readable(v, w->who[i]); break;
		case 2: srv_test_ctl_readable(v, w->who[i]); break;
		default:
			while (read(w->p[i].fd, drain, sizeof drain) > 0)
				;
		}
	}
	if (listen_ready)
		accept_some(v, now);
}

static void serve(struct srv *v)
{
	struct watch w = { 0 };
	double tests_wait = TTCP_TICK_S;

	while (!ttcp_interrupted() && !atomic_load(&v->stop)) {
		double now = bb_now(), wait = tests_wait;
		if (v->accept_pause_until > now && v->accept_pause_until - now < wait)
			wait = v->accept_pause_until - now;
		watch_build(v, &w, now);
		if (poll(w.p, w.n, (int)(wait * 1000) + 1) > 0)
			serve_ready(v, &w, bb_now());
		now = bb_now();
		srv_conns_tick(v, now);
		tests_wait = srv_tests_tick(v, now);
	}
	free(w.p);
	free(w.who);
	free(w.kind);
}

int ttcp_server_main(int argc, char **argv)
{
	static struct ttcp_session signal_target;   /* only its stop flag is used */
	struct srv_opts *o;
	struct srv v;
	struct bb_kvlist probe = { 0 };
	char err[256];

	o = calloc(1, sizeof *o);
	if (!o)
		bb_die("out of memory");
	defaults(o, argc, argv);
	parse(argc, argv, o);
	bb_facts_user(&probe);   /* a --fact that cannot be read ends the server now, not at a test */
	bb_kv_free(&probe);
	memset(&v, 0, sizeof v);
	v.o = o;
	atomic_init(&v.stop, 0);
	v.lfd = listen_on(o, err, sizeof err);
	if (v.lfd < 0) {
		bb_warn("%s", err);
		free(o);
		return BB_EXIT_FAIL;
	}
	ttcp_signals_install(&signal_target);
	fd_budget(&v);
	srv_note("serving on port %u: at most %d tests, %d connections; min rate %.0f bit/s "
		 "over %g s%s%s", o->base.port, o->max_tests, srv_conn_cap(&v), o->min_rate_bps,
		 o->rate_window_s, o->allow.n ? "; --allow" : "", o->keylen ? "; --key" : "");
	if (srv_conn_cap(&v) < o->max_conns)
		srv_note("RLIMIT_NOFILE %d leaves room for %d of --max-conns %d", v.nofile,
			 srv_conn_cap(&v), o->max_conns);
	serve(&v);
	srv_note("stopping: %d tests running end as interrupted", v.ntests);
	srv_conns_close_all(&v);
	srv_tests_finish_all(&v);
	close(v.lfd);
	bb_cli_free(&o->cli);
	free(o);
	return 0;
}
