/* selftest.c - the `selftest` applet: runs every correctness check the
 * kernel families register (every variant against a plain reference) and
 * exits non-zero if any fails.  Each family adds one row to the table.
 * Its --help is src/applets/selftest/help.txt, then the list of checks. */
#include "core/applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/help.h"
#include "kernels/csum.h"
#include "kernels/mem_check.h"
#include "kernels/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

BB_HELP_TEXT(selftest);

struct selftest_row {
	const char *name;
	const char *desc;
	/* Returns the number of failed checks; logs failures to f, and with
	 * verbose every check, one line each. */
	long (*run)(FILE *f, int verbose);
};

static long stream_selftest(FILE *f, int verbose);

static const struct selftest_row selftests[] = {
	{ "stream", "STREAM kernels of every supported variant against plain C", stream_selftest }, /* the word, not the applet */
	{ "csum", "Internet checksum variants against a byte-at-a-time reference", csum_selftest }, /* the word, not the applet */
	{ "mem", "memory primitive variants: sizes 0..8192, alignments 0..63, guard pages", /* the word, not the applet */
	  mem_selftest },
};

#define NSELFTESTS (sizeof selftests / sizeof selftests[0])

/* Runs kernel k of v on (x, y, z) at length n; returns the array written. */
static double *stream_apply(const struct stream_variant *v, int k, double *x, double *y,
			    double *z, size_t n, int reference)
{
	switch (k) {
	case 0:
		if (reference)
			for (size_t j = 0; j < n; j++)
				z[j] = x[j];
		else
			v->copy(z, x, n);
		return z;
	case 1:
		if (reference)
			for (size_t j = 0; j < n; j++)
				z[j] = 3.0 * x[j];
		else
			v->scale(z, x, 3.0, n);
		return z;
	case 2:
		if (reference)
			for (size_t j = 0; j < n; j++)
				z[j] = x[j] + y[j];
		else
			v->add(z, x, y, n);
		return z;
	default:
		if (reference)
			for (size_t j = 0; j < n; j++)
				z[j] = x[j] + 3.0 * y[j];
		else
			v->triad(z, x, y, 3.0, n);
		return z;
	}
}

static void stream_fill(double *x, double *y, double *z, size_t len)
{
	for (size_t j = 0; j < len; j++) {
		x[j] = (double)j + 0.5;
		y[j] = 2.0 * (double)j - 7.25;
		z[j] = -1.0;
	}
}

/* One variant, one kernel: every length 0..127 at element offsets 0..3,
 * compared bit for bit with the plain loop, guard elements included. */
static long stream_check_kernel(FILE *f, const struct stream_variant *v, int k)
{
	enum { MAXN = 131, LEN = MAXN + 8 };
	static const char *const names[] = { "copy", "scale", "add", "triad" };
	double x[LEN], y[LEN], z[LEN], rz[LEN];
	long failed = 0;

	for (size_t off = 0; off < 4; off++)
		for (size_t n = 0; n <= MAXN - 4; n++) {
			stream_fill(x, y, z, LEN);
			stream_fill(x, y, rz, LEN);
			stream_apply(v, k, x + off, y + off, z + off, n, 0);
			stream_apply(v, k, x + off, y + off, rz + off, n, 1);
			if (memcmp(z, rz, sizeof z) != 0) {
				fprintf(f, "FAIL stream %s %s n=%zu offset=%zu\n", v->name, names[k],
					n, off);
				failed++;
			}
		}
	return failed;
}

/* Every supported STREAM variant must produce exactly what the standard
 * loops produce, at lengths and misalignments around the vector widths. */
static long stream_selftest(FILE *f, int verbose)
{
	long failed = 0;

	for (size_t vi = 0; vi < stream_nvariants; vi++) {
		const struct stream_variant *v = &stream_variants[vi];
		if (!v->supported()) {
			fprintf(f, "stream %s: unsupported on this CPU, not checked\n", v->name);
			continue;
		}
		long fl = 0;
		for (int k = 0; k < 4; k++)
			fl += stream_check_kernel(f, v, k);
		if (verbose || fl)
			fprintf(f, "stream %s: copy, scale, add, triad at lengths 0..127, offsets "
				   "0..3: %s\n", v->name, fl ? "FAILED" : "passed");
		failed += fl;
	}
	return failed;
}

static int selftest_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "only", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL;
	int verbose = 0, opt, matched = 0;
	long failed = 0;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'v': verbose = 1; break;
		case 'o': only = optarg; break;
		case 'h':
			bb_help_print(&bb_help_selftest);
			for (size_t i = 0; i < NSELFTESTS; i++)
				printf("  %-10s %s\n", selftests[i].name, selftests[i].desc);
			exit(0);
		default: bb_cli_bad(opt, argv);
		}
	}
	bb_cli_no_operands(argc, argv);
	for (size_t i = 0; i < NSELFTESTS; i++) {
		if (only && strcmp(only, selftests[i].name) != 0)
			continue;
		matched++;
		long fl = selftests[i].run(stdout, verbose);
		printf("%-10s %s (%ld failed)\n", selftests[i].name, fl ? "FAILED" : "passed", fl);
		failed += fl;
	}
	if (!matched)
		bb_die_value("--only", only, "see 'boardbench selftest --help'");
	printf("selftest: %s\n", failed ? "FAILED" : "all checks passed");
	return failed ? 1 : 0;
}

const struct bb_applet bb_applet_selftest = {
	.name = "selftest",
	.summary = "check every supported kernel variant against a plain reference",
	.main = selftest_main,
};
