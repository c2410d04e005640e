/* ttcp_server_conn.c - a connection to the ttcp server before it belongs
 * to a test.  Its first bytes decide what it is:
 *   "BBcp" ...  a boardbench control message: HELLO starts the handshake
 *               (CHALLENGE, AUTH when the server has --key, REQUEST, then
 *               ACCEPT with the test's token, or REFUSE with a reason);
 *               DATA joins the test its token names, from the address of
 *               that test's client, as a stream it has not seen yet;
 *   anything else  a classic client (ttcp, iperf2, nc): a test of its own,
 *               or the group of parallel streams an iperf2 header announced
 *               from the same address; the bytes read so far are its data.
 * Nothing here blocks: reads are non-blocking and bounded by the message
 * size, and every state has a deadline (--handshake-timeout). */
#include "core/random.h"
#include "ttcp_server.h"
#include "core/timer.h"
#include "core/sha256.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void who_text(const struct bb_addr *a, char *buf, size_t len)
{
	char host[BB_ADDR_TEXT];
	unsigned port = bb_addr_port((const struct sockaddr *)&a->ss);

	bb_addr_text((const struct sockaddr *)&a->ss, host, sizeof host);
	snprintf(buf, len, strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
}

void srv_conn_add(struct srv *v, int fd, const struct bb_addr *peer)
{
	struct srv_conn *c = calloc(1, sizeof *c);
	char who[BB_ADDR_TEXT + 8];

	who_text(peer, who, sizeof who);
	if (!c || bb_ip_from_sockaddr((const struct sockaddr *)&peer->ss, &c->ip) != 0) {
		srv_log(who, "-", 0, 0, "refused: out of memory");
		free(c);
		close(fd);
		v->nconns--;
		return;
	}
	c->fd = fd;
	c->peer = *peer;
	snprintf(c->who, sizeof c->who, "%s", who);
	c->state = CONN_FIRST;
	c->opened = bb_now();
	c->deadline = c->opened + v->o->handshake_s;
	c->next = v->conns;
	v->conns = c;
}

static void conn_unlink(struct srv *v, struct srv_conn *c)
{
	struct srv_conn **pp = &v->conns;

	while (*pp && *pp != c)
		pp = &(*pp)->next;
	if (*pp)
		*pp = c->next;
}

void srv_conn_drop(struct srv *v, struct srv_conn *c, const char *verdict)
{
	if (verdict)
		srv_log(c->who, c->state == CONN_FIRST ? "-" : "bb-ctl", 0, 0, verdict);
	conn_unlink(v, c);
	close(c->fd);
	v->nconns--;
	free(c);
}

void srv_conns_close_all(struct srv *v)
{
	while (v->conns)
		srv_conn_drop(v, v->conns, NULL);
}

/* REFUSE with the reason, one log line "refused: reason", closed. */
static int refuse(struct srv *v, struct srv_conn *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(struct srv *v, struct srv_conn *c, const char *fmt, ...)
{
	char why[BB_CTL_REASON_MAX + 1], verdict[BB_CTL_REASON_MAX + 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	srv_ctl_refuse(c->fd, why);
	snprintf(verdict, sizeof verdict, "refused: %s", why);
	srv_conn_drop(v, c, verdict);
	return 1;
}

/* ---- classic clients ---- */

static int classic(struct srv *v, struct srv_conn *c, double now)
{
	struct bb_iperf2_probe pr;
	struct srv_test *t = NULL;
	int k = 0;

	if (v->o->keylen) {
		srv_conn_drop(v, c, "refused: a client without the handshake, and this server "
			      "has --key");
		return 1;
	}
	bb_iperf2_probe_init(&pr);
	if (bb_iperf2_probe_feed(&pr, c->buf, c->n) == BB_IPERF2_NEED_MORE)
		bb_iperf2_probe_eof(&pr);
	if (pr.verdict == BB_IPERF2_FOUND)
		k = pr.hdr.threads;
	if (k > 1)
		t = srv_test_group(v, &c->ip, k, now);
	if (!t && !srv_test_room(v, now)) {
		char verdict[96];
		snprintf(verdict, sizeof verdict, "refused: busy, %d tests running (--max-tests)",
			 v->ntests);
		srv_conn_drop(v, c, verdict);
		return 1;
	}
	if (!t) {
		t = srv_test_new(v, k ? TEST_IPERF2 : TEST_CLASSIC, c->who, &c->ip);
		if (!t) {
			srv_conn_drop(v, c, "refused: out of memory");
			return 1;
		}
		if (k > 1) {
			t->announced = k;
			t->rx.want = bb_group_cap(k, v->o->max_streams);
			t->rx.o.streams = t->rx.want;
			t->rx.s.cfg.nstreams = (unsigned)t->rx.want;
		}
	}
	if (pr.verdict == BB_IPERF2_FOUND)
		srv_iperf2_plan(v, t, &pr.hdr, c->fd, &c->peer);
	conn_unlink(v, c);
	srv_test_add_stream(v, t, &t->rx, c->fd, &c->peer, c->opened, c->buf, c->n);
	free(c);
	return 1;
}

/* ---- boardbench control ---- */

static int hello(struct srv *v, struct srv_conn *c, const struct bb_ctl_msg *m)
{
	struct bb_ctl_msg ch;
	char err[128];

	memcpy(c->nonce_c, m->nonce, BB_CTL_NONCE);
	if (bb_random(c->nonce_s, BB_CTL_NONCE) != 0)
		return refuse(v, c, "the server has no randomness");
	bb_ctl_init(&ch, BB_CTL_CHALLENGE);
	memcpy(ch.nonce, c->nonce_s, BB_CTL_NONCE);
	ch.have |= 1u << BB_CF_NONCE;
	bb_ctl_set(&ch, BB_CF_KEY_REQUIRED, v->o->keylen > 0);
	if (srv_ctl_send(c->fd, &ch, err, sizeof err) != 0) {
		srv_conn_drop(v, c, "refused: the client went away during the handshake");
		return 1;
	}
	c->state = v->o->keylen ? CONN_WAIT_AUTH : CONN_WAIT_REQUEST;
	c->deadline = bb_now() + v->o->handshake_s;
	return 0;
}

static int auth(struct srv *v, struct srv_conn *c, const struct bb_ctl_msg *m)
{
	unsigned char want[BB_CTL_MAC];

	bb_ctl_mac(v->o->key, v->o->keylen, c->nonce_s, c->nonce_c, want);
	if (!bb_mac_equal(want, m->mac, BB_CTL_MAC))
		return refuse(v, c, "authentication failed: not this server's key (--key)");
	c->state = CONN_WAIT_REQUEST;
	c->deadline = bb_now() + v->o->handshake_s;
	return 0;
}

static int request(struct srv *v, struct srv_conn *c, const struct bb_ctl_msg *m)
{
	struct bb_ctl_msg acc;
	struct srv_test *t;
	char why[BB_CTL_REASON_MAX + 1], err[128];

	t = srv_test_from_request(v, m, c->who, &c->ip, c->fd, why, sizeof why);
	if (!t)
		return refuse(v, c, "%s", why);
	bb_ctl_init(&acc, BB_CTL_ACCEPT);
	memcpy(acc.token, t->token, BB_CTL_TOKEN);
	acc.have |= 1u << BB_CF_TOKEN;
	if (t->udp && t->rx.used)
		bb_ctl_set(&acc, BB_CF_UDP_RX_PORT, t->udp_rx_port);
	if (t->udp && t->tx.used)
		bb_ctl_set(&acc, BB_CF_UDP_TX_PORT, t->udp_tx_port);
	if (srv_ctl_send(c->fd, &acc, err, sizeof err) != 0)
		t->ctl_gone = 1;
	else
		srv_test_udp_go(v, t);   /* UDP: the server's streams send now */
	conn_unlink(v, c);           /* the fd is the test's control connection now */
	free(c);
	return 1;
}

/* The direction of t a DATA message's stream index names, or NULL. */
static struct srv_dir *data_dir(struct srv_test *t, unsigned stream, unsigned *bit)
{
	struct srv_dir *d = t->direction == BB_CTL_TO_CLIENT ? &t->tx : &t->rx;
	unsigned n = (unsigned)(d->used ? d->o.streams : 0);

	if (t->direction == BB_CTL_BOTH && stream >= n) {
		stream -= n;
		d = &t->tx;
	}
	if (!d->used || stream >= (unsigned)d->o.streams || d->joined >= d->want ||
	    (d->joined_mask & (1ull << stream)))
		return NULL;
	*bit = stream;
	return d;
}

static int data(struct srv *v, struct srv_conn *c, const struct bb_ctl_msg *m, size_t used)
{
	struct srv_test *t = srv_test_by_token(v, m->token);
	struct srv_dir *d;
	unsigned bit;

	if (!t || !bb_ip_equal(&t->ip, &c->ip) || t->data_done)
		return refuse(v, c, "no test of this address has this token");
	d = data_dir(t, (unsigned)m->num[BB_CF_STREAM], &bit);
	if (!d)
		return refuse(v, c, "stream %u is not expected by this test",
			      (unsigned)m->num[BB_CF_STREAM]);
	d->joined_mask |= 1ull << bit;
	conn_unlink(v, c);
	srv_test_add_stream(v, t, d, c->fd, &c->peer, bb_now(), d->o.transmit ? NULL : c->buf + used,
			    d->o.transmit ? 0 : c->n - used);
	free(c);
	return 1;
}

/* One whole message; 1 when c left the list. */
static int message(struct srv *v, struct srv_conn *c, const struct bb_ctl_msg *m, size_t used)
{
	if (c->state == CONN_FIRST && m->type == BB_CTL_HELLO)
		return hello(v, c, m);
	if (c->state == CONN_FIRST && m->type == BB_CTL_DATA)
		return data(v, c, m, used);
	if (c->state == CONN_WAIT_AUTH && m->type == BB_CTL_AUTH)
		return auth(v, c, m);
	if (c->state == CONN_WAIT_REQUEST && m->type == BB_CTL_REQUEST)
		return request(v, c, m);
	return refuse(v, c, "a %s message out of turn", bb_ctl_type_name(m->type));
}

static int is_control(const struct srv_conn *c)
{
	return memcmp(c->buf, bb_ctl_magic, c->n < 4 ? c->n : 4) == 0;
}

/* Control bytes: as many whole messages as there are; 1 when c left. */
static int control(struct srv *v, struct srv_conn *c)
{
	while (c->n > 0) {
		struct bb_ctl_msg m;
		char why[160];
		size_t used;
		enum bb_ctl_parse p = bb_ctl_parse(c->buf, c->n, &m, &used, why, sizeof why);
		if (p == BB_CTL_BAD)
			return refuse(v, c, "%s", why);
		if (p == BB_CTL_NEED_MORE)
			return c->eof ? refuse(v, c, "a control message cut short") : 0;
		if (message(v, c, &m, used))
			return 1;
		memmove(c->buf, c->buf + used, c->n - used);
		c->n -= used;
	}
	if (c->eof) {
		srv_conn_drop(v, c, "refused: the client left during the handshake");
		return 1;
	}
	return 0;
}

/* What the bytes so far say; 1 when c left the list. */
static int decide(struct srv *v, struct srv_conn *c, double now)
{
	struct bb_iperf2_probe pr;

	if (c->n == 0) {
		if (!c->eof)
			return 0;
		srv_conn_drop(v, c, "empty");
		return 1;
	}
	if (is_control(c))
		return control(v, c);
	if (c->state != CONN_FIRST)
		return refuse(v, c, "not a boardbench control message");
	bb_iperf2_probe_init(&pr);
	if (!c->eof && c->n < sizeof c->buf &&
	    bb_iperf2_probe_feed(&pr, c->buf, c->n) == BB_IPERF2_NEED_MORE)
		return 0;
	return classic(v, c, now);
}

int srv_conn_readable(struct srv *v, struct srv_conn *c)
{
	ssize_t r = recv(c->fd, c->buf + c->n, sizeof c->buf - c->n, MSG_DONTWAIT);

	if (r > 0)
		c->n += (size_t)r;
	else if (r == 0)
		c->eof = 1;
	else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
		return 0;
	else if (c->n == 0) {
		srv_conn_drop(v, c, "empty");
		return 1;
	} else
		c->eof = 1;
	return decide(v, c, bb_now());
}

static void expire(struct srv *v, struct srv_conn *c, double now)
{
	char verdict[96];

	if (c->state == CONN_FIRST && c->n == 0) {
		snprintf(verdict, sizeof verdict, "empty: nothing within %g s (--handshake-timeout)",
			 v->o->handshake_s);
		srv_conn_drop(v, c, verdict);
	} else if (c->state == CONN_FIRST && !is_control(c)) {
		classic(v, c, now);             /* a slow classic client: the minimum rate judges */
	} else {
		refuse(v, c, "the handshake took longer than %g s (--handshake-timeout)",
		       v->o->handshake_s);
	}
}

void srv_conns_tick(struct srv *v, double now)
{
	struct srv_conn *c = v->conns, *next;

	for (; c; c = next) {
		next = c->next;
		if (now >= c->deadline)
			expire(v, c, now);
	}
}
