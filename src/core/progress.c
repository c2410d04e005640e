/* progress.c - notes and the terminal progress line of progress.h. */
#include "progress.h"
#include "error.h"

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

void bb_progress_line_open(int open)
{
	line_open = open;
	line_broken = 0;
}

int bb_progress_line_was_broken(void)
{
	return line_broken;
}

void bb_note(const char *fmt, ...)
{
	va_list ap;

	bb_progress_clear();
	if (line_open) {
		fputc('\n', stderr);
		line_open = 0;
		line_broken = 1;
	}
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
