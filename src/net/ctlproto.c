/* ctlproto.c - the codec of the ttcp control protocol (see ctlproto.h and
 * docs/protocol.md).  A message is an 8-byte header (magic "BBcp", version,
 * type, payload length big-endian) and a payload of fields, each a tag
 * byte, a length byte and that many value bytes.  The field table below is
 * the whole grammar: kind, size, range and the types that may carry each
 * field, and for each type the fields it must carry.  Parsing checks every
 * entry of it; building a message parses it back before it is sent. */
#include "net/ctlproto.h"
#include "core/bytes.h"
#include "core/sha256.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const unsigned char bb_ctl_magic[4] = { 'B', 'B', 'c', 'p' };

enum kind { K_NUM, K_BYTES, K_TEXT };

#define T(x) (1u << (x))

struct field_def {
	const char *name;
	enum kind kind;
	unsigned size;           /* K_NUM: 1, 2, 4 or 8; K_BYTES: exact; K_TEXT: max */
	uint64_t min, max;       /* K_NUM */
	uint32_t types;          /* T(type) that may carry it */
};

#define BIG ((uint64_t)1 << 62)

_Static_assert(BB_CF_COUNT <= 32, "a message's fields are bits of a uint32_t");

static const struct field_def fields[BB_CF_COUNT] = {
	[BB_CF_NONCE] = { "nonce", K_BYTES, BB_CTL_NONCE, 0, 0, T(BB_CTL_HELLO) | T(BB_CTL_CHALLENGE) },
	[BB_CF_FEATURES] = { "features", K_NUM, 4, 0, 0xffffffffu, T(BB_CTL_HELLO) },
	[BB_CF_KEY_REQUIRED] = { "key_required", K_NUM, 1, 0, 1, T(BB_CTL_CHALLENGE) },
	[BB_CF_MAC] = { "mac", K_BYTES, BB_CTL_MAC, 0, 0, T(BB_CTL_AUTH) },
	[BB_CF_TOKEN] = { "token", K_BYTES, BB_CTL_TOKEN, 0, 0, T(BB_CTL_ACCEPT) | T(BB_CTL_DATA) },
	[BB_CF_DIRECTION] = { "direction", K_NUM, 1, 0, 2, T(BB_CTL_REQUEST) },
	[BB_CF_PROTO] = { "proto", K_NUM, 1, 0, 1, T(BB_CTL_REQUEST) },
	[BB_CF_DURATION_MS] = { "duration_ms", K_NUM, 4, 1, 86400000, T(BB_CTL_REQUEST) },
	[BB_CF_BYTES] = { "bytes", K_NUM, 8, 1, BIG, T(BB_CTL_REQUEST) },
	[BB_CF_STREAMS] = { "streams", K_NUM, 1, 1, 64, T(BB_CTL_REQUEST) },
	[BB_CF_WRITE_LEN] = { "write_len", K_NUM, 4, 1, 16777216, T(BB_CTL_REQUEST) },
	[BB_CF_UDP_RATE] = { "udp_rate", K_NUM, 8, 1, 1000000000000ull, T(BB_CTL_REQUEST) },
	[BB_CF_STREAM] = { "stream", K_NUM, 1, 0, 63, T(BB_CTL_DATA) }, /* the word, not the applet */
	[BB_CF_REASON] = { "reason", K_TEXT, BB_CTL_REASON_MAX, 0, 0, T(BB_CTL_REFUSE) },
	[BB_CF_ROLE] = { "role", K_NUM, 1, 0, 1, T(BB_CTL_RESULT) },
	[BB_CF_STATUS] = { "status", K_NUM, 1, 0, 3, T(BB_CTL_RESULT) },
	[BB_CF_RX_BYTES] = { "bytes_counted", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_ELAPSED_US] = { "elapsed_us", K_NUM, 8, 0, 1000000000000ull, T(BB_CTL_RESULT) },
	[BB_CF_CPU_USER_US] = { "cpu_user_us", K_NUM, 8, 0, 1000000000000ull, T(BB_CTL_RESULT) },
	[BB_CF_CPU_SYS_US] = { "cpu_sys_us", K_NUM, 8, 0, 1000000000000ull, T(BB_CTL_RESULT) },
	[BB_CF_DATAGRAMS] = { "datagrams", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_LOST] = { "lost", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_OUT_OF_ORDER] = { "out_of_order", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_JITTER_NS] = { "jitter_ns", K_NUM, 8, 0, 1000000000000ull, T(BB_CTL_RESULT) },
	[BB_CF_FOREIGN] = { "foreign", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_MALFORMED] = { "malformed", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
	[BB_CF_UDP_RX_PORT] = { "udp_rx_port", K_NUM, 2, 1, 65535, T(BB_CTL_REQUEST) | T(BB_CTL_ACCEPT) },
	[BB_CF_UDP_TX_PORT] = { "udp_tx_port", K_NUM, 2, 1, 65535, T(BB_CTL_REQUEST) | T(BB_CTL_ACCEPT) },
	[BB_CF_DUPLICATES] = { "duplicates", K_NUM, 8, 0, BIG, T(BB_CTL_RESULT) },
};

#define F(x) (1u << (x))

/* What each type must carry. */
static const uint32_t required[BB_CTL_TYPES] = {
	[BB_CTL_HELLO] = F(BB_CF_NONCE),
	[BB_CTL_CHALLENGE] = F(BB_CF_NONCE) | F(BB_CF_KEY_REQUIRED),
	[BB_CTL_AUTH] = F(BB_CF_MAC),
	[BB_CTL_REQUEST] = F(BB_CF_DIRECTION) | F(BB_CF_PROTO) | F(BB_CF_STREAMS) |
			   F(BB_CF_WRITE_LEN),
	[BB_CTL_ACCEPT] = F(BB_CF_TOKEN),
	[BB_CTL_REFUSE] = F(BB_CF_REASON),
	[BB_CTL_RESULT] = F(BB_CF_ROLE) | F(BB_CF_STATUS) | F(BB_CF_RX_BYTES) | F(BB_CF_ELAPSED_US),
	[BB_CTL_DATA] = F(BB_CF_TOKEN) | F(BB_CF_STREAM),
};

static const char *const type_names[BB_CTL_TYPES] = {
	[BB_CTL_HELLO] = "HELLO", [BB_CTL_CHALLENGE] = "CHALLENGE", [BB_CTL_AUTH] = "AUTH",
	[BB_CTL_REQUEST] = "REQUEST", [BB_CTL_ACCEPT] = "ACCEPT", [BB_CTL_REFUSE] = "REFUSE",
	[BB_CTL_RESULT] = "RESULT", [BB_CTL_DATA] = "DATA",
};

const char *bb_ctl_type_name(unsigned t)
{
	return t < BB_CTL_TYPES && type_names[t] ? type_names[t] : "?";
}

void bb_ctl_init(struct bb_ctl_msg *m, enum bb_ctl_type t)
{
	memset(m, 0, sizeof *m);
	m->type = t;
}

void bb_ctl_set(struct bb_ctl_msg *m, enum bb_ctl_field f, uint64_t v)
{
	m->have |= F(f);
	m->num[f] = v;
}

int bb_ctl_has(const struct bb_ctl_msg *m, enum bb_ctl_field f)
{
	return (m->have & F(f)) != 0;
}

/* ---- parsing ---- */

__attribute__((format(printf, 3, 4)))
static enum bb_ctl_parse bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return BB_CTL_BAD;
}

/* One field's value, checked against its entry in the table. */
static enum bb_ctl_parse take_field(struct bb_ctl_msg *m, unsigned tag, const unsigned char *v,
				    unsigned len, char *why, size_t whylen)
{
	const struct field_def *d = &fields[tag];

	if (m->have & F(tag))
		return bad(why, whylen, "field %s given twice", d->name);
	if (!(d->types & T(m->type)))
		return bad(why, whylen, "field %s is not part of a %s message", d->name,
			   bb_ctl_type_name(m->type));
	if ((d->kind != K_TEXT && len != d->size) || (d->kind == K_TEXT && (!len || len > d->size)))
		return bad(why, whylen, "field %s has %u bytes", d->name, len);
	if (d->kind == K_NUM) {
		uint64_t x = bb_get_be(v, len);
		if (x < d->min || x > d->max)
			return bad(why, whylen, "field %s out of range (%llu..%llu)", d->name,
				   (unsigned long long)d->min, (unsigned long long)d->max);
		m->num[tag] = x;
	} else if (d->kind == K_TEXT) {
		for (unsigned i = 0; i < len; i++)
			if (v[i] < 0x20 || v[i] > 0x7e)
				return bad(why, whylen, "field %s is not printable text", d->name);
		memcpy(m->reason, v, len);
		m->reason[len] = '\0';
	} else {
		memcpy(tag == BB_CF_NONCE ? m->nonce : tag == BB_CF_MAC ? m->mac : m->token, v, len);
	}
	m->have |= F(tag);
	return BB_CTL_OK;
}

/* What no single field can say: a REQUEST gives a duration or a byte
 * count (one of them); a UDP rate and UDP ports only for UDP; a UDP write
 * fits a datagram; a UDP REQUEST names the port the client sends from
 * exactly when it sends, the port it receives on exactly when the server
 * sends, and then also the rate the server is to send at. */
static enum bb_ctl_parse check_request(const struct bb_ctl_msg *m, char *why, size_t whylen)
{
	int dur = bb_ctl_has(m, BB_CF_DURATION_MS), bytes = bb_ctl_has(m, BB_CF_BYTES);
	int dir = (int)m->num[BB_CF_DIRECTION];
	int client_sends = dir != BB_CTL_TO_CLIENT, server_sends = dir != BB_CTL_TO_SERVER;

	if (dur == bytes)
		return bad(why, whylen, "a REQUEST gives duration_ms or bytes, one of them");
	if (m->num[BB_CF_PROTO] == 0) {
		if (bb_ctl_has(m, BB_CF_UDP_RATE) || bb_ctl_has(m, BB_CF_UDP_RX_PORT) ||
		    bb_ctl_has(m, BB_CF_UDP_TX_PORT))
			return bad(why, whylen, "udp_rate or a UDP port in a TCP REQUEST");
		return BB_CTL_OK;
	}
	if (m->num[BB_CF_WRITE_LEN] > 65507)
		return bad(why, whylen, "write_len above 65507 in a UDP REQUEST");
	if (bb_ctl_has(m, BB_CF_UDP_TX_PORT) != client_sends)
		return bad(why, whylen, client_sends ? "a UDP REQUEST in which the client sends "
			   "without udp_tx_port" : "udp_tx_port in a REQUEST where the client "
			   "does not send");
	if (bb_ctl_has(m, BB_CF_UDP_RX_PORT) != server_sends)
		return bad(why, whylen, server_sends ? "a UDP REQUEST in which the server sends "
			   "without udp_rx_port" : "udp_rx_port in a REQUEST where the server "
			   "does not send");
	if (server_sends && !bb_ctl_has(m, BB_CF_UDP_RATE))
		return bad(why, whylen, "a UDP REQUEST in which the server sends without udp_rate");
	return BB_CTL_OK;
}

static enum bb_ctl_parse check_header(const unsigned char *buf, size_t n, size_t *used, char *why,
				      size_t whylen)
{
	size_t k = n < 4 ? n : 4;

	*used = BB_CTL_HDR;
	if (memcmp(buf, bb_ctl_magic, k) != 0)
		return bad(why, whylen, "not a boardbench control message");
	if (n < BB_CTL_HDR)
		return BB_CTL_NEED_MORE;
	if (buf[4] != BB_CTL_VERSION)
		return bad(why, whylen, "protocol version %u not supported (this end speaks %u)",
			   buf[4], BB_CTL_VERSION);
	if (buf[5] == 0 || buf[5] >= BB_CTL_TYPES)
		return bad(why, whylen, "unknown message type %u", buf[5]);
	if (bb_get_be(buf + 6, 2) > BB_CTL_MAX_PAYLOAD)
		return bad(why, whylen, "a payload of %u bytes (at most %u)",
			   (unsigned)bb_get_be(buf + 6, 2), BB_CTL_MAX_PAYLOAD);
	*used = BB_CTL_HDR + (size_t)bb_get_be(buf + 6, 2);
	return n < *used ? BB_CTL_NEED_MORE : BB_CTL_OK;
}

enum bb_ctl_parse bb_ctl_parse(const unsigned char *buf, size_t n, struct bb_ctl_msg *m,
			       size_t *used, char *why, size_t whylen)
{
	enum bb_ctl_parse r = check_header(buf, n, used, why, whylen);
	size_t off = BB_CTL_HDR;
	uint32_t missing;

	if (r != BB_CTL_OK)
		return r;
	bb_ctl_init(m, (enum bb_ctl_type)buf[5]);
	while (off < *used) {
		unsigned tag, len;
		if (*used - off < 2)
			return bad(why, whylen, "a field cut short at byte %zu", off);
		tag = buf[off];
		len = buf[off + 1];
		if (tag == 0 || tag >= BB_CF_COUNT)
			return bad(why, whylen, "unknown field %u", tag);
		if (*used - off - 2 < len)
			return bad(why, whylen, "field %s runs past the message end", fields[tag].name);
		if (take_field(m, tag, buf + off + 2, len, why, whylen) != BB_CTL_OK)
			return BB_CTL_BAD;
		off += 2 + len;
	}
	missing = required[m->type] & ~m->have;
	for (unsigned t = 1; t < BB_CF_COUNT; t++)
		if (missing & F(t))
			return bad(why, whylen, "%s without %s", bb_ctl_type_name(m->type),
				   fields[t].name);
	return m->type == BB_CTL_REQUEST ? check_request(m, why, whylen) : BB_CTL_OK;
}

/* ---- building ---- */

static const unsigned char *field_bytes(const struct bb_ctl_msg *m, unsigned tag, unsigned *len)
{
	if (tag == BB_CF_REASON) {
		*len = (unsigned)strnlen(m->reason, BB_CTL_REASON_MAX + 1);
		return (const unsigned char *)m->reason;
	}
	*len = fields[tag].size;
	return tag == BB_CF_NONCE ? m->nonce : tag == BB_CF_MAC ? m->mac : m->token;
}

size_t bb_ctl_build(const struct bb_ctl_msg *m, unsigned char *out, size_t cap)
{
	size_t off = BB_CTL_HDR, used;
	struct bb_ctl_msg check;
	char why[128];

	if (cap < BB_CTL_MAX_MSG || m->type <= 0 || m->type >= BB_CTL_TYPES)
		return 0;
	for (unsigned tag = 1; tag < BB_CF_COUNT; tag++) {
		unsigned len;
		if (!(m->have & F(tag)))
			continue;
		if (fields[tag].kind == K_NUM) {
			len = fields[tag].size;
			bb_put_be(out + off + 2, m->num[tag], len);
		} else {
			const unsigned char *v = field_bytes(m, tag, &len);
			if (len > BB_CTL_REASON_MAX)
				return 0;
			memcpy(out + off + 2, v, len);
		}
		out[off] = (unsigned char)tag;
		out[off + 1] = (unsigned char)len;
		off += 2 + len;
	}
	memcpy(out, bb_ctl_magic, 4);
	out[4] = BB_CTL_VERSION;
	out[5] = (unsigned char)m->type;
	bb_put_be(out + 6, off - BB_CTL_HDR, 2);
	return bb_ctl_parse(out, off, &check, &used, why, sizeof why) == BB_CTL_OK ? off : 0;
}

void bb_ctl_mac(const void *key, size_t keylen, const unsigned char *server_nonce,
		const unsigned char *client_nonce, unsigned char out[BB_CTL_MAC])
{
	static const char label[] = "boardbench ctl 1";
	const void *parts[3] = { label, server_nonce, client_nonce };
	const size_t lens[3] = { sizeof label - 1, BB_CTL_NONCE, BB_CTL_NONCE };

	bb_hmac_sha256(key, keylen, parts, lens, 3, out);
}
