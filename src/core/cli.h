/* cli.h - options every applet shares (--json, --csv, --label, --fact,
 * --help) and the one-line errors for bad options, so all applets fail the
 * same way. */
#ifndef BB_CLI_H
#define BB_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "results.h"

enum {
	BB_OPT_JSON = 0x1000,
	BB_OPT_CSV,
	BB_OPT_LABEL,
	BB_OPT_FACT,
	BB_OPT_FIRST_APPLET = 0x1100,  /* applets number their long-only options from here */
};

#define BB_COMMON_LONGOPTS                                        \
	{ "json", required_argument, NULL, BB_OPT_JSON },         \
	{ "csv", required_argument, NULL, BB_OPT_CSV },           \
	{ "label", required_argument, NULL, BB_OPT_LABEL },       \
	{ "fact", required_argument, NULL, BB_OPT_FACT },         \
	{ "help", no_argument, NULL, 'h' }

struct bb_cli {
	const char *json;
	const char *csv;
	struct bb_kvlist labels;
};

/* Reset getopt so an applet can parse its own argv. */
void bb_cli_begin(void);

/* Handle a common option; returns 1 if opt was one, 0 otherwise. Exits 2
 * on a bad value. */
int bb_cli_common(int opt, const char *arg, struct bb_cli *cli);

/* The --fact NAME=SPEC options given (NAME -> SPEC, in order; SPEC a path
 * or "mmio:ADDR[:WIDTH[:MASK]]", its syntax checked): one list for the
 * process, read by src/facts/userfact.c whenever the system facts are
 * collected, so every run records them as "fact.NAME".  Reset for tests. */
const struct bb_kvlist *bb_cli_facts(void);
void bb_cli_facts_reset(void);

/* Exit 2 with one line for getopt's '?' or ':' result. */
_Noreturn void bb_cli_bad(int opt, char **argv);

/* Exit 2 if non-option arguments remain. */
void bb_cli_no_operands(int argc, char **argv);

/* A size with K/M/G suffixes in [min, max], or exit 2 naming opt. */
uint64_t bb_size_arg(const char *opt, const char *arg, uint64_t min, uint64_t max,
		     const char *expect);

/* An output file given to option opt, checked before anything is measured
 * (core/outfile.h says which files can be written; "-" is stdout): path,
 * or one line and exit 2 (a directory, say) or 1 (a place no file can be
 * made). */
const char *bb_cli_output(const char *opt, const char *path);

/* arg, or exit 2 naming opt when it is empty. */
const char *bb_cli_nonempty(const char *opt, const char *arg, const char *expect);

/* Exit 2: "invalid value 'VAL' for OPT (EXPECT)". */
_Noreturn void bb_die_value(const char *opt, const char *val, const char *expect);

/* Copy labels into the run, write --json/--csv atomically; returns 0, or
 * 1 after printing a one-line error if a file could not be written. */
int bb_cli_finish(struct bb_run *run, struct bb_cli *cli);
void bb_cli_apply_labels(struct bb_run *run, const struct bb_cli *cli);

/* The end of every applet's main: the classic text of each result on
 * stdout, --json/--csv written, a one-line warning for each failed result;
 * frees run and cli.  Returns the exit status: 0, or 1 if a result failed
 * or a file could not be written. */
int bb_cli_report(struct bb_run *run, struct bb_cli *cli);
void bb_cli_free(struct bb_cli *cli);

#endif
