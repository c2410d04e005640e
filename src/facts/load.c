/* load.c - samples of what else used the machine (see load.h): one read
 * of /proc/stat (up to its ctxt line), getrusage of this process and its
 * children, three /proc/pressure files and /proc/loadavg, all through
 * root.h; and the figures between two samples, as result params, most of
 * them one row of a table: a counter's growth over ticks, seconds or
 * microseconds. */
#include "facts/load.h"
#include "facts/root.h"
#include "core/error.h"
#include "core/parse.h"
#include "core/timer.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#define HAS(i) (1u << (i))

/* ---- /proc/stat ---- */

/* What follows "cpu" or "cpuN" on a line: user nice system idle iowait
 * irq softirq steal (guest and guest_nice follow, inside user and nice). */
static void cpu_line(struct bb_load_sample *s, const char *p)
{
	uint64_t v[8] = { 0 };
	unsigned long long busy;
	char *end = (char *)p;
	long id = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
	int n = *end == ' ' ? bb_scan_counters(end, v, 8) : 0;

	if (n < 4)
		return;
	busy = v[0] + v[1] + v[2] + v[5] + v[6];
	if (id < 0) {   /* iowait since 2.5.41, steal since 2.6.11: else unknown */
		s->c[BB_LOAD_BUSY] = busy;
		s->c[BB_LOAD_STEAL] = v[7];
		s->c[BB_LOAD_IOWAIT] = v[4];
		s->has |= HAS(BB_LOAD_BUSY) | (n > 7 ? HAS(BB_LOAD_STEAL) : 0) |
			  (n > 4 ? HAS(BB_LOAD_IOWAIT) : 0);
		return;
	}
	s->ncpu++;
	if (id < BB_LOAD_MAX_CPUS) {
		s->cpu_busy[id] = busy;
		s->cpu_total[id] = busy + v[3] + v[4] + v[7];
	}
}

/* The cpu lines and ctxt.  A line longer than the buffer (intr, with a
 * count per interrupt) comes in pieces of digits, which match nothing. */
static void read_stat(struct bb_load_sample *s)
{
	char line[512];
	FILE *f = bb_root_fopen("/proc/stat");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "cpu", 3) == 0) {
			cpu_line(s, line + 3);
		} else if (strncmp(line, "ctxt ", 5) == 0) {
			s->c[BB_LOAD_CTXT] = strtoull(line + 5, NULL, 10);
			s->has |= HAS(BB_LOAD_CTXT);
			break;
		}
	}
	fclose(f);
}

/* ---- this process, pressure, load average ---- */

static void read_self(struct bb_load_sample *s)
{
	struct rusage ru;

	if (bb_root_is_fixture())
		return;   /* a fixture's /proc never mixes with this process */
	for (int who = RUSAGE_SELF; ; who = RUSAGE_CHILDREN) {
		if (getrusage(who, &ru))
			return;
		s->c[BB_LOAD_SELF_US] += (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
					 1000000 + (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
		s->c[BB_LOAD_SELF_CTXT] += (unsigned long long)(ru.ru_nvcsw + ru.ru_nivcsw);
		if (who == RUSAGE_CHILDREN)
			break;
	}
	s->has |= HAS(BB_LOAD_SELF_US) | HAS(BB_LOAD_SELF_CTXT);
}

/* The total= after kind ("some ", "full ": how a line starts) into
 * counter i. */
static void psi_total(struct bb_load_sample *s, const char *text, const char *kind, int i)
{
	const char *p = strstr(text, kind), *t;

	if (!p || !(t = strstr(p, "total=")) || !isdigit((unsigned char)t[6]))
		return;
	s->c[i] = strtoull(t + 6, NULL, 10);
	s->has |= HAS(i);
}

/* cpu some, then memory and io, some and full: counters BB_LOAD_PSI + 0..4. */
static void read_psi(struct bb_load_sample *s)
{
	static const char *const file[] = { "/proc/pressure/cpu", "/proc/pressure/memory",
					    "/proc/pressure/io" };
	char buf[256];

	for (int f = 0; f < 3; f++) {
		if (bb_root_read(file[f], buf, sizeof buf) <= 0)
			continue;
		psi_total(s, buf, "some ", BB_LOAD_PSI + (f ? 2 * f - 1 : 0));
		if (f)
			psi_total(s, buf, "full ", BB_LOAD_PSI + 2 * f);
	}
}

void bb_load_read(struct bb_load_sample *s)
{
	char buf[128], *end;

	memset(s, 0, sizeof *s);
	read_stat(s);
	read_self(s);
	s->t = bb_now();
	read_psi(s);
	s->loadavg1 = -1;
	if (bb_root_line("/proc/loadavg", buf, sizeof buf) == 0) {
		double v = bb_strtod(buf, &end);
		if (end != buf && v >= 0)
			s->loadavg1 = v;
	}
}

/* ---- two samples: the figures ---- */

enum { PER_HZ = 1, PER_WALL = 2, PER_US = 4 };   /* what a counter's growth is divided by */

static const struct {
	char key[21];                /* in the row: no pointers, no relocations */
	unsigned char counter, per;
} figures[] = {
	{ "load.busy_cpu_s", BB_LOAD_BUSY, PER_HZ },
	{ "load.self_cpu_s", BB_LOAD_SELF_US, PER_US },
	{ "load.steal_per_s", BB_LOAD_STEAL, PER_HZ | PER_WALL },
	{ "load.iowait_per_s", BB_LOAD_IOWAIT, PER_HZ | PER_WALL },
	{ "load.ctxt_per_s", BB_LOAD_CTXT, PER_WALL },
	{ "load.self_ctxt_per_s", BB_LOAD_SELF_CTXT, PER_WALL },
	{ "load.psi.cpu.some", BB_LOAD_PSI, PER_WALL | PER_US },
	{ "load.psi.memory.some", BB_LOAD_PSI + 1, PER_WALL | PER_US },
	{ "load.psi.memory.full", BB_LOAD_PSI + 2, PER_WALL | PER_US },
	{ "load.psi.io.some", BB_LOAD_PSI + 3, PER_WALL | PER_US },
	{ "load.psi.io.full", BB_LOAD_PSI + 4, PER_WALL | PER_US },
};

/* How much a counter grew (none when it went back); no counter reaches 2^63. */
static double grew(unsigned long long a, unsigned long long b)
{
	return b > a ? (double)(long long)(b - a) : 0.0;
}

/* The largest busy share of one CPU listed in both; -1 when no CPU
 * counted a tick in between. */
static double busiest(const struct bb_load_sample *a, const struct bb_load_sample *b)
{
	double top = -1;

	for (int i = 0; i < BB_LOAD_MAX_CPUS; i++) {
		double total = grew(a->cpu_total[i], b->cpu_total[i]), f;
		if (!a->cpu_total[i] || total <= 0)
			continue;
		f = grew(a->cpu_busy[i], b->cpu_busy[i]) / total;
		top = f > top ? f : top;
	}
	return top > 1 ? 1 : top;
}

void bb_load_params(const struct bb_load_sample *a, const struct bb_load_sample *b, long hz,
		    struct bb_kvlist *params)
{
	double wall = b->t - a->t, fig[BB_LOAD_NCOUNTERS], top;
	unsigned has = a->has & b->has & (hz > 0 ? ~0u : ~(HAS(BB_LOAD_BUSY) |
					   HAS(BB_LOAD_STEAL) | HAS(BB_LOAD_IOWAIT)));

	bb_kv_num(params, "load.wall_s", wall);
	if (!(wall > 0))
		return;
	for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
		int c = figures[i].counter, per = figures[i].per;
		fig[c] = grew(a->c[c], b->c[c]) / (per & PER_HZ ? (double)hz : 1) /
			 (per & PER_WALL ? wall : 1) / (per & PER_US ? 1e6 : 1);
		if (has & HAS(c))
			bb_kv_num(params, figures[i].key, fig[c]);
	}
	if (has & HAS(BB_LOAD_BUSY)) {
		bb_kv_int(params, "load.cpus", b->ncpu);
		if ((top = busiest(a, b)) >= 0)
			bb_kv_num(params, "load.busiest_cpu", top);
	}
	if ((has & HAS(BB_LOAD_BUSY)) && (has & HAS(BB_LOAD_SELF_US))) {
		/* whole ticks over a short interval can exceed every CPU's time */
		double others = (fig[BB_LOAD_BUSY] - fig[BB_LOAD_SELF_US]) / wall;
		bb_kv_num(params, "load.others_cpu_per_s",
			  others < 0 ? 0 : b->ncpu && others > b->ncpu ? b->ncpu : others);
	}
	if (b->loadavg1 >= 0)
		bb_kv_num(params, "load.loadavg1", b->loadavg1);
}

/* ---- the watch on one result ---- */

struct bb_load_sample *bb_load_watch_start(void)
{
	struct bb_load_sample *s = bb_xmalloc(sizeof *s);

	bb_load_read(s);
	return s;
}

void bb_load_watch_end(const struct bb_load_sample *start, struct bb_kvlist *params)
{
	struct bb_load_sample now;

	bb_load_read(&now);
	bb_load_params(start, &now, sysconf(_SC_CLK_TCK), params);
}
