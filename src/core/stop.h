/* stop.h - SIGINT and SIGTERM end a measurement early without losing what
 * finished.  The first signal only sets a flag that applets check between
 * samples and rounds (never inside a timed kernel); they then mark their
 * result interrupted and the run's files are written as usual.  The same
 * signal again within half a second is that request delivered twice (as
 * `timeout -s INT` does: to the child, then to its process group) and
 * changes nothing; a later or a different one ends the program at once. */
#ifndef BB_STOP_H
#define BB_STOP_H

/* Catch SIGINT and SIGTERM unless one has already come. */
void bb_stop_install(void);

/* The signal that asked to stop, or 0. */
int bb_stopped(void);

/* Async-signal-safe, for handlers (ours and those of applets that catch
 * the signals themselves, such as ttcp): records sig as the request to
 * stop; returns 1 when sig is a second request, which should end the
 * program (bb_stop_die), 0 when it is the first or its echo. */
int bb_stop_take(int sig);

/* Async-signal-safe: ends the program by sig's default action once the
 * handler returns. */
void bb_stop_die(int sig);

/* Installs handler for SIGINT and SIGTERM, each blocking both while it
 * runs (bb_stop_take's record is then written whole). */
void bb_stop_handle(void (*handler)(int));

/* "SIGINT", "SIGTERM", "signal N"; "" when none came. */
const char *bb_stop_name(void);

#endif
