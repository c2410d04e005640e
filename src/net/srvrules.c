/* srvrules.c - the minimum-rate rule and the grouping of iperf2 parallel
 * streams of the ttcp server (see srvrules.h).  Pure functions of their
 * arguments and the clock values passed in. */
#include "net/srvrules.h"

void bb_minrate_start(struct bb_minrate *m, double min_Bps, double window_s, double now,
		      uint64_t bytes)
{
	m->min_Bps = min_Bps;
	m->window_s = window_s;
	m->win_start = now;
	m->win_bytes = bytes;
}

int bb_minrate_check(struct bb_minrate *m, double now, uint64_t bytes, uint64_t *got)
{
	uint64_t moved;

	if (m->min_Bps <= 0 || m->window_s <= 0 || now - m->win_start < m->window_s)
		return 0;
	moved = bytes >= m->win_bytes ? bytes - m->win_bytes : 0;
	if ((double)moved < m->min_Bps * (now - m->win_start)) {
		if (got)
			*got = moved;
		return 1;
	}
	m->win_start = now;
	m->win_bytes = bytes;
	return 0;
}

int bb_minrate_behind(const struct bb_minrate *m, double now, uint64_t bytes, double min_s)
{
	double t = now - m->win_start;
	uint64_t moved = bytes >= m->win_bytes ? bytes - m->win_bytes : 0;

	return m->min_Bps > 0 && t >= min_s && (double)moved < m->min_Bps * t;
}

int bb_group_pick(const struct bb_group *g, size_t n, const struct bb_ip *addr, int k,
		  double now, double window_s)
{
	if (k <= 1)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (g[i].open && g[i].announced == k && g[i].joined < k &&
		    now - g[i].opened <= window_s && bb_ip_equal(&g[i].addr, addr))
			return (int)i;
	return -1;
}

int bb_group_cap(int announced, int cap)
{
	if (announced < 1)
		return 1;
	return announced > cap ? cap : announced;
}
