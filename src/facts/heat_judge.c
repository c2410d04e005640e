/* heat_judge.c - the pure half of heat.h: from a sample taken when a
 * measurement started and one taken when it ended, whether the machine
 * throttled in between, and a sentence per reason ("cpu0-3 clock fell
 * from 1800 to 1200 MHz").  The rules, and why they are what they are, are
 * at the top of heat.h; nothing here reads a file. */
#include "facts/heat.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct why {
	char *buf;
	size_t len;
	int n;
};

/* Appends one reason, "; " between reasons. */
static void say(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct why *w, const char *fmt, ...)
{
	size_t used = strlen(w->buf);
	va_list ap;

	w->n++;
	if (used + 3 >= w->len)
		return;
	if (used) {
		strcpy(w->buf + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(w->buf + used, w->len - used, fmt, ap);
	va_end(ap);
}

/* "1800" or "1512.5": MHz from kHz. */
static const char *mhz(char *buf, size_t len, long long khz)
{
	if (khz % 1000 == 0)
		snprintf(buf, len, "%lld", khz / 1000);
	else
		snprintf(buf, len, "%.1f", (double)khz / 1000.0);
	return buf;
}

/* "cpu0", "cpu0-3", or "cpus 0-3,6" for a policy's CPUs. */
static const char *cpus_name(char *buf, size_t len, const struct bb_heat_policy *p)
{
	snprintf(buf, len, "%s%s", strchr(p->cpus, ',') ? "cpus " : "cpu", p->cpus);
	return buf;
}

static const struct bb_heat_policy *find_policy(const struct bb_heat_sample *s, int id)
{
	for (int i = 0; i < s->npolicy; i++)
		if (s->policy[i].id == id)
			return &s->policy[i];
	return NULL;
}

/* Governors that hold the clock still whatever the load (powersave is
 * dynamic under the intel_pstate and amd-pstate drivers). */
static int fixed_governor(const struct bb_heat_policy *p)
{
	if (!strcmp(p->governor, "performance") || !strcmp(p->governor, "userspace"))
		return 1;
	return !strcmp(p->governor, "powersave") && !strstr(p->driver, "pstate");
}

/* A policy's limit (scaling_max_freq) fell: thermal cooling or a power
 * cap lowered it, under any governor. */
static void judge_limits(const struct bb_heat_sample *b, const struct bb_heat_sample *a,
			 struct why *w)
{
	char cpus[48], x[24], y[24];

	for (int i = 0; i < a->npolicy; i++) {
		const struct bb_heat_policy *pa = &a->policy[i], *pb = find_policy(b, pa->id);
		if (pb && pb->max_khz > 0 && pa->max_khz > 0 && pa->max_khz < pb->max_khz)
			say(w, "the clock limit of %s fell from %s to %s MHz",
			    cpus_name(cpus, sizeof cpus, pa), mhz(x, sizeof x, pb->max_khz),
			    mhz(y, sizeof y, pa->max_khz));
	}
}

static const struct bb_heat_policy *fastest(const struct bb_heat_sample *s)
{
	const struct bb_heat_policy *best = NULL;

	for (int i = 0; i < s->npolicy; i++)
		if (s->policy[i].cur_khz > 0 && (!best || s->policy[i].cur_khz > best->cur_khz))
			best = &s->policy[i];
	return best;
}

static int all_fixed(const struct bb_heat_sample *s)
{
	for (int i = 0; i < s->npolicy; i++)
		if (!fixed_governor(&s->policy[i]))
			return 0;
	return s->npolicy > 0;
}

/* The highest base frequency a policy names (x86 HWP), or -1. */
static long long base_khz(const struct bb_heat_sample *s)
{
	long long base = -1;

	for (int i = 0; i < s->npolicy; i++)
		if (s->policy[i].base_khz > base)
			base = s->policy[i].base_khz;
	return base;
}

/* Under governors that hold the clock, the fastest policy's clock fell by
 * more than BB_HEAT_FELL_PCT (and below the base frequency, if named). */
static void judge_clock(const struct bb_heat_sample *b, const struct bb_heat_sample *a,
			struct why *w)
{
	const struct bb_heat_policy *pb = fastest(b), *pa = fastest(a);
	long long base = base_khz(a);
	char cb[48], ca[48], x[24], y[24];

	if (!pb || !pa || !all_fixed(b) || !all_fixed(a))
		return;
	if (pa->cur_khz * 100 >= pb->cur_khz * (100 - BB_HEAT_FELL_PCT) ||
	    (base > 0 && pa->cur_khz >= base))
		return;
	mhz(x, sizeof x, pb->cur_khz);
	mhz(y, sizeof y, pa->cur_khz);
	if (pa->id == pb->id)
		say(w, "%s clock fell from %s to %s MHz", cpus_name(ca, sizeof ca, pa), x, y);
	else
		say(w, "the fastest clock fell from %s MHz (%s) to %s MHz (%s)", x,
		    cpus_name(cb, sizeof cb, pb), y, cpus_name(ca, sizeof ca, pa));
}

/* Trip points above which the kernel slows the CPU (or stops it). */
static int throttling_trip(const struct bb_heat_trip *t)
{
	return t->mc > 0 && (!strcmp(t->type, "passive") || !strcmp(t->type, "hot") ||
			     !strcmp(t->type, "critical"));
}

static const struct bb_heat_zone *find_zone(const struct bb_heat_sample *s, int id)
{
	for (int i = 0; i < s->nzone; i++)
		if (s->zone[i].id == id)
			return &s->zone[i];
	return NULL;
}

/* The highest throttling trip point at or below temperature mc, or NULL. */
static const struct bb_heat_trip *trip_reached(const struct bb_heat_zone *z, long long mc)
{
	const struct bb_heat_trip *best = NULL;

	for (int i = 0; i < z->ntrip; i++)
		if (throttling_trip(&z->trip[i]) && mc >= z->trip[i].mc &&
		    (!best || z->trip[i].mc > best->mc))
			best = &z->trip[i];
	return best;
}

static void judge_zone(const struct bb_heat_zone *zb, const struct bb_heat_zone *za,
		       struct why *w)
{
	long long hi = za->mc > zb->mc ? za->mc : zb->mc;
	const struct bb_heat_trip *t = trip_reached(za, hi);
	const char *verb;
	char name[40];

	if (!t)
		return;
	verb = zb->mc < t->mc ? "crossed" : za->mc < t->mc ? "cooled below" : "stayed above";
	if (za->type[0])
		snprintf(name, sizeof name, "%s", za->type);
	else
		snprintf(name, sizeof name, "thermal_zone%d", za->id);
	say(w, "zone %s %s its %s trip point (%.1f C: %.1f -> %.1f C)", name, verb, t->type,
	    (double)t->mc / 1000.0, (double)zb->mc / 1000.0, (double)za->mc / 1000.0);
}

static void judge_zones(const struct bb_heat_sample *b, const struct bb_heat_sample *a,
			struct why *w)
{
	for (int i = 0; i < a->nzone; i++) {
		const struct bb_heat_zone *za = &a->zone[i], *zb = find_zone(b, za->id);
		if (zb && za->has_temp && zb->has_temp)
			judge_zone(zb, za, w);
	}
}

/* A throttle counter of the kernel grew on some CPU (x86). */
static void judge_counter(const long long *b, const long long *a, int ncpu, int package,
			  struct why *w)
{
	long long events = 0;
	int first = -1, more = 0;
	char others[48] = "";

	for (int cpu = 0; cpu < ncpu; cpu++) {
		if (b[cpu] < 0 || a[cpu] <= b[cpu])
			continue;
		if (first < 0) {
			first = cpu;
			events = a[cpu] - b[cpu];
		} else {
			more++;
		}
	}
	if (first < 0)
		return;
	if (more)
		snprintf(others, sizeof others, " (and on %d more CPU%s)", more, more > 1 ? "s" : "");
	say(w, "the kernel counted %lld %sthermal throttle event%s on cpu%d%s", events,
	    package ? "package " : "", events > 1 ? "s" : "", first, others);
}

int bb_heat_throttled(const struct bb_heat_sample *before, const struct bb_heat_sample *after,
		      char *why, size_t len)
{
	struct why w = { why, len, 0 };
	int ncpu = before->ncpu < after->ncpu ? before->ncpu : after->ncpu;

	if (!len)
		return 0;
	why[0] = '\0';
	judge_limits(before, after, &w);
	judge_clock(before, after, &w);
	judge_zones(before, after, &w);
	judge_counter(before->core_throttles, after->core_throttles, ncpu, 0, &w);
	judge_counter(before->pkg_throttles, after->pkg_throttles, ncpu, 1, &w);
	return w.n > 0;
}
