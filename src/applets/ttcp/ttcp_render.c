/* ttcp_render.c - classic ttcp's report, rendered from the results model:
 *   ttcp-t: buflen=8192, nbuf=2048, align=16384/0, port=5001  tcp  -> host
 *   ttcp-t: 16777216 bytes in 0.28 real seconds = 454.29 Mbit/sec +++
 *   ttcp-t: 2048 I/O calls, msec/call = 0.14, calls/sec = 7268.57
 *   ttcp-t: 0.0user 0.1sys 0:00real 60% 0i+0d 0maxrss 0+2pf 3+1506csw
 * exactly as classic ttcp prints them (-v adds its CPU-seconds and
 * buffer-address lines), then boardbench's additions on lines of their
 * own: completeness, the peer, SI rates, CPU use, a window-limited
 * result, TCP_INFO, UDP loss and jitter, each stream (-v: the socket
 * buffers granted and the interface); the periodic report lines; and
 * the notes on stderr ("ttcp-t: socket", "ttcp-r: accept from ...") that
 * the transmitter and receiver print as they go. */
#include "ttcp_applet.h"
#include "net/classic.h"
#include "net/units.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Classic ttcp's progress notes go to stderr, after what stdout holds. */
void ttcp_note(const struct ttcp_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet_notes)
		return;
	fflush(stdout);
	fprintf(stderr, "ttcp-%c: ", o->transmit ? 't' : 'r');
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *ttcp_param_str(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

static double pnum(const struct bb_result *r, const char *key)
{
	return bb_kv_getnum(&r->params, key, 0);
}

static double vnum(const struct bb_series *s, const char *key)
{
	return bb_kv_getnum(&s->values, key, 0);
}

static const char *vstr(const struct bb_series *s, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&s->values, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

/* "ttcp-t" or "ttcp-r". */
static const char *who(const struct bb_result *r)
{
	return strcmp(ttcp_param_str(r, "role"), "transmit") == 0 ? "ttcp-t" : "ttcp-r";
}

static int fmt_char(const struct bb_result *r)
{
	const char *f = ttcp_param_str(r, "format");
	return f[0] ? f[0] : 'K';
}

void ttcp_render_header(FILE *f, const struct bb_result *r)
{
	int tx = strcmp(who(r), "ttcp-t") == 0;

	fprintf(f, "%s: buflen=%.0f, nbuf=%.0f, align=%.0f/%.0f, port=%.0f", who(r),
		pnum(r, "buflen"), pnum(r, "nbuf"), pnum(r, "align"), pnum(r, "offset"),
		pnum(r, "port"));
	if (pnum(r, "sockbufsize") > 0)
		fprintf(f, ", sockbufsize=%.0f", pnum(r, "sockbufsize"));
	fprintf(f, "  %s", ttcp_param_str(r, "protocol"));
	if (tx)
		fprintf(f, "  -> %s", ttcp_param_str(r, "host"));
	fputc('\n', f);
}

static void render_classic(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	struct bb_ttcp_ru ru;
	double bytes = vnum(t, "bytes"), calls = vnum(t, "io_calls");
	double realt = bb_ttcp_clamp_time(vnum(t, "real_s"));
	double cput = bb_ttcp_clamp_time(vnum(t, "cpu_user_s") + vnum(t, "cpu_sys_s"));
	char rate[64], line[256];

	bb_ttcp_fmt_rate(rate, sizeof rate, fmt_char(r), bytes / realt);
	fprintf(f, "%s: %.0f bytes in %.2f real seconds = %s/sec +++\n", who(r), bytes, realt, rate);
	if (pnum(r, "verbose")) {
		bb_ttcp_fmt_rate(rate, sizeof rate, fmt_char(r), bytes / cput);
		fprintf(f, "%s: %.0f bytes in %.2f CPU seconds = %s/cpu sec\n", who(r), bytes, cput,
			rate);
	}
	fprintf(f, "%s: %.0f I/O calls, msec/call = %.2f, calls/sec = %.2f\n", who(r), calls,
		bb_ttcp_msec_per_call(realt, calls), calls / realt);
	memset(&ru, 0, sizeof ru);
	ru.utime_us = llround(vnum(t, "cpu_user_s") * 1e6);
	ru.stime_us = llround(vnum(t, "cpu_sys_s") * 1e6);
	ru.real_us = llround(vnum(t, "real_s") * 1e6);
	ru.ixrss = (long)vnum(t, "ixrss");
	ru.idrss_isrss = (long)vnum(t, "idrss_isrss");
	ru.maxrss_kib = (long)vnum(t, "maxrss_kib");
	ru.majflt = (long)vnum(t, "majflt");
	ru.minflt = (long)vnum(t, "minflt");
	ru.nvcsw = (long)vnum(t, "nvcsw");
	ru.nivcsw = (long)vnum(t, "nivcsw");
	bb_ttcp_rusage_line(line, sizeof line, &ru);
	fprintf(f, "%s: %s\n", who(r), line);
	if (pnum(r, "verbose"))
		fprintf(f, "%s: buffer address %s\n", who(r), ttcp_param_str(r, "buffer_address"));
}

static void render_si(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	char si[48];

	bb_fmt_si_rate(si, sizeof si, vnum(t, "bits_per_s"));
	fprintf(f, "%s: SI: %.0f bytes in %.6f s = %s; %.2f ms per call; %.3f CPU s per GB\n",
		who(r), vnum(t, "bytes"), vnum(t, "real_s"), si, vnum(t, "msec_per_call"),
		vnum(t, "cpu_s_per_GB"));
	if (vnum(t, "acked_s") > 0) {
		bb_fmt_si_rate(si, sizeof si, vnum(t, "acked_bits_per_s"));
		fprintf(f, "%s: acked: every byte acknowledged %.6f s after the start = %s\n",
			who(r), vnum(t, "acked_s"), si);
	}
}

static void render_cpu(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	fprintf(f, "%s: cpu: this process %.3f user + %.3f sys s = %.1f%% of one CPU", who(r),
		vnum(t, "cpu_user_s"), vnum(t, "cpu_sys_s"), vnum(t, "cpu_percent"));
	if (vnum(t, "system_cpu_known") && !vnum(t, "system_cpu_too_short"))
		fprintf(f, "; all CPUs %.1f%% busy (%.2f of %.2f CPU s, softirq %.2f)",
			100.0 * vnum(t, "system_cpu_busy_fraction"), vnum(t, "system_cpu_busy_s"),
			vnum(t, "system_cpu_total_s"), vnum(t, "system_cpu_softirq_s"));
	else if (vnum(t, "system_cpu_known"))
		fprintf(f, "; all CPUs: too short to tell (/proc/stat counts %.0f ms ticks)",
			vnum(t, "system_cpu_tick_s") * 1e3);
	fputc('\n', f);
}

static void render_stream(FILE *f, const struct bb_result *r, const struct bb_series *s,
			  int many)
{
	char si[48];

	if (many) {
		bb_fmt_si_rate(si, sizeof si, vnum(s, "bits_per_s"));
		fprintf(f, "%s: %s: %.0f bytes in %.6f s = %s, %.0f calls, %s%s%s%s\n", who(r),
			s->variant, vnum(s, "bytes"), vnum(s, "real_s"), si, vnum(s, "io_calls"),
			vstr(s, "end"), vstr(s, "peer_address")[0] ? ", peer " : "",
			vstr(s, "peer_address"), vstr(s, "error")[0] ? " (error)" : "");
	}
	if (vnum(s, "tcp_info"))
		fprintf(f, "%s: %s tcp_info: %.0f retransmits, rtt %.3f ms (var %.3f ms), "
			   "cwnd %.0f segments, mss %.0f\n",
			who(r), s->variant, vnum(s, "retransmits"), vnum(s, "rtt_s") * 1e3,
			vnum(s, "rttvar_s") * 1e3, vnum(s, "cwnd_segments"), vnum(s, "mss_bytes"));
	if (vnum(s, "zerocopy_sends") > 0)
		fprintf(f, "%s: %s zerocopy: %.0f sends, %.0f completed, %.0f copied by the kernel\n",
			who(r), s->variant, vnum(s, "zerocopy_sends"), vnum(s, "zerocopy_completed"),
			vnum(s, "zerocopy_copied"));
	if (vnum(s, "enobufs") > 0)
		fprintf(f, "%s: %s: %.0f sends waited for kernel buffers (ENOBUFS)\n", who(r),
			s->variant, vnum(s, "enobufs"));
}

/* A count stored as an integer, printed as one (never through a double). */
static long long vint(const struct bb_series *s, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&s->values, key);

	return kv && kv->type == BB_KV_INT ? kv->i : kv ? (long long)kv->d : 0;
}

/* "ttcp-r: refused: 3 foreign datagrams (1 from another host or port, 2
 * with an implausible sequence number or tally), 1 malformed (1 empty, 0
 * over-length); none counted". */
static void render_refused(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	if (!vint(t, "udp_foreign_datagrams") && !vint(t, "udp_malformed_datagrams"))
		return;
	fprintf(f, "%s: refused: %lld foreign datagrams (%lld from another host or port, %lld "
		   "with an implausible sequence number or tally), %lld malformed (%lld empty, "
		   "%lld over-length); none counted\n", who(r), vint(t, "udp_foreign_datagrams"),
		vint(t, "udp_foreign_peer_datagrams"), vint(t, "udp_foreign_sequence_datagrams"),
		vint(t, "udp_malformed_datagrams"), vint(t, "udp_zero_length_datagrams"),
		vint(t, "udp_over_length_datagrams"));
}

/* A sender to an iperf2 server: what it sent and what the server says. */
static void render_iperf2(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	char rate[48];
	double secs = vnum(t, "server_seconds");

	if (!bb_kv_get(&t->values, "iperf2_server_reports"))
		return;
	fprintf(f, "%s: iperf2: sent %lld datagrams (the final one included: it carries data, "
		   "as iperf counts it)\n", who(r), vint(t, "datagrams_sent"));
	if (vint(t, "iperf2_server_reports") < vint(t, "iperf2_streams")) {
		fprintf(f, "%s: iperf2: no server report for %lld of %lld stream(s) after %lld final "
			   "datagrams (no iperf2 server there?)\n", who(r),
			vint(t, "iperf2_streams") - vint(t, "iperf2_server_reports"),
			vint(t, "iperf2_streams"), vint(t, "iperf2_final_datagrams"));
		if (!vint(t, "iperf2_server_reports"))
			return;
	}
	bb_fmt_si_rate(rate, sizeof rate, secs > 0 ? vnum(t, "server_bytes") * 8.0 / secs : 0);
	fprintf(f, "%s: iperf2 server report: %.0f bytes in %.3f s = %s, %lld lost of %lld "
		   "(%.3f%%), %lld out of order, jitter %.3f ms\n", who(r), vnum(t, "server_bytes"),
		secs, rate, vint(t, "server_lost"), vint(t, "server_datagrams"),
		vint(t, "server_datagrams") > 0 ? 100.0 * (double)vint(t, "server_lost") /
						  (double)vint(t, "server_datagrams") : 0.0,
		vint(t, "server_out_of_order"), vnum(t, "server_jitter_s") * 1e3);
}

static void render_udp(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	render_iperf2(f, r, t);
	if (!bb_kv_get(&t->values, "udp_datagrams"))
		return;
	render_refused(f, r, t);
	if (!vnum(t, "udp_sequenced"))
		fprintf(f, "%s: udp: %lld datagrams, no sequence headers (classic peer or -l < 24): "
			   "loss and jitter unknown", who(r), vint(t, "udp_datagrams"));
	else
		fprintf(f, "%s: udp: %lld datagrams, %lld lost of %lld (%.3f%%), %lld out of order, "
			   "%lld duplicates, jitter %.3f ms (RFC 3550)%s",
			who(r), vint(t, "udp_datagrams"), vint(t, "udp_lost"), vint(t, "udp_expected"),
			100.0 * vnum(t, "udp_loss_fraction"), vint(t, "udp_out_of_order"),
			vint(t, "udp_duplicates"), vnum(t, "udp_jitter_s") * 1e3,
			vint(t, "udp_iperf2_streams") > 0 ? "; iperf2 client, its final datagram counted"
							   : "");
	/* the status note's words (ttcp_model.c): one string in the binary */
	fprintf(f, "; refused %llu foreign and %llu malformed datagram(s), not counted",
		(unsigned long long)vint(t, "udp_foreign_datagrams"),
		(unsigned long long)vint(t, "udp_malformed_datagrams"));
	fputc('\n', f);
}

static void render_peer(FILE *f, const struct bb_result *r, const struct bb_series *s0)
{
	const char *peer = ttcp_param_str(r, "peer");

	if (!peer[0] || !s0)
		return;
	fprintf(f, "%s: peer: %s, announced %.0f stream(s), ", who(r), peer,
		vnum(s0, "peer_streams_announced"));
	if (vnum(s0, "peer_bytes_announced") > 0)
		fprintf(f, "%.0f bytes each", vnum(s0, "peer_bytes_announced"));
	else
		fprintf(f, "%.2f s", vnum(s0, "peer_seconds_announced"));
	fprintf(f, " (its %.0f-byte header counted as data, as iperf counts it)\n",
		vnum(s0, "peer_header_bytes"));
}

/* -v: "ttcp-t: socket buffers: asked 262144, granted 262144 to send,
 * 131071 to receive (net.core.rmem_max caps it)". */
static void render_sockbuf(FILE *f, const struct bb_result *r)
{
	const char *capped = ttcp_param_str(r, "sockbuf_capped_by");

	if (!bb_kv_get(&r->params, "sndbuf_granted") || !bb_kv_get(&r->params, "rcvbuf_granted"))
		return;
	fprintf(f, "%s: socket buffers: ", who(r));
	if (pnum(r, "sockbuf_requested") > 0)
		fprintf(f, "asked %.0f, granted", pnum(r, "sockbuf_requested"));
	else
		fprintf(f, "kernel defaults,");
	fprintf(f, " %.0f to send, %.0f to receive", pnum(r, "sndbuf_granted"),
		pnum(r, "rcvbuf_granted"));
	if (capped[0])
		fprintf(f, " (capped by %s)", capped);
	fputc('\n', f);
}

static const char *onoff(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);

	return !kv ? "?" : kv->i ? "on" : "off";
}

static const char *or_dash(const struct bb_result *r, const char *key)
{
	const char *v = ttcp_param_str(r, key);

	return v[0] ? v : "-";
}

/* -v: "ttcp-t: interface eth0: driver e1000e 3.2.6-k, firmware 0.13-4, bus
 * 0000:00:19.0, 1000 Mbit/s full duplex, mtu 1500, txqueuelen 1000" and
 * its offloads on a second line. */
static void render_interface(FILE *f, const struct bb_result *r)
{
	const char *name = ttcp_param_str(r, "if.name");

	if (!name[0])
		return;
	fprintf(f, "%s: interface %s: driver %s%s%s, firmware %s, bus %s, ", who(r), name,
		or_dash(r, "if.driver"), ttcp_param_str(r, "if.driver_version")[0] ? " " : "",
		ttcp_param_str(r, "if.driver_version"), or_dash(r, "if.firmware_version"),
		or_dash(r, "if.bus"));
	if (pnum(r, "if.speed_mbps") > 0)
		fprintf(f, "%.0f Mbit/s %s duplex, ", pnum(r, "if.speed_mbps"), or_dash(r, "if.duplex"));
	else
		fprintf(f, "link speed unknown, ");
	fprintf(f, "mtu %.0f, txqueuelen %.0f\n", pnum(r, "if.mtu"), pnum(r, "if.txqueuelen"));
	fprintf(f, "%s: interface %s offloads: tso %s, gso %s, gro %s, rx-checksum %s, "
		   "tx-checksum %s, scatter-gather %s\n", who(r), name, onoff(r, "if.tso"),
		onoff(r, "if.gso"), onoff(r, "if.gro"), onoff(r, "if.rx_checksum"),
		onoff(r, "if.tx_checksum"), onoff(r, "if.sg"));
}

/* "ttcp-r: window-limited: a 131071-byte window per 0.120 ms round trip
 * allows at most 8.738 Gbit/s; measured 7.950 Gbit/s (91%)". */
static void render_window(FILE *f, const struct bb_result *r, const struct bb_series *t)
{
	char bound[48], got[48];
	double b = pnum(r, "window_bound_bps");

	if (!pnum(r, "window_limited") || b <= 0)
		return;
	bb_fmt_si_rate(bound, sizeof bound, b);
	bb_fmt_si_rate(got, sizeof got, vnum(t, "bits_per_s"));
	fprintf(f, "%s: window-limited: a %.0f-byte window per %.3f ms round trip allows at most "
		   "%s%s; measured %s (%.0f%%): a larger -b may help\n", who(r),
		pnum(r, "window_bytes"), pnum(r, "rtt_s") * 1e3, bound,
		pnum(r, "streams") > 1 ? " over all streams" : "", got,
		100.0 * vnum(t, "bits_per_s") / b);
}

static const char *without_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (!s)
		return "";
	return strncmp(s, prefix, n) == 0 ? s + n : s;
}

void ttcp_render_report(FILE *f, const struct bb_result *r)
{
	const struct bb_series *t = bb_result_find(r, "transfer", "total");
	int many = pnum(r, "streams") > 1 || (t && vnum(t, "streams") > 1);

	if (!t)
		return;
	render_classic(f, r, t);
	if (!r->ok)
		fprintf(f, "%s: INCOMPLETE: %s\n", who(r), without_prefix(r->message, "incomplete: "));
	render_peer(f, r, bb_result_find(r, "transfer", "stream0"));
	render_si(f, r, t);
	render_cpu(f, r, t);
	render_window(f, r, t);
	if (pnum(r, "verbose")) {
		render_sockbuf(f, r);
		render_interface(f, r);
	}
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->series[i]->name, "transfer") && strcmp(r->series[i]->variant, "total"))
			render_stream(f, r, r->series[i], many);
	render_udp(f, r, t);
}

void ttcp_render(FILE *f, const struct bb_result *r)
{
	ttcp_render_header(f, r);
	ttcp_render_report(f, r);
}

/* "[  0]  1.00- 2.00 sec   112.50 MB   943.72 Mbit/sec  retr 0  rtt 0.120 ms  cwnd 45" */
static void interval_line(FILE *f, const struct bb_result *r, const char *variant, size_t i,
			  double from, double to)
{
	const struct bb_series *b = bb_result_find(r, "interval_bytes", variant);
	const struct bb_series *rtt = bb_result_find(r, "interval_rtt", variant);
	const struct bb_series *cw = bb_result_find(r, "interval_cwnd", variant);
	const struct bb_series *re = bb_result_find(r, "interval_retrans", variant);
	int c = fmt_char(r);
	char rate[64], label[16];
	double bytes;

	if (!b || i >= b->n)
		return;
	bytes = b->samples[i];
	bb_ttcp_fmt_rate(rate, sizeof rate, c, to > from ? bytes / (to - from) : 0);
	if (!strcmp(variant, "total"))
		snprintf(label, sizeof label, "SUM");
	else
		snprintf(label, sizeof label, "%3s", variant + strlen(TTCP_STREAM));
	fprintf(f, "%s: [%s] %7.2f-%7.2f sec  %10.2f %s  %s/sec", who(r), label, from, to,
		bb_ttcp_fmt_scale(c >= 'a' ? c - 'a' + 'A' : c, bytes),
		bb_ttcp_fmt_unit(c >= 'a' ? c - 'a' + 'A' : c), rate);
	if (re && i < re->n && rtt && i < rtt->n && cw && i < cw->n)
		fprintf(f, "  retr %.0f  rtt %.3f ms  cwnd %.0f", re->samples[i],
			rtt->samples[i] * 1e3, cw->samples[i]);
	fputc('\n', f);
}

void ttcp_render_interval(FILE *f, const struct bb_result *r, size_t i)
{
	const struct bb_series *end = bb_result_find(r, "interval_end", "total");
	double to, from;
	int nstreams = 0;

	if (!end || i >= end->n)
		return;
	to = end->samples[i];
	from = i ? end->samples[i - 1] : 0;
	for (size_t k = 0; k < r->n; k++)
		if (!strcmp(r->series[k]->name, "interval_bytes") &&
		    strcmp(r->series[k]->variant, "total")) {
			interval_line(f, r, r->series[k]->variant, i, from, to);
			nstreams++;
		}
	if (nstreams > 1)
		interval_line(f, r, "total", i, from, to);
}

void ttcp_summary(FILE *f, const struct bb_result *r)
{
	const struct bb_series *t = bb_result_find(r, "transfer", "total");
	char rate[64], si[48];

	if (!t || !t->n) {
		fprintf(f, "ttcp     no result: %s\n", r->message ? r->message : "");
		return;
	}
	double bps = bb_kv_getnum(&t->values, "median_bits_per_s", vnum(t, "bits_per_s"));
	size_t kept;

	bb_series_kept(t, &kept);

	bb_ttcp_fmt_rate(rate, sizeof rate, 'm', bps / 8.0);
	bb_fmt_si_rate(si, sizeof si, bps);
	char streams[48] = "";
	if (pnum(r, "streams") > 1)
		snprintf(streams, sizeof streams, "%.0f streams of ", pnum(r, "streams"));
	fprintf(f, "ttcp     loopback tcp %s%.0f x %.0f bytes, median of %zu runs: %s/sec"
		   " (Mbit = 2^20 bits) = %s%s%s%s\n",
		streams, pnum(r, "buflen"), pnum(r, "nbuf"), kept, rate, si,
		r->ok ? "" : " INCOMPLETE", !r->ok && r->message ? ": " : "",
		!r->ok && r->message ? without_prefix(r->message, "incomplete: ") : "");
}
