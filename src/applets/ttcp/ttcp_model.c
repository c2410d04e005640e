/* ttcp_model.c - a ttcp session in the results model: parameters before
 * the transfer, the socket buffers granted and the interface once the
 * first stream connects, interval samples during it, and at the end the
 * totals (the classic figures and their SI forms), each stream, CPU use,
 * TCP_INFO, the window bound and UDP loss/jitter.  JSON stores base
 * units: bytes, seconds, bits/s. */
#include "ttcp_applet.h"
#include "core/error.h"
#include "facts/netif.h"
#include "facts/root.h"
#include "net/classic.h"
#include "net/udpstat.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *zc_name(enum bb_zc z)
{
	return z == BB_ZC_SENDFILE ? "sendfile" : z == BB_ZC_MSG ? "msg" : "none";
}

static void params_classic(struct bb_kvlist *p, const struct ttcp_opts *o)
{
	char fmt[2] = { o->fmt, 0 };

	bb_kv_str(p, "role", o->transmit ? "transmit" : "receive");
	bb_kv_str(p, "protocol", o->udp ? "udp" : "tcp");
	bb_kv_str(p, "host", o->host ? o->host : "");
	bb_kv_int(p, "port", o->port);
	bb_kv_int(p, "buflen", (long long)o->buflen);
	bb_kv_int(p, "nbuf", (long long)o->nbuf);
	bb_kv_int(p, "align", (long long)o->align);
	bb_kv_int(p, "offset", (long long)o->offset);
	bb_kv_int(p, "sockbufsize", o->sockbuf);
	bb_kv_bool(p, "nodelay", o->nodelay);
	bb_kv_bool(p, "sink", o->sink);
	bb_kv_bool(p, "verbose", o->verbose);
	bb_kv_bool(p, "touch", o->touch);
	bb_kv_str(p, "format", fmt);
}

static void params_modern(struct bb_kvlist *p, const struct ttcp_session *s)
{
	const struct ttcp_opts *o = s->o;

	bb_kv_num(p, "time_s", o->time_s);
	bb_kv_int(p, "streams", o->streams);
	bb_kv_num(p, "interval_s", o->interval_s);
	bb_kv_num(p, "rate_bps", o->rate_bps);
	bb_kv_str(p, "family", o->family == AF_INET ? "ipv4" : o->family == AF_INET6 ? "ipv6" : "any");
	bb_kv_str(p, "bind", o->bind ? o->bind : "");
	bb_kv_str(p, "zerocopy", zc_name(o->zerocopy));
	bb_kv_bool(p, "gso", o->gso);
	bb_kv_bool(p, "gro", o->gro);
	bb_kv_int(p, "gso_segments", s->cfg.gso_segs);
	bb_kv_bool(p, "udp_header", s->cfg.udp_header);
	bb_kv_bool(p, "iperf2", o->iperf2);
	bb_kv_int(p, "read_size", (long long)s->cfg.read_size);
	bb_kv_int(p, "rcvlowat", (long long)o->rcvlowat);
	bb_kv_num(p, "connect_timeout_s", o->connect_timeout_s);
	bb_kv_num(p, "idle_timeout_s", o->idle_timeout_s);
	bb_kv_num(p, "accept_timeout_s", o->accept_timeout_s);
}

static void params_notes(struct bb_kvlist *p, const struct ttcp_opts *o)
{
	bb_kv_str(p, "classic_rate_unit",
		  "-f k/m/g: Kbit/Mbit/Gbit of 2^10/2^20/2^30 bits; K/M/G: KB/MB/GB of "
		  "2^10/2^20/2^30 bytes (classic ttcp); JSON rates are SI bits_per_s");
	bb_kv_str(p, "classic_msec_per_call", "1024 x real seconds / I/O calls (classic ttcp)");
	bb_kv_str(p, "bytes_counted",
		  "payload bytes the application wrote or read (an iperf2 header included, "
		  "UDP sentinels excluded); no TCP/UDP/IP headers");
	bb_kv_str(p, "time_counted", o->transmit
		  ? "from connect to the return of the last write (classic); acked_s: until "
		    "the receiver acknowledged every byte (TCP)"
		  : o->udp ? "from the first datagram or start sentinel to the end sentinel"
			   : "from the first byte to the last; accept_real_s: from accept to "
			     "the end of the stream");
}

void ttcp_model_params(struct ttcp_session *s)
{
	struct bb_kvlist *p = &s->r->params;

	params_classic(p, s->o);
	params_modern(p, s);
	params_notes(p, s->o);
}

/* ---- the socket: buffers read back, the interface ---- */

static void put_sockbuf(struct bb_kvlist *p, const struct bb_sockbuf *b)
{
	bb_kv_int(p, "sockbuf_requested", b->requested);
	if (b->snd >= 0)
		bb_kv_int(p, "sndbuf_granted", b->snd);
	if (b->rcv >= 0)
		bb_kv_int(p, "rcvbuf_granted", b->rcv);
	bb_kv_str(p, "sockbuf_capped_by", bb_sockbuf_cap_sysctl(bb_sockbuf_capped(b)));
}

/* The interface the socket uses, as if.name, if.driver, if.mtu, ... */
static void put_interface(struct bb_kvlist *p, int fd)
{
	struct bb_netif n;

	if (bb_netif_for_socket(fd, &n) == 0)
		bb_netif_kv(&n, "if.", p);
}

/* The running kernel's value (a fixture root's would not be what capped
 * this socket), -1 when unknown. */
static long long sysctl_or_unknown(const char *name)
{
	long long v;

	if (bb_root_is_fixture())
		return -1;
	return bb_netsys_llong(name, &v) == 0 ? v : -1;
}

static void warn_capped(const struct ttcp_session *s, const struct bb_sockbuf *b)
{
	char line[512];

	bb_sockbuf_warning(line, sizeof line, s->o->transmit ? "ttcp-t" : "ttcp-r", b,
			   sysctl_or_unknown("net.core.wmem_max"),
			   sysctl_or_unknown("net.core.rmem_max"));
	fflush(stdout);
	fprintf(stderr, "%s\n", line);
}

void ttcp_model_socket(struct ttcp_session *s, struct ttcp_stream *t)
{
	ttcp_model_sockbuf(s, t);
	ttcp_model_interface(s, t);
}

void ttcp_model_interface(struct ttcp_session *s, struct ttcp_stream *t)
{
	if (s->n > 0 && s->st[0] == t)
		put_interface(&s->r->params, t->x->fd);
}

void ttcp_model_sockbuf(struct ttcp_session *s, struct ttcp_stream *t)
{
	struct bb_kvlist *p = &s->r->params;
	int first = s->n > 0 && s->st[0] == t;

	bb_sockbuf_read(t->x->fd, s->o->sockbuf, &t->sockbuf);
	if (first)
		put_sockbuf(p, &t->sockbuf);
	if (bb_sockbuf_capped(&t->sockbuf) && !s->sockbuf_warned) {
		s->sockbuf_warned = 1;
		if (!first)
			put_sockbuf(p, &t->sockbuf);   /* the stream that was capped */
		warn_capped(s, &t->sockbuf);
	}
}

/* ---- series helpers ---- */

static struct bb_series *series(struct bb_result *r, const char *name, const char *variant,
				const char *unit, double work, const char *work_unit)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->series[i]->name, name) && !strcmp(r->series[i]->variant, variant))
			return r->series[i];
	return bb_result_add_series(r, name, variant, unit, work, work_unit);
}

/* A per-interval series; one that starts late is padded so that sample i
 * always belongs to interval i. */
static void iv_add(struct ttcp_session *s, const char *name, const char *variant,
		   const char *unit, double v)
{
	struct bb_series *ser = series(s->r, name, variant, unit, s->o->interval_s, "s");

	while (ser->n < (size_t)s->iv_count)
		bb_series_add(ser, 0);
	bb_series_add(ser, v);
}

static void stream_name(char *buf, size_t len, int i)
{
	snprintf(buf, len, TTCP_STREAM "%d", i);
}

static int is_tcp(const struct ttcp_session *s)
{
	return !s->o->udp;
}

void ttcp_model_interval(struct ttcp_session *s, double from, double to)
{
	uint64_t total = 0;
	char v[32];

	(void)from;
	for (int i = 0; i < s->n; i++) {
		struct ttcp_stream *t = s->st[i];
		uint64_t bytes = t->iv_bytes, calls;
		struct bb_tcpinfo ti;

		bb_live_read(&t->x->live, &bytes, &calls);
		stream_name(v, sizeof v, i);
		iv_add(s, TTCP_INTERVAL "bytes", v, "bytes", (double)(bytes - t->iv_bytes));
		total += bytes - t->iv_bytes;
		t->iv_bytes = bytes;
		if (is_tcp(s) && bb_tcpinfo_get(t->x->fd, &ti) == 0) {
			iv_add(s, TTCP_INTERVAL "retrans", v, "segments",
			       (double)(ti.total_retrans - t->iv_retrans));
			iv_add(s, TTCP_INTERVAL "rtt", v, "s", ti.rtt_us * 1e-6);
			iv_add(s, TTCP_INTERVAL "cwnd", v, "segments", ti.snd_cwnd);
			t->iv_retrans = ti.total_retrans;
		}
	}
	iv_add(s, TTCP_INTERVAL "bytes", TTCP_TOTAL, "bytes", (double)total);
	iv_add(s, TTCP_INTERVAL "end", TTCP_TOTAL, "s", to);
	s->iv_count++;
}

/* ---- the end ---- */

struct totals {
	uint64_t bytes, calls;
	double t_start, t_end, acked;
	double accepted, ended;       /* TCP rx: the first accept, the last end of stream */
};

static void sum_streams(const struct ttcp_session *s, struct totals *t)
{
	int all_acked = s->n > 0;

	memset(t, 0, sizeof *t);
	for (int i = 0; i < s->n; i++) {
		const struct bb_xfer *x = s->st[i]->x;
		double from, to;
		bb_xfer_span(x, &from, &to);
		t->bytes += x->n.bytes;
		t->calls += x->n.calls;
		if (t->t_start == 0 || from < t->t_start)
			t->t_start = from;
		if (to > t->t_end)
			t->t_end = to;
		if (t->accepted == 0 || x->n.t_start < t->accepted)
			t->accepted = x->n.t_start;
		if (x->n.t_end > t->ended)
			t->ended = x->n.t_end;
		if (x->acked_at > t->acked)
			t->acked = x->acked_at;
		all_acked &= x->acked_at > 0;
	}
	if (!all_acked || t->acked < t->t_start)
		t->acked = 0;
	if (t->t_end < t->t_start)
		t->t_end = t->t_start;
}

static void put_rates(struct bb_kvlist *v, double bytes, double calls, double real)
{
	double rt = bb_ttcp_clamp_time(real);

	bb_kv_num(v, "bytes", bytes);
	bb_kv_num(v, "io_calls", calls);
	bb_kv_num(v, "real_s", real);
	bb_kv_num(v, "bits_per_s", bytes * 8.0 / rt);
	bb_kv_num(v, "bytes_per_s", bytes / rt);
	bb_kv_num(v, "calls_per_s", calls / rt);
	bb_kv_num(v, "msec_per_call", calls > 0 ? 1000.0 * real / calls : 0);
	bb_kv_num(v, "classic_msec_per_call", bb_ttcp_msec_per_call(rt, calls));
}

/* CPU time is counted from the first connection to the end of the last
 * stream's thread: cpu_percent is of that window, not of the transfer. */
static void put_cpu(struct bb_kvlist *v, const struct bb_cpu_delta *d, double bytes)
{
	double cpu = (double)(d->utime_us + d->stime_us) * 1e-6;

	bb_kv_num(v, "cpu_user_s", (double)d->utime_us * 1e-6);
	bb_kv_num(v, "cpu_sys_s", (double)d->stime_us * 1e-6);
	bb_kv_num(v, "cpu_window_s", d->wall_s);
	bb_kv_num(v, "cpu_percent", d->wall_s > 0 ? 100.0 * cpu / d->wall_s : 0);
	bb_kv_num(v, "cpu_s_per_GB", bytes > 0 ? cpu / (bytes / 1e9) : 0);
	bb_kv_int(v, "maxrss_kib", d->maxrss_kib);
	bb_kv_int(v, "minflt", d->minflt);
	bb_kv_int(v, "majflt", d->majflt);
	bb_kv_int(v, "nvcsw", d->nvcsw);
	bb_kv_int(v, "nivcsw", d->nivcsw);
	bb_kv_int(v, "ixrss", d->ixrss);
	bb_kv_int(v, "idrss_isrss", d->idrss_isrss);
	bb_kv_bool(v, "system_cpu_known", d->sys_ok);
	if (!d->sys_ok)
		return;
	bb_kv_num(v, "system_cpu_busy_s", d->sys_busy_s);
	bb_kv_num(v, "system_cpu_total_s", d->sys_total_s);
	bb_kv_num(v, "system_cpu_busy_fraction", d->sys_total_s > 0 ? d->sys_busy_s / d->sys_total_s : 0);
	bb_kv_num(v, "system_cpu_user_s", d->sys_user_s);
	bb_kv_num(v, "system_cpu_system_s", d->sys_system_s);
	bb_kv_num(v, "system_cpu_softirq_s", d->sys_softirq_s);
	bb_kv_num(v, "system_cpu_irq_s", d->sys_irq_s);
}

/* /proc/stat counts whole ticks: fewer than 20 per CPU tell nothing. */
static void put_cpu_resolution(struct bb_kvlist *v, const struct bb_cpu_delta *d, double hz,
			       int cpus)
{
	double per_cpu = cpus > 0 ? d->sys_total_s / cpus : d->sys_total_s;

	bb_kv_num(v, "system_cpu_tick_s", hz > 0 ? 1.0 / hz : 0);
	bb_kv_bool(v, "system_cpu_too_short", !d->sys_ok || per_cpu * hz < 20);
}

static void put_tcpinfo(struct bb_kvlist *v, const struct bb_tcpinfo *ti)
{
	bb_kv_bool(v, "tcp_info", ti->ok);
	if (!ti->ok)
		return;
	bb_kv_int(v, "retransmits", ti->total_retrans);
	bb_kv_num(v, "rtt_s", ti->rtt_us * 1e-6);
	bb_kv_num(v, "rttvar_s", ti->rttvar_us * 1e-6);
	bb_kv_int(v, "cwnd_segments", ti->snd_cwnd);
	bb_kv_int(v, "mss_bytes", ti->snd_mss);
}

/* A count as a JSON integer (the receiver bounds them far below this). */
static void put_count(struct bb_kvlist *v, const char *key, uint64_t n)
{
	bb_kv_int(v, key, n > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)n);
}

static void put_flow(struct bb_kvlist *v, const struct bb_udp_flow *f)
{
	put_count(v, "datagrams", f->received);
	put_count(v, "lost", bb_udp_flow_lost(f));
	put_count(v, "expected", bb_udp_flow_expected(f));
	put_count(v, "sender_tally", f->sent);
	bb_kv_num(v, "loss_fraction", bb_udp_flow_loss_fraction(f));
	put_count(v, "out_of_order", f->out_of_order);
	put_count(v, "duplicates", f->duplicates);
	bb_kv_num(v, "jitter_s", f->jitter_ns * 1e-9);
}

/* What the first bytes of stream t said about the peer. */
static void put_peer(struct bb_kvlist *v, const struct ttcp_stream *t)
{
	const struct bb_iperf2_probe *pr = &t->x->peer.iperf2;
	char desc[64];

	bb_kv_str(v, "peer_address", t->peer);
	if (pr->verdict != BB_IPERF2_FOUND)
		return;
	bb_iperf2_describe(&pr->hdr, desc, sizeof desc);
	bb_kv_str(v, "peer", desc);
	bb_kv_int(v, "peer_streams_announced", pr->hdr.threads);
	bb_kv_num(v, "peer_bytes_announced", (double)bb_iperf2_bytes(&pr->hdr));
	bb_kv_num(v, "peer_seconds_announced", bb_iperf2_seconds(&pr->hdr));
	bb_kv_int(v, "peer_header_bytes", (long long)pr->hdr.len);
}

static void put_end(struct bb_kvlist *v, const struct bb_xfer *x)
{
	char why[160];

	bb_kv_str(v, "end", bb_end_text(x->f.end));
	if (x->f.what && x->f.err)
		snprintf(why, sizeof why, "%s: %s", x->f.what, strerror(x->f.err));
	else
		why[0] = '\0';
	bb_kv_str(v, "error", why);
}

static void stream_values(struct ttcp_session *s, int i, double t0)
{
	const struct ttcp_stream *t = s->st[i];
	const struct bb_xfer *x = t->x;
	char name[32];
	struct bb_series *ser;
	double from, to;

	bb_xfer_span(x, &from, &to);
	stream_name(name, sizeof name, i);
	ser = series(s->r, TTCP_TRANSFER, name, "s", (double)x->n.bytes, "bytes");
	bb_series_add(ser, to - from);
	put_rates(&ser->values, (double)x->n.bytes, (double)x->n.calls, to - from);
	bb_kv_num(&ser->values, "start_s", from - t0);
	if (x->n.t_first > 0)
		bb_kv_num(&ser->values, "first_byte_s", x->n.t_first - x->n.t_start);
	if (t->connected_at > 0)
		bb_kv_num(&ser->values, "connect_to_write_s", x->n.t_start - t->connected_at);
	if (x->acked_at > 0)
		bb_kv_num(&ser->values, "acked_s", x->acked_at - x->n.t_start);
	put_end(&ser->values, x);
	put_peer(&ser->values, t);
	if (is_tcp(s))
		put_tcpinfo(&ser->values, &t->ti);
	if (x->cfg->zerocopy == BB_ZC_MSG) {
		bb_kv_num(&ser->values, "zerocopy_sends", (double)x->zc.sent);
		bb_kv_num(&ser->values, "zerocopy_completed", (double)x->zc.completed);
		bb_kv_num(&ser->values, "zerocopy_copied", (double)x->zc.copied);
	}
	if (s->o->udp && s->o->transmit)
		bb_kv_num(&ser->values, "enobufs", (double)x->enobufs);
}

/* The UDP receiver's view of every stream that sent headers. */
static void udp_flows(struct ttcp_session *s, struct bb_kvlist *total)
{
	const struct bb_udp_rx *u = s->n ? s->st[0]->udp : NULL;
	struct bb_udp_flow sum = { 0 };
	double jitter = 0;
	char name[32];

	if (!u)
		return;
	for (unsigned i = 0; i < BB_MAX_STREAMS; i++) {
		const struct bb_udp_flow *f = &u->flows[i];
		if (!f->datagram_len && !f->tallied)
			continue;
		snprintf(name, sizeof name, "udp%u", i);
		struct bb_series *ser = series(s->r, "udp_flow", name, "datagrams",
					       (double)f->bytes, "bytes");
		bb_series_add(ser, (double)f->received);
		put_flow(&ser->values, f);
		sum.received = bb_udp_sat_add(sum.received, f->received);
		sum.next_seq = bb_udp_sat_add(sum.next_seq, f->next_seq);
		sum.sent = bb_udp_sat_add(sum.sent, bb_udp_flow_expected(f));
		sum.out_of_order = bb_udp_sat_add(sum.out_of_order, f->out_of_order);
		sum.duplicates = bb_udp_sat_add(sum.duplicates, f->duplicates);
		if (f->jitter_ns > jitter)
			jitter = f->jitter_ns;
	}
	sum.jitter_ns = jitter;
	put_count(total, "udp_datagrams", u->datagrams);
	put_count(total, "udp_plain_datagrams", u->plain);
	bb_kv_int(total, "udp_streams_announced", u->nstreams);
	bb_kv_bool(total, "udp_sequenced", sum.next_seq > 0);
	put_count(total, "udp_lost", bb_udp_flow_lost(&sum));
	put_count(total, "udp_expected", bb_udp_flow_expected(&sum));
	bb_kv_bool(total, "udp_tallies", u->tallied != 0);
	bb_kv_num(total, "udp_loss_fraction", bb_udp_flow_loss_fraction(&sum));
	put_count(total, "udp_out_of_order", sum.out_of_order);
	put_count(total, "udp_duplicates", sum.duplicates);
	bb_kv_num(total, "udp_jitter_s", jitter * 1e-9);   /* the worst stream's */
	bb_kv_int(total, "udp_iperf2_streams", u->iperf2_flows);
	put_count(total, "udp_iperf2_reports_sent", u->reports_sent);
	put_count(total, "udp_foreign_datagrams", bb_udp_refused_foreign(&u->refused));
	put_count(total, "udp_foreign_peer_datagrams", u->refused.foreign_peer);
	put_count(total, "udp_foreign_sequence_datagrams", u->refused.foreign_seq);
	put_count(total, "udp_malformed_datagrams", bb_udp_refused_malformed(&u->refused));
	put_count(total, "udp_zero_length_datagrams", u->refused.zero_length);
	put_count(total, "udp_over_length_datagrams", u->refused.over_length);
}

/* The UDP receiver's status note: how many datagrams it refused. */
static const char *udp_refused_note(const struct ttcp_session *s, char *buf, size_t len)
{
	const struct bb_udp_rx *u = s->n && s->o->udp && !s->o->transmit ? s->st[0]->udp : NULL;
	uint64_t foreign, malformed;

	buf[0] = '\0';
	if (!u)
		return buf;
	foreign = bb_udp_refused_foreign(&u->refused);
	malformed = bb_udp_refused_malformed(&u->refused);
	if (foreign || malformed)
		snprintf(buf, len, "; refused %llu foreign and %llu malformed datagram(s), "
			 "not counted", (unsigned long long)foreign, (unsigned long long)malformed);
	return buf;
}

/* A UDP sender to an iperf2 server: its reports, per stream and summed. */
static void iperf2_reports(struct ttcp_session *s, struct bb_kvlist *total)
{
	struct bb_iperf2_report sum = { 0 };
	double secs = 0, jitter = 0;
	uint64_t sent = 0, finals = 0;
	int got = 0;
	char name[32];

	for (int i = 0; i < s->n; i++) {
		const struct bb_xfer *x = s->st[i]->x;
		struct bb_series *ser;
		if (!x->srv_ok)
			continue;
		stream_name(name, sizeof name, i);
		ser = series(s->r, TTCP_TRANSFER, name, "s", 0, "bytes");
		bb_kv_num(&ser->values, "server_bytes", (double)x->srv.bytes);
		bb_kv_num(&ser->values, "server_seconds", bb_iperf2_report_seconds(&x->srv));
		bb_kv_int(&ser->values, "server_lost", x->srv.lost);
		bb_kv_int(&ser->values, "server_out_of_order", x->srv.out_of_order);
		bb_kv_int(&ser->values, "server_datagrams", x->srv.datagrams);
		bb_kv_num(&ser->values, "server_jitter_s", bb_iperf2_report_jitter_s(&x->srv));
		sum.bytes += x->srv.bytes;
		sum.lost += x->srv.lost;
		sum.out_of_order += x->srv.out_of_order;
		sum.datagrams += x->srv.datagrams;
		if (bb_iperf2_report_seconds(&x->srv) > secs)
			secs = bb_iperf2_report_seconds(&x->srv);
		if (bb_iperf2_report_jitter_s(&x->srv) > jitter)
			jitter = bb_iperf2_report_jitter_s(&x->srv);
		got++;
	}
	for (int i = 0; i < s->n; i++) {
		sent += s->st[i]->x->n.bytes / s->cfg.buflen;   /* every datagram is -l bytes */
		finals += s->st[i]->x->fin_tries;
	}
	put_count(total, "datagrams_sent", sent);
	put_count(total, "iperf2_final_datagrams", finals);
	bb_kv_int(total, "iperf2_server_reports", got);
	bb_kv_int(total, "iperf2_streams", s->n);
	if (!got)
		return;
	bb_kv_num(total, "server_bytes", (double)sum.bytes);
	bb_kv_num(total, "server_seconds", secs);
	bb_kv_int(total, "server_lost", sum.lost);
	bb_kv_int(total, "server_out_of_order", sum.out_of_order);
	bb_kv_int(total, "server_datagrams", sum.datagrams);
	bb_kv_num(total, "server_jitter_s", jitter);   /* the worst stream's */
}

/* Facts about the whole run: the peer (from stream 0's first bytes) and,
 * for -v, where the buffer was. */
static void run_facts(struct ttcp_session *s)
{
	struct bb_kvlist *p = &s->r->params;
	char buf[64];

	if (s->n == 0)
		return;
	snprintf(buf, sizeof buf, "%#lx", (unsigned long)(uintptr_t)s->st[0]->x->buf);
	bb_kv_str(p, "buffer_address", buf);
	if (s->o->transmit || s->o->udp)
		return;
	if (s->st[0]->x->peer.iperf2.verdict == BB_IPERF2_FOUND) {
		bb_iperf2_describe(&s->st[0]->x->peer.iperf2.hdr, buf, sizeof buf);
		bb_kv_str(p, "peer", buf);
		bb_kv_int(p, "peer_streams_announced", s->st[0]->x->peer.iperf2.hdr.threads);
	} else {
		bb_kv_str(p, "peer", "");
	}
}

/* The window each stream fills, read back at the end (autotuning may
 * have grown it without -b): the sender's send buffer, the receiver's
 * receive buffer; with each stream's path RTT (the minimum TCP_INFO has
 * seen; before kernel 4.6 the smoothed RTT, or the receiver's own
 * estimate), the bound window / RTT summed over the streams. */
static void window_facts(struct ttcp_session *s, double measured_bps)
{
	struct bb_kvlist *p = &s->r->params;
	double bound = 0, rtt = 0, window = 0;
	int k = 0;

	for (int i = 0; i < s->n && is_tcp(s); i++) {
		const struct bb_tcpinfo *ti = &s->st[i]->ti;
		uint32_t rtt_us = ti->min_rtt_us ? ti->min_rtt_us
				  : !s->o->transmit && ti->rcv_rtt_us ? ti->rcv_rtt_us : ti->rtt_us;
		struct bb_sockbuf b;
		int w;

		if (!ti->ok || rtt_us == 0 || bb_sockbuf_read(s->st[i]->x->fd, 0, &b) != 0)
			continue;
		w = s->o->transmit ? b.snd : b.rcv;
		bound += bb_window_bound_bps(w, rtt_us * 1e-6);
		window += w;
		rtt += rtt_us * 1e-6;
		k++;
	}
	if (k == 0)
		return;
	bb_kv_int(p, "window_bytes", llround(window / k));
	bb_kv_num(p, "rtt_s", rtt / k);
	bb_kv_num(p, "window_bound_bps", bound);
	bb_kv_bool(p, "window_limited", bb_window_limited(measured_bps, bound));
}

/* Why the result is incomplete ("" when it is complete). */
static void incompleteness(const struct ttcp_session *s, char *why, size_t len)
{
	int announced = 0;

	why[0] = '\0';
	if (s->error[0]) {
		snprintf(why, len, "%s", s->error);
		return;
	}
	if (s->n == 0) {
		snprintf(why, len, "%s", ttcp_interrupted() ? "interrupted before any connection"
							     : "no transfer took place");
		return;
	}
	if (s->st[0]->udp && !s->st[0]->udp->going) {
		snprintf(why, len, "no datagram came%s", s->o->accept_timeout_s > 0
			 ? " within --accept-timeout" : "");
		return;
	}
	for (int i = 0; i < s->n && !why[0]; i++) {
		const struct bb_xfer *x = s->st[i]->x;
		const struct bb_iperf2_probe *pr = &x->peer.iperf2;
		uint64_t want = pr->verdict == BB_IPERF2_FOUND ? bb_iperf2_bytes(&pr->hdr) : 0;
		if (!bb_end_complete(x->f.end) && x->f.what)
			snprintf(why, len, "stream %d: %s (%s: %s)", i, bb_end_text(x->f.end),
				 x->f.what, strerror(x->f.err));
		else if (!bb_end_complete(x->f.end))
			snprintf(why, len, "stream %d: %s", i, bb_end_text(x->f.end));
		else if (want && x->n.bytes < want)
			snprintf(why, len, "stream %d: %llu bytes of the %llu the peer announced", i,
				 (unsigned long long)x->n.bytes, (unsigned long long)want);
		if (pr->verdict == BB_IPERF2_FOUND && pr->hdr.threads > announced)
			announced = pr->hdr.threads;
	}
	if (!why[0] && s->o->sink && announced > s->n)
		snprintf(why, len, "the peer announced %d streams, %d connected", announced, s->n);
	if (!why[0] && s->st[0]->udp)
		bb_udp_rx_doubt(s->st[0]->udp, why, len);
}

void ttcp_model_finish(struct ttcp_session *s)
{
	struct totals t;
	struct bb_cpu_delta d;
	struct bb_series *ser;
	char why[320], msg[480], note[96];
	double real;

	sum_streams(s, &t);
	real = t.t_end - t.t_start;
	ser = series(s->r, TTCP_TRANSFER, TTCP_TOTAL, "s", (double)t.bytes, "bytes");
	bb_series_add(ser, real);
	put_rates(&ser->values, (double)t.bytes, (double)t.calls, real);
	if (t.acked > 0) {
		bb_kv_num(&ser->values, "acked_s", t.acked - t.t_start);
		bb_kv_num(&ser->values, "acked_bits_per_s", (double)t.bytes * 8.0 / (t.acked - t.t_start));
	}
	if (!s->o->transmit && is_tcp(s) && t.ended > t.accepted) {
		bb_kv_num(&ser->values, "accept_real_s", t.ended - t.accepted);
		bb_kv_num(&ser->values, "accept_bits_per_s",
			  (double)t.bytes * 8.0 / (t.ended - t.accepted));
	}
	bb_cpu_delta(&s->cpu0, &s->cpu1, (double)sysconf(_SC_CLK_TCK), &d);
	put_cpu(&ser->values, &d, (double)t.bytes);
	put_cpu_resolution(&ser->values, &d, (double)sysconf(_SC_CLK_TCK),
			   (int)sysconf(_SC_NPROCESSORS_ONLN));
	bb_kv_int(&ser->values, "streams", s->n);
	for (int i = 0; i < s->n; i++)
		stream_values(s, i, t.t_start);
	if (s->o->udp && !s->o->transmit)
		udp_flows(s, &ser->values);
	else if (s->o->iperf2)
		iperf2_reports(s, &ser->values);
	run_facts(s);
	window_facts(s, bb_kv_getnum(&ser->values, "bits_per_s", 0));
	incompleteness(s, why, sizeof why);
	bb_kv_bool(&s->r->params, "complete", why[0] == '\0');
	snprintf(msg, sizeof msg, "%s%s%s", why[0] ? "incomplete: " : "complete", why,
		 udp_refused_note(s, note, sizeof note));
	bb_result_set_status(s->r, why[0] == '\0', msg);
	s->r->interrupted = why[0] && ttcp_interrupted();   /* status "interrupted" */
}

int ttcp_model_complete(const struct bb_result *r)
{
	return r->ok;
}
