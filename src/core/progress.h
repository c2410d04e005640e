/* progress.h - what a user waiting on a long step sees on stderr: one
 * line before a step that needs much memory or time (how much, about how
 * long), and on a terminal a one-line progress redrawn in place. */
#ifndef BB_PROGRESS_H
#define BB_PROGRESS_H

#include <stddef.h>

/* Steps above these get a line saying what they need first. */
#define BB_NOTE_BYTES (256ull << 20)
#define BB_NOTE_SECONDS 10.0

/* Draw progress (only when on and stderr is a terminal); off by default,
 * so the quick suite's own progress line is left alone. */
void bb_progress_enable(int on);

/* Redraw the progress line (printf format); nothing when not enabled. */
void bb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Erase the progress line, if one is shown. */
void bb_progress_clear(void);

/* Whether the caller left a line on stderr without its newline (the quick
 * suite's "[1/5] stream ..."): a note then starts on a new line. */
void bb_progress_line_open(int open);
int bb_progress_line_was_broken(void);

/* One line on stderr, "boardbench APPLET: ...", always. */
void bb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A measurement of total steps of roughly equal cost: once the steps done
 * so far project BB_NOTE_SECONDS or more in all, one note says about how
 * long ("mem: 2 of 24 rows took 3 s: about 36 s in all"), once. */
struct bb_eta {
	double t0, wtotal, wdone;   /* weights: the steps' expected costs */
	int total, done, said;
	const char *what;   /* "rows" */
};
void bb_eta_start(struct bb_eta *e, int total, const char *what);
void bb_eta_step(struct bb_eta *e);
/* The same for steps of unequal cost: their weights sum to wtotal. */
void bb_eta_start_w(struct bb_eta *e, int total, double wtotal, const char *what);
void bb_eta_step_w(struct bb_eta *e, double w);

/* "512 MiB", "3.1 GiB", "1 KiB": binary units, never an exponent. */
void bb_fmt_bytes(char *out, size_t len, double bytes);

/* "about 25 s", "about 3 min". */
void bb_fmt_duration(char *out, size_t len, double seconds);

#endif
