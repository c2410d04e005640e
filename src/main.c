/* main.c - boardbench's entry point: dispatch over the applet table
 * (src/applets/list.c, from the one list applets.def) by the first
 * argument or by argv[0] (a `stream` symlink acts as `boardbench stream`),
 * as BusyBox does; plus --help, --list and --version. */
#include "core/applet.h"
#include "core/error.h"
#include "core/hardening.h"
#include "core/outfile.h"
#include "core/version.h"
#include "facts/install.h"

#include <stdio.h>
#include <string.h>

static void list_applets(FILE *f)
{
	for (size_t i = 0; bb_applets[i]; i++)
		fprintf(f, "  %-8s %s\n", bb_applets[i]->name, bb_applets[i]->summary);
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
	return bb_stdout_finish(bb_applet_main(a, argc, argv));
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? base_name(argv[0]) : "boardbench";
	const struct bb_applet *a = bb_applet_find(self);

	bb_outfile_init();
	bb_facts_install();
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
