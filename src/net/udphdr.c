/* udphdr.c - encoding and decoding of the UDP datagram header and the
 * sentinels (see udphdr.h).  Byte by byte, so alignment and the host's
 * byte order never matter. */
#include "udphdr.h"
#include "core/bytes.h"

static const unsigned char magic[4] = { 'b', 'b', 'U', '1' };
static const unsigned char tally_magic[4] = { 'b', 'b', 'T', '1' };

void bb_udp_hdr_put(unsigned char *p, const struct bb_udp_hdr *h)
{
	for (int i = 0; i < 4; i++)
		p[i] = magic[i];
	bb_put_be(p + 4, h->stream, 2);
	bb_put_be(p + 6, h->nstreams, 2);
	bb_put_be(p + 8, h->seq, 8);
	bb_put_be(p + 16, h->send_ns, 8);
}

int bb_udp_hdr_get(const unsigned char *p, size_t n, struct bb_udp_hdr *h)
{
	if (n < BB_UDP_HDR_LEN)
		return -1;
	for (int i = 0; i < 4; i++)
		if (p[i] != magic[i])
			return -1;
	h->stream = (unsigned)bb_get_be(p + 4, 2);
	h->nstreams = (unsigned)bb_get_be(p + 6, 2);
	h->seq = bb_get_be(p + 8, 8);
	h->send_ns = bb_get_be(p + 16, 8);
	return 0;
}

void bb_udp_tally_put(unsigned char *p, const struct bb_udp_tally *t)
{
	for (int i = 0; i < 4; i++)
		p[i] = tally_magic[i];
	bb_put_be(p + 4, t->stream, 2);
	bb_put_be(p + 6, t->nstreams, 2);
	bb_put_be(p + 8, t->datagrams, 8);
	bb_put_be(p + 16, t->bytes, 8);
}

int bb_udp_tally_get(const unsigned char *p, size_t n, struct bb_udp_tally *t)
{
	if (n != BB_UDP_HDR_LEN)
		return -1;
	for (int i = 0; i < 4; i++)
		if (p[i] != tally_magic[i])
			return -1;
	t->stream = (unsigned)bb_get_be(p + 4, 2);
	t->nstreams = (unsigned)bb_get_be(p + 6, 2);
	t->datagrams = bb_get_be(p + 8, 8);
	t->bytes = bb_get_be(p + 16, 8);
	return 0;
}

void bb_udp_sentinel_put(unsigned char *p, enum bb_sentinel kind, unsigned stream)
{
	p[0] = 'b';
	p[1] = 'b';
	p[2] = kind == BB_SENT_END ? 'E' : 'S';
	p[3] = (unsigned char)(stream & 0xff);
}

enum bb_sentinel bb_udp_sentinel_get(const unsigned char *p, size_t n, unsigned *stream)
{
	if (n > BB_UDP_SENTINEL_LEN)
		return BB_SENT_NONE;
	if (n == BB_UDP_SENTINEL_LEN && p[0] == 'b' && p[1] == 'b' &&
	    (p[2] == 'S' || p[2] == 'E')) {
		*stream = p[3];
		return p[2] == 'E' ? BB_SENT_END : BB_SENT_START;
	}
	return BB_SENT_CLASSIC;
}
