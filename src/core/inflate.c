/* inflate.c - DEFLATE (RFC 1951) and gzip (RFC 1952) decoding for
 * /proc/config.gz (see inflate.h).  Huffman codes are decoded through a
 * 9-bit lookup table, longer codes bit by bit from the canonical counts;
 * the bit reader feeds zeros past the end of the input and the stream is
 * refused once it has read beyond it, so truncated or corrupt data stops
 * with BB_INFLATE_BAD.  Output grows only up to the caller's bound. */
#include "core/inflate.h"

#include <stdlib.h>
#include <string.h>

#define MAXBITS 15             /* longest Huffman code */
#define FASTBITS 9             /* codes up to this long decode in one lookup */
#define NLITLEN 288
#define NDIST 30

struct huff {
	uint16_t count[MAXBITS + 1];   /* codes of each length */
	uint16_t symbol[NLITLEN];      /* symbols in canonical order */
	uint16_t fast[1 << FASTBITS];  /* (length << 9 | symbol), 0: longer code */
};

struct out {
	unsigned char *buf;
	size_t len, cap, max;
	int grow;                      /* realloc up to max (gunzip) */
};

struct state {
	const unsigned char *in;
	size_t inlen, pos;             /* pos may pass inlen: zeros are fed */
	uint64_t bits;
	unsigned nbits;
	int err;
	struct out *o;
};

/* ---- bits ---- */

static void refill(struct state *s, unsigned need)
{
	while (s->nbits < need) {
		uint64_t byte = s->pos < s->inlen ? s->in[s->pos] : 0;
		s->pos++;
		s->bits |= byte << s->nbits;
		s->nbits += 8;
	}
	if (s->pos > s->inlen + 8)
		s->err = BB_INFLATE_BAD;
}

static unsigned getbits(struct state *s, unsigned n)
{
	unsigned v;

	if (n == 0)
		return 0;
	refill(s, n);
	v = (unsigned)(s->bits & ((1u << n) - 1));
	s->bits >>= n;
	s->nbits -= n;
	return v;
}

/* Whether the bits used so far lie within the input. */
static int within_input(const struct state *s)
{
	return s->pos * 8 - s->nbits <= s->inlen * 8;
}

/* ---- output ---- */

static int out_reserve(struct out *o, size_t n)
{
	size_t cap;
	unsigned char *b;

	if (n > o->max - o->len)
		return BB_INFLATE_TOO_BIG;
	if (o->len + n <= o->cap)
		return 0;
	if (!o->grow)
		return BB_INFLATE_TOO_BIG;
	cap = o->cap ? o->cap : 4096;
	while (cap < o->len + n)
		cap = cap > o->max / 2 ? o->max : cap * 2;
	b = realloc(o->buf, cap + 1);
	if (!b)
		return BB_INFLATE_NOMEM;
	o->buf = b;
	o->cap = cap;
	return 0;
}

/* ---- Huffman tables ---- */

static unsigned reverse_bits(unsigned code, unsigned len)
{
	unsigned r = 0;

	for (unsigned i = 0; i < len; i++, code >>= 1)
		r = (r << 1) | (code & 1);
	return r;
}

/* Builds h from n code lengths; -1 if the lengths over-subscribe the code
 * space.  An incomplete code is accepted (a missing code fails to decode). */
static int huff_build(struct huff *h, const unsigned char *lens, unsigned n)
{
	uint16_t offs[MAXBITS + 2], next[MAXBITS + 1];
	int left = 1;
	unsigned code = 0;

	memset(h->count, 0, sizeof h->count);
	memset(h->fast, 0, sizeof h->fast);
	for (unsigned i = 0; i < n; i++)
		h->count[lens[i]]++;
	for (unsigned len = 1; len <= MAXBITS; len++) {
		left = left * 2 - h->count[len];
		if (left < 0)
			return -1;
	}
	offs[1] = 0;
	for (unsigned len = 1; len <= MAXBITS; len++)
		offs[len + 1] = (uint16_t)(offs[len] + h->count[len]);
	for (unsigned i = 0; i < n; i++)
		if (lens[i])
			h->symbol[offs[lens[i]]++] = (uint16_t)i;
	h->count[0] = 0;
	for (unsigned len = 1; len <= MAXBITS; len++) {
		code = (code + h->count[len - 1]) << 1;
		next[len] = (uint16_t)code;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned len = lens[i], r;
		if (!len || len > FASTBITS)
			continue;
		r = reverse_bits(next[len]++, len);
		for (; r < (1u << FASTBITS); r += 1u << len)
			h->fast[r] = (uint16_t)(len << 9 | i);
	}
	return 0;
}

/* A code longer than FASTBITS, read bit by bit in canonical order. */
static int decode_slow(struct state *s, const struct huff *h)
{
	int code = 0, first = 0, index = 0;

	for (unsigned len = 1; len <= MAXBITS; len++) {
		int count = h->count[len];
		code |= (int)getbits(s, 1);
		if (code - first < count)
			return h->symbol[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

static int decode(struct state *s, const struct huff *h)
{
	unsigned e;

	refill(s, FASTBITS);
	e = h->fast[s->bits & ((1u << FASTBITS) - 1)];
	if (e) {
		s->bits >>= e >> 9;
		s->nbits -= e >> 9;
		return (int)(e & 0x1ff);
	}
	return decode_slow(s, h);
}

/* ---- blocks ---- */

static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23,
	27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97,
	129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
	16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
	7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

static int copy_match(struct out *o, unsigned len, unsigned dist)
{
	int rc;

	if (dist > o->len)
		return BB_INFLATE_BAD;
	rc = out_reserve(o, len);
	if (rc)
		return rc;
	for (unsigned i = 0; i < len; i++, o->len++)
		o->buf[o->len] = o->buf[o->len - dist];
	return 0;
}

/* The symbols of one compressed block, up to its end code. */
static int codes(struct state *s, const struct huff *lit, const struct huff *dist)
{
	for (;;) {
		int sym = decode(s, lit), rc;
		if (s->err)
			return s->err;
		if (sym < 0)
			return BB_INFLATE_BAD;
		if (sym < 256) {
			rc = out_reserve(s->o, 1);
			if (rc)
				return rc;
			s->o->buf[s->o->len++] = (unsigned char)sym;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29)
			return BB_INFLATE_BAD;
		unsigned len = len_base[sym] + getbits(s, len_extra[sym]);
		int ds = decode(s, dist);
		if (ds < 0 || ds >= NDIST || s->err)
			return BB_INFLATE_BAD;
		unsigned d = dist_base[ds] + getbits(s, dist_extra[ds]);
		rc = copy_match(s->o, len, d);
		if (rc)
			return rc;
	}
}

static int stored(struct state *s)
{
	unsigned len, nlen;
	int rc;

	s->bits >>= s->nbits % 8;           /* to a byte boundary */
	s->nbits -= s->nbits % 8;
	len = getbits(s, 16);
	nlen = getbits(s, 16);
	if (s->err || len != (~nlen & 0xffff))
		return BB_INFLATE_BAD;
	rc = out_reserve(s->o, len);
	if (rc)
		return rc;
	for (; len && s->nbits; len--) {     /* bytes already in the bit buffer */
		s->o->buf[s->o->len++] = (unsigned char)getbits(s, 8);
	}
	if (len > s->inlen || s->pos > s->inlen - len)
		return BB_INFLATE_BAD;
	memcpy(s->o->buf + s->o->len, s->in + s->pos, len);
	s->o->len += len;
	s->pos += len;
	return 0;
}

static int fixed(struct state *s)
{
	static struct huff lit, dist;
	static int built;
	unsigned char lens[NLITLEN];

	if (!built) {
		unsigned i = 0;
		for (; i < 144; i++) lens[i] = 8;
		for (; i < 256; i++) lens[i] = 9;
		for (; i < 280; i++) lens[i] = 7;
		for (; i < NLITLEN; i++) lens[i] = 8;
		huff_build(&lit, lens, NLITLEN);
		memset(lens, 5, NDIST);
		huff_build(&dist, lens, NDIST);
		built = 1;
	}
	return codes(s, &lit, &dist);
}

/* The code lengths of a dynamic block's literal/length and distance codes. */
static int read_lengths(struct state *s, unsigned char *lens, unsigned n)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3,
		13, 2, 14, 1, 15 };
	unsigned char cl[19] = { 0 };
	unsigned ncode = getbits(s, 4) + 4, i = 0;
	struct huff h;

	for (unsigned k = 0; k < ncode; k++)
		cl[order[k]] = (unsigned char)getbits(s, 3);
	if (s->err || huff_build(&h, cl, 19))
		return BB_INFLATE_BAD;
	while (i < n) {
		int sym = decode(s, &h);
		unsigned rep, val = 0;
		if (sym < 0 || s->err)
			return BB_INFLATE_BAD;
		if (sym < 16) {
			lens[i++] = (unsigned char)sym;
			continue;
		}
		if (sym == 16) {
			if (i == 0)
				return BB_INFLATE_BAD;
			val = lens[i - 1];
			rep = 3 + getbits(s, 2);
		} else {
			rep = sym == 17 ? 3 + getbits(s, 3) : 11 + getbits(s, 7);
		}
		if (rep > n - i)
			return BB_INFLATE_BAD;
		memset(lens + i, (int)val, rep);
		i += rep;
	}
	return 0;
}

static int dynamic(struct state *s)
{
	struct huff *lit = malloc(2 * sizeof *lit), *dist;
	unsigned char lens[NLITLEN + NDIST];
	unsigned nlen, ndist;
	int rc = BB_INFLATE_BAD;

	if (!lit)
		return BB_INFLATE_NOMEM;
	dist = lit + 1;
	nlen = getbits(s, 5) + 257;
	ndist = getbits(s, 5) + 1;
	if (nlen <= 286 && ndist <= NDIST && read_lengths(s, lens, nlen + ndist) == 0 &&
	    lens[256] && huff_build(lit, lens, nlen) == 0 &&
	    huff_build(dist, lens + nlen, ndist) == 0)
		rc = codes(s, lit, dist);
	free(lit);
	return rc;
}

static int inflate_into(const unsigned char *in, size_t inlen, struct out *o, size_t *used)
{
	struct state s = { in, inlen, 0, 0, 0, 0, o };
	int last, rc;

	do {
		last = (int)getbits(&s, 1);
		switch (getbits(&s, 2)) {
		case 0: rc = stored(&s); break;
		case 1: rc = fixed(&s); break;
		case 2: rc = dynamic(&s); break;
		default: rc = BB_INFLATE_BAD; break;
		}
		if (!rc && (s.err || !within_input(&s)))
			rc = BB_INFLATE_BAD;
	} while (!rc && !last);
	if (used)
		*used = s.pos - s.nbits / 8;
	return rc;
}

int bb_inflate(const unsigned char *in, size_t inlen, unsigned char *out, size_t outcap,
	       size_t *outlen, size_t *used)
{
	struct out o = { out, 0, outcap, outcap, 0 };
	int rc = inflate_into(in, inlen, &o, used);

	*outlen = o.len;
	return rc;
}

/* ---- gzip ---- */

uint32_t bb_crc32(uint32_t crc, const unsigned char *buf, size_t len)
{
	static uint32_t table[256];

	if (!table[1])
		for (uint32_t n = 0; n < 256; n++) {
			uint32_t c = n;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[n] = c;
		}
	crc = ~crc;
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Skips a zero-terminated field; -1 if it runs off the end. */
static int skip_string(const unsigned char *in, size_t inlen, size_t *pos)
{
	const unsigned char *z = *pos < inlen ? memchr(in + *pos, 0, inlen - *pos) : NULL;

	if (!z)
		return -1;
	*pos = (size_t)(z - in) + 1;
	return 0;
}

/* The length of a member's header, or 0 if it is not a valid one. */
static size_t gzip_header(const unsigned char *in, size_t inlen)
{
	size_t pos = 10;
	unsigned flg;

	if (inlen < 18 || in[0] != 0x1f || in[1] != 0x8b || in[2] != 8)
		return 0;
	flg = in[3];
	if (flg & 0xe0)
		return 0;
	if (flg & 4) {               /* FEXTRA */
		size_t xlen = (size_t)in[10] | (size_t)in[11] << 8;
		if (inlen - 12 < xlen)
			return 0;
		pos = 12 + xlen;
	}
	if ((flg & 8) && skip_string(in, inlen, &pos))    /* FNAME */
		return 0;
	if ((flg & 16) && skip_string(in, inlen, &pos))   /* FCOMMENT */
		return 0;
	if (flg & 2)                 /* FHCRC */
		pos += 2;
	return pos < inlen ? pos : 0;
}

/* One member at in[*pos]: its data appended to o, its trailer checked. */
static int gunzip_member(const unsigned char *in, size_t inlen, size_t *pos, struct out *o)
{
	size_t hdr = gzip_header(in + *pos, inlen - *pos), used, start = o->len;
	int rc;

	if (!hdr)
		return BB_INFLATE_BAD;
	*pos += hdr;
	rc = inflate_into(in + *pos, inlen - *pos, o, &used);
	if (rc)
		return rc;
	*pos += used;
	if (inlen - *pos < 8 ||
	    le32(in + *pos) != bb_crc32(0, o->buf + start, o->len - start) ||
	    le32(in + *pos + 4) != (uint32_t)(o->len - start))
		return BB_INFLATE_BAD;
	*pos += 8;
	return 0;
}

int bb_gunzip(const unsigned char *in, size_t inlen, unsigned char **out, size_t *outlen,
	      size_t max)
{
	size_t pos = 0, cap = max > 64 && inlen < (max - 64) / 4 ? inlen * 4 + 64 : max;
	struct out o = { malloc(cap + 1), 0, cap, max, 1 };
	int rc = o.buf ? 0 : BB_INFLATE_NOMEM;

	while (!rc) {
		rc = gunzip_member(in, inlen, &pos, &o);
		if (pos + 2 > inlen || in[pos] != 0x1f || in[pos + 1] != 0x8b)
			break;       /* trailing zeros (tape padding) are ignored */
	}
	if (rc) {
		free(o.buf);
		*out = NULL;
		*outlen = 0;
		return rc;
	}
	o.buf[o.len] = '\0';         /* out_reserve keeps one byte past cap */
	*out = o.buf;
	*outlen = o.len;
	return 0;
}
