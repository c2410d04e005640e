/* ctlproto.h - the control protocol between two boardbench ttcp peers
 * (docs/protocol.md): binary, versioned, length-prefixed messages whose
 * every field is typed and bounded.  This file is only the codec, the part
 * a peer's bytes reach first (tests/fuzz/fuzz_ctlproto.c drives it): it
 * allocates nothing, reads at most BB_CTL_MAX_MSG bytes of a message, and
 * refuses with a reason anything it does not know (a version, a type, a
 * field, a length, a value out of range, a field twice, a field the type
 * does not carry, a required field missing). */
#ifndef BB_NET_CTLPROTO_H
#define BB_NET_CTLPROTO_H

#include <stddef.h>
#include <stdint.h>

#define BB_CTL_VERSION 3             /* 2: UDP tests (ports, refused datagrams); 3: duplicates */
#define BB_CTL_HDR 8                 /* magic, version, type, payload length */
#define BB_CTL_MAX_PAYLOAD 512
#define BB_CTL_MAX_MSG (BB_CTL_HDR + BB_CTL_MAX_PAYLOAD)
#define BB_CTL_NONCE 16
#define BB_CTL_TOKEN 16
#define BB_CTL_MAC 32
#define BB_CTL_REASON_MAX 200

extern const unsigned char bb_ctl_magic[4];   /* "BBcp" */

enum bb_ctl_type {
	BB_CTL_HELLO = 1,      /* client: its nonce and features */
	BB_CTL_CHALLENGE = 2,  /* server: its nonce, whether a key is needed */
	BB_CTL_AUTH = 3,       /* client: the MAC over both nonces */
	BB_CTL_REQUEST = 4,    /* client: the test it asks for */
	BB_CTL_ACCEPT = 5,     /* server: the test's token */
	BB_CTL_REFUSE = 6,     /* either: why not, then the connection closes */
	BB_CTL_RESULT = 7,     /* either: one end's totals */
	BB_CTL_DATA = 8,       /* client, first on a data connection: token, stream */
	BB_CTL_TYPES = 9
};

/* Field tags; each has one kind, one size and one range (ctlproto.c). */
enum bb_ctl_field {
	BB_CF_NONCE = 1, BB_CF_FEATURES, BB_CF_KEY_REQUIRED, BB_CF_MAC, BB_CF_TOKEN,
	BB_CF_DIRECTION, BB_CF_PROTO, BB_CF_DURATION_MS, BB_CF_BYTES, BB_CF_STREAMS,
	BB_CF_WRITE_LEN, BB_CF_UDP_RATE, BB_CF_STREAM, BB_CF_REASON,
	BB_CF_ROLE, BB_CF_STATUS, BB_CF_RX_BYTES, BB_CF_ELAPSED_US, BB_CF_CPU_USER_US,
	BB_CF_CPU_SYS_US, BB_CF_DATAGRAMS, BB_CF_LOST, BB_CF_OUT_OF_ORDER, BB_CF_JITTER_NS,
	BB_CF_FOREIGN, BB_CF_MALFORMED, BB_CF_UDP_RX_PORT, BB_CF_UDP_TX_PORT, BB_CF_DUPLICATES,
	BB_CF_COUNT                      /* at most 32: have is a uint32_t */
};

enum bb_ctl_direction { BB_CTL_TO_SERVER = 0, BB_CTL_TO_CLIENT = 1, BB_CTL_BOTH = 2 };

/* One message.  have has bit (1 << tag) for each field present; numbers
 * are in num[tag], byte strings in their own arrays. */
struct bb_ctl_msg {
	enum bb_ctl_type type;
	uint32_t have;
	uint64_t num[BB_CF_COUNT];
	unsigned char nonce[BB_CTL_NONCE];
	unsigned char mac[BB_CTL_MAC];
	unsigned char token[BB_CTL_TOKEN];
	char reason[BB_CTL_REASON_MAX + 1];
};

enum bb_ctl_parse { BB_CTL_NEED_MORE, BB_CTL_OK, BB_CTL_BAD };

/* Reads the message at the start of buf (n bytes so far).  NEED_MORE: a
 * valid beginning, *used = the bytes the whole message takes when known
 * (else BB_CTL_HDR); OK: m filled, *used = its length; BAD: why holds one
 * line fit to send back in a REFUSE (the peer is never trusted). */
enum bb_ctl_parse bb_ctl_parse(const unsigned char *buf, size_t n, struct bb_ctl_msg *m,
			       size_t *used, char *why, size_t whylen);

/* Writes m into out (at least BB_CTL_MAX_MSG bytes); its length, or 0 when
 * m would not parse (so a peer never sends what it would refuse). */
size_t bb_ctl_build(const struct bb_ctl_msg *m, unsigned char *out, size_t cap);

/* A message of type t with no fields. */
void bb_ctl_init(struct bb_ctl_msg *m, enum bb_ctl_type t);

/* Sets a numeric field (have and num). */
void bb_ctl_set(struct bb_ctl_msg *m, enum bb_ctl_field f, uint64_t v);

int bb_ctl_has(const struct bb_ctl_msg *m, enum bb_ctl_field f);

/* The MAC a client sends and a server expects: HMAC-SHA-256 under the
 * shared key of "boardbench ctl 1", the server's nonce, the client's. */
void bb_ctl_mac(const void *key, size_t keylen, const unsigned char *server_nonce,
		const unsigned char *client_nonce, unsigned char out[BB_CTL_MAC]);

/* "HELLO", "REQUEST", ... ("?" when unknown). */
const char *bb_ctl_type_name(unsigned t);

#endif
