/* udpstat.h - what a UDP receiver learns from the sequence numbers and
 * send times of one stream: datagrams lost (expected minus the distinct
 * sequence numbers received, never negative), datagrams that arrived after
 * a later one (out of order: reordered, RFC 4737), duplicates (a sequence
 * number that had arrived already, RFC 5560; counted apart, never as
 * reordering or as received), and the interarrival jitter of RFC 3550
 * section 6.4.1 over the distinct ones:
 *     D = (R_j - R_i) - (S_j - S_i),   J += (|D| - J) / 16
 * Only differences of send times are used, so the two hosts' clocks need
 * not agree.  Duplicates are told within a window of the last
 * BB_UDP_DUP_WINDOW sequence numbers (a bitmap, as RFC 3550's and IPsec's
 * receivers keep); one further behind than that is counted a duplicate too
 * (it cannot be told from one, and counting it received could hide loss).
 * Without duplicates these are the figures iperf2's server computes (its
 * lost = highest sequence number - datagrams received).
 *
 * A datagram is a peer's word, so what it can do is bounded: a sequence
 * number above bb_udp_seq_bound() is foreign, not loss.  The bound is what
 * the fastest link could carry since the stream's last datagram (or, for
 * its first, since the receiver began): the next expected number +
 * BB_UDP_SEQ_SLACK + BB_UDP_LINE_BPS / (8 x (datagram + 28 header bytes))
 * x seconds.  Counts then stay far below 2^53 (exact in a double) for any
 * test shorter than decades. */
#ifndef BB_NET_UDPSTAT_H
#define BB_NET_UDPSTAT_H

#include <stddef.h>
#include <stdint.h>

#define BB_UDP_SEQ_SLACK 4096        /* reordering, bursts, a coarse clock */
#define BB_UDP_LINE_BPS 400e9        /* the fastest Ethernet there is */
#define BB_UDP_IP_OVERHEAD 28        /* IPv4 + UDP headers: fewest bytes per datagram */
#define BB_UDP_DUP_WINDOW 1024       /* duplicates told among this many sequence numbers */

struct bb_udp_flow {
	uint64_t received;       /* distinct sequence numbers that arrived */
	uint64_t duplicates;     /* arrivals of a sequence number seen already (or too old) */
	uint64_t bytes;          /* of every arrival, duplicates included */
	uint64_t next_seq;       /* highest sequence number seen + 1 */
	uint64_t out_of_order;   /* distinct, arrived with a sequence number below next_seq */
	uint64_t sent;           /* the sender's tally of datagrams, 0 if none came */
	int tallied;             /* a tally came */
	int tally_conflict;      /* two tallies of the stream said different counts */
	int top_seen;            /* UINT64_MAX arrived (next_seq cannot pass it) */
	uint64_t last_ns;        /* when the last one came */
	size_t datagram_len;     /* the first one's length: longer ones are over-length */
	int64_t prev_transit_ns;
	int have_transit;
	double jitter_ns;
	uint64_t seen[BB_UDP_DUP_WINDOW / 64];   /* bit seq % window: seq arrived */
};

enum bb_udp_arrival { BB_UDP_NEW, BB_UDP_LATE, BB_UDP_DUPLICATE };

/* What a receiver refused, and why. */
struct bb_udp_refused {
	uint64_t foreign_peer;   /* from a host or port not of the test or stream */
	uint64_t foreign_seq;    /* a sequence number or tally beyond the bound */
	uint64_t zero_length;
	uint64_t over_length;    /* truncated, or longer than the stream's datagrams */
};

uint64_t bb_udp_refused_foreign(const struct bb_udp_refused *r);
uint64_t bb_udp_refused_malformed(const struct bb_udp_refused *r);

/* The highest plausible sequence number (or tally) for flow f now; since_ns
 * is when the receiver began (used for the flow's first datagram), len the
 * datagram's length. */
uint64_t bb_udp_seq_bound(const struct bb_udp_flow *f, uint64_t now_ns, uint64_t since_ns,
			  size_t len);

/* One arrival: in order or beyond a gap (NEW), filling a gap (LATE), or
 * a sequence number seen already (DUPLICATE). */
enum bb_udp_arrival bb_udp_flow_add(struct bb_udp_flow *f, uint64_t seq, uint64_t send_ns,
				    uint64_t recv_ns, uint64_t bytes);

/* The sender's tally of datagrams sent: kept; a second one that differs
 * is a conflict. */
void bb_udp_flow_tally(struct bb_udp_flow *f, uint64_t sent);

/* Why the flow's figures contradict its tally: 0 when they agree (or no
 * tally came), else 1 with why (a sequence number at or above the tally
 * arrived, or two tallies differed). */
int bb_udp_flow_doubt(const struct bb_udp_flow *f, char *why, size_t len);

/* Datagrams the sender sent, as far as the receiver knows: its tally, or
 * the highest sequence number seen + 1 (which misses a lost tail). */
uint64_t bb_udp_flow_expected(const struct bb_udp_flow *f);

/* Datagrams expected but not received (duplicates never make up for them). */
uint64_t bb_udp_flow_lost(const struct bb_udp_flow *f);

/* lost / expected, 0 when nothing was expected. */
double bb_udp_flow_loss_fraction(const struct bb_udp_flow *f);

/* a + b, at most UINT64_MAX. */
uint64_t bb_udp_sat_add(uint64_t a, uint64_t b);

#endif
