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
 * real header are data too, for counting: iperf counts them. */
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

#endif
