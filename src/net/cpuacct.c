/* cpuacct.c - process and machine CPU accounting (see cpuacct.h). */
#include "cpuacct.h"
#include "core/parse.h"
#include "core/timer.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bb_procstat_parse(const char *text, struct bb_procstat *ps)
{
	uint64_t v[8] = { 0 };
	const char *line = text;

	while (line && strncmp(line, "cpu ", 4) != 0) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!line || bb_scan_counters(line + 4, v, 8) < 4)
		return -1;
	ps->user = v[0];
	ps->nice = v[1];
	ps->system = v[2];
	ps->idle = v[3];
	ps->iowait = v[4];
	ps->irq = v[5];
	ps->softirq = v[6];
	ps->steal = v[7];
	return 0;
}

static int read_procstat(struct bb_procstat *ps)
{
	char buf[1024];
	ssize_t n;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);   /* the cpu line comes first */
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return bb_procstat_parse(buf, ps);
}

void bb_cpu_snap_take(struct bb_cpu_snap *s)
{
	memset(s, 0, sizeof *s);
	s->t = bb_now();
	getrusage(RUSAGE_SELF, &s->ru);
	s->ps_ok = read_procstat(&s->ps) == 0;
}

static int64_t tv_us(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* A counter difference in seconds; 0 if the counter went backwards. */
static double ticks(uint64_t a, uint64_t b, double hz)
{
	return b > a ? (double)(b - a) / hz : 0.0;
}

static void sys_delta(const struct bb_procstat *a, const struct bb_procstat *b, double hz,
		      struct bb_cpu_delta *d)
{
	double idle = ticks(a->idle, b->idle, hz), iowait = ticks(a->iowait, b->iowait, hz);

	d->sys_user_s = ticks(a->user, b->user, hz) + ticks(a->nice, b->nice, hz);
	d->sys_system_s = ticks(a->system, b->system, hz);
	d->sys_irq_s = ticks(a->irq, b->irq, hz);
	d->sys_softirq_s = ticks(a->softirq, b->softirq, hz);
	d->sys_idle_s = idle;
	d->sys_busy_s = d->sys_user_s + d->sys_system_s + d->sys_irq_s + d->sys_softirq_s +
			ticks(a->steal, b->steal, hz);
	d->sys_total_s = d->sys_busy_s + idle + iowait;
}

void bb_cpu_delta(const struct bb_cpu_snap *a, const struct bb_cpu_snap *b,
		  double ticks_per_s, struct bb_cpu_delta *d)
{
	const struct rusage *r0 = &a->ru, *r1 = &b->ru;

	memset(d, 0, sizeof *d);
	d->wall_s = b->t > a->t ? b->t - a->t : 0;
	d->utime_us = tv_us(&r1->ru_utime) - tv_us(&r0->ru_utime);
	d->stime_us = tv_us(&r1->ru_stime) - tv_us(&r0->ru_stime);
	d->maxrss_kib = r1->ru_maxrss;
	d->minflt = r1->ru_minflt - r0->ru_minflt;
	d->majflt = r1->ru_majflt - r0->ru_majflt;
	d->nvcsw = r1->ru_nvcsw - r0->ru_nvcsw;
	d->nivcsw = r1->ru_nivcsw - r0->ru_nivcsw;
	d->ixrss = r1->ru_ixrss - r0->ru_ixrss;
	d->idrss_isrss = r1->ru_idrss + r1->ru_isrss - r0->ru_idrss - r0->ru_isrss;
	d->sys_ok = a->ps_ok && b->ps_ok && ticks_per_s > 0;
	if (d->sys_ok)
		sys_delta(&a->ps, &b->ps, ticks_per_s, d);
}
