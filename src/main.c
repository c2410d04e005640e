/* main.c - boardbench's entry point: the applet table and dispatch by the
 * first argument or by argv[0] (a `stream` symlink acts as `boardbench
 * stream`), as BusyBox does; plus --help, --list and --version. */
#include "applets.h"
#include "core/error.h"
#include "core/hardening.h"
#include "core/outfile.h"
#include "core/version.h"

#include <stdio.h>
#include <string.h>

/* A build may leave applets out (make APPLETS=...: BB_NO_APPLET_name);
 * the linker then drops their code (--gc-sections). */
const struct bb_applet bb_applets[] = {
#ifndef BB_NO_APPLET_run
	{ "run", "run every applet's quick profile; write results/<host>-<labels>-<UTC>.json",
	  run_main, NULL },
#endif
#ifndef BB_NO_APPLET_stream
	{ "stream", "STREAM memory bandwidth: Copy, Scale, Add, Triad (MB = 10^6 bytes)",
	  stream_main, stream_quick },
#endif
#ifndef BB_NO_APPLET_lat
	{ "lat", "memory latency by dependent-load chase; cache levels vs sysfs (ns per load)",
	  lat_main, lat_quick },
#endif
#ifndef BB_NO_APPLET_csum
	{ "csum", "Internet checksum (RFC 1071) variants: the kernel's checksum Bytes/Time/Avg table",
	  csum_main, csum_quick },
#endif
#ifndef BB_NO_APPLET_mem
	{ "mem", "memcpy/memset/copy_page/clear_page variants: the kernel's tot_memcpy table",
	  mem_main, mem_quick },
#endif
#ifndef BB_NO_APPLET_ttcp
	{ "ttcp", "TCP/UDP throughput: classic ttcp lines, iperf2 interoperable (Mbit = 2^20 bits)",
	  ttcp_main, ttcp_quick },
#endif
#ifndef BB_NO_APPLET_rr
	{ "rr", "request/response latency: transactions/s, p50..p99.9 (netperf TCP_RR/UDP_RR)",
	  rr_main, rr_quick },
#endif
#ifndef BB_NO_APPLET_selftest
	{ "selftest", "check every supported kernel variant against a plain reference",
	  selftest_main, NULL },
#endif
#ifndef BB_NO_APPLET_facts
	{ "facts", "what tells this board apart: device tree, SoC revision, CPU, kernel config",
	  facts_main, NULL },
#endif
#ifndef BB_NO_APPLET_compare
	{ "compare", "is B faster than A? per metric: change, interval, p, verdict; what else differed",
	  compare_main, NULL },
#endif
#ifndef BB_NO_APPLET_report
	{ "report", "one self-contained HTML report: inline SVG charts and run metadata",
	  report_main, NULL },
#endif
#ifndef BB_NO_APPLET_history
	{ "history", "a lab's results in SQLite or PostgreSQL: change points, their causes, trends",
	  history_main, NULL },
#endif
	{ NULL, NULL, NULL, NULL },
};

const struct bb_applet *bb_applet_find(const char *name)
{
	for (const struct bb_applet *a = bb_applets; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

static void list_applets(FILE *f)
{
	for (const struct bb_applet *a = bb_applets; a->name; a++)
		fprintf(f, "  %-8s %s\n", a->name, a->summary);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: boardbench <applet> [options]   (or run a symlink named like the applet)\n"
		   "       boardbench --list | --version | --help\n"
		   "       boardbench <applet> --help\n\nApplets:\n");
	list_applets(f);
	fprintf(f, "\nEvery applet accepts --json FILE, --csv FILE, --label KEY=VALUE and\n"
		   "--fact NAME=PATH (a file's content, or NAME=mmio:ADDR a register, recorded)\n"
		   "(FILE '-' is standard output; devices and FIFOs are written in place).\n"
		   "Exit status: 0 ok, 1 measurement or resource failure (a write error on\n"
		   "standard output too), 2 bad usage.  A reader that closes the pipe early\n"
		   "(| head) is not an error: no message, the status is what it would be.\n");
}

/* The hardening line is read from this binary (core/hardening.h). */
static void version(void)
{
	char hardening[128];

	bb_hardening(hardening, sizeof hardening);
	printf("boardbench %s (git %s)\n", BB_VERSION, BB_GIT_REV);
	printf("compiler: %s\n", BB_COMPILER);
	printf("cflags: %s\n", BB_CFLAGS_STR);
	printf("hardening cflags (all but src/kernels, added): %s\n", BB_HARDEN_CFLAGS_STR);
	printf("kernel cflags (src/kernels, added): %s\n", BB_KERNEL_CFLAGS_STR);
	printf("ldflags: %s\n", BB_LDFLAGS_STR);
	printf("hardening: %s\n", hardening);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* --help, --list and --version take nothing after them. */
static void no_operands(int argc, char **argv)
{
	if (argc > 2)
		bb_die_usage("unexpected argument '%s' after '%s'", argv[2], argv[1]);
}

static int dispatch(const struct bb_applet *a, int argc, char **argv)
{
	char prog[64];

	snprintf(prog, sizeof prog, "boardbench %s", a->name);
	bb_set_prog(prog);
	return bb_stdout_finish(a->main(argc, argv));
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? base_name(argv[0]) : "boardbench";
	const struct bb_applet *a = bb_applet_find(self);

	bb_outfile_init();
	if (a)
		return dispatch(a, argc, argv);
	if (argc < 2) {
		usage(stderr);
		return BB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		no_operands(argc, argv);
		usage(stdout);
		return bb_stdout_finish(0);
	}
	if (strcmp(argv[1], "--list") == 0) {
		no_operands(argc, argv);
		list_applets(stdout);
		return bb_stdout_finish(0);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		no_operands(argc, argv);
		version();
		return bb_stdout_finish(0);
	}
	a = bb_applet_find(argv[1]);
	if (!a)
		bb_die_usage("unknown applet '%s' (see 'boardbench --list')", argv[1]);
	return dispatch(a, argc - 1, argv + 1);
}
