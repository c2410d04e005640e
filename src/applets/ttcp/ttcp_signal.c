/* ttcp_signal.c - SIGINT and SIGTERM for the ttcp applet: the handler
 * notes the signal and stops the session it was given, and
 * ttcp_interrupted() tells the controller (ttcp_ctl.c), the model
 * (ttcp_model.c) and the server whether one came.  It depends on nothing
 * else in the applet, so those files can all use it without calling each
 * other in a circle. */
#include "ttcp_applet.h"
#include "core/stop.h"

#include <signal.h>
#include <string.h>

/* A handler may touch an atomic only if it is lock-free.  gcc says
 * "always" (2) for int on every target but ARM before v6 (armel), where it
 * says "sometimes" (1) because it calls libgcc's __sync routines: on Linux
 * those are the kernel's cmpxchg and barrier helpers, restartable
 * sequences that never take a lock, so a handler may use them.  Anywhere
 * else the handler only notes the signal (volatile sig_atomic_t) and the
 * controller turns it into a stop on its next step, at most a tick later
 * (a connect in progress then runs to its own timeout). */
#if ATOMIC_INT_LOCK_FREE == 2 || \
	(ATOMIC_INT_LOCK_FREE == 1 && defined(__linux__) && defined(__arm__) && defined(__GNUC__))
#define TTCP_HANDLER_STOPS 1
#else
#define TTCP_HANDLER_STOPS 0
#endif

static volatile sig_atomic_t signalled;
static atomic_int *volatile stop_target;   /* the session a signal stops */

/* Async-signal-safe: notes the signal and, where that store is lock-free,
 * stops the session at once, so that loops (and a connect in progress)
 * see it without waiting for the controller. */
static void on_signal(int sig)
{
	if (bb_stop_take(sig))   /* the quick suite stops after this applet too */
		bb_stop_die(sig);
	signalled = sig;
#if TTCP_HANDLER_STOPS
	atomic_int *stop = stop_target;
	int none = 0;
	if (stop)
		atomic_compare_exchange_strong(stop, &none, (int)BB_END_INTERRUPTED);
#endif
}

void ttcp_signals_install(struct ttcp_session *s)
{
	stop_target = &s->stop;
	bb_stop_handle(on_signal);   /* a second ^C ends the program at once */
	signal(SIGPIPE, SIG_IGN);
}

int ttcp_interrupted(void)
{
	return signalled != 0;
}
