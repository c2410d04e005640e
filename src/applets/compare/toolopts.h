/* toolopts.h - the command lines of `compare` and `report`.  Kept apart
 * from the code that reads results so that a binary built without cJSON
 * still answers --help and rejects bad options exactly as a full one. */
#ifndef BB_TOOLS_TOOLOPTS_H
#define BB_TOOLS_TOOLOPTS_H

struct compare_opts {
	double alpha;            /* significance level */
	double threshold;        /* noise threshold, a fraction (0.02) */
	int fail_on_regression;
	int variants;            /* --variants: two variants of the same runs */
	const char *va, *vb;     /* the two variants */
	const char *filter;      /* print only keys containing this */
	const char *only;        /* print only these applets (comma-separated) */
	int all;                 /* print every row, not only claims and headlines */
	const char *by;          /* split one set of runs by this label */
	const char *base;        /* --by: the value that is A */
	const char *csv;         /* every comparison as CSV */
	int mixed_boards;        /* a side may hold runs of several boards */
	char **a, **b;           /* files or directories of each side */
	int na, nb;
	char **args;             /* the argv copy a and b point into (free it) */
};

struct report_opts {
	const char *out;         /* the HTML file */
	const char *svg_dir;     /* each chart alone as SVG */
	const char *csv;         /* every metric as CSV */
	const char *title;
	const char *by;          /* split the runs by this label: A/B first */
	const char *base;        /* --by: the value that is A */
	char **in;               /* files or directories */
	int nin;
	int nin_a;               /* A... -- B...: in[0..nin_a) are A, -1 without */
	char **args;             /* the argv copy in points into (free it) */
};

/* The applets' mains: compare.c and report/report.c, or absent.c in a
 * build without cJSON. */
int compare_main(int argc, char **argv);
int report_main(int argc, char **argv);

/* Parse or exit: 0 after --help, 2 after one line for a bad option. */
void compare_parse(int argc, char **argv, struct compare_opts *o);
void report_parse(int argc, char **argv, struct report_opts *o);   /* report/report_opts.c */

/* What the two command lines share: a copy of argv with the first "--"
 * replaced by a mark getopt keeps among the operands; where that mark is
 * among n operands (-1: none). */
char **tool_mark_sides(int argc, char **argv);
int tool_find_mark(char **ops, int n);

#endif
