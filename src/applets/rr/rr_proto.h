/* rr.h - request/response transactions between two boardbench peers (the
 * engine of the `rr` applet, src/applets/rr/rr.c): a client sends a request of
 * N bytes, the server answers it with a response of M bytes, K requests in
 * flight at most; every response's latency (from just before the request's
 * send to just after the response's last byte, CLOCK_MONOTONIC) goes into
 * a histogram and a kept set of samples (rr_hist.h).
 *
 * The wire protocol (specified in docs/rr.md).  A control message is 24
 * bytes, integers in network byte order: 0xBB 'R' 'R' TYPE, then five
 * 32-bit words: hello 'H', ack 'A', cookie 'C' (UDP), end 'E' (UDP).
 * TCP (version 1): hello and ack, then N-byte requests and M-byte
 * responses on the connection.  UDP (version 2): a source gets nothing
 * larger than what it sent until it has echoed a cookie (a hello with the
 * 16-byte cookie after it); the ack then carries a 32-bit session key,
 * which every request's 8-byte sequence number is XORed with (shifted
 * left 24 bits), and the server answers each sequence number once.
 *
 * The server trusts nothing: sizes and in-flight counts beyond the bounds
 * below are refused with a status, datagrams of the wrong size are
 * counted and dropped, every read times out (idle timeout).  The client
 * times out every UDP transaction (counted lost; a response that comes
 * after its transaction timed out is counted late, one to a sequence
 * number never sent foreign) and gives up after the idle timeout without
 * any response. */
#ifndef BB_NET_RR_H
#define BB_NET_RR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "applets/rr/rr_cookie.h"
#include "applets/rr/rr_hist.h"
#include "net/sock.h"

#define BB_RR_CTL_BYTES 24
#define BB_RR_VERSION 1                         /* TCP */
#define BB_RR_UDP_VERSION 2                     /* UDP: with the cookie */
#define BB_RR_HELLO_COOKIE_BYTES (BB_RR_CTL_BYTES + BB_RR_COOKIE_BYTES)
#define BB_RR_DEFAULT_PORT 5005
#define BB_RR_MAX_TCP_BYTES (1u << 20)          /* a request or response, TCP */
#define BB_RR_MAX_UDP_BYTES 65507u              /* IPv4's largest UDP payload */
#define BB_RR_MIN_UDP_BYTES 8u                  /* the sequence number */
#define BB_RR_MAX_INFLIGHT 256u
#define BB_RR_MAX_WINDOW_BYTES (1u << 20)       /* TCP: in flight x (N + M) */
/* The names of rr's series, spelt once for the code that makes them
 * (rr.c) and the rules that read them back (rr_host.c): every
 * transaction's latency, its histogram (histogram_lower, _count) and the
 * transactions of each interval. */
#define BB_RR_SERIES_LATENCY "latency"
#define BB_RR_SERIES_HISTOGRAM "histogram_"
#define BB_RR_SERIES_INTERVAL "interval_transactions"

#define BB_RR_INTERVAL_S 0.1                    /* transactions counted per 100 ms */
#define BB_RR_TICK_S 0.2                        /* how often a blocked call looks up */

enum { BB_RR_OK = 0, BB_RR_BAD_VERSION = 1, BB_RR_BAD_SIZES = 2, BB_RR_BAD_INFLIGHT = 3 };

struct bb_rr_ctl {
	char type;                 /* 'H', 'A', 'C', 'E' */
	uint32_t version, flags;   /* ack: flags is the status */
	uint32_t req, resp;        /* ack: the server's send and receive buffers */
	uint32_t inflight;         /* UDP ack and end: the session key */
};

void bb_rr_ctl_encode(unsigned char *buf, const struct bb_rr_ctl *c);
/* 0, or -1 when buf is not a control message of ours. */
int bb_rr_ctl_decode(const unsigned char *buf, size_t len, struct bb_rr_ctl *c);
/* What a TCP (udp 0) or UDP server answers a hello with: BB_RR_OK or the
 * reason.  The version must be the server's protocol's, the bounds are
 * its protocol's. */
int bb_rr_hello_status(const struct bb_rr_ctl *hello, int udp);
/* A cookie message: the 24 bytes of 'C' with cookie in words 2 to 5. */
void bb_rr_cookie_encode(unsigned char *buf, const unsigned char cookie[BB_RR_COOKIE_BYTES]);
/* A UDP request's first 8 bytes: the sequence number XOR the session key
 * shifted left 24 bits (below 2^56 both: the first byte is 0). */
void bb_rr_seq_put(unsigned char *p, uint64_t seq, uint32_t key);
uint64_t bb_rr_seq_get(const unsigned char *p, uint32_t key);
/* The reason as words ("request or response size out of bounds"). */
const char *bb_rr_status_text(uint32_t status);
/* Checks sizes and in flight as a server would; NULL or the reason. */
const char *bb_rr_check(int udp, uint64_t req, uint64_t resp, uint64_t inflight);

/* Pins the calling thread to cpu (-1: leaves it).  0, or -1 with err. */
int bb_rr_pin(int cpu, char *err, size_t errlen);

struct bb_rr_client_opts {
	int udp, family;
	const char *host;
	unsigned port;
	uint32_t req, resp, inflight;
	double time_s;             /* measured seconds, or 0 with count */
	uint64_t count;            /* measured transactions, or 0 with time_s */
	double warmup_s;           /* transactions before this are not recorded */
	double timeout_s;          /* UDP: a transaction is lost after this */
	double idle_timeout_s;     /* no response at all for this long: give up */
	double connect_timeout_s;
	int pin;                   /* CPU, or -1 */
	size_t keep_max;           /* samples kept at most (rr_hist.h) */
	const atomic_int *stop;    /* set by another thread to end early, or NULL */
};

struct bb_rr_client_result {
	struct bb_rr_hist *hist;   /* every measured transaction */
	struct bb_rr_keep keep;    /* their latencies in s, all or a uniform subset */
	uint64_t *interval;        /* transactions completed in each full 100 ms */
	size_t nint, capint;
	uint64_t completed, lost, late, foreign, warmup_transactions;
	uint64_t sent;             /* measured requests sent (with K in flight, up to K
	                            * more than completed + lost: cut off at the end) */
	double elapsed_s;          /* first measured request to the last response */
	double warmup_done_s;      /* how long the warm-up took */
	double overhead_s;         /* the client's own cost per transaction */
	int complete;              /* 1: ended as asked */
	int interrupted;           /* ended by a signal or the stop flag */
	char end[320];             /* how it ended */
	char peer[BB_ADDR_TEXT + 8];
	int sndbuf, rcvbuf, peer_sndbuf, peer_rcvbuf;   /* granted bytes, -1 unknown */
};

/* Runs the client: connects, measures the overhead, then the transactions.
 * Returns 0 when it ran as asked, 1 when it ended early (r->end says
 * why; what was measured is kept), -1 when no transaction could be made
 * (r->end says why). */
int bb_rr_client_run(const struct bb_rr_client_opts *o, struct bb_rr_client_result *r);
void bb_rr_client_result_free(struct bb_rr_client_result *r);

struct bb_rr_server_opts {
	int udp, family;
	const char *bind;          /* numeric local address, or NULL: any */
	unsigned port;             /* 0: any free port (the loopback server) */
	double idle_timeout_s;     /* a session ends after this long without a request */
	double accept_timeout_s;   /* 0: wait for a client for ever */
	const atomic_int *stop;    /* or NULL */
};

struct bb_rr_session {
	char peer[BB_ADDR_TEXT + 8];
	uint32_t req, resp, inflight;
	uint32_t status;           /* what the hello was answered with */
	uint64_t transactions, malformed;
	uint64_t foreign;          /* UDP: requests without the key, out of the
	                            * window or answered already: not answered */
	uint64_t cookies_sent;     /* UDP, before the session: cookies sent, */
	uint64_t cookies_refused;  /* hellos with a forged or stale cookie, */
	uint64_t unverified_dropped;   /* answers withheld by the rate bound */
	double seconds;
	int ok;                    /* ended by the client */
	char end[128];
};

/* A listening (TCP) or bound (UDP) socket; the port goes to *port. */
int bb_rr_server_open(const struct bb_rr_server_opts *o, unsigned *port, char *err,
		      size_t errlen);
/* Serves one client.  0 when a session ran (s says how it ended), -2 when
 * no client came within the accept timeout or stop was set, -1 on error. */
int bb_rr_serve(int fd, const struct bb_rr_server_opts *o, struct bb_rr_session *s,
		char *err, size_t errlen);

#endif
