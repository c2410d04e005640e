/* iperf2.c - the bounded iperf2 header parser (see iperf2.h). */
#include "iperf2.h"

#include <stdio.h>
#include <string.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int32_t be32s(const unsigned char *p)
{
	uint32_t u = be32(p);
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
	h->flags = be32(p);
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
	hi = be32(p + BB_IPERF2_V1_LEN + 12);
	lo = be32(p + BB_IPERF2_V1_LEN + 16);
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
	len = header_len(be32(p));
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
