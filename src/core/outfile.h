/* outfile.h - where every output file goes (--json, --csv, compare --csv,
 * report -o/--csv/--svg), so that writing one never destroys what the
 * user pointed at:
 *   "-" (and /dev/stdout)  standard output; whatever else the program
 *                          prints there goes to standard error instead;
 *   a new or regular file  written whole or not at all: a temporary in the
 *                          same directory, synced, given the old file's mode
 *                          and owner, renamed over it;
 *   a symbolic link        followed, never replaced: its target is written
 *                          by these rules; a link to nothing is refused;
 *   a device or FIFO       written in place (O_WRONLY, never truncated or
 *                          renamed over); a FIFO nobody reads is refused
 *                          rather than waited for;
 *   a directory or socket  refused.
 * Errors are one line of text in err; the caller names the file. */
#ifndef BB_OUTFILE_H
#define BB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct bb_outfile {
	FILE *f;
	char *tmp;      /* the temporary renamed to target on commit, or NULL */
	char *target;   /* the file renamed over (a symlink's target), or NULL */
	int std;        /* f is the claimed standard output */
};

/* Whether path can be an output file, checked when the option is read.
 * Returns 0; 2 (a directory, a socket, "", a name ending in '/', stdout
 * claimed twice) or 1 (an unwritable directory) with one line in err. */
int bb_outfile_check(const char *path, char *err, size_t errlen);

/* Opens path for writing by the rules above.  Returns 0, or -1 with err. */
int bb_outfile_open(struct bb_outfile *o, const char *path, char *err, size_t errlen);

/* Flushes, syncs and closes; renames the temporary into place.  Returns 0,
 * or -1 with err (the temporary removed, a replaced file untouched).  A
 * reader that closed standard output early is not an error. */
int bb_outfile_commit(struct bb_outfile *o, char *err, size_t errlen);

/* Whether the write error e on o is standard output's reader gone (EPIPE):
 * the reader had enough (`| head`), which is not an error. */
int bb_outfile_reader_gone(const struct bb_outfile *o, int e);

/* Closes and removes the temporary: nothing is replaced. */
void bb_outfile_abort(struct bb_outfile *o);

/* The mode a new output file gets: 0666 less the umask, as for any file
 * a program creates (for a file made some other way first, e.g. mkstemp). */
mode_t bb_outfile_new_mode(void);

/* Whether path means standard output ("-", /dev/stdout). */
int bb_outfile_is_stdout(const char *path);

/* Standard output at exit (main): flushed; a write error is one line on
 * stderr and status 1; a closed pipe (the reader had enough: `| head`)
 * is quiet and leaves status as it was.  SIGPIPE is ignored from
 * bb_outfile_init() on, so nothing dies of it. */
void bb_outfile_init(void);
int bb_stdout_finish(int status);

#endif
