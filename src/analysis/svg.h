/* svg.h - charts as SVG text for `report`: line charts (log2 or linear x,
 * log or linear y) and grouped bar charts with whiskers, each with a
 * title, axes labelled with their units, tick labels and a legend.  Plain
 * SVG 1.1 with no scripts, fonts or references to anything outside it, so
 * it can sit inline in HTML or stand alone as a file. */
#ifndef BB_TOOLS_SVG_H
#define BB_TOOLS_SVG_H

#include <stddef.h>
#include <stdio.h>

struct bb_chart_series {
	const char *name;        /* legend text */
	size_t n;
	const double *x;         /* line charts: n x values; bar charts: NULL */
	const double *y;         /* n values (bar charts: one per category, NaN for none) */
	const double *ylo, *yhi; /* whiskers, or NULL */
	int colour;              /* palette index */
	int dash;                /* 0 solid, else a dash pattern (a second run, ...) */
};

struct bb_chart_mark {       /* a labelled vertical line, e.g. a cache level */
	double x;
	const char *label;
	int colour;
};

struct bb_chart {
	const char *title, *xlabel, *ylabel;
	const char *const *categories;   /* bar charts: the groups along x */
	size_t ncat;                     /* 0 for a line chart */
	int logx;                        /* line charts: log2 x axis */
	int logy;                        /* log10 y axis (also chosen when the values
					    span more than 10x) */
	int small;                       /* a half-width panel */
	const struct bb_chart_series *s;
	size_t ns;
	const struct bb_chart_mark *marks;
	size_t nmarks;
};

/* Writes the chart as one <svg> element; standalone adds the XML prolog
 * and namespace a separate .svg file needs.  The y axis is fitted to the
 * bars or points; a whisker reaching far beyond them (more than 3x the
 * tallest bar on a linear axis, a decade on a log one) is cut at the
 * plot's edge and ends in an arrowhead, and the chart says so.  Returns
 * how many whisker ends were cut. */
size_t bb_svg_chart(FILE *f, const struct bb_chart *c, int standalone);

/* The colour of palette index i, as "#rrggbb". */
const char *bb_svg_colour(int i);

/* How many colours there are before they repeat (then with a dash). */
int bb_svg_colours(void);

#endif
