/* applets.h - the applet table: every applet is one row with its entry
 * point and, if it joins the quick suite, its quick profile. */
#ifndef BB_APPLETS_H
#define BB_APPLETS_H

#include "core/results.h"

struct bb_applet {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);
	/* Runs the applet's quick profile into run; NULL if not in the suite. */
	struct bb_result *(*quick)(struct bb_run *run);
};

extern const struct bb_applet bb_applets[];
const struct bb_applet *bb_applet_find(const char *name);

int stream_main(int argc, char **argv);
struct bb_result *stream_quick(struct bb_run *run);
int lat_main(int argc, char **argv);
struct bb_result *lat_quick(struct bb_run *run);

int csum_main(int argc, char **argv);
struct bb_result *csum_quick(struct bb_run *run);

int mem_main(int argc, char **argv);
struct bb_result *mem_quick(struct bb_run *run);

int ttcp_main(int argc, char **argv);
struct bb_result *ttcp_quick(struct bb_run *run);

int rr_main(int argc, char **argv);
struct bb_result *rr_quick(struct bb_run *run);

int run_main(int argc, char **argv);
int selftest_main(int argc, char **argv);
int facts_main(int argc, char **argv);

/* Host side, src/tools/: read results files back (cJSON); a binary built
 * without cJSON keeps them in the table and says so when they are run. */
int compare_main(int argc, char **argv);
int report_main(int argc, char **argv);

/* Host side, src/applets/history/: SQLite and PostgreSQL (docs/history.md). */
int history_main(int argc, char **argv);

#endif
