/* stop.c - the stop flag of stop.h: a sig_atomic_t set by the handler for
 * SIGINT and SIGTERM.  The first signal asks to stop; the same signal again
 * within BB_STOP_ECHO_NS is that one request delivered twice (`timeout -s
 * INT` signals the child and then its whole process group) and is ignored;
 * any later or other one ends the program at once. */
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How close a repeat must follow the first signal to be its echo. */
#define BB_STOP_ECHO_NS 500000000L

static volatile sig_atomic_t stop_signal;
static struct timespec first_at;   /* written once, by the first handler run */

static void on_stop(int sig)
{
	if (bb_stop_take(sig))
		bb_stop_die(sig);
}

static long long ns_since(const struct timespec *t0)
{
	struct timespec now;

	if (clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return 0;
	return (long long)(now.tv_sec - t0->tv_sec) * 1000000000LL + (now.tv_nsec - t0->tv_nsec);
}

int bb_stop_take(int sig)
{
	if (!stop_signal) {
		clock_gettime(CLOCK_MONOTONIC, &first_at);
		stop_signal = sig;
		return 0;
	}
	return !(sig == stop_signal && ns_since(&first_at) < BB_STOP_ECHO_NS);
}

void bb_stop_die(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);   /* pending until the handler returns, then the default action */
}

void bb_stop_handle(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);          /* one handler at a time: first_at is */
	sigaddset(&sa.sa_mask, SIGINT);    /* written whole before a second runs */
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void bb_stop_install(void)
{
	if (!stop_signal)
		bb_stop_handle(on_stop);
}

int bb_stopped(void)
{
	return stop_signal;
}

const char *bb_stop_name(void)
{
	static char buf[24];

	switch (stop_signal) {
	case 0: return "";
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	default:
		snprintf(buf, sizeof buf, "signal %d", (int)stop_signal);
		return buf;
	}
}
