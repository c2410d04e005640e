/* iperf2.c - the bounded iperf2 header parser (and what a TCP header asks
 * of the server: -r, -d), and iperf2's UDP datagram header and server
 * report (see iperf2.h). */
#include "iperf2.h"
#include "core/bytes.h"

#include <stdio.h>
#include <string.h>

static int32_t be32s(const unsigned char *p)
{
	uint32_t u = bb_get_be32(p);
	return u <= INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* The header length flags announce, or 0 if they announce none we accept. */
static size_t header_len(uint32_t flags)
{
	size_t len;

	if (!(flags & (BB_IPERF2_VERSION1 | BB_IPERF2_EXTEND)))
		return 0;
	if (!(flags & BB_IPERF2_LEN_BIT))
		return flags & BB_IPERF2_EXTEND ? BB_IPERF2_EXT_LEN : BB_IPERF2_V1_LEN;
	len = (flags & BB_IPERF2_LEN_MASK) >> 1;
	if (len < BB_IPERF2_V1_LEN || len > BB_IPERF2_MAX_LEN)
		return 0;
	return len;
}

/* The v1 words must make sense for a real client. */
static int v1_plausible(const struct bb_iperf2_hdr *h)
{
	return h->threads >= 1 && h->threads <= BB_IPERF2_MAX_THREADS &&
	       h->port >= 0 && h->port <= 65535 && h->buflen >= 0 && h->window >= 0;
}

static void read_v1(const unsigned char *p, struct bb_iperf2_hdr *h)
{
	h->flags = bb_get_be32(p);
	h->threads = be32s(p + 4);
	h->port = be32s(p + 8);
	h->buflen = be32s(p + 12);
	h->window = be32s(p + 16);
	h->amount = be32s(p + 20);
}

/* The extension's version words: major << 16 | minor, patch << 16 | kind.
 * Returns -1 if the version is not 2.x. */
static int read_version(const unsigned char *p, size_t len, struct bb_iperf2_hdr *h)
{
	uint32_t hi, lo;

	if (len < BB_IPERF2_V1_LEN + 20)
		return 0;
	hi = bb_get_be32(p + BB_IPERF2_V1_LEN + 12);
	lo = bb_get_be32(p + BB_IPERF2_V1_LEN + 16);
	if (hi == 0 && lo == 0)
		return 0;                       /* not sent */
	if (hi >> 16 != 2 || (hi & 0xffff) > 99 || lo >> 16 > 99)
		return -1;
	h->has_version = 1;
	h->major = hi >> 16;
	h->minor = hi & 0xffff;
	h->patch = lo >> 16;
	return 0;
}

enum bb_iperf2_verdict bb_iperf2_parse(const unsigned char *p, size_t n,
				       struct bb_iperf2_hdr *h)
{
	struct bb_iperf2_hdr tmp;
	size_t len;

	if (n == 0)
		return BB_IPERF2_NEED_MORE;
	if (!(p[0] & 0xc0))
		return BB_IPERF2_NONE;          /* neither VERSION1 nor EXTEND */
	if (n < 4)
		return BB_IPERF2_NEED_MORE;
	len = header_len(bb_get_be32(p));
	if (len == 0)
		return BB_IPERF2_NONE;
	if (n < BB_IPERF2_V1_LEN)
		return BB_IPERF2_NEED_MORE;
	memset(&tmp, 0, sizeof tmp);
	read_v1(p, &tmp);
	if (!v1_plausible(&tmp))
		return BB_IPERF2_NONE;
	if (n < len)
		return BB_IPERF2_NEED_MORE;
	tmp.len = len;
	if ((tmp.flags & BB_IPERF2_EXTEND) && read_version(p, len, &tmp) != 0)
		return BB_IPERF2_NONE;
	*h = tmp;
	return BB_IPERF2_FOUND;
}

uint64_t bb_iperf2_bytes(const struct bb_iperf2_hdr *h)
{
	return h->amount > 0 ? (uint64_t)h->amount : 0;
}

double bb_iperf2_seconds(const struct bb_iperf2_hdr *h)
{
	return h->amount < 0 ? -(double)h->amount / 100.0 : 0.0;
}

void bb_iperf2_describe(const struct bb_iperf2_hdr *h, char *buf, size_t len)
{
	if (h->has_version)
		snprintf(buf, len, "iperf2 %u.%u.%u", h->major, h->minor, h->patch);
	else
		snprintf(buf, len, "iperf2 (version not sent)");
}

enum bb_iperf2_back bb_iperf2_back_of(const struct bb_iperf2_hdr *h)
{
	if (!(h->flags & BB_IPERF2_VERSION1))
		return BB_IPERF2_BACK_NONE;
	return h->flags & BB_IPERF2_RUN_NOW ? BB_IPERF2_BACK_DUAL : BB_IPERF2_BACK_TRADEOFF;
}

void bb_iperf2_probe_init(struct bb_iperf2_probe *pr)
{
	memset(pr, 0, sizeof *pr);
	pr->verdict = BB_IPERF2_NEED_MORE;
}

enum bb_iperf2_verdict bb_iperf2_probe_feed(struct bb_iperf2_probe *pr,
					    const unsigned char *p, size_t n)
{
	size_t room = sizeof pr->buf - pr->n;
	size_t take = n < room ? n : room;

	if (pr->verdict != BB_IPERF2_NEED_MORE)
		return pr->verdict;
	memcpy(pr->buf + pr->n, p, take);
	pr->n += take;
	pr->verdict = bb_iperf2_parse(pr->buf, pr->n, &pr->hdr);
	if (pr->verdict == BB_IPERF2_NEED_MORE && pr->n == sizeof pr->buf)
		pr->verdict = BB_IPERF2_NONE;
	return pr->verdict;
}

void bb_iperf2_probe_eof(struct bb_iperf2_probe *pr)
{
	if (pr->verdict == BB_IPERF2_NEED_MORE)
		pr->verdict = BB_IPERF2_NONE;
}

/* ---- UDP: the datagram header and the server's report ---- */

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

#define BB_IPERF2_HDR_FLAGS (BB_IPERF2_VERSION1 | BB_IPERF2_EXTEND | BB_IPERF2_UDPTESTS | \
			     BB_IPERF2_SEQNO64B)

int bb_iperf2_dgram_get(const unsigned char *p, size_t n, struct bb_iperf2_dgram *d)
{
	uint32_t lo, hi;
	struct bb_iperf2_hdr h;

	if (n < BB_IPERF2_UDP_LEN)
		return -1;
	memset(d, 0, sizeof *d);
	lo = bb_get_be32(p);
	d->tv_sec = bb_get_be32(p + 4);
	d->tv_usec = bb_get_be32(p + 8);
	hi = bb_get_be32(p + 12);
	if (d->tv_usec >= 1000000u)
		return -1;
	if (n >= BB_IPERF2_UDP_HDR_LEN && (bb_get_be32(p + 16) & BB_IPERF2_HDR_FLAGS)) {
		memset(&h, 0, sizeof h);
		read_v1(p + 16, &h);
		d->has_hdr = v1_plausible(&h);
		d->threads = d->has_hdr ? h.threads : 0;
	}
	if (d->has_hdr && (bb_get_be32(p + 16) & BB_IPERF2_SEQNO64B))
		d->seq = (int64_t)((uint64_t)hi << 32 | lo);   /* two's complement, as sent */
	else
		d->seq = (int32_t)lo;
	return d->seq == 0 ? -1 : 0;
}

void bb_iperf2_dgram_put(unsigned char *p, size_t len, int64_t seq, uint64_t send_us,
			 int threads, unsigned port, int32_t amount)
{
	uint64_t u = (uint64_t)seq;

	put32(p, (uint32_t)u);
	put32(p + 4, (uint32_t)(send_us / 1000000u));
	put32(p + 8, (uint32_t)(send_us % 1000000u));
	put32(p + 12, (uint32_t)(u >> 32));
	if (len < BB_IPERF2_UDP_HDR_LEN)
		return;
	put32(p + 16, BB_IPERF2_SEQNO64B);
	put32(p + 20, (uint32_t)threads);
	put32(p + 24, port);
	put32(p + 28, 0);
	put32(p + 32, 0);
	put32(p + 36, (uint32_t)amount);
}

void bb_iperf2_report_put(unsigned char *p, const struct bb_iperf2_report *r)
{
	memset(p, 0, BB_IPERF2_REPORT_LEN);
	put32(p + 16, BB_IPERF2_VERSION1 | BB_IPERF2_SEQNO64B);
	put32(p + 20, (uint32_t)(r->bytes >> 32));
	put32(p + 24, (uint32_t)r->bytes);
	put32(p + 28, r->sec);
	put32(p + 32, r->usec);
	put32(p + 36, (uint32_t)(uint64_t)r->lost);
	put32(p + 40, (uint32_t)(uint64_t)r->out_of_order);
	put32(p + 44, (uint32_t)(uint64_t)r->datagrams);
	put32(p + 48, r->jitter_sec);
	put32(p + 52, r->jitter_usec);
	/* 60 bytes of transit statistics stay zero; then the high halves */
	put32(p + 116, (uint32_t)((uint64_t)r->lost >> 32));
	put32(p + 120, (uint32_t)((uint64_t)r->out_of_order >> 32));
	put32(p + 124, (uint32_t)((uint64_t)r->datagrams >> 32));
}

static int64_t count64(const unsigned char *lo, const unsigned char *hi)
{
	if (!hi)
		return (int32_t)bb_get_be32(lo);
	return (int64_t)((uint64_t)bb_get_be32(hi) << 32 | bb_get_be32(lo));
}

int bb_iperf2_report_get(const unsigned char *p, size_t n, struct bb_iperf2_report *r)
{
	int wide;

	if (n < BB_IPERF2_UDP_LEN + 40)
		return -1;
	memset(r, 0, sizeof *r);
	r->flags = bb_get_be32(p + 16);
	if (!(r->flags & BB_IPERF2_VERSION1))
		return -1;
	wide = (r->flags & BB_IPERF2_SEQNO64B) && n >= BB_IPERF2_REPORT_LEN;
	r->bytes = (uint64_t)bb_get_be32(p + 20) << 32 | bb_get_be32(p + 24);
	r->sec = bb_get_be32(p + 28);
	r->usec = bb_get_be32(p + 32);
	r->lost = count64(p + 36, wide ? p + 116 : NULL);
	r->out_of_order = count64(p + 40, wide ? p + 120 : NULL);
	r->datagrams = count64(p + 44, wide ? p + 124 : NULL);
	r->jitter_sec = bb_get_be32(p + 48);
	r->jitter_usec = bb_get_be32(p + 52);
	return 0;
}

double bb_iperf2_report_seconds(const struct bb_iperf2_report *r)
{
	return (double)r->sec + (double)(r->usec % 1000000u) * 1e-6;
}

double bb_iperf2_report_jitter_s(const struct bb_iperf2_report *r)
{
	return (double)r->jitter_sec + (double)(r->jitter_usec % 1000000u) * 1e-6;
}
