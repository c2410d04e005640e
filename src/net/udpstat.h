/* udpstat.h - what a UDP receiver learns from the sequence numbers and
 * send times of one stream: datagrams lost (expected minus received, never
 * negative), datagrams that arrived after a later one (out of order), and
 * the interarrival jitter of RFC 3550 section 6.4.1:
 *     D = (R_j - R_i) - (S_j - S_i),   J += (|D| - J) / 16
 * Only differences of send times are used, so the two hosts' clocks need
 * not agree.  Everything is bounded arithmetic on what the peer sent: a
 * hostile sequence number gives a nonsense count, never a crash. */
#ifndef BB_NET_UDPSTAT_H
#define BB_NET_UDPSTAT_H

#include <stdint.h>

struct bb_udp_flow {
	uint64_t received;       /* datagrams carrying our header */
	uint64_t bytes;
	uint64_t next_seq;       /* highest sequence number seen + 1 */
	uint64_t out_of_order;   /* arrived with a sequence number below next_seq */
	uint64_t sent;           /* the sender's tally of datagrams, 0 if none came */
	int64_t prev_transit_ns;
	int have_transit;
	double jitter_ns;
};

void bb_udp_flow_add(struct bb_udp_flow *f, uint64_t seq, uint64_t send_ns,
		     uint64_t recv_ns, uint64_t bytes);

/* Datagrams the sender sent, as far as the receiver knows: its tally, or
 * the highest sequence number seen + 1 (which misses a lost tail). */
uint64_t bb_udp_flow_expected(const struct bb_udp_flow *f);

/* Datagrams expected but not received (0 when duplicates make up for them). */
uint64_t bb_udp_flow_lost(const struct bb_udp_flow *f);

/* lost / expected, 0 when nothing was expected. */
double bb_udp_flow_loss_fraction(const struct bb_udp_flow *f);

#endif
