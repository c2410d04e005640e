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
	uint32_t snd_cwnd;        /* segments */
	uint32_t snd_mss;
	uint32_t pmtu;
};

int bb_tcpinfo_get(int fd, struct bb_tcpinfo *ti);

#endif
