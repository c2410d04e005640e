/* stop.h - SIGINT and SIGTERM end a measurement early without losing what
 * finished.  The first signal only sets a flag that applets check between
 * samples and rounds (never inside a timed kernel); they then mark their
 * result interrupted and the run's files are written as usual.  The
 * handler is reset by the first signal, so a second one ends the program
 * at once. */
#ifndef BB_STOP_H
#define BB_STOP_H

/* Catch SIGINT and SIGTERM (once) unless one has already come. */
void bb_stop_install(void);

/* The signal that asked to stop, or 0. */
int bb_stopped(void);

/* Record sig as a request to stop; async-signal-safe (for handlers of
 * applets that catch the signals themselves, such as ttcp). */
void bb_stop_note(int sig);

/* "SIGINT", "SIGTERM", "signal N"; "" when none came. */
const char *bb_stop_name(void);

#endif
