/* rr_cookie.c - the UDP server's cookie, its bound on answers to sources
 * not yet verified, and the session's window of sequence numbers (see
 * rr_cookie.h; the exchange is docs/rr.md). */
#include "applets/rr/rr_cookie.h"
#include "core/sha256.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

/* The source as bytes the MAC covers: family, port, address (and the
 * IPv6 scope).  Returns the length (at most 32). */
static size_t source_bytes(const struct sockaddr *sa, unsigned char out[32])
{
	memset(out, 0, 32);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)sa;
		out[0] = 4;
		memcpy(out + 1, &a->sin_port, 2);
		memcpy(out + 3, &a->sin_addr, 4);
		return 7;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;
		out[0] = 6;
		memcpy(out + 1, &a->sin6_port, 2);
		memcpy(out + 3, &a->sin6_addr, 16);
		memcpy(out + 19, &a->sin6_scope_id, 4);
		return 23;
	}
	out[0] = 0xff;     /* no other family reaches a server; one byte all the same */
	return 1;
}

static void cookie_for_period(const struct bb_rr_secret *s, const struct sockaddr *src,
			      uint64_t period, unsigned char out[BB_RR_COOKIE_BYTES])
{
	static const char label[] = "boardbench rr cookie";
	unsigned char src_b[32], per[8], mac[BB_SHA256_LEN];
	size_t src_n = source_bytes(src, src_b);
	const void *parts[3] = { label, per, src_b };
	const size_t lens[3] = { sizeof label - 1, sizeof per, src_n };

	for (int i = 0; i < 8; i++)
		per[i] = (unsigned char)(period >> (56 - 8 * i));
	bb_hmac_sha256(s->key, sizeof s->key, parts, lens, 3, mac);
	memcpy(out, mac, BB_RR_COOKIE_BYTES);
}

static uint64_t period_of(double now)
{
	return now > 0 ? (uint64_t)(now / BB_RR_COOKIE_PERIOD_S) : 0;
}

void bb_rr_cookie_make(const struct bb_rr_secret *s, const struct sockaddr *src, double now,
		       unsigned char out[BB_RR_COOKIE_BYTES])
{
	cookie_for_period(s, src, period_of(now), out);
}

int bb_rr_cookie_valid(const struct bb_rr_secret *s, const struct sockaddr *src, double now,
		       const unsigned char cookie[BB_RR_COOKIE_BYTES])
{
	uint64_t p = period_of(now);
	unsigned char want[BB_RR_COOKIE_BYTES];
	int ok;

	cookie_for_period(s, src, p, want);
	ok = bb_mac_equal(want, cookie, sizeof want);
	if (p > 0) {
		cookie_for_period(s, src, p - 1, want);
		ok |= bb_mac_equal(want, cookie, sizeof want);
	}
	return ok;
}

/* ---- the bound on answers to sources not yet verified ---- */

void bb_rr_bucket_init(struct bb_rr_bucket *b, double now)
{
	b->tokens = BB_RR_UNVERIFIED_BURST;
	b->last = now;
}

int bb_rr_bucket_take(struct bb_rr_bucket *b, double now)
{
	if (now > b->last) {
		b->tokens += (now - b->last) * BB_RR_UNVERIFIED_PER_S;
		if (b->tokens > BB_RR_UNVERIFIED_BURST)
			b->tokens = BB_RR_UNVERIFIED_BURST;
		b->last = now;
	}
	if (b->tokens < 1)
		return 0;
	b->tokens -= 1;
	return 1;
}

/* ---- the session's window of sequence numbers ---- */

void bb_rr_window_init(struct bb_rr_window *w)
{
	memset(w, 0, sizeof *w);
}

static int seen(const struct bb_rr_window *w, uint64_t seq)
{
	uint64_t i = seq % BB_RR_WINDOW_BEHIND;
	return (w->seen[i / 64] >> (i % 64)) & 1;
}

static void set_seen(struct bb_rr_window *w, uint64_t seq, int on)
{
	uint64_t i = seq % BB_RR_WINDOW_BEHIND, bit = (uint64_t)1 << (i % 64);

	w->seen[i / 64] = on ? w->seen[i / 64] | bit : w->seen[i / 64] & ~bit;
}

int bb_rr_window_accept(struct bb_rr_window *w, uint64_t seq)
{
	if (seq >= w->next) {
		if (seq - w->next >= BB_RR_WINDOW_AHEAD)
			return 0;
		if (seq - w->next >= BB_RR_WINDOW_BEHIND)   /* every slot now holds a newer one */
			memset(w->seen, 0, sizeof w->seen);
		else
			for (uint64_t q = w->next; q < seq; q++)
				set_seen(w, q, 0);
		w->next = seq + 1;
		set_seen(w, seq, 1);
		return 1;
	}
	if (w->next - seq > BB_RR_WINDOW_BEHIND || seen(w, seq))
		return 0;
	set_seen(w, seq, 1);
	return 1;
}
