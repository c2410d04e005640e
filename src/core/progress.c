/* progress.c - notes and the terminal progress line of progress.h. */
#include "progress.h"
#include "error.h"
#include "timer.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int enabled, shown, line_open, line_broken;

void bb_progress_enable(int on)
{
	enabled = on && isatty(2);
}

void bb_progress(const char *fmt, ...)
{
	va_list ap;

	if (!enabled)
		return;
	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	shown = 1;
}

void bb_progress_clear(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = 0;
}

/* A note or warning starts on a line of its own: the open line ends. */
static void break_line(void)
{
	bb_progress_clear();
	if (line_open) {
		fputc('\n', stderr);
		line_open = 0;
		line_broken = 1;
	}
}

void bb_progress_line_open(int open)
{
	line_open = open;
	line_broken = 0;
	bb_error_before(open ? break_line : NULL);
}

int bb_progress_line_was_broken(void)
{
	return line_broken;
}

void bb_note(const char *fmt, ...)
{
	va_list ap;

	break_line();
	fprintf(stderr, "%s: ", bb_prog());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void bb_fmt_bytes(char *out, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (bytes >= 1024.0 && u < 4) {
		bytes /= 1024.0;
		u++;
	}
	if (u == 0 || bytes >= 100.0 || bytes == (double)(long long)bytes)
		snprintf(out, len, "%.0f %s", bytes, unit[u]);
	else
		snprintf(out, len, "%.3g %s", bytes, unit[u]);
}

void bb_fmt_duration(char *out, size_t len, double seconds)
{
	if (seconds < 90)
		snprintf(out, len, "about %.0f s", seconds < 1 ? 1 : seconds);
	else if (seconds < 5400)
		snprintf(out, len, "about %.0f min", seconds / 60);
	else
		snprintf(out, len, "about %.1f h", seconds / 3600);
}

void bb_eta_start_w(struct bb_eta *e, int total, double wtotal, const char *what)
{
	e->t0 = bb_now();
	e->total = total;
	e->done = 0;
	e->wtotal = wtotal;
	e->wdone = 0;
	e->said = 0;
	e->what = what;
}

void bb_eta_start(struct bb_eta *e, int total, const char *what)
{
	bb_eta_start_w(e, total, total, what);
}

void bb_eta_step_w(struct bb_eta *e, double w)
{
	double spent = bb_now() - e->t0, all;
	char took[32], dur[32];

	e->done++;
	e->wdone += w;
	if (e->said || e->done >= e->total || !(e->wdone > 0))
		return;
	all = spent / e->wdone * e->wtotal;
	if (all < BB_NOTE_SECONDS)
		return;
	bb_fmt_duration(took, sizeof took, spent);
	bb_fmt_duration(dur, sizeof dur, all);
	bb_note("%d of %d %s took %s: %s in all", e->done, e->total, e->what, took + 6, dur);
	e->said = 1;
}

void bb_eta_step(struct bb_eta *e)
{
	bb_eta_step_w(e, 1);
}
