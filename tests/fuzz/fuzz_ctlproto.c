/* fuzz_ctlproto.c - libFuzzer harness for the ttcp control protocol's
 * parser (src/net/ctlproto.c), the first code a peer's bytes reach:
 *   make fuzz-ctl && build-fuzz/fuzz_ctlproto -max_total_time=60 \
 *     build-fuzz/ctl_corpus tests/fuzz/ctl_corpus
 * Reads messages back to back as a connection would; whatever parses must
 * build again and parse back to the same message (fields in any order on
 * the wire, one order when built), a refusal must give a reason, and a
 * REQUEST that parses keeps the rules no single field can say
 * (docs/protocol.md: a duration or a byte count; UDP fields only for UDP,
 * each port exactly when its direction is there, a rate when the server
 * sends). */
#include "net/ctlproto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const struct bb_ctl_msg *a, const struct bb_ctl_msg *b)
{
	if (a->type != b->type || a->have != b->have || memcmp(a->num, b->num, sizeof a->num) ||
	    memcmp(a->nonce, b->nonce, sizeof a->nonce) || memcmp(a->mac, b->mac, sizeof a->mac) ||
	    memcmp(a->token, b->token, sizeof a->token) || strcmp(a->reason, b->reason))
		abort();
}

/* A parsed REQUEST that breaks a rule is a parser bug. */
static void request_rules(const struct bb_ctl_msg *m)
{
	int dir = (int)m->num[BB_CF_DIRECTION], udp = m->num[BB_CF_PROTO] == 1;

	if (m->type != BB_CTL_REQUEST)
		return;
	if (bb_ctl_has(m, BB_CF_DURATION_MS) == bb_ctl_has(m, BB_CF_BYTES))
		abort();
	if (!udp && (bb_ctl_has(m, BB_CF_UDP_RATE) || bb_ctl_has(m, BB_CF_UDP_RX_PORT) ||
		     bb_ctl_has(m, BB_CF_UDP_TX_PORT)))
		abort();
	if (udp && (m->num[BB_CF_WRITE_LEN] > 65507 ||
		    bb_ctl_has(m, BB_CF_UDP_TX_PORT) != (dir != BB_CTL_TO_CLIENT) ||
		    bb_ctl_has(m, BB_CF_UDP_RX_PORT) != (dir != BB_CTL_TO_SERVER) ||
		    (dir != BB_CTL_TO_SERVER && !bb_ctl_has(m, BB_CF_UDP_RATE))))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		struct bb_ctl_msg m, back;
		unsigned char out[BB_CTL_MAX_MSG];
		size_t used = 0, n, used2;
		char why[160] = "";
		enum bb_ctl_parse r = bb_ctl_parse(data + off, size - off, &m, &used, why, sizeof why);

		if (r == BB_CTL_BAD && !why[0])
			abort();
		if (r != BB_CTL_OK)
			break;
		if (used < BB_CTL_HDR || used > BB_CTL_MAX_MSG || used > size - off)
			abort();
		request_rules(&m);
		n = bb_ctl_build(&m, out, sizeof out);
		if (!n || bb_ctl_parse(out, n, &back, &used2, why, sizeof why) != BB_CTL_OK ||
		    used2 != n)
			abort();
		same(&m, &back);
		off += used;
	}
	return 0;
}
