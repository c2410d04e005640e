/* ttcp.c - the `ttcp` applet: a drop-in classic ttcp (the same letters,
 * defaults and report lines; a `ttcp` symlink acts as classic ttcp) that
 * also talks to iperf2 both ways and reports what modern tools report.
 * This file holds the options and their checks, main and the quick
 * profile; see ttcp_applet.h for the other parts.  Its --help is
 * src/applets/ttcp/help.txt. */
#include "core/applet.h"
#include "ttcp_applet.h"
#include "ttcp_server.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/headline.h"
#include "core/help.h"
#include "core/parse.h"
#include "net/classic.h"
#include "net/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

BB_HELP_TEXT(ttcp);

#define TTCP_MAX_SECONDS 86400.0

static void defaults(struct ttcp_opts *o)
{
	memset(o, 0, sizeof *o);
	o->family = AF_UNSPEC;
	o->port = TTCP_DEFAULT_PORT;
	o->buflen = TTCP_DEFAULT_BUFLEN;
	o->nbuf = TTCP_DEFAULT_NBUF;
	o->align = TTCP_DEFAULT_ALIGN;
	o->fmt = 'K';
	o->streams = 1;
	o->connect_timeout_s = 10;
	o->idle_timeout_s = 30;
}

static double seconds_arg(const char *opt, const char *arg, double min)
{
	double v;

	if (bb_parse_double(arg, min, TTCP_MAX_SECONDS, &v) || (min == 0 && v < 0) ||
	    (min > 0 && v < min))
		bb_die_value(opt, arg, min > 0 ? "expected seconds > 0, at most 86400"
					       : "expected seconds >= 0, at most 86400");
	return v;
}

static void zerocopy_arg(struct ttcp_opts *o, const char *arg)
{
	if (!arg || strcmp(arg, "sendfile") == 0)
		o->zerocopy = BB_ZC_SENDFILE;
	else if (strcmp(arg, "msg") == 0)
		o->zerocopy = BB_ZC_MSG;
	else
		bb_die_value("--zerocopy", arg, "expected sendfile or msg");
}

static void bind_arg(struct ttcp_opts *o, const char *arg)
{
	char addr[128], dev[64];
	struct bb_addr a;

	if (bb_bind_spec_parse(arg, addr, sizeof addr, dev, sizeof dev) != 0 ||
	    (addr[0] && bb_addr_numeric(arg, 0, AF_UNSPEC, &a) != 0 &&
	     bb_addr_numeric(addr, 0, AF_UNSPEC, &a) != 0))
		bb_die_value("--bind", arg, "expected a numeric address, %device, or both");
	o->bind = arg;
}

/* Classic letters; returns 1 if opt was one of them. */
static int classic_opt(struct ttcp_opts *o, int opt, const char *arg, int *roles)
{
	switch (opt) {
	case 't': o->transmit = 1; *roles |= 1; return 1;
	case 'r': o->transmit = 0; *roles |= 2; return 1;
	case 'u': o->udp = 1; return 1;
	case 'l': o->buflen = bb_size_arg("-l", arg, 1, TTCP_MAX_BUFLEN, "expected bytes 1..64M"); return 1;
	case 'n': o->nbuf = bb_size_arg("-n", arg, 1, 1ull << 40, "expected a count 1..2^40"); return 1;
	case 'p': o->port = (unsigned)bb_size_arg("-p", arg, 1, 65535, "expected a port 1..65535"); return 1;
	case 'b': o->sockbuf = (int)bb_size_arg("-b", arg, 1, 1u << 30, "expected bytes 1..1G"); return 1;
	case 'A': o->align = bb_size_arg("-A", arg, 1, TTCP_MAX_ALIGN, "expected bytes 1..1M"); return 1;
	case 'O': o->offset = bb_size_arg("-O", arg, 0, TTCP_MAX_ALIGN, "expected bytes 0..1M"); return 1;
	case 'D': o->nodelay = 1; return 1;
	case 's': o->sink = 1; return 1;
	case 'v': o->verbose = 1; return 1;
	case 'T': o->touch = 1; return 1;
	case '4': o->family = AF_INET; return 1;
	case '6': o->family = AF_INET6; return 1;
	case 'f':
		if (strlen(arg) != 1 || !bb_ttcp_fmt_valid(arg[0]))
			bb_die_value("-f", arg, "expected one of k K m M g G");
		o->fmt = arg[0];
		return 1;
	}
	return 0;
}

static int modern_opt(struct ttcp_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case TO_TIME: o->time_s = seconds_arg("--time", arg, 1e-3); return 1;
	case TO_STREAMS:
		o->streams = (int)bb_size_arg("--streams", arg, 1, BB_MAX_STREAMS, "expected 1..64");
		return 1;
	case TO_INTERVAL: o->interval_s = seconds_arg("--interval", arg, 0.01); return 1;
	case TO_BIND: bind_arg(o, arg); return 1;
	case TO_ZEROCOPY: zerocopy_arg(o, arg); return 1;
	case TO_RATE:
		if (bb_parse_rate(arg, &o->rate_bps))
			bb_die_value("--rate", arg, "expected bits/s > 0, e.g. 100M (k/M/G = 10^3/6/9)");
		return 1;
	case TO_GSO: o->gso = 1; return 1;
	case TO_GRO: o->gro = 1; return 1;
	case TO_CONNECT_TIMEOUT: o->connect_timeout_s = seconds_arg("--connect-timeout", arg, 1e-3); return 1;
	case TO_IDLE_TIMEOUT: o->idle_timeout_s = seconds_arg("--idle-timeout", arg, 1e-3); return 1;
	case TO_ACCEPT_TIMEOUT: o->accept_timeout_s = seconds_arg("--accept-timeout", arg, 0); return 1;
	case TO_READ_SIZE:
		o->read_size = bb_size_arg("--read-size", arg, 1, TTCP_MAX_BUFLEN, "expected bytes 1..64M");
		return 1;
	case TO_RCVLOWAT:
		o->rcvlowat = bb_size_arg("--rcvlowat", arg, 1, TTCP_MAX_BUFLEN, "expected bytes 1..64M");
		o->rcvlowat_given = 1;
		return 1;
	case TO_IPERF2:
		o->iperf2 = 1;
		return 1;
	}
	return 0;
}

static _Noreturn void conflict(const char *what)
{
	bb_die_usage("%s (see --help)", what);
}

/* Checks that need every option. */
static void check_udp(const struct ttcp_opts *o)
{
	char len[32];

	snprintf(len, sizeof len, "%zu", o->buflen);
	if (o->buflen < 5 || o->buflen > TTCP_UDP_MAX_DATAGRAM)
		bb_die_value("-l", len, "with -u: UDP datagrams of 5..65507 bytes (4 or fewer "
			     "are the sentinels)");
	if (o->gso && (!o->transmit || !o->sink))
		conflict("--gso applies to a UDP sender with -s");
	if (o->gro && o->transmit)
		conflict("--gro applies to a UDP receiver (-r -u)");
	if (o->zerocopy == BB_ZC_SENDFILE)
		conflict("--zerocopy=sendfile is for TCP; use --zerocopy=msg with -u");
}

static void check_zerocopy(const struct ttcp_opts *o)
{
	struct stat st;

	if (!o->zerocopy)
		return;
	if (!o->transmit)
		conflict("--zerocopy applies to the sender (-t)");
	if (o->zerocopy == BB_ZC_MSG && !o->sink)
		conflict("--zerocopy=msg needs -s: the buffer must not change while the kernel "
			 "sends from it");
	if (o->zerocopy == BB_ZC_SENDFILE && !o->sink && (fstat(0, &st) != 0 || !S_ISREG(st.st_mode)))
		conflict("--zerocopy=sendfile without -s sends stdin with sendfile(): stdin "
			 "must be a regular file");
}

static void check(struct ttcp_opts *o, int roles, int argc, char **argv)
{
	if (roles != 1 && roles != 2)
		conflict(roles ? "give only one of -t and -r" : "give -t (transmit) or -r (receive)");
	if (o->transmit) {
		if (optind >= argc)
			conflict("-t needs the receiver's host");
		o->host = argv[optind++];
		if (!o->host[0])
			bb_die_value("host", o->host, "expected a name or address");
	}
	bb_cli_no_operands(argc, argv);
	if (o->udp)
		check_udp(o);
	else if (o->gso || o->gro)
		conflict("--gso and --gro apply to UDP (-u)");
	check_zerocopy(o);
	if (o->streams > 1 && !o->sink)
		conflict("--streams above 1 needs -s (one stdin/stdout cannot feed several streams)");
	if (o->read_size && o->transmit)
		conflict("--read-size applies to the receiver (-r)");
	if (o->rcvlowat_given && (o->transmit || o->udp))
		conflict("--rcvlowat applies to a TCP receiver (-r)");
	if (!o->rcvlowat_given)
		o->rcvlowat = o->sink ? TTCP_RX_LOWAT : 1;
	if (o->rate_bps > 0 && !o->transmit)
		conflict("--rate applies to the sender (-t)");
	if (o->iperf2 && (!o->udp || !o->transmit || !o->sink))
		conflict("--iperf2 applies to a UDP sender with -s (-t -u -s)");
	if (o->iperf2 && o->buflen < 16)
		conflict("--iperf2 needs -l 16 or more (iperf2's datagram header)");
}

static void parse(int argc, char **argv, struct ttcp_opts *o, struct bb_cli *cli)
{
	int opt, roles = 0;

	bb_cli_begin();
	while ((opt = ttcp_getopt(argc, argv, TTCP_MODE_CLASSIC)) != -1) {
		if (bb_cli_common(opt, optarg, cli) || classic_opt(o, opt, optarg, &roles) ||
		    modern_opt(o, opt, optarg))
			continue;
		if (opt == 'h') {
			bb_help_print(&bb_help_ttcp);
			exit(0);
		}
		bb_cli_bad(opt, argv);
	}
	check(o, roles, argc, argv);
}

static struct bb_result *new_result(struct bb_run *run)
{
	struct bb_result *r = bb_run_add_result(run, "ttcp");

	r->render = ttcp_render;
	r->summary = ttcp_summary;
	return r;
}

/* A report is printed once a transfer began: a connection, or a datagram. */
static int has_report(const struct ttcp_session *s)
{
	if (s->t0 <= 0)
		return 0;
	return !(s->n == 1 && s->st[0]->udp && !s->st[0]->udp->going);
}

/* The mode the command line asks for: --server, --to-server, else classic. */
static unsigned mode_of(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--server"))
			return TTCP_MODE_SERVER;
		if (!strcmp(argv[i], "--to-server") || !strncmp(argv[i], "--to-server=", 12))
			return TTCP_MODE_CLIENT;
	}
	return TTCP_MODE_CLASSIC;
}

static int ttcp_main(int argc, char **argv)
{
	struct ttcp_opts o;
	struct bb_cli cli = { 0 };
	struct ttcp_session s;
	struct bb_run *run;
	int rc;

	switch (mode_of(argc, argv)) {
	case TTCP_MODE_SERVER: return ttcp_server_main(argc, argv);
	case TTCP_MODE_CLIENT: return ttcp_client_main(argc, argv);
	}
	defaults(&o);
	parse(argc, argv, &o, &cli);
	run = bb_run_new(argc, argv);
	bb_calib_sample(run);
	ttcp_session_init(&s, &o, new_result(run));
	ttcp_signals_install(&s);
	rc = o.transmit ? ttcp_transmit(&s) : ttcp_receive(&s);
	if (has_report(&s))
		ttcp_render_report(s.out, s.r);
	fflush(s.out);
	if (rc)
		bb_warn("%s", has_report(&s) || !s.error[0] ? s.r->message : s.error);
	bb_calib_finish(run);
	rc |= bb_cli_finish(run, &cli);
	ttcp_session_free(&s);
	bb_run_free(run);
	bb_cli_free(&cli);
	return rc ? BB_EXIT_FAIL : 0;
}

/* ---- the applet ---- */

/* "ttcp-tcp-transmit", "-streams2" when above 1. */
static void ttcp_lava_name(char *name, size_t len, const struct bb_result *r)
{
	const struct bb_kv *proto = bb_kv_get(&r->params, "protocol");
	const struct bb_kv *role = bb_kv_get(&r->params, "role");
	double streams = bb_kv_getnum(&r->params, "streams", 1);

	snprintf(name, len, "ttcp-%s-%s", proto && proto->s ? proto->s : "tcp",
		 role && role->s ? role->s : "transmit");
	if (streams > 1)
		snprintf(name + strlen(name), len - strlen(name), "-streams%.0f", streams);
}

/* The median throughput of the transfers. */
static void ttcp_lava(FILE *f, const struct bb_result *r)
{
	const struct bb_series *s = bb_result_find(r, "transfer", "total");
	char name[96];

	ttcp_lava_name(name, sizeof name, r);
	if (s && strcmp(s->work_unit, "bytes") == 0)
		bb_lava_pass(f, name, s->work * 8 / bb_kept_median(s) * 1e-6, "Mbit/s");
}

static const struct bb_headline ttcp_headline = {
	.keys = { "ttcp.tcp.transmit.throughput", "ttcp.tcp.receive.throughput",
		  "ttcp.udp.*.throughput" },
	.lava = ttcp_lava,
	.lava_name = ttcp_lava_name,
};

const struct bb_applet bb_applet_ttcp = {
	.name = "ttcp",
	.summary = "TCP/UDP throughput: classic ttcp lines, iperf2 interoperable (Mbit = 2^20 bits)",
	.main = ttcp_main,
	.quick = ttcp_quick,
	.headline = &ttcp_headline,
};
