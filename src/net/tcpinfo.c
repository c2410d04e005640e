/* tcpinfo.c - TCP_INFO, reduced to what a throughput report shows. */
#include "tcpinfo.h"

#include <netinet/in.h>
#include <linux/tcp.h>      /* glibc's struct tcp_info stops before tcpi_min_rtt */
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

int bb_tcpinfo_get(int fd, struct bb_tcpinfo *ti)
{
	struct tcp_info info;
	socklen_t len = sizeof info;

	memset(ti, 0, sizeof *ti);
	memset(&info, 0, sizeof info);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
		return -1;
	/* An older kernel fills less; tcpi_total_retrans is the last field used. */
	if (len < offsetof(struct tcp_info, tcpi_total_retrans) + sizeof info.tcpi_total_retrans)
		return -1;
	ti->ok = 1;
	ti->total_retrans = info.tcpi_total_retrans;
	ti->rtt_us = info.tcpi_rtt;
	ti->rttvar_us = info.tcpi_rttvar;
	ti->rcv_rtt_us = info.tcpi_rcv_rtt;
	ti->snd_cwnd = info.tcpi_snd_cwnd;
	ti->snd_mss = info.tcpi_snd_mss;
	ti->pmtu = info.tcpi_pmtu;
	if (len >= offsetof(struct tcp_info, tcpi_min_rtt) + sizeof info.tcpi_min_rtt &&
	    info.tcpi_min_rtt != ~0u)
		ti->min_rtt_us = info.tcpi_min_rtt;   /* kernel 4.6+ */
	return 0;
}

double bb_window_bound_bps(double window_bytes, double rtt_s)
{
	if (!(window_bytes > 0) || !(rtt_s > 0))
		return 0;
	return window_bytes * 8.0 / rtt_s;
}

int bb_window_limited(double measured_bps, double bound_bps)
{
	return bound_bps > 0 && measured_bps >= BB_WINDOW_LIMITED_FRACTION * bound_bps &&
	       measured_bps <= BB_WINDOW_ABOVE_FRACTION * bound_bps;
}
