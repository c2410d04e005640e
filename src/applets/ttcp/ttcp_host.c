/* ttcp_host.c - how the analysis engine reads ttcp's results
 * (analysis/host.h): throughput in Mbit/s (10^6 bit/s) per protocol, role
 * and number of streams ("ttcp.tcp.transmit.throughput"), each stream
 * beside the total (a part, left out of charts where there is only one),
 * and the --interval reports over time; the network's sysctls and the
 * interface a test used may explain a change. */
#include "analysis/host.h"
#include "ttcp_applet.h"

#define RATE .quantity = "throughput", .disp = "Mbit/s", .scale = 8e-6, \
	.better = BB_BETTER_HIGHER, .chart = "ttcp", .xlabel = "transfer",  \
	.title = "ttcp throughput (Mbit = 10^6 bits)"
#define TRANSFER .pattern = TTCP_TRANSFER, .unit_is = "s", .work_is = "bytes"
#define SEVERAL .above1 = "streams", .category = "{protocol} {role}, {streams} streams"
#define ONE .category = "{protocol} {role}"
#define INTERVAL .pattern = TTCP_INTERVAL "bytes", .unit_is = "bytes", .work_is = "s", \
	.key = "ttcp.{protocol}.{role}.interval$V.throughput", .how = BB_HOW_PER_WORK,   \
	.base = "B/s", .quantity = "throughput", .disp = "Mbit/s", .scale = 8e-6,        \
	.better = BB_BETTER_HIGHER, .chart = "ttcp.intervals", .timeseries = 1,          \
	.title = "ttcp throughput over time, from its --interval reports (Mbit = 10^6 bits)", \
	.xlabel = "elapsed time (s)"

static const struct bb_key_rule rules[] = {
	{ TRANSFER, SEVERAL, .variant = TTCP_TOTAL,
	  .key = "ttcp.{protocol}.{role}.streams{streams}.throughput", RATE },
	{ TRANSFER, SEVERAL, .variant = TTCP_STREAM "*", .part = 1,
	  .key = "ttcp.{protocol}.{role}.streams{streams}.$v.throughput", RATE },
	{ TRANSFER, SEVERAL, .key = "ttcp.{protocol}.{role}.streams{streams}.$v.throughput", RATE },
	{ TRANSFER, ONE, .variant = TTCP_TOTAL, .key = "ttcp.{protocol}.{role}.throughput", RATE },
	{ TRANSFER, ONE, .variant = TTCP_STREAM "*", .part = 1,
	  .key = "ttcp.{protocol}.{role}.$v.throughput", RATE },
	{ TRANSFER, ONE, .key = "ttcp.{protocol}.{role}.$v.throughput", RATE },
	{ INTERVAL, .variant = TTCP_STREAM "*", .part = 1 },
	{ INTERVAL },
	{ .pattern = TTCP_INTERVAL "rtt", .unit_is = "s",
	  .key = "ttcp.{protocol}.{role}.interval$V.rtt", .how = BB_HOW_RAW, .quantity = "rtt",
	  .base = "s", .disp = "ms", .scale = 1e3, .better = BB_BETTER_LOWER, .chart = "" },
	{ .pattern = TTCP_INTERVAL "*", .skip = 1 },
};

/* The network's sysctls and the test's interface; the memory and its clock too:
 * loopback TCP is memory-bound (a DDR controller bit that moved STREAM by
 * 2-5% moved TTCP to localhost by 76%). */
static const char *const facts[] = { "net.", "if.", "memory.", "devfreq.", NULL };

const struct bb_host bb_host_ttcp = {
	.applet = "ttcp",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.facts = facts,
	.chart_rank = 5,
};
