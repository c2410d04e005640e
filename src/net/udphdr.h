/* udphdr.h - what a boardbench UDP sender puts in its datagrams, so the
 * receiver can count loss, reordering and jitter:
 *
 *   offset  size  field (big-endian, written byte by byte)
 *        0     4  magic "bbU1"
 *        4     2  stream index
 *        6     2  number of streams the sender runs
 *        8     8  sequence number, from 0 in each stream
 *       16     8  send time, ns of the sender's CLOCK_MONOTONIC
 *
 * and classic ttcp's sentinels: a datagram of 4 bytes or fewer starts the
 * receiver's clock, the next one stops it (udp_xfer.c: only one from the
 * test's own peer, address and port, and never an empty one).  Ours say
 * which is which and for which stream ("bbS" or "bbE" and the stream
 * index); a classic peer's are its pattern bytes, told apart by the
 * receiver in the classic way.  (With --iperf2 the sender uses iperf2's
 * datagrams instead: iperf2.h.)
 * A datagram without the magic is counted as plain data.
 *
 * After its end sentinels the sender states its totals in a tally
 * datagram ("bbT1", stream, streams, datagrams sent, bytes sent), so the
 * receiver also sees a lost tail.  A classic receiver has stopped reading
 * at the first end sentinel and never counts it. */
#ifndef BB_NET_UDPHDR_H
#define BB_NET_UDPHDR_H

#include <stddef.h>
#include <stdint.h>

#define BB_UDP_HDR_LEN 24
#define BB_UDP_SENTINEL_LEN 4

struct bb_udp_hdr {
	unsigned stream;
	unsigned nstreams;
	uint64_t seq;
	uint64_t send_ns;
};

void bb_udp_hdr_put(unsigned char *p, const struct bb_udp_hdr *h);

/* Returns 0 and fills h if p holds our header, -1 otherwise. */
int bb_udp_hdr_get(const unsigned char *p, size_t n, struct bb_udp_hdr *h);

struct bb_udp_tally {
	unsigned stream;
	unsigned nstreams;
	uint64_t datagrams;
	uint64_t bytes;
};

void bb_udp_tally_put(unsigned char *p, const struct bb_udp_tally *t);
/* Returns 0 and fills t if p is exactly a tally datagram, -1 otherwise. */
int bb_udp_tally_get(const unsigned char *p, size_t n, struct bb_udp_tally *t);

enum bb_sentinel { BB_SENT_NONE, BB_SENT_CLASSIC, BB_SENT_START, BB_SENT_END };

/* Writes BB_UDP_SENTINEL_LEN bytes: kind is BB_SENT_START or BB_SENT_END. */
void bb_udp_sentinel_put(unsigned char *p, enum bb_sentinel kind, unsigned stream);

/* Classifies a datagram: NONE if it is longer than a sentinel, START/END
 * (and *stream) if it is one of ours, CLASSIC for any other short one. */
enum bb_sentinel bb_udp_sentinel_get(const unsigned char *p, size_t n, unsigned *stream);

#endif
