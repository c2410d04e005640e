/* fuzz_reader.c - libFuzzer harness for the results reader (src/analysis/
 * reader.c): any bytes as a results file.  It must never crash, hang, leak
 * or touch memory it does not own, and a rejected file must give one line
 * that names the file.  An accepted file also goes through the metric
 * table and the A/B statistics, as `compare` would take it.
 *   make fuzz && build-fuzz/fuzz_reader -max_len=65536 -max_total_time=600 \
 *       -dict=tests/fuzz/results.dict build-fuzz/corpus tests/fuzz/corpus */
#include "analysis/abstats.h"
#include "analysis/metrics.h"
#include "analysis/reader.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NAME "fuzz.json"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each usable metric against the next one, as compare pairs them. */
static void compare_neighbours(const struct bb_metrics *ms)
{
	for (size_t i = 0; i + 1 < ms->n; i++) {
		const struct bb_metric *a = &ms->m[i], *b = &ms->m[i + 1];
		struct bb_ab r;
		if (a->bad || b->bad || bb_ab_compare(a->v, a->n, b->v, b->n, 0.05, &r))
			continue;
		bb_ab_verdict(&r, a->better, 0.05, 0.02);
	}
	for (size_t i = 0; i < ms->n; i++)
		if (!ms->m[i].bad)
			bb_group_spread(ms->m[i].v, ms->m[i].n, 3);   /* as compare does for calib */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bb_rrun run;
	struct bb_metrics ms = { 0 };
	char err[768] = "";

	if (bb_read_buf(NAME, (const char *)data, size, &run, err, sizeof err) == 0) {
		bb_metrics_add_run(&ms, &run);
		compare_neighbours(&ms);
		bb_metrics_free(&ms);
	} else if (strchr(err, '\n') || strncmp(err, NAME ": ", strlen(NAME) + 2) != 0) {
		abort();        /* an error must be one line naming the file */
	}
	bb_rrun_free(&run);
	return 0;
}
