/* cycles.c - cycle and tick counters; the arch-specific part is one
 * small read function per architecture. */
#include "cycles.h"
#include "parse.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#if defined(__x86_64__) || defined(__i386__)
#define ARCH_NAME "rdtsc"
static inline uint64_t arch_read(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define ARCH_NAME "cntvct_el0"
static inline uint64_t arch_read(void)
{
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
static double arch_hz(void)
{
	uint64_t f;
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
	return (double)f;
}
#define HAVE_ARCH_HZ 1
#elif defined(__powerpc__) || defined(__powerpc64__)
#define ARCH_NAME "mftb"
static inline uint64_t arch_read(void)
{
#if defined(__powerpc64__)
	uint64_t tb;
	__asm__ __volatile__("mftb %0" : "=r"(tb));
	return tb;
#else
	uint32_t hi, lo, hi2;
	do {
		__asm__ __volatile__("mftbu %0" : "=r"(hi));
		__asm__ __volatile__("mftb %0" : "=r"(lo));
		__asm__ __volatile__("mftbu %0" : "=r"(hi2));
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
#endif
}
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH_NAME "rdtime"
static inline uint64_t arch_read(void)
{
	uint64_t t;
	__asm__ __volatile__("rdtime %0" : "=r"(t));
	return t;
}
#endif

const char *bb_cycles_arch_name(void)
{
#ifdef ARCH_NAME
	return ARCH_NAME;
#else
	return NULL;
#endif
}

static int perf_open_cycles(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof attr;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	return (int)fd;
}

static uint64_t perf_read(int fd)
{
	uint64_t v = 0;
	if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return 0;
	return v;
}

uint64_t bb_cycles_read(const struct bb_cycles *c)
{
	switch (c->source) {
	case BB_CYC_PERF:
		return perf_read(c->fd);
#ifdef ARCH_NAME
	case BB_CYC_ARCH:
		return arch_read();
#endif
	default:
		return bb_now_ns();
	}
}

/* Rate of the counter against CLOCK_MONOTONIC over about 20 ms. For perf
 * cycles this is the core clock while busy, as the spin keeps it busy. */
static double measure_hz(const struct bb_cycles *c)
{
	double t0 = bb_now(), t1;
	uint64_t c0 = bb_cycles_read(c), c1;

	do
		t1 = bb_now();
	while (t1 - t0 < 0.02);
	c1 = bb_cycles_read(c);
	return (double)(c1 - c0) / (t1 - t0);
}

#if defined(__powerpc__) || defined(__powerpc64__)
/* /proc/cpuinfo on PowerPC states the time base frequency. */
static double ppc_timebase_hz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double hz = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "timebase", 8) == 0) {
			char *colon = strchr(line, ':');
			if (colon)
				hz = bb_strtod(colon + 1, NULL);
			break;
		}
	fclose(f);
	return hz;
}
#endif

static void set_source(struct bb_cycles *c, enum bb_cycles_source s)
{
	c->source = s;
	c->core_cycles = 0;
	c->fd = -1;
	if (s == BB_CYC_CLOCK) {
		c->name = "clock_gettime";
		c->unit = "ns";
		c->hz = 1e9;
	} else {
		c->name = bb_cycles_arch_name();
		c->unit = "ticks";
	}
}

static int open_arch(struct bb_cycles *c)
{
	if (!bb_cycles_arch_name())
		return -1;
	set_source(c, BB_CYC_ARCH);
#if defined(HAVE_ARCH_HZ)
	c->hz = arch_hz();
#elif defined(__powerpc__) || defined(__powerpc64__)
	c->hz = ppc_timebase_hz();
#else
	c->hz = 0;
#endif
	if (c->hz <= 0)
		c->hz = measure_hz(c);
	return 0;
}

static int open_perf(struct bb_cycles *c)
{
	int fd = perf_open_cycles();

	if (fd < 0)
		return -1;
	c->source = BB_CYC_PERF;
	c->name = "perf-cycles";
	c->unit = "cycles";
	c->core_cycles = 1;
	c->fd = fd;
	/* A counter that opens but never counts (some VMs) is useless. */
	c->hz = measure_hz(c);
	if (c->hz <= 0) {
		close(fd);
		set_source(c, BB_CYC_CLOCK);
		return -1;
	}
	return 0;
}

int bb_cycles_open(struct bb_cycles *c, const char *want)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	if (!want || strcmp(want, "auto") == 0) {
		if (open_perf(c) == 0 || open_arch(c) == 0)
			return 0;
		set_source(c, BB_CYC_CLOCK);
		return 0;
	}
	if (strcmp(want, "perf") == 0)
		return open_perf(c);
	if (strcmp(want, "arch") == 0)
		return open_arch(c);
	if (strcmp(want, "clock") == 0) {
		set_source(c, BB_CYC_CLOCK);
		return 0;
	}
	return -1;
}

void bb_cycles_close(struct bb_cycles *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
