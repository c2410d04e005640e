/* stop.c - the stop flag of stop.h: a sig_atomic_t set by a one-shot
 * handler for SIGINT and SIGTERM. */
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

void bb_stop_install(void)
{
	struct sigaction sa;

	if (stop_signal)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;   /* a second signal ends the program */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int bb_stopped(void)
{
	return stop_signal;
}

void bb_stop_note(int sig)
{
	stop_signal = sig;
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
