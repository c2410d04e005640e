/* svg.c - line and bar charts as SVG (see svg.h).  A fixed layout: title
 * on top, the plot on the left with its axes, tick labels and axis
 * labels, the legend on the right.  Scales: linear, log2 (sizes, labelled
 * 1K, 4M, ...) and log10 (ticks at 1, 2, 5 of each decade). */
#include "analysis/svg.h"
#include "analysis/toolio.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 960
#define PLOT_X0 90.0
#define PLOT_X1 690.0
#define PLOT_Y0 50.0
#define PLOT_H 330.0
#define LEGEND_ROW 18.0
#define CHAR_W 6.6           /* average width of a 12px sans-serif character */
#define MAX_TICKS 400        /* a bound on any tick loop, whatever the data */

enum scale { LINEAR, LOG2, LOG10 };

struct axis {
	double lo, hi;
	enum scale scale;
};

struct frame {
	double x0, x1, y0, y1;   /* the plot area */
	struct axis ax, ay;
	int width, height;
	double legend_x;
	size_t legend_chars;     /* legend text longer than this is shortened */
	int rotate;              /* bar charts: category labels upright */
};

#define SMALL_WIDTH 470
#define SMALL_X1 300.0
#define MARK_ROWS 6

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
	/* past ten series: the same hues, light and dark */
	"#aec7e8", "#ff9896", "#98df8a", "#ffbb78", "#c5b0d5",
	"#5254a3", "#8c6d31", "#843c39", "#637939", "#7b4173",
};
static const char *const dashes[] = { "", "7 4", "2 3", "9 3 2 3" };

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

const char *bb_svg_colour(int i)
{
	return palette[(unsigned)i % N_OF(palette)];
}

int bb_svg_colours(void)
{
	return (int)N_OF(palette);
}

static const char *dash(int i)
{
	return dashes[(unsigned)i % N_OF(dashes)];
}

/* ---- scales ---- */

static double tr(const struct axis *a, double v)
{
	if (a->scale == LINEAR)
		return (v - a->lo) / (a->hi - a->lo);
	return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
}

static double px(const struct frame *f, double x)
{
	return f->x0 + tr(&f->ax, x) * (f->x1 - f->x0);
}

static double py(const struct frame *f, double y)
{
	return f->y1 - tr(&f->ay, y) * (f->y1 - f->y0);
}

static int usable(const struct axis *a, double v)
{
	return isfinite(v) && (a->scale == LINEAR || v > 0);
}

static double nice_step(double span)
{
	double mag = pow(10, floor(log10(span))), r = span / mag;
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

/* Rounds [lo, hi] (the data's range) out to whole ticks of the scale. */
static void fit_axis(struct axis *a, double lo, double hi, int from_zero)
{
	if (!(lo <= hi)) {
		lo = a->scale == LINEAR ? 0 : 1;
		hi = lo + 1;
	}
	if (a->scale == LOG2) {
		a->lo = exp2(floor(log2(lo)));
		a->hi = exp2(ceil(log2(hi)));
	} else if (a->scale == LOG10) {
		a->lo = pow(10, floor(log10(lo)));
		a->hi = pow(10, ceil(log10(hi)));
	} else {
		double step;
		lo = from_zero && lo > 0 ? 0 : lo;
		hi = hi > lo ? hi + 0.04 * (hi - lo) : lo + 1;
		step = nice_step((hi - lo) / 6);
		a->lo = floor(lo / step) * step;
		a->hi = ceil(hi / step) * step;
	}
	if (!(a->hi > a->lo))
		a->hi = a->scale == LINEAR ? a->lo + 1 : a->lo * 2;
}

static void widen(double *lo, double *hi, const struct axis *a, double v)
{
	if (!usable(a, v))
		return;
	*lo = fmin(*lo, v);
	*hi = fmax(*hi, v);
}

/* How far whiskers may widen the y axis beyond the bars or points: on a
 * linear axis up to this many times the tallest, on a log axis a decade
 * either way.  One slow sample (a 5 ms transaction among 12 us ones) would
 * otherwise flatten every bar. */
#define WHISKER_REACH 3.0

static void fit_y(const struct bb_chart *c, struct axis *a)
{
	double lo = INFINITY, hi = -INFINITY, wlo = INFINITY, whi = -INFINITY;

	for (size_t i = 0; i < c->ns; i++)
		for (size_t j = 0; j < c->s[i].n; j++) {
			widen(&lo, &hi, a, c->s[i].y[j]);
			if (c->s[i].ylo)
				widen(&wlo, &whi, a, c->s[i].ylo[j]);
			if (c->s[i].yhi)
				widen(&wlo, &whi, a, c->s[i].yhi[j]);
		}
	if (lo <= hi && wlo <= whi) {
		double cap_hi = a->scale == LINEAR ? (hi > 0 ? WHISKER_REACH * hi : whi) : 10 * hi;
		double cap_lo = a->scale == LINEAR ? wlo : lo / 10;
		lo = fmin(lo, fmax(wlo, cap_lo));
		hi = fmax(hi, fmin(whi, cap_hi));
	} else if (wlo <= whi) {
		lo = wlo;
		hi = whi;
	}
	fit_axis(a, lo, hi, 1);
}

static void fit_x(const struct bb_chart *c, struct axis *a)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < c->ns; i++)
		for (size_t j = 0; j < c->s[i].n && c->s[i].x; j++)
			widen(&lo, &hi, a, c->s[i].x[j]);
	for (size_t i = 0; i < c->nmarks; i++)
		widen(&lo, &hi, a, c->marks[i].x);
	fit_axis(a, lo, hi, 1);
}

/* ---- text ---- */

static void text(FILE *f, double x, double y, const char *anchor, const char *extra,
		 const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
	bb_xml_text(f, s);
	fputs("</text>\n", f);
}

/* s shortened to at most max characters (UTF-8 counted as bytes), the
 * middle replaced by an ellipsis; into buf. */
static const char *fit_text(char *buf, size_t len, const char *s, size_t max)
{
	size_t n = strlen(s), head;

	if (n <= max || max < 8 || len < max + 4)
		return s;
	head = (max - 1) / 2;
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	size_t tail = n - (max - 1 - head);
	while (tail < n && ((unsigned char)s[tail] & 0xc0) == 0x80)
		tail++;
	snprintf(buf, len, "%.*s\xe2\x80\xa6%s", (int)head, s, s + tail);
	return buf;
}

/* 1K, 4M, 2G for powers of two; plain numbers otherwise. */
static void fmt_size(char *buf, size_t len, double v)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && v >= 1024 && fmod(v, 1024) == 0) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%.6g", v);
	else
		snprintf(buf, len, "%.6g%c", v, units[u]);
}

static size_t longest(const char *const *s, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		m = strlen(s[i]) > m ? strlen(s[i]) : m;
	return m;
}

/* ---- axes ---- */

/* Tick values as people write them: no exponent below 10^12. */
static void fmt_tick(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6 && fabs(v) < 1e12 && v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
}

static void tick_y(FILE *f, const struct frame *fr, double v)
{
	char buf[32];
	double y = py(fr, v);

	fmt_tick(buf, sizeof buf, v);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
		fr->x0, y, fr->x1, y);
	text(f, fr->x0 - 6, y + 4, "end", "", buf);
}

static void ticks_y(FILE *f, const struct frame *fr)
{
	const struct axis *a = &fr->ay;

	if (a->scale == LINEAR) {
		double step = nice_step((a->hi - a->lo) / 6);
		for (int i = 0; i <= MAX_TICKS && a->lo + i * step <= a->hi + step / 2; i++)
			tick_y(f, fr, a->lo + i * step);
		return;
	}
	double d = a->lo, decades = log10(a->hi / a->lo);
	/* 2 and 5 only where 0.3 of a decade leaves room for a label */
	int fine = 0.3 * (fr->y1 - fr->y0) / fmax(decades, 1) >= 16;
	for (int i = 0; i <= MAX_TICKS && d < a->hi * 1.001; i++, d *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
			if (d * m <= a->hi * 1.001 && (m == 1 || fine))
				tick_y(f, fr, d * m);
}

/* The longest y tick label, in characters. */
static size_t ticks_y_chars(const struct axis *a)
{
	size_t w = 1;
	char buf[32];
	double step = a->scale == LINEAR ? nice_step((a->hi - a->lo) / 6) : 0;

	for (int i = 0; i <= MAX_TICKS; i++) {
		double v = a->scale == LINEAR ? a->lo + i * step : a->lo * pow(10, i / 3) *
			   (i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 5);
		if (v > a->hi * 1.001 + step / 2)
			break;
		fmt_tick(buf, sizeof buf, v);
		w = strlen(buf) > w ? strlen(buf) : w;
	}
	return w;
}

static void tick_x(FILE *f, const struct frame *fr, double v, int label)
{
	char buf[32];
	double x = px(fr, v);

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
		x, fr->y0, x, fr->y1);
	if (!label)
		return;
	if (fr->ax.scale == LOG2)
		fmt_size(buf, sizeof buf, v);
	else
		fmt_tick(buf, sizeof buf, v);
	text(f, x, fr->y1 + 19, "middle", "", buf);
}

static void ticks_x(FILE *f, const struct frame *fr)
{
	const struct axis *a = &fr->ax;

	if (a->scale == LOG2) {
		double span = log2(a->hi / a->lo);
		int n = span < MAX_TICKS ? (int)lround(span) : MAX_TICKS;
		int most = (int)fmax(2, (fr->x1 - fr->x0) / 50);
		int every = n > most ? (n + most - 1) / most : 1;
		for (int i = 0; i <= n; i++)
			tick_x(f, fr, a->lo * exp2(i), i % every == 0);
		return;
	}
	double step = nice_step((a->hi - a->lo) / 8);
	for (int i = 0; i <= MAX_TICKS && a->lo + i * step <= a->hi + step / 2; i++)
		tick_x(f, fr, a->lo + i * step, 1);
}

#define CAT_CHARS 40       /* upright category labels are cut to this */

static void categories_x(FILE *f, const struct frame *fr, const struct bb_chart *c)
{
	double gw = (fr->x1 - fr->x0) / (double)c->ncat;

	for (size_t i = 0; i < c->ncat; i++) {
		double x = fr->x0 + gw * ((double)i + 0.5);
		char rot[96], buf[64];
		if (!fr->rotate) {
			text(f, x, fr->y1 + 19, "middle", "", c->categories[i]);
			continue;
		}
		/* upright, so that neighbours never cross */
		snprintf(rot, sizeof rot, " transform=\"rotate(-90 %.1f %.1f)\"", x + 4, fr->y1 + 8);
		text(f, x + 4, fr->y1 + 8, "end", rot,
		     fit_text(buf, sizeof buf, c->categories[i], CAT_CHARS));
	}
}

static void axes(FILE *f, const struct frame *fr, const struct bb_chart *c)
{
	char rot[96];
	double ymid = (fr->y0 + fr->y1) / 2;

	ticks_y(f, fr);
	if (c->ncat)
		categories_x(f, fr, c);
	else
		ticks_x(f, fr);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#444\"/>\n", fr->x0, fr->y0, fr->x1 - fr->x0, fr->y1 - fr->y0);
	snprintf(rot, sizeof rot, " transform=\"rotate(-90 18 %.1f)\" class=\"axis-label\"", ymid);
	text(f, 18, ymid, "middle", rot, c->ylabel);
	text(f, (fr->x0 + fr->x1) / 2, (double)fr->height - 14, "middle", " class=\"axis-label\"",
	     c->xlabel);
}

/* ---- data ---- */

/* Line width of series i of ns: with two or three series, each is drawn
 * wider than those drawn after it, so that one hidden under the next where
 * they coincide (A under B) still shows at its edges. */
static double line_width(size_t i, size_t ns)
{
	return ns >= 2 && ns <= 3 ? 2.0 + 2.0 * (double)(ns - 1 - i) : 2.0;
}

static void line_series(FILE *f, const struct frame *fr, const struct bb_chart_series *s,
			double w)
{
	const char *col = bb_svg_colour(s->colour);

	fprintf(f, "<polyline class=\"series\" data-series=\"");
	bb_xml_text(f, s->name);
	fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" stroke-dasharray=\"%s\" "
		   "points=\"", col, w, dash(s->dash));
	for (size_t j = 0; j < s->n; j++)
		if (usable(&fr->ax, s->x[j]) && usable(&fr->ay, s->y[j]))
			fprintf(f, "%.1f,%.1f ", px(fr, s->x[j]), py(fr, s->y[j]));
	fputs("\"/>\n", f);
	for (size_t j = 0; j < s->n; j++)
		if (usable(&fr->ax, s->x[j]) && usable(&fr->ay, s->y[j]))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\"/>\n",
				px(fr, s->x[j]), py(fr, s->y[j]), 1.5 + w / 2, col);
}

/* An arrowhead at (x, y) pointing up (dir -1) or down (1): a whisker cut
 * at the plot's edge. */
static void arrowhead(FILE *f, double x, double y, int dir)
{
	fprintf(f, "<path class=\"cut\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"#222\"/>\n",
		x, y, x - 4, y - 7 * dir, x + 4, y - 7 * dir);
}

/* A whisker from lo to hi (values), cut to the plot; returns the ends cut. */
static size_t whisker(FILE *f, const struct frame *fr, double x, double lo, double hi)
{
	double ylo = py(fr, fmax(lo, fr->ay.lo)), yhi = py(fr, fmin(hi, fr->ay.hi));
	size_t cut = 0;

	fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#222\" fill=\"none\"/>\n", x, ylo, yhi);
	if (lo < fr->ay.lo) {
		arrowhead(f, x, ylo, 1);
		cut++;
	} else {
		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#222\"/>\n", x - 3, ylo, x + 3);
	}
	if (hi > fr->ay.hi) {
		arrowhead(f, x, yhi, -1);
		cut++;
	} else {
		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#222\"/>\n", x - 3, yhi, x + 3);
	}
	return cut;
}

static size_t bar_series(FILE *f, const struct frame *fr, const struct bb_chart *c, size_t k)
{
	const struct bb_chart_series *s = &c->s[k];
	double gw = (fr->x1 - fr->x0) / (double)c->ncat, bw = gw * 0.8 / (double)c->ns;
	double base = fr->ay.scale == LINEAR ? py(fr, fmax(fr->ay.lo, 0)) : fr->y1;
	size_t cut = 0;

	fprintf(f, "<g class=\"series\" data-series=\"");
	bb_xml_text(f, s->name);
	fprintf(f, "\" fill=\"%s\">\n", bb_svg_colour(s->colour));
	for (size_t j = 0; j < s->n && j < c->ncat; j++) {
		double x = fr->x0 + gw * ((double)j + 0.1) + bw * (double)k;
		if (!usable(&fr->ay, s->y[j]))
			continue;
		double top = py(fr, s->y[j]);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"%s/>\n", x,
			fmin(top, base), bw * 0.92, fabs(base - top),
			s->dash ? " fill-opacity=\"0.6\"" : "");
		if (s->ylo && s->yhi && usable(&fr->ay, s->ylo[j]) && usable(&fr->ay, s->yhi[j]))
			cut += whisker(f, fr, x + bw * 0.46, s->ylo[j], s->yhi[j]);
	}
	fputs("</g>\n", f);
	return cut;
}

/* Marks' labels: each in the first row (from the top) where it meets no
 * label placed before it; one the same text and colour as a label close
 * by is not repeated; no row left: dropped (the line stays). */
static void marks(FILE *f, const struct frame *fr, const struct bb_chart *c)
{
	double (*span)[2] = calloc(c->nmarks + 1, sizeof *span);
	int *row = calloc(c->nmarks + 1, sizeof *row);

	for (size_t i = 0; span && row && i < c->nmarks; i++) {
		const struct bb_chart_mark *m = &c->marks[i];
		if (!usable(&fr->ax, m->x))
			continue;
		double x = px(fr, m->x), w = CHAR_W * (double)strlen(m->label) + 4;
		int left = x + 3 + w > fr->x1, r;
		fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"%s\" stroke-dasharray=\"3 3\"/>\n", x, fr->y0, x, fr->y1,
			bb_svg_colour(m->colour));
		span[i][0] = left ? x - 3 - w : x + 1;
		span[i][1] = left ? x - 1 : x + 3 + w;
		row[i] = -1;
		for (r = 0; r < (int)i; r++)
			if (row[r] >= 0 && strcmp(c->marks[r].label, m->label) == 0 &&
			    fabs(px(fr, c->marks[r].x) - x) < 40)
				break;
		if (r < (int)i)
			continue;            /* the same level close by is labelled */
		for (r = 0; r < MARK_ROWS; r++) {
			size_t j;
			for (j = 0; j < i; j++)
				if (row[j] == r && span[j][0] < span[i][1] && span[i][0] < span[j][1])
					break;
			if (j == i)
				break;
		}
		if (r == MARK_ROWS)
			continue;
		row[i] = r;
		text(f, left ? x - 3 : x + 3, fr->y0 + 13 + 15 * (double)r, left ? "end" : "start",
		     " class=\"mark-label\"", m->label);
	}
	free(span);
	free(row);
}

static void legend(FILE *f, const struct frame *fr, const struct bb_chart *c)
{
	const double LEGEND_X = fr->legend_x;

	fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0; i < c->ns; i++) {
		const struct bb_chart_series *s = &c->s[i];
		double y = PLOT_Y0 + 8 + LEGEND_ROW * (double)i;
		char buf[256];
		if (c->ncat)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"10\" "
				   "fill=\"%s\"%s/>\n", LEGEND_X, y - 9, bb_svg_colour(s->colour),
				s->dash ? " fill-opacity=\"0.6\"" : "");
		else
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n",
				LEGEND_X, y - 4, LEGEND_X + 22, y - 4, bb_svg_colour(s->colour),
				dash(s->dash));
		text(f, LEGEND_X + 28, y, "start", "", fit_text(buf, sizeof buf, s->name,
								 fr->legend_chars));
	}
	fputs("</g>\n", f);
}

/* ---- the chart ---- */

/* Says inside the plot, top right, that whiskers were cut. */
static void cut_note(FILE *f, const struct frame *fr)
{
	static const char note[] = "\xe2\x96\xb2 whisker cut at the axis";
	double w = CHAR_W * 0.92 * 22 + 8;

	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"#fff\" "
		   "fill-opacity=\"0.85\"/>\n", fr->x1 - 4 - w, fr->y0 + 3, w);
	text(f, fr->x1 - 8, fr->y0 + 15, "end", " font-size=\"11\" class=\"cut-note\"", note);
}

/* The medians span more than 10x: a linear axis would flatten the small. */
static int spans_decade(const struct bb_chart *c)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < c->ns; i++)
		for (size_t j = 0; j < c->s[i].n; j++) {
			double v = c->s[i].y[j];
			if (isnan(v))
				continue;
			if (!(v > 0) || !isfinite(v))
				return 0;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	return hi > 10 * lo;
}

static void layout(struct frame *fr, const struct bb_chart *c)
{
	double legend_h = PLOT_Y0 + LEGEND_ROW * (double)c->ns + 20;

	memset(fr, 0, sizeof *fr);
	fr->width = c->small ? SMALL_WIDTH : WIDTH;
	fr->x0 = PLOT_X0;
	fr->x1 = c->small ? SMALL_X1 : PLOT_X1;
	fr->legend_x = fr->x1 + (c->small ? 12 : 25);
	fr->legend_chars = (size_t)(((double)fr->width - fr->legend_x - 30) / CHAR_W);
	fr->y0 = PLOT_Y0;
	fr->y1 = PLOT_Y0 + (c->small ? PLOT_H * 0.6 : PLOT_H);
	fr->ax.scale = c->ncat ? LINEAR : c->logx ? LOG2 : LINEAR;
	fr->ay.scale = c->logy || spans_decade(c) ? LOG10 : LINEAR;
	fit_y(c, &fr->ay);
	/* room for the tick labels left of the plot, the axis label beyond */
	fr->x0 = fmax(c->small ? 60 : PLOT_X0, 34 + CHAR_W * (double)ticks_y_chars(&fr->ay));
	fr->rotate = c->ncat &&
		     (double)longest(c->categories, c->ncat) * CHAR_W > (fr->x1 - fr->x0) / (double)c->ncat;
	fr->height = (int)(fr->y1 + (fr->rotate ? 40 + CHAR_W * (double)fmin(CAT_CHARS,
				longest(c->categories, c->ncat)) : 50));
	if (legend_h > fr->height)
		fr->height = (int)legend_h;
	if (!c->ncat)
		fit_x(c, &fr->ax);
}

size_t bb_svg_chart(FILE *f, const struct bb_chart *c, int standalone)
{
	struct frame fr;
	char title[512];
	size_t cut = 0;

	layout(&fr, c);
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg%s width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n",
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", fr.width, fr.height,
		fr.width, fr.height);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", fr.width, fr.height);
	/* 15px bold is about 8.6px a character */
	text(f, c->small ? 10 : PLOT_X0, 24, "start",
	     c->small ? " font-size=\"13\" font-weight=\"bold\" class=\"title\""
		      : " font-size=\"15\" font-weight=\"bold\" class=\"title\"",
	     fit_text(title, sizeof title, c->title,
		      (size_t)((fr.width - (c->small ? 20 : PLOT_X0 + 10)) / (c->small ? 7.6 : 8.6))));
	axes(f, &fr, c);
	for (size_t i = 0; i < c->ns; i++) {
		if (c->ncat)
			cut += bar_series(f, &fr, c, i);
		else
			line_series(f, &fr, &c->s[i], line_width(i, c->ns));
	}
	if (cut)
		cut_note(f, &fr);
	marks(f, &fr, c);
	legend(f, &fr, c);
	fputs("</svg>\n", f);
	return cut;
}
