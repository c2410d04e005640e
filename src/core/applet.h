/* applet.h - what an applet is to the rest of boardbench: one descriptor,
 * `const struct bb_applet bb_applet_NAME`, defined in the applet's own
 * folder src/applets/NAME/ and listed once in src/applets/applets.def,
 * from which dispatch, --list, APPLETS=, the quick suite, --lava, compare
 * and report find it (docs/DESIGN.md, "The applet contract").
 *
 * A measuring applet fills in the generic main's steps (defaults, parse,
 * before, execute) and bb_applet_main runs them: defaults -> parse ->
 * before -> a results run -> the CPU-speed probe -> execute -> the probe
 * again -> text, --json and --csv.  An applet whose life has another shape
 * (a server, compare, the quick suite itself) gives main instead. */
#ifndef BB_CORE_APPLET_H
#define BB_CORE_APPLET_H

#include "core/cli.h"
#include "core/results.h"

#include <stddef.h>
#include <stdio.h>

/* The headline of an applet: the one figure its classic report quotes.
 * compare heads the applet with the first of keys (fnmatch patterns over
 * metric keys) that its runs have, else with its first metric (its last
 * with last set); run --lava reports the same figure for one run, as a
 * LAVA test case, from the results model in memory (a board's static
 * binary reads no JSON).  Both are defined in the applet's folder, side by
 * side, and test_lava.sh checks that they agree. */
struct bb_headline {
	const char *keys[4];
	int last;
	/* run --lava: writes the test case of a result that went well */
	void (*lava)(FILE *f, const struct bb_result *r);
	/* the test case's name, also for a result that failed */
	void (*lava_name)(char *name, size_t len, const struct bb_result *r);
};

struct bb_applet {
	const char *name;
	const char *summary;            /* its line in --list */
	/* The generic main's steps, over an option struct of opts_size bytes. */
	size_t opts_size;
	void (*defaults)(void *opts);
	void (*parse)(int argc, char **argv, void *opts, struct bb_cli *cli);
	/* After parse, before anything is measured: -1 to go on, or the exit
	 * status when the applet is done already (--list, a server). */
	int (*before)(int argc, char **argv, void *opts, struct bb_cli *cli);
	struct bb_result *(*execute)(struct bb_run *run, void *opts);
	/* Or, for an applet of another shape, its own main. */
	int (*main)(int argc, char **argv);
	/* Its quick profile (run's suite), or NULL when it is not in it. */
	struct bb_result *(*quick)(struct bb_run *run);
	const struct bb_headline *headline;   /* NULL: none (not measured) */
};

/* Every applet of this build, in applets.def's order, then NULL
 * (src/applets/list.c). */
extern const struct bb_applet *const bb_applets[];

const struct bb_applet *bb_applet_find(const char *name);

/* Runs the applet: its main, or the generic one; returns the exit status. */
int bb_applet_main(const struct bb_applet *a, int argc, char **argv);

#endif
