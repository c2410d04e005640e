/* rr_host.c - how the analysis engine reads rr's results
 * (analysis/host.h): the rate in transactions per second
 * ("rr.tcp.1x1.rate", the run's figure the one rr printed, as netperf's
 * TCP_RR quotes it), the latency of each transaction in us with its p50 as
 * the run's figure, and the p99 of every transaction as a metric of one
 * value per run; the network's sysctls and the interface a test used may
 * explain a change. */
#include "analysis/host.h"
#include "rr_proto.h"

#define KEY "rr.{protocol}.{request_bytes}x{response_bytes}"
#define LATENCY .pattern = BB_RR_SERIES_LATENCY, .unit_is = "s", .how = BB_HOW_RAW,   \
	.quantity = "latency", .base = "s", .disp = "us", .scale = 1e6,                 \
	.better = BB_BETTER_LOWER, .chart = "rr", .xlabel = "transaction",              \
	.title = "rr: request/response latency per transaction (us)",                   \
	.category = "{protocol} {request_bytes}/{response_bytes} bytes", .legend = "",  \
	.run_value = "p50_s"
#define RATE .pattern = BB_RR_SERIES_INTERVAL, .work_is = "s", .how = BB_HOW_PER_WORK,  \
	.quantity = "rate", .base = "transactions/s", .disp = "transactions/s",          \
	.scale = 1, .better = BB_BETTER_HIGHER, .chart = "",                             \
	.run_value = BB_RR_SERIES_LATENCY ":transactions_per_s"
#define P99 .pattern = BB_RR_SERIES_LATENCY, .unit_is = "s", .value = "p99_s",          \
	.how = BB_HOW_RAW, .quantity = "latency", .base = "s", .disp = "us", .scale = 1e6, \
	.better = BB_BETTER_LOWER, .chart = ""

static const struct bb_key_rule rules[] = {
	{ LATENCY, .above1 = "inflight", .key = KEY ".inflight{inflight}.latency" },
	{ LATENCY, .key = KEY ".latency" },
	{ RATE, .above1 = "inflight", .key = KEY ".inflight{inflight}.rate" },
	{ RATE, .key = KEY ".rate" },
	{ .pattern = BB_RR_SERIES_HISTOGRAM "*", .skip = 1 },
};

static const struct bb_key_rule values[] = {
	{ P99, .above1 = "inflight", .key = KEY ".inflight{inflight}.latency.p99" },
	{ P99, .key = KEY ".latency.p99" },
};

/* The network's sysctls and the test's interface; the memory and its clock too:
 * loopback TCP is memory-bound (a DDR controller bit that moved STREAM by
 * 2-5% moved TTCP to localhost by 76%). */
static const char *const facts[] = { "net.", "if.", "memory.", "devfreq.", NULL };

const struct bb_host bb_host_rr = {
	.applet = "rr",
	.rules = rules,
	.nrules = sizeof rules / sizeof rules[0],
	.values = values,
	.nvalues = sizeof values / sizeof values[0],
	.facts = facts,
};
