/* srvrules.h - the pure decisions of the ttcp server (src/applets/ttcp/ttcp_server*.c),
 * kept apart so unit tests drive them with made-up clocks:
 *   - the minimum rate: a data connection must move at least min_Bps x
 *     window_s bytes in every window of window_s seconds, or it is dropped
 *     (a slow sender cannot hold a slot for ever);
 *   - grouping iperf2 parallel streams: a connection whose iperf2 header
 *     announces k > 1 streams joins the open group of the same address
 *     and the same k that still misses streams and opened within the
 *     join window, else it opens a group of its own. */
#ifndef BB_NET_SRVRULES_H
#define BB_NET_SRVRULES_H

#include "net/cidr.h"

#include <stddef.h>
#include <stdint.h>

struct bb_minrate {
	double min_Bps;          /* bytes per second; 0 disables the rule */
	double window_s;
	double win_start;        /* the current window's start */
	uint64_t win_bytes;      /* the byte count at that start */
};

void bb_minrate_start(struct bb_minrate *m, double min_Bps, double window_s, double now,
		      uint64_t bytes);
/* Called now and then with the stream's byte count: 1 when the window that
 * just closed fell short (then *got holds its bytes), else 0. */
int bb_minrate_check(struct bb_minrate *m, double now, uint64_t bytes, uint64_t *got);
/* 1 when the window under way, at least min_s long so far, is below the
 * rate (the server asks this of running tests when a new one needs a place). */
int bb_minrate_behind(const struct bb_minrate *m, double now, uint64_t bytes, double min_s);

struct bb_group {
	struct bb_ip addr;
	int announced;           /* streams the header announced */
	int joined;              /* connections in the group so far */
	double opened;           /* when its first connection came */
	int open;                /* still taking connections */
};

/* Index of the group a connection from addr announcing k streams joins at
 * now, or -1 for a new one.  k <= 1 never joins. */
int bb_group_pick(const struct bb_group *g, size_t n, const struct bb_ip *addr, int k,
		  double now, double window_s);

/* An announced stream count as the server will wait for it: at most cap. */
int bb_group_cap(int announced, int cap);

#endif
