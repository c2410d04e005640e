/* ttcp_opts.c - ttcp's one option table, for its three modes: classic
 * ttcp (-t/-r, ttcp.c), the persistent server (-r --server,
 * ttcp_server.c) and its client (--to-server HOST, ttcp_server_client.c).
 * Each option says which modes take it; ttcp_getopt reads the command line
 * against the whole table and refuses, in one line, an option the mode
 * does not take, and each mode's parser sets what the options mean to it
 * (a -l or --read-size has a mode's own bounds). */
#include "ttcp_applet.h"
#include "core/cli.h"
#include "core/error.h"

#include <string.h>

#define C TTCP_MODE_CLASSIC
#define S TTCP_MODE_SERVER
#define K TTCP_MODE_CLIENT

static const struct option longopts[] = {
	{ "transmit", no_argument, NULL, 't' }, { "receive", no_argument, NULL, 'r' },
	{ "udp", no_argument, NULL, 'u' }, { "buflen", required_argument, NULL, 'l' },
	{ "nbuf", required_argument, NULL, 'n' }, { "port", required_argument, NULL, 'p' },
	{ "sockbuf", required_argument, NULL, 'b' }, { "align", required_argument, NULL, 'A' },
	{ "offset", required_argument, NULL, 'O' }, { "nodelay", no_argument, NULL, 'D' },
	{ "sink", no_argument, NULL, 's' }, { "format", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' }, { "touch", no_argument, NULL, 'T' },
	{ "time", required_argument, NULL, TO_TIME },
	{ "streams", required_argument, NULL, TO_STREAMS },
	{ "interval", required_argument, NULL, TO_INTERVAL },
	{ "bind", required_argument, NULL, TO_BIND },
	{ "zerocopy", optional_argument, NULL, TO_ZEROCOPY },
	{ "rate", required_argument, NULL, TO_RATE },
	{ "gso", no_argument, NULL, TO_GSO }, { "gro", no_argument, NULL, TO_GRO },
	{ "connect-timeout", required_argument, NULL, TO_CONNECT_TIMEOUT },
	{ "idle-timeout", required_argument, NULL, TO_IDLE_TIMEOUT },
	{ "accept-timeout", required_argument, NULL, TO_ACCEPT_TIMEOUT },
	{ "read-size", required_argument, NULL, TO_READ_SIZE },
	{ "rcvlowat", required_argument, NULL, TO_RCVLOWAT },
	{ "iperf2", no_argument, NULL, TO_IPERF2 },
	{ "server", no_argument, NULL, TO_SERVER },
	{ "max-tests", required_argument, NULL, TO_MAX_TESTS },
	{ "max-conns", required_argument, NULL, TO_MAX_CONNS },
	{ "max-streams", required_argument, NULL, TO_MAX_STREAMS },
	{ "handshake-timeout", required_argument, NULL, TO_HANDSHAKE },
	{ "min-rate", required_argument, NULL, TO_MIN_RATE },
	{ "rate-window", required_argument, NULL, TO_RATE_WINDOW },
	{ "max-udp-rate", required_argument, NULL, TO_MAX_UDP_RATE },
	{ "allow", required_argument, NULL, TO_ALLOW },
	{ "key", required_argument, NULL, TO_KEY },
	{ "json-dir", required_argument, NULL, TO_JSON_DIR },
	{ "to-server", required_argument, NULL, TO_TO_SERVER },
	{ "bidir", no_argument, NULL, TO_BIDIR },
	BB_COMMON_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* Which modes take each option (the letters, then the long-only ones). */
static const struct {
	int opt;
	unsigned modes;
} takers[] = {
	{ 't', C | K }, { 'r', C | S }, { 'R', K }, { 'u', C | K }, { 'l', C | K }, { 'n', C | K },
	{ 'p', C | S | K }, { 'b', C | S | K }, { 'A', C }, { 'O', C }, { 'D', C | S | K },
	{ 's', C }, { 'f', C | K }, { 'v', C }, { 'T', C }, { '4', C | S | K }, { '6', C | S | K },
	{ 'h', C | S | K },
	{ TO_TIME, C | K }, { TO_STREAMS, C | K }, { TO_INTERVAL, C }, { TO_BIND, C | S },
	{ TO_ZEROCOPY, C }, { TO_RATE, C | K }, { TO_GSO, C }, { TO_GRO, C },
	{ TO_CONNECT_TIMEOUT, C | K }, { TO_IDLE_TIMEOUT, C | S | K }, { TO_ACCEPT_TIMEOUT, C },
	{ TO_READ_SIZE, C | S }, { TO_RCVLOWAT, C }, { TO_IPERF2, C }, { TO_SERVER, S },
	{ TO_MAX_TESTS, S }, { TO_MAX_CONNS, S }, { TO_MAX_STREAMS, S }, { TO_HANDSHAKE, S },
	{ TO_MIN_RATE, S }, { TO_RATE_WINDOW, S }, { TO_MAX_UDP_RATE, S }, { TO_ALLOW, S },
	{ TO_KEY, S | K }, { TO_JSON_DIR, S }, { TO_TO_SERVER, K }, { TO_BIDIR, K },
	{ BB_OPT_JSON, C | K }, { BB_OPT_CSV, C | K }, { BB_OPT_LABEL, C | S | K },
	{ BB_OPT_FACT, C | S | K },
};

/* Options a mode refuses with a word of its own. */
static const struct {
	int opt;
	unsigned mode;
	const char *why;
} refusals[] = {
	{ 't', S, "--server receives and serves: give -r, not -t (see --help)" },
	{ 'u', S, "--server takes no -u: it serves the UDP tests that clients ask for "
		  "(ttcp --to-server HOST -u)" },
};

static const char *mode_name(unsigned mode)
{
	return mode == TTCP_MODE_SERVER ? "the server (-r --server)" :
	       mode == TTCP_MODE_CLIENT ? "the server's client (--to-server HOST)" :
					  "classic ttcp (-t or -r)";
}

/* The option as it was typed (the word before its value when the value
 * came as a word of its own), or its letter. */
static void typed(char *buf, size_t len, int opt, char **argv)
{
	const char *t = optind > 0 ? argv[optind - 1] : NULL;

	if (t && optarg == t && optind > 1)
		t = argv[optind - 2];

	if (t && t[0] == '-' && t[1] == '-')
		snprintf(buf, len, "%.*s", (int)strcspn(t, "="), t);
	else if (opt > 0 && opt < 0x100)
		snprintf(buf, len, "-%c", opt);
	else
		snprintf(buf, len, "%s", t ? t : "?");
}

int ttcp_getopt(int argc, char **argv, unsigned mode)
{
	int opt = getopt_long(argc, argv, ":trRul:n:p:b:A:O:Dsf:vT46h", longopts, NULL);
	char name[64];

	if (opt == -1 || opt == '?' || opt == ':')
		return opt;
	for (size_t i = 0; i < sizeof takers / sizeof takers[0]; i++)
		if (takers[i].opt == opt) {
			if (takers[i].modes & mode)
				return opt;
			break;
		}
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		if (refusals[i].opt == opt && refusals[i].mode == mode)
			bb_die_usage("%s", refusals[i].why);
	typed(name, sizeof name, opt, argv);
	bb_die_usage("%s does not apply to %s (see --help)", name, mode_name(mode));
}
