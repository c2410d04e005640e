/* udpstat.c - loss, reordering and RFC 3550 jitter of one UDP stream, and
 * the bound on its sequence numbers (see udpstat.h). */
#include "udpstat.h"

#include <stdio.h>
#include <string.h>

uint64_t bb_udp_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t bb_udp_refused_foreign(const struct bb_udp_refused *r)
{
	return bb_udp_sat_add(r->foreign_peer, r->foreign_seq);
}

uint64_t bb_udp_refused_malformed(const struct bb_udp_refused *r)
{
	return bb_udp_sat_add(r->zero_length, r->over_length);
}

uint64_t bb_udp_seq_bound(const struct bb_udp_flow *f, uint64_t now_ns, uint64_t since_ns,
			  size_t len)
{
	uint64_t from = f->received ? f->last_ns : since_ns;
	double secs = now_ns > from ? (double)(now_ns - from) * 1e-9 : 0.0;
	double pps = BB_UDP_LINE_BPS / (8.0 * ((double)len + BB_UDP_IP_OVERHEAD));
	double more = secs * pps;

	if (more > 1e18)                 /* a century at line rate: no bound left to keep */
		more = 1e18;
	return bb_udp_sat_add(bb_udp_sat_add(f->next_seq, BB_UDP_SEQ_SLACK), (uint64_t)more);
}

static int seen_bit(const struct bb_udp_flow *f, uint64_t seq)
{
	unsigned k = (unsigned)(seq % BB_UDP_DUP_WINDOW);
	return (f->seen[k / 64] >> (k % 64)) & 1;
}

static void mark(struct bb_udp_flow *f, uint64_t seq, int on)
{
	unsigned k = (unsigned)(seq % BB_UDP_DUP_WINDOW);
	uint64_t bit = (uint64_t)1 << (k % 64);

	f->seen[k / 64] = on ? f->seen[k / 64] | bit : f->seen[k / 64] & ~bit;
}

/* seq >= next_seq: the numbers skipped become slots not yet arrived. */
static void advance(struct bb_udp_flow *f, uint64_t seq)
{
	if (seq - f->next_seq >= BB_UDP_DUP_WINDOW)
		memset(f->seen, 0, sizeof f->seen);
	else
		for (uint64_t s = f->next_seq; s < seq; s++)
			mark(f, s, 0);
	mark(f, seq, 1);
	if (seq == UINT64_MAX)
		f->top_seen = 1;
	f->next_seq = seq == UINT64_MAX ? seq : seq + 1;
}

/* Which of the three an arrival is; marks it seen. */
static enum bb_udp_arrival classify(struct bb_udp_flow *f, uint64_t seq)
{
	if (seq >= f->next_seq && !(seq == UINT64_MAX && f->top_seen)) {
		advance(f, seq);
		return BB_UDP_NEW;
	}
	if (f->next_seq - seq > BB_UDP_DUP_WINDOW || seen_bit(f, seq))
		return BB_UDP_DUPLICATE;
	mark(f, seq, 1);
	return BB_UDP_LATE;
}

enum bb_udp_arrival bb_udp_flow_add(struct bb_udp_flow *f, uint64_t seq, uint64_t send_ns,
				    uint64_t recv_ns, uint64_t bytes)
{
	/* Wrapping difference, read as signed: the clocks' offset cancels out. */
	int64_t transit = (int64_t)(recv_ns - send_ns);
	enum bb_udp_arrival a;

	if (f->datagram_len == 0)
		f->datagram_len = (size_t)bytes;
	f->bytes = bb_udp_sat_add(f->bytes, bytes);
	f->last_ns = recv_ns;
	a = classify(f, seq);
	if (a == BB_UDP_DUPLICATE) {
		f->duplicates++;
		return a;
	}
	f->received++;
	f->out_of_order += a == BB_UDP_LATE;
	if (f->have_transit) {
		/* Exact in wrapping integers, then made a magnitude. */
		uint64_t du = (uint64_t)transit - (uint64_t)f->prev_transit_ns;
		double d = du > UINT64_MAX / 2 ? (double)(0 - du) : (double)du;
		f->jitter_ns += (d - f->jitter_ns) / 16.0;
	}
	f->prev_transit_ns = transit;
	f->have_transit = 1;
	return a;
}

void bb_udp_flow_tally(struct bb_udp_flow *f, uint64_t sent)
{
	if (f->tallied && f->sent != sent)
		f->tally_conflict = 1;
	f->sent = sent;
	f->tallied = 1;
}

int bb_udp_flow_doubt(const struct bb_udp_flow *f, char *why, size_t len)
{
	if (f->tally_conflict) {
		snprintf(why, len, "its tallies of datagrams sent differ");
		return 1;
	}
	if (f->tallied && (f->next_seq > f->sent || f->received > f->sent)) {
		snprintf(why, len, "its tally says %llu datagrams were sent, but sequence numbers up "
			 "to %llu arrived", (unsigned long long)f->sent,
			 (unsigned long long)(f->next_seq - 1));
		return 1;
	}
	return 0;
}

uint64_t bb_udp_flow_expected(const struct bb_udp_flow *f)
{
	return f->sent > f->next_seq ? f->sent : f->next_seq;
}

uint64_t bb_udp_flow_lost(const struct bb_udp_flow *f)
{
	uint64_t want = bb_udp_flow_expected(f);
	return want > f->received ? want - f->received : 0;
}

double bb_udp_flow_loss_fraction(const struct bb_udp_flow *f)
{
	uint64_t want = bb_udp_flow_expected(f);
	return want ? (double)bb_udp_flow_lost(f) / (double)want : 0.0;
}
