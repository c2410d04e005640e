/* rr_cookie.h - what keeps `rr -s -u` from being an amplifier (the
 * exchange is specified in docs/rr.md):
 *   - a stateless cookie, an HMAC-SHA-256 under a secret the server draws
 *     at random over a source's address, port and a time period; a source
 *     that echoes it has shown it receives at that address.  Until then
 *     the server sends it nothing larger than what it received;
 *   - a token bucket on how many answers a second go to sources not yet
 *     shown to receive at their address (cookies and refusals);
 *   - the session's window of sequence numbers: a request is answered once,
 *     and only when it carries the session's key and falls in the window.
 * Pure functions of their inputs (the time is a parameter), so the unit
 * tests (tests/unit/test_rr_cookie.c) drive them directly. */
#ifndef BB_NET_RR_COOKIE_H
#define BB_NET_RR_COOKIE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define BB_RR_COOKIE_BYTES 16
#define BB_RR_COOKIE_PERIOD_S 2.0           /* a cookie is good for 2 to 4 s */
#define BB_RR_SECRET_BYTES 32
#define BB_RR_UNVERIFIED_PER_S 100.0        /* answers a second to unverified sources */
#define BB_RR_UNVERIFIED_BURST 20.0
#define BB_RR_WINDOW_BEHIND 1024u           /* sequence numbers remembered as answered */
#define BB_RR_WINDOW_AHEAD (1u << 20)       /* how far past the highest one a request may be */

struct bb_rr_secret {
	unsigned char key[BB_RR_SECRET_BYTES];
};

/* The cookie for the source src at time now (seconds, CLOCK_MONOTONIC). */
void bb_rr_cookie_make(const struct bb_rr_secret *s, const struct sockaddr *src, double now,
		       unsigned char out[BB_RR_COOKIE_BYTES]);
/* 1 when cookie is what bb_rr_cookie_make() gave src in this period or the
 * one before, else 0 (forged, another source's, or stale). */
int bb_rr_cookie_valid(const struct bb_rr_secret *s, const struct sockaddr *src, double now,
		       const unsigned char cookie[BB_RR_COOKIE_BYTES]);

struct bb_rr_bucket {
	double tokens, last;
};

void bb_rr_bucket_init(struct bb_rr_bucket *b, double now);
/* 1 when an answer may go out at now (one token taken), else 0. */
int bb_rr_bucket_take(struct bb_rr_bucket *b, double now);

struct bb_rr_window {
	uint64_t next;                                  /* the highest accepted + 1 */
	uint64_t seen[BB_RR_WINDOW_BEHIND / 64];        /* by sequence number modulo */
};

void bb_rr_window_init(struct bb_rr_window *w);
/* 1 when seq is to be answered (and is remembered as answered); 0 when it
 * was answered already, is older than the window or too far ahead. */
int bb_rr_window_accept(struct bb_rr_window *w, uint64_t seq);

#endif
