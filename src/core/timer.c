/* timer.c - CLOCK_MONOTONIC readings and STREAM-style granularity check. */
#include "timer.h"
#include "stats.h"

#include <time.h>

#define CHECKTICK_SAMPLES 20
#define OVERHEAD_SAMPLES 101

uint64_t bb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double bb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* STREAM's checktick: wait for the clock to move 20 times, keep the
 * smallest step seen. */
static double checktick(void)
{
	uint64_t minstep = UINT64_MAX;
	uint64_t prev = bb_now_ns();

	for (int i = 0; i < CHECKTICK_SAMPLES; i++) {
		uint64_t t;
		do
			t = bb_now_ns();
		while (t == prev);
		if (t - prev < minstep)
			minstep = t - prev;
		prev = t;
	}
	return (double)minstep * 1e-9;
}

static double read_overhead(void)
{
	double cost[OVERHEAD_SAMPLES];
	struct bb_stats st;

	for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
		uint64_t t0 = bb_now_ns();
		for (int j = 0; j < 99; j++)
			(void)bb_now_ns();
		uint64_t t1 = bb_now_ns();
		cost[i] = (double)(t1 - t0) * 1e-9 / 100.0;
	}
	bb_stats_compute(cost, OVERHEAD_SAMPLES, &st);
	return st.median;
}

void bb_timer_calibrate(struct bb_timer_info *ti)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res) == 0)
		ti->resolution_s = (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
	else
		ti->resolution_s = 0;
	ti->granularity_s = checktick();
	ti->overhead_s = read_overhead();
}

double bb_timer_min_sample(const struct bb_timer_info *ti)
{
	double ticks = 20.0 * ti->granularity_s;
	return ticks > 1e-3 ? ticks : 1e-3;
}
