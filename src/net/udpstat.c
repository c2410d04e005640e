/* udpstat.c - loss, reordering and RFC 3550 jitter of one UDP stream (see
 * udpstat.h). */
#include "udpstat.h"

void bb_udp_flow_add(struct bb_udp_flow *f, uint64_t seq, uint64_t send_ns,
		     uint64_t recv_ns, uint64_t bytes)
{
	/* Wrapping difference, read as signed: the clocks' offset cancels out. */
	int64_t transit = (int64_t)(recv_ns - send_ns);

	f->received++;
	f->bytes += bytes;
	if (seq < f->next_seq)
		f->out_of_order++;
	else
		f->next_seq = seq == UINT64_MAX ? seq : seq + 1;
	if (f->have_transit) {
		/* Exact in wrapping integers, then made a magnitude. */
		uint64_t du = (uint64_t)transit - (uint64_t)f->prev_transit_ns;
		double d = du > UINT64_MAX / 2 ? (double)(0 - du) : (double)du;
		f->jitter_ns += (d - f->jitter_ns) / 16.0;
	}
	f->prev_transit_ns = transit;
	f->have_transit = 1;
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
