/* tcpinfo.h - what the kernel knows about one TCP connection (TCP_INFO):
 * retransmitted segments, smoothed round-trip time and its variation, the
 * congestion window, the segment size.  Linux only; elsewhere ok is 0. */
#ifndef BB_NET_TCPINFO_H
#define BB_NET_TCPINFO_H

#include <stdint.h>

struct bb_tcpinfo {
	int ok;
	uint32_t total_retrans;   /* segments retransmitted over the connection */
	uint32_t rtt_us, rttvar_us;
	uint32_t rcv_rtt_us;      /* the receiver's own estimate (0 = none yet) */
	uint32_t min_rtt_us;      /* the lowest RTT seen: the path without queues (0 = unknown) */
	uint32_t snd_cwnd;        /* segments */
	uint32_t snd_mss;
	uint32_t pmtu;
};

int bb_tcpinfo_get(int fd, struct bb_tcpinfo *ti);

/* A window-limited flow: at most one window of data is in flight per
 * round trip, so window / RTT bounds its rate.  The RTT is the path's
 * (TCP_INFO's minimum): a queue at a slower link inflates the smoothed RTT
 * until any window looks filled, which says nothing about the window.
 * A flow measured at or
 * above this fraction of the bound is called window-limited: the bound is
 * an upper limit that a real flow does not reach (the smoothed RTT counts
 * delayed ACKs and queueing, and a sender's buffer holds unsent data as
 * well as data in flight), so a flow the window holds back measures some
 * 75-95% of it, while one held back by anything else (the link, a CPU)
 * leaves the window partly unused and measures well below. */
#define BB_WINDOW_LIMITED_FRACTION 0.70
/* A flow well above its bound shows the RTT was not its own (a receiver's
 * RTT comes from the handshake; a kernel may advertise more than half its
 * buffer): then nothing is claimed. */
#define BB_WINDOW_ABOVE_FRACTION 1.25

/* window_bytes * 8 / rtt_s in bits/s; 0 when either is unknown (<= 0). */
double bb_window_bound_bps(double window_bytes, double rtt_s);
/* 1 when BB_WINDOW_LIMITED_FRACTION x bound <= measured_bps <=
 * BB_WINDOW_ABOVE_FRACTION x bound, bound > 0. */
int bb_window_limited(double measured_bps, double bound_bps);

#endif
