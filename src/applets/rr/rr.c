/* rr.c - the `rr` applet: request/response latency, as netperf's TCP_RR
 * and UDP_RR, sockperf ping-pong and lmbench lat_tcp/lat_udp measure it.
 * A client sends a request of N bytes, a boardbench server (`rr -s`, or a
 * thread of this process with --loopback) answers with M bytes; one
 * transaction in flight by default.  It prints netperf's RR table, then
 * transactions per second and latency percentiles, the client's own
 * overhead and the warm-up left out.  This file holds the options, the
 * results model and its text; the engine is src/applets/rr/rr_proto.c and rr_client.c,
 * the histogram and percentiles src/applets/rr/rr_hist.c.  Its --help is
 * src/applets/rr/help.txt. */
#include "core/applet.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/parse.h"
#include "core/stop.h"
#include "applets/rr/rr_proto.h"

#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

BB_HELP_TEXT(rr);

#define RR_MAX_SECONDS 86400.0
#define RR_DEFAULT_TIME_S 5.0
#define RR_DEFAULT_WARMUP_S 0.5
#define RR_DEFAULT_TIMEOUT_S 0.5
#define RR_DEFAULT_KEEP 100000
#define RR_MAX_KEEP (1u << 20)       /* what a results reader takes per series */
#define RR_QUICK_TIME_S 2.0
#define RR_QUICK_WARMUP_S 0.25
#define RR_QUICK_KEEP 20000

struct rr_opts {
	struct bb_rr_client_opts c;
	struct bb_rr_server_opts s;
	int server, loopback;
	int pin, server_pin;          /* CPUs, -1 none */
	uint64_t clients;             /* server: 0 for ever */
	int req_given, resp_given;
};

enum {
	OPT_TIME = BB_OPT_FIRST_APPLET, OPT_INFLIGHT, OPT_WARMUP, OPT_TIMEOUT, OPT_PIN,
	OPT_SAMPLES, OPT_IDLE, OPT_CONNECT, OPT_ACCEPT, OPT_CLIENTS, OPT_BIND, OPT_LOOPBACK,
};

/* ---- options ---- */

static void defaults(void *opts)
{
	struct rr_opts *o = opts;

	memset(o, 0, sizeof *o);
	o->c.family = o->s.family = AF_UNSPEC;
	o->c.port = o->s.port = BB_RR_DEFAULT_PORT;
	o->c.req = o->c.resp = 1;
	o->c.inflight = 1;
	o->c.time_s = RR_DEFAULT_TIME_S;
	o->c.warmup_s = RR_DEFAULT_WARMUP_S;
	o->c.timeout_s = RR_DEFAULT_TIMEOUT_S;
	o->c.idle_timeout_s = o->s.idle_timeout_s = 10;
	o->c.connect_timeout_s = 10;
	o->c.keep_max = RR_DEFAULT_KEEP;
	o->c.pin = o->pin = o->server_pin = -1;
	o->clients = 1;
}

static double seconds_arg(const char *opt, const char *arg, double min)
{
	double v;

	if (bb_parse_double(arg, 0, RR_MAX_SECONDS, &v) || v < min || (min > 0 && v <= 0))
		bb_die_value(opt, arg, min > 0 ? "expected seconds > 0, at most 86400"
					       : "expected seconds >= 0, at most 86400");
	return v;
}

static int cpu_arg(const char *opt, const char *arg)
{
	uint64_t v;

	if (bb_parse_u64(arg, 0, 65535, &v))
		bb_die_value(opt, arg, "expected a CPU number, or CPU,CPU with --loopback");
	return (int)v;
}

/* --pin CPU or CPU,CPU2 (the second for the loopback server). */
static void pin_arg(struct rr_opts *o, const char *arg)
{
	char first[32];
	const char *comma = strchr(arg, ',');

	if (!comma) {
		o->pin = cpu_arg("--pin", arg);
		return;
	}
	if ((size_t)(comma - arg) >= sizeof first)
		bb_die_value("--pin", arg, "expected a CPU number, or CPU,CPU with --loopback");
	snprintf(first, sizeof first, "%.*s", (int)(comma - arg), arg);
	o->pin = cpu_arg("--pin", first[0] ? first : "x");
	o->server_pin = cpu_arg("--pin", comma[1] ? comma + 1 : "x");
}

static uint32_t bytes_arg(const char *opt, const char *arg)
{
	return (uint32_t)bb_size_arg(opt, arg, 1, BB_RR_MAX_TCP_BYTES, "expected bytes 1..1M");
}

static int long_opt(struct rr_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_TIME: o->c.time_s = seconds_arg("--time", arg, 1e-3); o->c.count = 0; return 1;
	case OPT_INFLIGHT:
		o->c.inflight = (uint32_t)bb_size_arg("--inflight", arg, 1, BB_RR_MAX_INFLIGHT,
						      "expected 1..256");
		return 1;
	case OPT_WARMUP: o->c.warmup_s = seconds_arg("--warmup", arg, 0); return 1;
	case OPT_TIMEOUT: o->c.timeout_s = seconds_arg("--timeout", arg, 1e-3); return 1;
	case OPT_PIN: pin_arg(o, arg); return 1;
	case OPT_SAMPLES:
		o->c.keep_max = bb_size_arg("--samples", arg, 1, RR_MAX_KEEP, "expected 1..1048576");
		return 1;
	case OPT_IDLE:
		o->c.idle_timeout_s = o->s.idle_timeout_s = seconds_arg("--idle-timeout", arg, 1e-3);
		return 1;
	case OPT_CONNECT: o->c.connect_timeout_s = seconds_arg("--connect-timeout", arg, 1e-3); return 1;
	case OPT_ACCEPT: o->s.accept_timeout_s = seconds_arg("--accept-timeout", arg, 0); return 1;
	case OPT_CLIENTS:
		o->clients = bb_size_arg("--clients", arg, 0, 1u << 30, "expected a count, 0 for ever");
		return 1;
	case OPT_BIND: {
		struct bb_addr a;
		if (bb_addr_numeric(arg, 0, AF_UNSPEC, &a) != 0)
			bb_die_value("--bind", arg, "expected a numeric address");
		o->s.bind = arg;
		return 1;
	}
	case OPT_LOOPBACK: o->loopback = 1; return 1;
	}
	return 0;
}

static int short_opt(struct rr_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 's': o->server = 1; return 1;
	case 'u': o->c.udp = o->s.udp = 1; return 1;
	case 'l': o->c.req = bytes_arg("-l", arg); o->req_given = 1; return 1;
	case 'L': o->c.resp = bytes_arg("-L", arg); o->resp_given = 1; return 1;
	case 'p':
		o->c.port = o->s.port = (unsigned)bb_size_arg("-p", arg, 1, 65535,
							      "expected a port 1..65535");
		return 1;
	case 'n':
		o->c.count = bb_size_arg("-n", arg, 1, 1ull << 40, "expected a count 1..2^40");
		o->c.time_s = 0;
		return 1;
	case '4': o->c.family = o->s.family = AF_INET; return 1;
	case '6': o->c.family = o->s.family = AF_INET6; return 1;
	}
	return 0;
}

static void check(struct rr_opts *o, int argc, char **argv)
{
	const char *why;

	if (o->server && o->loopback)
		bb_die_usage("give -s or --loopback, not both (see --help)");
	if (!o->server && !o->loopback) {
		if (optind >= argc)
			bb_die_usage("the client needs the server's host (or --loopback; see --help)");
		o->c.host = argv[optind++];
		if (!o->c.host[0])
			bb_die_value("host", o->c.host, "expected a name or address");
	}
	bb_cli_no_operands(argc, argv);
	if (o->c.udp && !o->req_given)
		o->c.req = BB_RR_MIN_UDP_BYTES;      /* the sequence number */
	if (o->c.udp && !o->resp_given)
		o->c.resp = BB_RR_MIN_UDP_BYTES;
	if (o->server_pin >= 0 && !o->loopback)
		bb_die_value("--pin", "CPU,CPU", "two CPUs only with --loopback");
	if (o->server && o->c.count)
		bb_die_usage("-n applies to the client (see --help)");
	why = bb_rr_check(o->c.udp, o->c.req, o->c.resp, o->c.inflight);
	if (why && !o->server) {
		char v[64];
		int req_bad = bb_rr_check(o->c.udp, o->c.req, o->c.udp ? 8 : 1, 1) != NULL;
		int resp_bad = bb_rr_check(o->c.udp, o->c.udp ? 8 : 1, o->c.resp, 1) != NULL;
		snprintf(v, sizeof v, "%u", req_bad ? o->c.req : resp_bad ? o->c.resp : o->c.inflight);
		bb_die_value(req_bad ? "-l" : resp_bad ? "-L" : "--inflight", v, why);
	}
	o->c.pin = o->pin;
}

static void parse(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct rr_opts *o = opts;

	static const struct option longopts[] = {
		{ "server", no_argument, NULL, 's' }, { "udp", no_argument, NULL, 'u' },
		{ "request", required_argument, NULL, 'l' },
		{ "response", required_argument, NULL, 'L' },
		{ "port", required_argument, NULL, 'p' },
		{ "transactions", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "inflight", required_argument, NULL, OPT_INFLIGHT },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "idle-timeout", required_argument, NULL, OPT_IDLE },
		{ "connect-timeout", required_argument, NULL, OPT_CONNECT },
		{ "accept-timeout", required_argument, NULL, OPT_ACCEPT },
		{ "clients", required_argument, NULL, OPT_CLIENTS },
		{ "bind", required_argument, NULL, OPT_BIND },
		{ "loopback", no_argument, NULL, OPT_LOOPBACK },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":sul:L:p:n:46h", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli) || short_opt(o, opt, optarg) ||
		    long_opt(o, opt, optarg))
			continue;
		if (opt == 'h') {
			bb_help_print(&bb_help_rr);
			exit(0);
		}
		bb_cli_bad(opt, argv);
	}
	check(o, argc, argv);
}

/* ---- the text, rendered from the model ---- */

static const char *pstr(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

static double pnum(const struct bb_result *r, const char *key)
{
	return bb_kv_getnum(&r->params, key, -1);
}

static double vnum(const struct bb_series *s, const char *key)
{
	return bb_kv_getnum(&s->values, key, 0);
}

/* netperf's RR table: socket buffers, sizes, time and the rate. */
static void render_table(FILE *f, const struct bb_result *r, const struct bb_series *l)
{
	fprintf(f, "Local /Remote\n"
		   "Socket Size   Request  Resp.   Elapsed  Trans.\n"
		   "Send   Recv   Size     Size    Time     Rate\n"
		   "bytes  Bytes  bytes    bytes   secs.    per sec\n\n");
	fprintf(f, "%-6.0f %-6.0f %-8.0f %-7.0f %-8.2f %-8.2f\n", pnum(r, "sndbuf"),
		pnum(r, "rcvbuf"), pnum(r, "request_bytes"), pnum(r, "response_bytes"),
		l ? vnum(l, "elapsed_s") : 0.0, l ? vnum(l, "transactions_per_s") : 0.0);
	fprintf(f, "%-6.0f %-6.0f\n\n", pnum(r, "peer_sndbuf"), pnum(r, "peer_rcvbuf"));
}

static void render_latency(FILE *f, const struct bb_series *l)
{
	fprintf(f, "rr-c: %.0f transactions in %.3f s = %.2f per second (%.0f in the %.2f s "
		   "warm-up not recorded)\n", vnum(l, "transactions"), vnum(l, "elapsed_s"),
		vnum(l, "transactions_per_s"), vnum(l, "warmup_transactions"),
		vnum(l, "warmup_s"));
	if (!(vnum(l, "transactions") > 0))
		return;
	fprintf(f, "rr-c: latency us: min %.2f  p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  "
		   "max %.2f  (mean %.2f)\n", vnum(l, "min_s") * 1e6, vnum(l, "p50_s") * 1e6,
		vnum(l, "p90_s") * 1e6, vnum(l, "p99_s") * 1e6, vnum(l, "p99_9_s") * 1e6,
		vnum(l, "max_s") * 1e6, vnum(l, "mean_s") * 1e6);
	if (vnum(l, "percentiles_exact"))
		fprintf(f, "rr-c: percentiles by nearest rank over every one of the %.0f samples\n",
			vnum(l, "samples_kept"));
	else
		fprintf(f, "rr-c: percentiles from a histogram of every transaction (buckets 1/128 "
			   "of a doubling: within 0.4%%); --json keeps %.0f of them, a uniform "
			   "subset\n", vnum(l, "samples_kept"));
}

static void render_client(FILE *f, const struct bb_result *r)
{
	const struct bb_series *l = bb_result_find(r, BB_RR_SERIES_LATENCY, NULL);
	int udp = strcmp(pstr(r, "protocol"), "udp") == 0;

	fprintf(f, "rr-c: %s request/response with %s: %.0f-byte requests, %.0f-byte responses, "
		   "%.0f in flight%s\n", udp ? "UDP" : "TCP", pstr(r, "peer"),
		pnum(r, "request_bytes"), pnum(r, "response_bytes"), pnum(r, "inflight"),
		udp ? "" : ", TCP_NODELAY");
	if (l) {
		render_table(f, r, l);
		render_latency(f, l);
	}
	if (l)
		fprintf(f, "rr-c: client overhead %.3f us per transaction (its timestamp pair and "
			   "bookkeeping, no network; included above, not subtracted)\n",
			vnum(l, "client_overhead_s") * 1e6);
	if (udp && l)
		fprintf(f, "rr-c: UDP: %.0f lost (unanswered after %.3g s), %.0f late, %.0f foreign, "
			   "of %.0f sent\n", vnum(l, "lost"), pnum(r, "timeout_s"), vnum(l, "late"),
			vnum(l, "foreign"), vnum(l, "sent"));
	if (pnum(r, "pin_cpu") >= 0 || pnum(r, "server_pin_cpu") >= 0)
		fprintf(f, "rr-c: pinned: client to CPU %.0f, server to CPU %.0f (-1: not pinned)\n",
			pnum(r, "pin_cpu"), pnum(r, "server_pin_cpu"));
	if (!r->ok)
		fprintf(f, "rr-c: %s\n", r->message ? r->message : "failed");
}

static void rr_summary(FILE *f, const struct bb_result *r)
{
	const struct bb_series *l = bb_result_find(r, BB_RR_SERIES_LATENCY, NULL);

	if (!l || !(vnum(l, "transactions") > 0)) {
		fprintf(f, "rr       no result: %s\n", r->message ? r->message : "");
		return;
	}
	fprintf(f, "rr       loopback %s %.0f/%.0f bytes: %.0f transactions/s, latency p50 %.2f us, "
		   "p99 %.2f us (%.1f s)%s\n", pstr(r, "protocol"), pnum(r, "request_bytes"),
		pnum(r, "response_bytes"), vnum(l, "transactions_per_s"), vnum(l, "p50_s") * 1e6,
		vnum(l, "p99_s") * 1e6, vnum(l, "elapsed_s"), r->ok ? "" : " INCOMPLETE");
}

static void render_server(FILE *f, const struct bb_result *r)
{
	fprintf(f, "rr-s: %s: %.0f transactions of %.0f/%.0f bytes, %.0f in flight, in %.2f s; "
		   "%.0f malformed; ended: %s\n", pstr(r, "peer"), pnum(r, "transactions"),
		pnum(r, "request_bytes"), pnum(r, "response_bytes"), pnum(r, "inflight"),
		pnum(r, "seconds"), pnum(r, "malformed"), pstr(r, "end"));
	if (strcmp(pstr(r, "protocol"), "udp") == 0)
		fprintf(f, "rr-s: UDP: before the session: cookies sent %.0f, forged or stale "
			   "cookies refused %.0f, answers to unverified sources withheld by the rate "
			   "bound %.0f; in it: requests not answered (without the session key, out "
			   "of its window or answered already) %.0f\n", pnum(r, "cookies_sent"),
			pnum(r, "cookies_refused"), pnum(r, "unverified_dropped"), pnum(r, "foreign"));
}

/* ---- the results model ---- */

static void fill_params(struct bb_result *r, const struct rr_opts *o,
			const struct bb_rr_client_result *cr)
{
	const struct bb_rr_client_opts *c = &o->c;

	bb_kv_str(&r->params, "role", "client");
	bb_kv_str(&r->params, "protocol", c->udp ? "udp" : "tcp");
	bb_kv_str(&r->params, "host", c->host);
	bb_kv_int(&r->params, "port", c->port);
	bb_kv_str(&r->params, "peer", cr->peer[0] ? cr->peer : c->host);
	bb_kv_bool(&r->params, "loopback", o->loopback);
	bb_kv_int(&r->params, "request_bytes", c->req);
	bb_kv_int(&r->params, "response_bytes", c->resp);
	bb_kv_int(&r->params, "inflight", c->inflight);
	bb_kv_num(&r->params, "time_s", c->time_s);
	bb_kv_int(&r->params, "transactions_asked", (long long)c->count);
	bb_kv_num(&r->params, "warmup_s", c->warmup_s);
	if (c->udp)
		bb_kv_num(&r->params, "timeout_s", c->timeout_s);
	bb_kv_num(&r->params, "idle_timeout_s", c->idle_timeout_s);
	bb_kv_bool(&r->params, "nodelay", !c->udp);
	bb_kv_int(&r->params, "pin_cpu", o->pin);
	bb_kv_int(&r->params, "server_pin_cpu", o->server_pin);
	bb_kv_int(&r->params, "sndbuf", cr->sndbuf);
	bb_kv_int(&r->params, "rcvbuf", cr->rcvbuf);
	bb_kv_int(&r->params, "peer_sndbuf", cr->peer_sndbuf);
	bb_kv_int(&r->params, "peer_rcvbuf", cr->peer_rcvbuf);
	bb_kv_bool(&r->params, "overhead_subtracted", 0);
	bb_kv_str(&r->params, "clock", "CLOCK_MONOTONIC");
	bb_kv_str(&r->params, "latency_counted", "from just before the request's send to just "
		  "after the response's last byte was received");
	bb_kv_num(&r->params, "interval_s", BB_RR_INTERVAL_S);
	bb_kv_int(&r->params, "histogram_buckets_per_doubling", BB_RR_SUB);
	bb_kv_int(&r->params, "samples_max", (long long)c->keep_max);
	bb_kv_bool(&r->params, "complete", cr->complete);
}

static void fill_latency(struct bb_result *r, const struct bb_rr_client_result *cr,
			 const struct rr_opts *o)
{
	struct bb_series *l = bb_result_add_series(r, BB_RR_SERIES_LATENCY, "", "s", 0, "");
	struct bb_rr_figures fg;
	double el = cr->elapsed_s;

	for (size_t i = 0; i < cr->keep.n; i++)
		bb_series_add(l, cr->keep.v[i]);
	bb_kv_int(&l->values, "transactions", (long long)cr->completed);
	bb_kv_int(&l->values, "sent", (long long)cr->sent);
	bb_kv_int(&l->values, "lost", (long long)cr->lost);
	bb_kv_int(&l->values, "late", (long long)cr->late);
	bb_kv_int(&l->values, "foreign", (long long)cr->foreign);
	bb_kv_int(&l->values, "warmup_transactions", (long long)cr->warmup_transactions);
	bb_kv_num(&l->values, "warmup_s", cr->warmup_done_s > 0 ? cr->warmup_done_s : o->c.warmup_s);
	bb_kv_num(&l->values, "elapsed_s", el);
	bb_kv_num(&l->values, "transactions_per_s", el > 0 ? (double)cr->completed / el : 0);
	bb_kv_int(&l->values, "samples_kept", (long long)cr->keep.n);
	bb_kv_bool(&l->values, "samples_subset", cr->keep.seen > cr->keep.n);
	bb_kv_num(&l->values, "client_overhead_s", cr->overhead_s);
	bb_kv_str(&l->values, "end", cr->end);
	if (bb_rr_figures(&cr->keep, cr->hist, &fg) != 0)
		return;
	bb_kv_num(&l->values, "min_s", fg.min);
	bb_kv_num(&l->values, "p50_s", fg.p50);
	bb_kv_num(&l->values, "p90_s", fg.p90);
	bb_kv_num(&l->values, "p99_s", fg.p99);
	bb_kv_num(&l->values, "p99_9_s", fg.p999);
	bb_kv_num(&l->values, "max_s", fg.max);
	bb_kv_num(&l->values, "mean_s", fg.mean);
	bb_kv_bool(&l->values, "percentiles_exact", fg.exact);
}

/* The histogram as two series of equal length, non-empty buckets only. */
static void fill_histogram(struct bb_result *r, const struct bb_rr_hist *h)
{
	struct bb_series *lo, *n;

	if (!h->n)
		return;
	lo = bb_result_add_series(r, BB_RR_SERIES_HISTOGRAM "lower", "", "s", 0, "");
	n = bb_result_add_series(r, BB_RR_SERIES_HISTOGRAM "count", "", "transactions", 0, "");
	for (size_t i = 0; i < BB_RR_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		bb_series_add(lo, (double)bb_rr_hist_lower(i) * 1e-9);
		bb_series_add(n, (double)h->count[i]);
	}
	bb_kv_int(&lo->values, "buckets_per_doubling", BB_RR_SUB);
	bb_kv_str(&lo->values, "bucket", "[lower, lower + max(1 ns, lower/128)) below 2^64 ns");
}

static void fill_intervals(struct bb_result *r, const struct bb_rr_client_result *cr)
{
	struct bb_series *s;

	if (!cr->nint)
		return;
	s = bb_result_add_series(r, BB_RR_SERIES_INTERVAL, "", "transactions", BB_RR_INTERVAL_S,
				 "s");
	for (size_t i = 0; i < cr->nint; i++)
		bb_series_add(s, (double)cr->interval[i]);
}

static void fill_result(struct bb_result *r, const struct rr_opts *o,
			const struct bb_rr_client_result *cr, int rc)
{
	char what[96];

	fill_params(r, o, cr);
	if (rc >= 0) {
		fill_latency(r, cr, o);
		fill_intervals(r, cr);
		fill_histogram(r, cr->hist);
	}
	if (cr->interrupted) {
		snprintf(what, sizeof what, "%llu transactions", (unsigned long long)cr->completed);
		bb_result_set_interrupted(r, what);
	} else if (cr->complete) {
		bb_result_set_status(r, 1, "");
	} else {
		char msg[400];
		snprintf(msg, sizeof msg, "%s%s", rc >= 0 ? "INCOMPLETE: " : "", cr->end);
		bb_result_set_status(r, 0, msg);
	}
}

/* ---- the loopback server thread ---- */

struct loop_server {
	struct bb_rr_server_opts o;
	struct bb_rr_session s;
	int fd, pin;
	atomic_int stop;
	char err[256];
	pthread_t thread;
};

static void *loop_server_main(void *arg)
{
	struct loop_server *ls = arg;

	if (bb_rr_pin(ls->pin, ls->err, sizeof ls->err) == 0)
		bb_rr_serve(ls->fd, &ls->o, &ls->s, ls->err, sizeof ls->err);
	return NULL;
}

/* Starts it on 127.0.0.1, any port; the port goes into o->c.port. */
static int loop_server_start(struct loop_server *ls, struct rr_opts *o)
{
	memset(ls, 0, sizeof *ls);
	ls->o = o->s;
	ls->o.family = AF_INET;
	ls->o.bind = "127.0.0.1";
	ls->o.port = 0;
	ls->o.accept_timeout_s = o->c.connect_timeout_s;
	ls->o.stop = &ls->stop;
	ls->pin = o->server_pin;
	ls->fd = bb_rr_server_open(&ls->o, &o->c.port, ls->err, sizeof ls->err);
	if (ls->fd < 0)
		return -1;
	o->c.host = "127.0.0.1";
	o->c.family = AF_INET;
	if (pthread_create(&ls->thread, NULL, loop_server_main, ls) != 0) {
		snprintf(ls->err, sizeof ls->err, "cannot start the server thread");
		close(ls->fd);
		return -1;
	}
	return 0;
}

static void loop_server_stop(struct loop_server *ls, struct bb_result *r)
{
	atomic_store(&ls->stop, 1);
	pthread_join(ls->thread, NULL);
	close(ls->fd);
	struct bb_series *l = (struct bb_series *)bb_result_find(r, BB_RR_SERIES_LATENCY, NULL);

	if (!l)
		return;
	bb_kv_int(&l->values, "server_transactions", (long long)ls->s.transactions);
	bb_kv_int(&l->values, "server_malformed", (long long)ls->s.malformed);
	if (ls->o.udp)
		bb_kv_int(&l->values, "server_foreign", (long long)ls->s.foreign);
	bb_kv_str(&l->values, "server_end", ls->s.end[0] ? ls->s.end : ls->err);
}

/* ---- running ---- */

static struct bb_result *client_execute(struct bb_run *run, void *opts)
{
	struct rr_opts *o = opts;

	struct bb_result *r = bb_run_add_result(run, "rr");
	struct bb_rr_client_result cr;
	struct loop_server ls;
	int rc;

	r->render = render_client;
	r->summary = rr_summary;
	if (o->loopback && loop_server_start(&ls, o) != 0) {
		bb_result_set_status(r, 0, ls.err);
		return r;
	}
	rc = bb_rr_client_run(&o->c, &cr);
	fill_result(r, o, &cr, rc);
	if (o->loopback)
		loop_server_stop(&ls, r);
	bb_rr_client_result_free(&cr);
	return r;
}

static void add_session(struct bb_run *run, const struct rr_opts *o,
			const struct bb_rr_session *s)
{
	struct bb_result *r = bb_run_add_result(run, "rr");

	r->render = render_server;
	bb_kv_str(&r->params, "role", "server");
	bb_kv_str(&r->params, "protocol", o->s.udp ? "udp" : "tcp");
	bb_kv_int(&r->params, "port", o->s.port);
	bb_kv_str(&r->params, "peer", s->peer);
	bb_kv_int(&r->params, "request_bytes", s->req);
	bb_kv_int(&r->params, "response_bytes", s->resp);
	bb_kv_int(&r->params, "inflight", s->inflight);
	bb_kv_int(&r->params, "transactions", (long long)s->transactions);
	bb_kv_int(&r->params, "malformed", (long long)s->malformed);
	if (o->s.udp) {
		bb_kv_int(&r->params, "foreign", (long long)s->foreign);
		bb_kv_int(&r->params, "cookies_sent", (long long)s->cookies_sent);
		bb_kv_int(&r->params, "cookies_refused", (long long)s->cookies_refused);
		bb_kv_int(&r->params, "unverified_dropped", (long long)s->unverified_dropped);
	}
	bb_kv_num(&r->params, "seconds", s->seconds);
	bb_kv_int(&r->params, "pin_cpu", o->pin);
	bb_kv_str(&r->params, "end", s->end);
	bb_result_set_status(r, s->ok, s->ok ? "" : s->end);
	render_server(stdout, r);
	fflush(stdout);
}

static int server_main(struct bb_run *run, struct rr_opts *o, struct bb_cli *cli)
{
	atomic_int stop = 0;
	char err[256];
	unsigned port;
	int fd, rc = 0, failed = 0;

	if (bb_rr_pin(o->pin, err, sizeof err) != 0 ||
	    (fd = bb_rr_server_open(&o->s, &port, err, sizeof err)) < 0)
		bb_die("%s", err);
	o->s.stop = &stop;
	printf("rr-s: serving %s request/response on port %u\n", o->s.udp ? "UDP" : "TCP", port);
	fflush(stdout);
	for (uint64_t k = 0; (!o->clients || k < o->clients) && !bb_stopped(); k++) {
		struct bb_rr_session s;
		rc = bb_rr_serve(fd, &o->s, &s, err, sizeof err);
		if (rc != 0)
			break;
		add_session(run, o, &s);
		failed |= !s.ok;
	}
	close(fd);
	if (rc != 0 && !bb_stopped())
		bb_warn("%s", err);
	rc = bb_cli_finish(run, cli) || failed || (rc != 0 && !bb_stopped());
	bb_run_free(run);
	bb_cli_free(cli);
	return rc ? BB_EXIT_FAIL : 0;
}

/* -s: the server serves until a signal, with a run of its own for the
 * results it keeps; the client goes on to the generic main. */
static int rr_before(int argc, char **argv, void *opts, struct bb_cli *cli)
{
	struct bb_run *run;

	if (!((struct rr_opts *)opts)->server)
		return -1;
	run = bb_run_new(argc, argv);
	bb_stop_install();
	return server_main(run, opts, cli);
}

/* The quick suite's profile: TCP, 1-byte request and response, one in
 * flight, 2 s after a 0.25 s warm-up, against a server thread. */
static struct bb_result *rr_quick(struct bb_run *run)
{
	struct rr_opts o;

	defaults(&o);
	o.loopback = 1;
	o.c.time_s = RR_QUICK_TIME_S;
	o.c.warmup_s = RR_QUICK_WARMUP_S;
	o.c.keep_max = RR_QUICK_KEEP;
	return client_execute(run, &o);
}

/* ---- the applet ---- */

/* "rr-tcp-1x1-rate", "-inflight4" before "-rate" when above 1. */
static void rr_lava_name(char *name, size_t len, const struct bb_result *r)
{
	const struct bb_kv *proto = bb_kv_get(&r->params, "protocol");
	double inflight = bb_kv_getnum(&r->params, "inflight", 1);

	snprintf(name, len, "rr-%s-%.0fx%.0f", proto && proto->s ? proto->s : "tcp",
		 bb_kv_getnum(&r->params, "request_bytes", 1),
		 bb_kv_getnum(&r->params, "response_bytes", 1));
	if (inflight > 1)
		snprintf(name + strlen(name), len - strlen(name), "-inflight%.0f", inflight);
	snprintf(name + strlen(name), len - strlen(name), "-rate");
}

/* The transactions per second rr printed (netperf's TCP_RR figure). */
static void rr_lava(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, BB_RR_SERIES_LATENCY, NULL);
	char name[96];

	rr_lava_name(name, sizeof name, r);
	if (s)
		bb_lava_pass(f, name, bb_kv_getnum(&s->values, "transactions_per_s", NAN),
			     "transactions/s");
}

static const struct bb_headline rr_headline = {
	.keys = { "rr.tcp.1x1.rate", "rr.tcp.*.rate", "rr.*.rate" },
	.lava = rr_lava,
	.lava_name = rr_lava_name,
};

const struct bb_applet bb_applet_rr = {
	.name = "rr",
	.summary = "request/response latency: transactions/s, p50..p99.9 (netperf TCP_RR/UDP_RR)",
	.opts_size = sizeof(struct rr_opts),
	.defaults = defaults,
	.parse = parse,
	.before = rr_before,
	.execute = client_execute,
	.quick = rr_quick,
	.headline = &rr_headline,
};
