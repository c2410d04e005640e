/* ttcp_server_client.c - `boardbench ttcp --to-server HOST`: the client of
 * a `ttcp -r --server`.  It agrees the test on a control connection
 * (HELLO, CHALLENGE, AUTH when the server has a key, REQUEST, ACCEPT: see
 * docs/protocol.md), opens the data connections each starting with DATA
 * (the token and the stream's index), runs its end of each direction as
 * a ttcp session (-R: the server sends; --bidir: both at once), then
 * sends its RESULTs and prints both ends: its own classic report and the
 * server's bytes, rate and CPU.  With -u there are no data connections:
 * each end's UDP ports are announced on the control connection
 * (ttcp_server_udp.c), and each receiving end's loss, reordering, jitter
 * and refused datagrams are printed, its count checked against what the
 * other end says it sent.  Its --help is src/applets/ttcp/help_client.txt. */
#include "core/help.h"
#include "core/random.h"
#include "ttcp_server.h"
#include "core/error.h"
#include "core/parse.h"
#include "core/timer.h"
#include "net/pattern.h"
#include "net/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

BB_HELP_TEXT(ttcp_client);

#define CLI_ANSWER_S 10.0          /* the server answers each control step within */

struct client {
	struct ttcp_opts base;
	int direction;
	unsigned char key[SRV_KEY_MAX];
	size_t keylen;
	struct bb_cli cli;
	struct bb_addr peer;
	int ctl;
	unsigned char token[BB_CTL_TOKEN];
	struct ttcp_opts o[2];          /* [0] this end sends, [1] this end receives */
	struct ttcp_session s[2];
	int used[2], shut;
	int udp_fd[2];                  /* -u: [0] sends, [1] receives, until a session takes it */
	unsigned udp_port[2];           /* their ports */
	unsigned srv_udp_rx, srv_udp_tx;   /* the server's, from ACCEPT */
	struct bb_ctl_msg srv_res[2];   /* by the server's role */
	int have_srv[2];
	char error[256];
};

static double secs(const char *opt, const char *arg)
{
	double v;

	if (bb_parse_double(arg, 1e-3, 86400, &v) || v < 1e-3)
		bb_die_value(opt, arg, "expected seconds > 0, at most 86400");
	return v;
}

static int client_opt(struct client *c, int opt, const char *arg)
{
	struct ttcp_opts *o = &c->base;
	char err[200];

	switch (opt) {
	case 't': case TO_TO_SERVER: if (arg) o->host = arg; return 1;
	case 'R': c->direction = BB_CTL_TO_CLIENT; return 1;
	case TO_BIDIR: c->direction = BB_CTL_BOTH; return 1;
	case 'l': o->buflen = bb_size_arg("-l", arg, 1, SRV_MAX_WRITE, "expected bytes 1..1M"); return 1;
	case 'n': o->nbuf = bb_size_arg("-n", arg, 1, 1ull << 40, "expected a count 1..2^40"); return 1;
	case 'p': o->port = (unsigned)bb_size_arg("-p", arg, 1, 65535, "expected a port 1..65535"); return 1;
	case 'b': o->sockbuf = (int)bb_size_arg("-b", arg, 1, 1u << 30, "expected bytes 1..1G"); return 1;
	case 'D': o->nodelay = 1; return 1;
	case 'u': o->udp = 1; return 1;
	case TO_RATE:
		if (bb_parse_rate(arg, &o->rate_bps))
			bb_die_value("--rate", arg, "expected bits/s > 0, e.g. 100M (k/M/G = 10^3/6/9)");
		return 1;
	case '4': o->family = AF_INET; return 1;
	case '6': o->family = AF_INET6; return 1;
	case 'f':
		if (strlen(arg) != 1 || !strchr("kKmMgG", arg[0]))
			bb_die_value("-f", arg, "expected one of k K m M g G");
		o->fmt = arg[0];
		return 1;
	case TO_TIME: o->time_s = secs("--time", arg); return 1;
	case TO_STREAMS: o->streams = (int)bb_size_arg("--streams", arg, 1, BB_MAX_STREAMS, "expected 1..64"); return 1;
	case TO_CONNECT_TIMEOUT: o->connect_timeout_s = secs("--connect-timeout", arg); return 1;
	case TO_IDLE_TIMEOUT: o->idle_timeout_s = secs("--idle-timeout", arg); return 1;
	case TO_KEY:
		if (srv_key_load(arg, c->key, sizeof c->key, &c->keylen, err, sizeof err) != 0)
			bb_die_value("--key", arg, err);
		return 1;
	}
	return 0;
}

static void check_udp(const struct client *c)
{
	const struct ttcp_opts *o = &c->base;
	char len[32];

	if (!o->udp) {
		if (o->rate_bps > 0)
			bb_die_usage("--rate paces UDP streams: give -u too (see --help)");
		return;
	}
	snprintf(len, sizeof len, "%zu", o->buflen);
	if (o->buflen < SRV_UDP_MIN_WRITE || o->buflen > TTCP_UDP_MAX_DATAGRAM)
		bb_die_value("-l", len, "with -u: datagrams of 24..65507 bytes (the sequence "
			     "header takes 24)");
	if (c->direction != BB_CTL_TO_SERVER && o->rate_bps <= 0)
		bb_die_usage("-u with -R or --bidir needs --rate BITS, the rate the server is to "
			     "send each stream at (see --help)");
}

static void parse(int argc, char **argv, struct client *c)
{
	int opt;

	bb_cli_begin();
	while ((opt = ttcp_getopt(argc, argv, TTCP_MODE_CLIENT)) != -1) {
		if (opt == 'h') {
			bb_help_print(&bb_help_ttcp_client);
			exit(0);
		}
		if (bb_cli_common(opt, optarg, &c->cli) || client_opt(c, opt, optarg))
			continue;
		bb_cli_bad(opt, argv);
	}
	bb_cli_no_operands(argc, argv);
	if (!c->base.host || !c->base.host[0])
		bb_die_value("--to-server", "", "expected the server's name or address");
	if (c->direction == BB_CTL_BOTH && c->base.streams > BB_MAX_STREAMS / 2)
		bb_die_usage("--bidir with --streams above %d (see --help)", BB_MAX_STREAMS / 2);
	check_udp(c);
}

static void defaults(struct client *c)
{
	memset(c, 0, sizeof *c);
	c->base.family = AF_UNSPEC;
	c->base.port = TTCP_DEFAULT_PORT;
	c->base.buflen = TTCP_DEFAULT_BUFLEN;
	c->base.nbuf = TTCP_DEFAULT_NBUF;
	c->base.align = TTCP_DEFAULT_ALIGN;
	c->base.fmt = 'K';
	c->base.streams = 1;
	c->base.sink = 1;
	c->base.connect_timeout_s = 10;
	c->base.idle_timeout_s = 30;
	c->base.quiet_notes = 1;
	c->ctl = -1;
	c->udp_fd[0] = c->udp_fd[1] = -1;
}

/* ---- the control session ---- */

static int connect_to(struct client *c, int *fd)
{
	struct bb_sockopt so = { SOCK_STREAM, c->base.sockbuf, c->base.nodelay, NULL, NULL,
				 TTCP_TICK_S };

	*fd = bb_sock_open(c->peer.ss.ss_family, &so, c->error, sizeof c->error);
	if (*fd < 0)
		return -1;
	if (bb_sock_connect(*fd, &c->peer, c->base.connect_timeout_s, NULL, c->error,
			    sizeof c->error) != 0) {
		close(*fd);
		*fd = -1;
		return -1;
	}
	return 0;
}

/* Receives one message of type want; a REFUSE or anything else fails. */
static int expect(struct client *c, enum bb_ctl_type want, struct bb_ctl_msg *m)
{
	char err[200];

	if (srv_ctl_recv(c->ctl, CLI_ANSWER_S, m, err, sizeof err) != 0) {
		snprintf(c->error, sizeof c->error, "the server's answer: %s", err);
		return -1;
	}
	if (m->type == BB_CTL_REFUSE) {
		snprintf(c->error, sizeof c->error, "the server refused: %s", m->reason);
		return -1;
	}
	if (m->type != want) {
		snprintf(c->error, sizeof c->error, "the server sent %s, %s expected",
			 bb_ctl_type_name(m->type), bb_ctl_type_name(want));
		return -1;
	}
	return 0;
}

static int send_msg(struct client *c, const struct bb_ctl_msg *m)
{
	return srv_ctl_send(c->ctl, m, c->error, sizeof c->error);
}

static void request_of(const struct client *c, struct bb_ctl_msg *m)
{
	const struct ttcp_opts *o = &c->base;

	bb_ctl_init(m, BB_CTL_REQUEST);
	bb_ctl_set(m, BB_CF_DIRECTION, (uint64_t)c->direction);
	bb_ctl_set(m, BB_CF_PROTO, (uint64_t)o->udp);
	if (o->udp && o->rate_bps > 0)
		bb_ctl_set(m, BB_CF_UDP_RATE, (uint64_t)(o->rate_bps + 0.5));
	if (c->udp_fd[0] >= 0)
		bb_ctl_set(m, BB_CF_UDP_TX_PORT, c->udp_port[0]);
	if (c->udp_fd[1] >= 0)
		bb_ctl_set(m, BB_CF_UDP_RX_PORT, c->udp_port[1]);
	bb_ctl_set(m, BB_CF_STREAMS, (uint64_t)o->streams);
	bb_ctl_set(m, BB_CF_WRITE_LEN, o->buflen);
	if (o->time_s > 0)
		bb_ctl_set(m, BB_CF_DURATION_MS, (uint64_t)(o->time_s * 1000 + 0.5));
	else
		bb_ctl_set(m, BB_CF_BYTES, o->nbuf * o->buflen);
}

/* -u: the sockets of the directions this end has (sending, receiving),
 * bound to the control connection's local address, their ports announced
 * in the REQUEST. */
static int udp_sockets(struct client *c)
{
	for (int k = 0; k < 2 && c->base.udp; k++) {
		if ((k == 0 && c->direction == BB_CTL_TO_CLIENT) ||
		    (k == 1 && c->direction == BB_CTL_TO_SERVER))
			continue;
		c->udp_fd[k] = srv_udp_socket(c->ctl, c->base.sockbuf, &c->udp_port[k], c->error,
					      sizeof c->error);
		if (c->udp_fd[k] < 0)
			return -1;
	}
	return 0;
}

/* -u: the server's ports from its ACCEPT, one for each direction. */
static int udp_ports(struct client *c, const struct bb_ctl_msg *acc)
{
	if (!c->base.udp)
		return 0;
	if ((c->udp_fd[0] >= 0 && !bb_ctl_has(acc, BB_CF_UDP_RX_PORT)) ||
	    (c->udp_fd[1] >= 0 && !bb_ctl_has(acc, BB_CF_UDP_TX_PORT))) {
		snprintf(c->error, sizeof c->error, "the server's ACCEPT names no UDP port for this "
			 "test (a server that serves TCP only?)");
		return -1;
	}
	c->srv_udp_rx = (unsigned)acc->num[BB_CF_UDP_RX_PORT];
	c->srv_udp_tx = (unsigned)acc->num[BB_CF_UDP_TX_PORT];
	return 0;
}

static int handshake(struct client *c)
{
	struct bb_ctl_msg m, ch;
	unsigned char nonce[BB_CTL_NONCE];

	if (bb_random(nonce, sizeof nonce) != 0) {
		snprintf(c->error, sizeof c->error, "getrandom: %s", strerror(errno));
		return -1;
	}
	bb_ctl_init(&m, BB_CTL_HELLO);
	memcpy(m.nonce, nonce, sizeof nonce);
	m.have |= 1u << BB_CF_NONCE;
	if (send_msg(c, &m) != 0 || expect(c, BB_CTL_CHALLENGE, &ch) != 0)
		return -1;
	if (ch.num[BB_CF_KEY_REQUIRED]) {
		if (!c->keylen) {
			snprintf(c->error, sizeof c->error, "the server asks for its key (--key FILE)");
			return -1;
		}
		bb_ctl_init(&m, BB_CTL_AUTH);
		bb_ctl_mac(c->key, c->keylen, ch.nonce, nonce, m.mac);
		m.have |= 1u << BB_CF_MAC;
		if (send_msg(c, &m) != 0)
			return -1;
	}
	if (udp_sockets(c) != 0)
		return -1;
	request_of(c, &m);
	if (send_msg(c, &m) != 0 || expect(c, BB_CTL_ACCEPT, &m) != 0)
		return -1;
	memcpy(c->token, m.token, sizeof c->token);
	return udp_ports(c, &m);
}

/* ---- the data ---- */

static void session_init(struct client *c, int k, struct bb_run *run)
{
	struct ttcp_opts *o = &c->o[k];
	struct bb_result *r = bb_run_add_result(run, "ttcp");
	struct bb_xfer_cfg *cfg;

	r->render = ttcp_render;
	r->summary = ttcp_summary;
	*o = c->base;
	o->transmit = k == 0;
	if (k == 1)
		o->time_s = 0;              /* the server's clock ends what it sends */
	ttcp_session_init(&c->s[k], o, r);
	cfg = &c->s[k].cfg;
	cfg->buflen = o->buflen;
	cfg->read_size = ttcp_default_read_size(o->buflen, o->udp);
	cfg->nbuf = k == 0 && o->time_s <= 0 ? o->nbuf : 0;
	cfg->src_fd = cfg->dst_fd = cfg->file_fd = -1;
	cfg->idle_s = o->idle_timeout_s;
	cfg->nstreams = (unsigned)o->streams;
	cfg->stop = &c->s[k].stop;
	if (o->udp)
		srv_udp_config(&c->s[k], o->rate_bps, cfg->nbuf, CLI_ANSWER_S);
	ttcp_model_params(&c->s[k]);
	c->used[k] = 1;
}

/* -u: session k's streams on its socket (no data connections). */
static int open_udp(struct client *c, int k)
{
	struct ttcp_session *s = &c->s[k];
	int fd = c->udp_fd[k], rc;

	c->udp_fd[k] = -1;                  /* the session has it now */
	if (k == 0 && srv_udp_connect(fd, c->ctl, c->srv_udp_rx, c->error, sizeof c->error) != 0) {
		close(fd);
		return -1;
	}
	rc = k == 0 ? srv_udp_open_tx(s, fd) : srv_udp_open_rx(s, fd, c->ctl, c->srv_udp_tx);
	if (rc != 0)
		snprintf(c->error, sizeof c->error, "%s", s->error);
	return rc;
}

/* Opens stream i of session k: connect, DATA, then a ttcp stream. */
static int open_stream(struct client *c, int k, int i)
{
	struct ttcp_session *s = &c->s[k];
	struct bb_ctl_msg m;
	struct ttcp_stream *t;
	char err[200];
	int fd, index = i + (k == 1 && c->direction == BB_CTL_BOTH ? c->base.streams : 0);

	if (connect_to(c, &fd) != 0)
		return -1;
	bb_ctl_init(&m, BB_CTL_DATA);
	memcpy(m.token, c->token, sizeof c->token);
	m.have |= 1u << BB_CF_TOKEN;
	bb_ctl_set(&m, BB_CF_STREAM, (uint64_t)index);
	if (srv_ctl_send(fd, &m, err, sizeof err) != 0 ||
	    !(t = ttcp_stream_new(s, fd, k == 0 ? s->cfg.buflen : s->cfg.read_size))) {
		snprintf(c->error, sizeof c->error, "data connection %d: %.200s", index,
			 s->error[0] ? s->error : err);
		close(fd);
		return -1;
	}
	if (k == 0)
		bb_pattern_fill(t->x->buf, s->cfg.buflen);
	ttcp_model_socket(s, t);
	t->x->n.t_start = bb_now();
	return 0;
}

static int start(struct client *c)
{
	for (int k = 1; k >= 0; k--) {           /* the receiver first */
		struct ttcp_session *s = &c->s[k];
		if (!c->used[k])
			continue;
		if (c->base.udp) {
			if (srv_udp_go(s) != 0)
				return -1;
			continue;
		}
		s->t0 = bb_now();
		bb_cpu_snap_take(&s->cpu0);
		for (int i = 0; i < s->n; i++)
			if (ttcp_stream_start(s, s->st[i], k == 0 ? ttcp_run_tcp_send
								  : ttcp_run_tcp_recv) != 0)
				return -1;
	}
	return 0;
}

/* Both directions run; the sending one's sockets are shut for writing as
 * soon as it ends, so the server sees its end at once. */
static void wait_done(struct client *c)
{
	for (;;) {
		int done = 1;
		double wait = TTCP_TICK_S;
		for (int k = 0; k < 2; k++) {
			if (!c->used[k])
				continue;
			double w = ttcp_ctl_step(&c->s[k]);
			if (w < wait)
				wait = w;
			if (!ttcp_all_finished(&c->s[k]))
				done = 0;
		}
		if (c->used[0] && !c->shut && !c->base.udp && ttcp_all_finished(&c->s[0])) {
			for (int i = 0; i < c->s[0].n; i++)
				shutdown(c->s[0].st[i]->x->fd, SHUT_WR);
			c->shut = 1;
		}
		if (done)
			return;
		ttcp_ctl_sleep(&c->s[c->used[0] && !ttcp_all_finished(&c->s[0]) ? 0 : 1], wait);
	}
}

static void finish_sessions(struct client *c)
{
	for (int k = 0; k < 2; k++) {
		struct ttcp_session *s = &c->s[k];
		if (!c->used[k])
			continue;
		ttcp_join_all(s);
		bb_cpu_snap_take(&s->cpu1);
		if (s->t0 == 0)
			s->cpu0 = s->cpu1;
		for (int i = 0; i < s->n; i++)
			bb_tcpinfo_get(s->st[i]->x->fd, &s->st[i]->ti);
		if (c->error[0] && !s->error[0])
			snprintf(s->error, sizeof s->error, "%s", c->error);
		if (!s->error[0])
			srv_udp_doubt_local(s, s->error, sizeof s->error);
		ttcp_model_finish(s);
	}
}

/* RESULTs both ways: this end's, then the server's (role 0: it received). */
static void exchange_results(struct client *c)
{
	struct bb_ctl_msg m;
	char err[200];

	for (int k = 0; k < 2; k++) {
		if (!c->used[k])
			continue;
		srv_result_of(&c->s[k], k == 0 ? 1 : 0, &m);
		if (srv_ctl_send(c->ctl, &m, err, sizeof err) != 0)
			return;
	}
	for (int got = 0; got < c->used[0] + c->used[1]; got++) {
		if (srv_ctl_recv(c->ctl, CLI_ANSWER_S, &m, err, sizeof err) != 0 ||
		    m.type != BB_CTL_RESULT)
			return;
		c->have_srv[m.num[BB_CF_ROLE] ? 1 : 0] = 1;
		c->srv_res[m.num[BB_CF_ROLE] ? 1 : 0] = m;
	}
}

static const char *status_text(uint64_t s)
{
	static const char *const t[] = { "complete", "INCOMPLETE", "interrupted", "refused" };
	return s < 4 ? t[s] : "?";
}

static uint64_t num_or_0(const struct bb_ctl_msg *m, enum bb_ctl_field f)
{
	return bb_ctl_has(m, f) ? m->num[f] : 0;
}

/* -u: the server's UDP figures: what it sent, or what it received. */
static void server_udp(const struct bb_ctl_msg *m, int role, struct bb_kvlist *p, FILE *f)
{
	unsigned long long dg = num_or_0(m, BB_CF_DATAGRAMS), lost = num_or_0(m, BB_CF_LOST);
	unsigned long long foreign = num_or_0(m, BB_CF_FOREIGN);
	unsigned long long malformed = num_or_0(m, BB_CF_MALFORMED);
	unsigned long long dup = num_or_0(m, BB_CF_DUPLICATES);
	double jitter = (double)num_or_0(m, BB_CF_JITTER_NS) * 1e-9;

	bb_kv_int(p, "server_udp_datagrams", (long long)dg);
	if (role) {
		fprintf(f, "ttcp-server: udp: sent %llu datagrams\n", dg);
		return;
	}
	if (dup > dg)
		dup = dg;                           /* the server's word: kept consistent */
	fprintf(f, "ttcp-server: udp: %llu datagrams, %llu lost of %llu (%.3f%%), %llu out of "
		   "order, %llu duplicates, jitter %.3f ms (RFC 3550); refused %llu foreign and "
		   "%llu malformed datagram(s), not counted\n", dg, lost, dg - dup + lost,
		dg - dup + lost ? 100.0 * (double)lost / (double)(dg - dup + lost) : 0.0,
		(unsigned long long)num_or_0(m, BB_CF_OUT_OF_ORDER), dup, jitter * 1e3, foreign,
		malformed);
	bb_kv_int(p, "server_udp_lost", (long long)lost);
	bb_kv_int(p, "server_udp_out_of_order", (long long)num_or_0(m, BB_CF_OUT_OF_ORDER));
	bb_kv_num(p, "server_udp_jitter_s", jitter);
	bb_kv_int(p, "server_udp_foreign_datagrams", (long long)foreign);
	bb_kv_int(p, "server_udp_malformed_datagrams", (long long)malformed);
	bb_kv_int(p, "server_udp_duplicates", (long long)dup);
}

/* The server's end, printed under this end's report and kept in the model. */
static void server_end(struct client *c, int k, FILE *f)
{
	int role = k == 0 ? 0 : 1;              /* this end sends: the server received */
	const struct bb_ctl_msg *m = &c->srv_res[role];
	struct bb_kvlist *p = &c->s[k].r->params;
	double el, bytes, user, sys;

	if (!c->have_srv[role]) {
		fprintf(f, "ttcp-server: no result from the server\n");
		bb_kv_str(p, "server_status", "unknown");
		return;
	}
	el = (double)m->num[BB_CF_ELAPSED_US] / 1e6;
	bytes = (double)m->num[BB_CF_RX_BYTES];
	user = (double)m->num[BB_CF_CPU_USER_US] / 1e6;
	sys = (double)m->num[BB_CF_CPU_SYS_US] / 1e6;
	fprintf(f, "ttcp-server: %s %.0f bytes in %.2f real seconds = %.2f Mbit/s (10^6 bit/s)\n",
		role ? "sent" : "received", bytes, el, el > 0 ? bytes * 8 / el / 1e6 : 0);
	fprintf(f, "ttcp-server: cpu: server process %.3f user + %.3f sys s = %.1f%% of one CPU; %s\n",
		user, sys, el > 0 ? 100 * (user + sys) / el : 0, status_text(m->num[BB_CF_STATUS]));
	bb_kv_num(p, "server_bytes", bytes);
	bb_kv_num(p, "server_real_s", el);
	bb_kv_num(p, "server_cpu_user_s", user);
	bb_kv_num(p, "server_cpu_sys_s", sys);
	bb_kv_str(p, "server_status", status_text(m->num[BB_CF_STATUS]));
	if (c->base.udp)
		server_udp(m, role, p, f);
}

/* -u, this end sent: its datagrams, the count the server's is checked against. */
static void udp_sent_line(struct ttcp_session *s, FILE *f)
{
	uint64_t sent = 0;

	for (int i = 0; i < s->n; i++)
		sent += s->st[i]->x->n.calls;
	fprintf(f, "ttcp-t: udp: sent %llu datagrams\n", (unsigned long long)sent);
	bb_kv_int(&s->r->params, "udp_datagrams_sent", (long long)sent);
}

/* This end sent: the headline is what arrived, the server's count over
 * its time (goodput); the ttcp-t lines under it count what was written,
 * which a slow link buffers ahead of the wire. */
static void goodput_line(struct client *c, int k, FILE *f)
{
	const struct bb_ctl_msg *m = &c->srv_res[0];
	double el, bytes;

	if (k != 0 || !c->have_srv[0])
		return;
	el = (double)m->num[BB_CF_ELAPSED_US] / 1e6;
	bytes = (double)m->num[BB_CF_RX_BYTES];
	fprintf(f, "ttcp-client: goodput %.2f Mbit/s (10^6 bit/s): %.0f bytes arrived at the server "
		"in %.2f s (the ttcp-t rate counts writes)\n",
		el > 0 ? bytes * 8 / el / 1e6 : 0, bytes, el);
	if (el > 0)
		bb_kv_num(&c->s[0].r->params, "goodput_bits_per_s", bytes * 8 / el);
}

static int report(struct client *c)
{
	int rc = 0;

	for (int k = 0; k < 2; k++) {
		if (!c->used[k])
			continue;
		goodput_line(c, k, stdout);
		ttcp_render_header(stdout, c->s[k].r);
		ttcp_render_report(stdout, c->s[k].r);
		if (c->base.udp && k == 0)
			udp_sent_line(&c->s[0], stdout);
		server_end(c, k, stdout);
		if (!c->s[k].r->ok || !c->have_srv[k == 0 ? 0 : 1] ||
		    c->srv_res[k == 0 ? 0 : 1].num[BB_CF_STATUS] != 0)
			rc = 1;
	}
	fflush(stdout);
	return rc;
}

/* -u, this end received: its count against the datagrams the server
 * says it sent; a disagreement makes this end's result incomplete. */
static void udp_count_check(struct client *c)
{
	struct ttcp_session *s = &c->s[1];
	char why[200], msg[320];

	if (!c->base.udp || !c->used[1] || !s->r->ok || !c->have_srv[1] ||
	    !bb_ctl_has(&c->srv_res[1], BB_CF_DATAGRAMS))
		return;
	srv_udp_doubt_count(s, c->srv_res[1].num[BB_CF_DATAGRAMS], why, sizeof why);
	if (!why[0])
		return;
	snprintf(msg, sizeof msg, "incomplete: %s", why);
	bb_result_set_status(s->r, 0, msg);
	bb_kv_bool(&s->r->params, "complete", 0);
}

static int run_test(struct client *c, struct bb_run *run)
{
	if (bb_addr_resolve(c->base.host, c->base.port, c->base.family, SOCK_STREAM, &c->peer,
			    c->error, sizeof c->error) != 0 ||
	    connect_to(c, &c->ctl) != 0 || handshake(c) != 0)
		return -1;
	if (c->direction != BB_CTL_TO_CLIENT)
		session_init(c, 0, run);
	if (c->direction != BB_CTL_TO_SERVER)
		session_init(c, 1, run);
	for (int k = 0; k < 2; k++)
		if (c->used[k] && c->base.udp && !c->error[0])
			open_udp(c, k);
		else
			for (int i = 0; i < c->base.streams && c->used[k] && !c->error[0]; i++)
				open_stream(c, k, i);
	if (!c->error[0])
		start(c);
	wait_done(c);
	finish_sessions(c);
	exchange_results(c);
	udp_count_check(c);
	return 0;
}

int ttcp_client_main(int argc, char **argv)
{
	struct client *c = malloc(sizeof *c);
	struct bb_run *run;
	int rc = 1;

	if (!c)
		bb_die("out of memory");
	defaults(c);
	parse(argc, argv, c);
	run = bb_run_new(argc, argv);
	ttcp_signals_install(&c->s[0]);
	if (run_test(c, run) == 0)
		rc = report(c);
	else
		bb_warn("%s", c->error);
	rc |= bb_cli_finish(run, &c->cli);
	for (int k = 0; k < 2; k++)
		if (c->used[k])
			ttcp_session_free(&c->s[k]);
	if (c->ctl >= 0)
		close(c->ctl);
	for (int k = 0; k < 2; k++)
		if (c->udp_fd[k] >= 0)
			close(c->udp_fd[k]);
	bb_run_free(run);
	bb_cli_free(&c->cli);
	free(c);
	return rc ? BB_EXIT_FAIL : 0;
}
