/* iperf2.h - recognising the test header an iperf2 client (2.0.x, 2.1.x)
 * may put at the start of a TCP stream, so a ttcp receiver can name its
 * peer and know how many streams and bytes it announced.
 *
 * The header is big-endian 32-bit words: flags, numThreads, port,
 * bufferlen, window, amount (positive: bytes; negative: time in 10 ms
 * units), then with the "extend" flag a second part carrying the peer's
 * version.  iperf 2.1 states the total length in flags (bit 16 set, length
 * = (flags & 0x1fe) >> 1); 2.1.8 sends 60 bytes.
 *
 * The parser is bounded and strict: it looks at no more than
 * BB_IPERF2_MAX_LEN bytes, allocates nothing, and anything implausible
 * (unknown length, thread count or port out of range, a version that is
 * not 2.x) is NOT a header: those bytes are ordinary data.  The bytes of a
 * real header are data too, for counting: iperf counts them.
 *
 * UDP (see docs/iperf2.md): every datagram an iperf2 client sends starts
 * with four big-endian 32-bit words: the low half of the sequence number
 * (from 1), the send time (seconds, microseconds) and the high half of the
 * sequence number, used when the test header that may follow (flags ..
 * amount, as for TCP) has HEADER_SEQNO64B; otherwise the sequence number
 * is the first word alone, signed.  The client's last datagram carries the
 * negated sequence number (it is data too, counted); it repeats it, each
 * time one lower, until the server answers with a report: 16 bytes, then
 * flags, bytes (high, low), duration (s, us), lost, out of order,
 * datagrams, jitter (s, us), 60 bytes of transit statistics and the high
 * halves of lost, out of order and datagrams. */
#ifndef BB_NET_IPERF2_H
#define BB_NET_IPERF2_H

#include <stddef.h>
#include <stdint.h>

#define BB_IPERF2_V1_LEN 24        /* flags .. amount */
#define BB_IPERF2_EXT_LEN 60       /* v1 + the extension with the version */
#define BB_IPERF2_MAX_LEN 256
#define BB_IPERF2_MAX_THREADS 1024 /* a larger claim is not a header */

#define BB_IPERF2_VERSION1 0x80000000u
#define BB_IPERF2_EXTEND 0x40000000u
#define BB_IPERF2_LEN_BIT 0x00010000u
#define BB_IPERF2_LEN_MASK 0x000001feu

enum bb_iperf2_verdict {
	BB_IPERF2_NEED_MORE,  /* consistent so far; more bytes would decide */
	BB_IPERF2_NONE,       /* not a header: plain data */
	BB_IPERF2_FOUND,
};

struct bb_iperf2_hdr {
	uint32_t flags;
	int32_t threads;
	int32_t port;
	int32_t buflen;
	int32_t window;
	int32_t amount;
	size_t len;           /* header bytes */
	int has_version;
	unsigned major, minor, patch;
};

/* Looks at the first n bytes of a stream. */
enum bb_iperf2_verdict bb_iperf2_parse(const unsigned char *p, size_t n,
				       struct bb_iperf2_hdr *h);

/* Bytes announced (amount > 0), or 0 in time mode. */
uint64_t bb_iperf2_bytes(const struct bb_iperf2_hdr *h);

/* Seconds announced (amount < 0), or 0 in byte mode. */
double bb_iperf2_seconds(const struct bb_iperf2_hdr *h);

/* "iperf2 2.1.8" or "iperf2 (version not sent)". */
void bb_iperf2_describe(const struct bb_iperf2_hdr *h, char *buf, size_t len);

/* TCP: what else the client asks.  An iperf2 client run with -r
 * (tradeoff) or -d (dualtest) sets VERSION1 in the flags, and with -d also
 * RUN_NOW; it then listens at the header's port for the server to connect
 * back and send: after its own transfer (-r) or at once (-d), for the
 * header's amount, with numThreads streams of buflen-byte writes.  A
 * header without VERSION1 (a plain iperf 2.1 client sets EXTEND only)
 * asks for nothing. */
#define BB_IPERF2_RUN_NOW 0x00000001u

enum bb_iperf2_back {
	BB_IPERF2_BACK_NONE,
	BB_IPERF2_BACK_TRADEOFF,   /* -r: connect back after the client's transfer */
	BB_IPERF2_BACK_DUAL,       /* -d: connect back at once */
};

enum bb_iperf2_back bb_iperf2_back_of(const struct bb_iperf2_hdr *h);

/* Incremental use on a stream's first bytes: feed what arrives until the
 * verdict is not NEED_MORE; at most BB_IPERF2_MAX_LEN bytes are kept. */
struct bb_iperf2_probe {
	unsigned char buf[BB_IPERF2_MAX_LEN];
	size_t n;
	enum bb_iperf2_verdict verdict;
	struct bb_iperf2_hdr hdr;
};

void bb_iperf2_probe_init(struct bb_iperf2_probe *pr);
enum bb_iperf2_verdict bb_iperf2_probe_feed(struct bb_iperf2_probe *pr,
					    const unsigned char *p, size_t n);
/* The stream ended: a pending verdict becomes NONE. */
void bb_iperf2_probe_eof(struct bb_iperf2_probe *pr);

/* ---- UDP ---- */

#define BB_IPERF2_UDP_LEN 16          /* id, tv_sec, tv_usec, id2 */
#define BB_IPERF2_UDP_HDR_LEN 40      /* ... and the v1 test header */
#define BB_IPERF2_REPORT_LEN 128      /* 16 + 40 + 60 + 12 */
#define BB_IPERF2_SEQNO64B 0x08000000u
#define BB_IPERF2_UDPTESTS 0x20000000u

struct bb_iperf2_dgram {
	int64_t seq;          /* from 1; negative: the client's last datagram */
	uint32_t tv_sec, tv_usec;
	int has_hdr;          /* a plausible test header follows */
	int32_t threads;      /* announced streams (has_hdr), else 0 */
};

/* Reads the datagram header; 0 if p can be an iperf2 datagram (at least
 * 16 bytes, microseconds below 10^6, sequence number not 0), -1 if not.
 * A datagram of classic ttcp's pattern or random bytes mostly fails; the
 * receiver's sequence number bound catches the rest. */
int bb_iperf2_dgram_get(const unsigned char *p, size_t n, struct bb_iperf2_dgram *d);

/* Writes what a client puts in front of each datagram of len bytes: the
 * 16 bytes and, when len allows, a test header announcing 64-bit sequence
 * numbers, threads streams, port and amount (iperf2's words: > 0 bytes,
 * < 0 time in 10 ms).  send_us is the send time in microseconds since the
 * epoch. */
void bb_iperf2_dgram_put(unsigned char *p, size_t len, int64_t seq, uint64_t send_us,
			 int threads, unsigned port, int32_t amount);

/* The server's report of one stream.  Counts are signed: iperf2 subtracts
 * duplicates from its lost count, which can make it negative. */
struct bb_iperf2_report {
	uint32_t flags;
	uint64_t bytes;
	uint32_t sec, usec;       /* duration */
	int64_t lost, out_of_order, datagrams;
	uint32_t jitter_sec, jitter_usec;
};

/* Writes BB_IPERF2_REPORT_LEN bytes. */
void bb_iperf2_report_put(unsigned char *p, const struct bb_iperf2_report *r);
/* 0 and r filled if p (n bytes) is a server report, -1 otherwise. */
int bb_iperf2_report_get(const unsigned char *p, size_t n, struct bb_iperf2_report *r);
double bb_iperf2_report_seconds(const struct bb_iperf2_report *r);
double bb_iperf2_report_jitter_s(const struct bb_iperf2_report *r);

#endif
