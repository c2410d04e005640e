/* bisect.c - `history bisect-script DB METRIC [--board B] [--runs N]
 * [-o FILE]`: a `git bisect run` script for the newest change point of a
 * series.  At each commit the script builds boardbench there, runs N runs
 * of the suite's applet that holds the metric, and compares them with N
 * runs of the good commit (made once, in a worktree of its own) by
 * `boardbench compare --csv`: the metric's verdict decides.
 *   the change's own verdict (regressed, improved, differs)  exit 1, bad
 *   no significant change, and these runs would have found
 *   a change of half its size; or the opposite verdict       exit 0, good
 *   anything else (within noise, too few samples, no row, a
 *   claim compare finds confounded by other load)             exit 125
 * A build that fails is 125 too (git bisect skips that commit).  The
 * script is POSIX sh; its settings are variables at its top. */
#include "applets/history/history.h"
#include "applets/history/verbs.h"
#include "core/error.h"
#include "core/json.h"
#include "analysis/toolio.h"
#include "analysis/pct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* s single-quoted for sh. */
static void shq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static const char body[] =
	"WORK=${BISECT_WORK:-${TMPDIR:-/tmp}/boardbench-bisect}\n"
	"MAKE=${BISECT_MAKE:-make -s -j2}\n"
	"mkdir -p \"$WORK\" || exit 125\n"
	"\n"
	"# N runs of the applet with the boardbench built from the tree in $1, into $2.\n"
	"measure() {\n"
	"\t$MAKE -C \"$1\" BUILD=\"$WORK/build-$3\" >\"$WORK/make-$3.log\" 2>&1 || return 125\n"
	"\trm -rf \"$2\" && mkdir -p \"$2\" || return 125\n"
	"\t\"$WORK/build-$3/boardbench\" run --only \"$APPLET\" --repeat \"$RUNS\" --outdir \"$2\" \\\n"
	"\t\t>\"$WORK/run-$3.log\" 2>&1 || return 125\n"
	"}\n"
	"\n"
	"# The good side, once: a worktree of the first good commit of this bisect.\n"
	"# BISECT_REF=DIR gives its runs instead; BISECT_CUR=DIR those of this step.\n"
	"REF=${BISECT_REF:-$WORK/ref}\n"
	"if [ -z \"${BISECT_REF:-}\" ] && ! ls \"$REF\"/*.json >/dev/null 2>&1; then\n"
	"\tgood=${GOOD:-$(git for-each-ref --count=1 --format='%(objectname)' 'refs/bisect/good*')}\n"
	"\t[ -n \"$good\" ] || { echo \"no good commit: git bisect good REV first, or GOOD=REV\" >&2; exit 125; }\n"
	"\trm -rf \"$WORK/good\" && git worktree add --detach \"$WORK/good\" \"$good\" >/dev/null 2>&1 || exit 125\n"
	"\tmeasure \"$WORK/good\" \"$REF\" good; rc=$?\n"
	"\tgit worktree remove --force \"$WORK/good\" >/dev/null 2>&1\n"
	"\t[ \"$rc\" -eq 0 ] || exit 125\n"
	"fi\n"
	"CUR=${BISECT_CUR:-$WORK/cur}\n"
	"if [ -z \"${BISECT_CUR:-}\" ]; then\n"
	"\tmeasure \"$(git rev-parse --show-toplevel)\" \"$CUR\" cur || exit 125\n"
	"fi\n"
	"\n"
	"\"$COMPARE\" compare \"$REF\" \"$CUR\" --threshold \"$THRESHOLD\" --csv \"$WORK/compare.csv\" \\\n"
	"\t>\"$WORK/compare.txt\" 2>&1\n"
	"[ -s \"$WORK/compare.csv\" ] || exit 125\n"
	"# the columns by their names in compare's header line\n"
	"row=$(awk -F, -v key=\"$METRIC\" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }\n"
	"\t$col[\"key\"] == key { print $col[\"ratio\"] \",\" $col[\"detectable\"] \",\" $col[\"verdict\"] \",\" \\\n"
	"\t\t(col[\"confounded\"] ? $col[\"confounded\"] : \"\") }' \"$WORK/compare.csv\")\n"
	"[ -n \"$row\" ] || { echo \"compare has no row for $METRIC\" >&2; exit 125; }\n"
	"ratio=${row%%,*}; rest=${row#*,}; detectable=${rest%%,*}; rest=${rest#*,}\n"
	"verdict=${rest%%,*}; confounded=${rest#*,}\n"
	"echo \"$METRIC: $verdict (B/A $ratio, detectable $detectable)${confounded:+, confounded: $confounded}\"\n"
	"# something else used the machine during these runs: they cannot tell\n"
	"[ -z \"$confounded\" ] || [ \"$confounded\" = 0 ] || exit 125\n"
	"case $verdict in\n"
	"\t\"$BAD_VERDICT\") exit 1 ;;\n"
	"\t\"$OPPOSITE_VERDICT\") exit 0 ;;\n"
	"\t\"no significant change\")\n"
	"\t\tawk -v d=\"$detectable\" -v c=\"$CHANGE\" 'BEGIN { exit !(d != \"\" && d + 0 > 0 && d + 0 <= c / 2) }' &&\n"
	"\t\t\texit 0\n"
	"\t\texit 125 ;;\n"
	"esac\n"
	"exit 125\n";

/* The applet of the metric, and what compare says of the change. */
static void write_script(FILE *f, const struct hist_lab *lab, const struct hist_cp *c,
			 const struct hist_opts *o, const char *self)
{
	const struct hist_series *s = &lab->series[c->series];
	const struct hist_metric *m = &lab->metrics[s->metric];
	const char *dir = hist_direction(lab, c);
	double change = fabs(c->cp.ratio - 1);
	double threshold = fmax(0.5, fmin(2.0, change * 100 / 2));
	char pc[BB_PCT_LEN];

	fprintf(f, "#!/bin/sh\n# A `git bisect run` script from boardbench history bisect-script:\n");
	fprintf(f, "#   %s on %s changed %s (%s) at run %zu, first seen %s.\n", m->key,
		lab->boards[s->board], bb_pct(pc, sizeof pc, (c->cp.ratio - 1) * 100, 1), dir,
		hist_cp_run_number(lab, c),
		hist_cp_run(lab, c, 1)->started);
	fprintf(f, "# From the top of the boardbench tree:\n"
		   "#   git bisect start BAD GOOD && git bisect run sh THIS-SCRIPT\n"
		   "# exit 0: good (not the change), 1: bad (the change), 125: the runs cannot tell.\n"
		   "set -u\n");
	fprintf(f, "METRIC=");
	shq(f, m->key);
	fprintf(f, "\nAPPLET=");
	shq(f, o->only ? o->only : m->applet);
	fprintf(f, "\nRUNS=%d\nCOMPARE=${BISECT_COMPARE:-", o->runs);
	shq(f, self);
	fprintf(f, "}\nCHANGE=%.6f   # the size of the change, a fraction\n", change);
	fprintf(f, "THRESHOLD=%.2f%%   # compare's noise threshold: half the change, 0.5%% to 2%%\n",
		threshold);
	fprintf(f, "BAD_VERDICT='%s'\nOPPOSITE_VERDICT='%s'\n",
		!strcmp(dir, "worse") ? "regressed" : !strcmp(dir, "better") ? "improved" : "differs",
		!strcmp(dir, "worse") ? "improved" : !strcmp(dir, "better") ? "regressed" : "-");
	fputs(body, f);
}

/* The path of this binary, for the script's compare. */
static void self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n <= 0)
		snprintf(buf, len, "boardbench");
	else
		buf[n] = '\0';
}

int hist_bisect(struct hdb *db, const struct hist_opts *o)
{
	struct hist_lab lab;
	const struct hist_cp *pick = NULL;
	struct bb_out out;
	char self[4096];
	int rc;

	hist_lab_load(db, o, &lab);
	for (size_t k = 0; k < lab.ncps; k++) {
		const struct hist_cp *c = &lab.cps[k];
		const struct hist_series *s = &lab.series[c->series];
		if (!c->confirmed || strcmp(lab.metrics[s->metric].key, o->metric) ||
		    (o->board && strcmp(lab.boards[s->board], o->board)))
			continue;
		if (!pick || strcmp(hist_cp_run(&lab, c, 1)->started, hist_cp_run(&lab, pick, 1)->started) > 0)
			pick = c;
	}
	if (o->json && (!o->out || bb_outfile_is_stdout(o->out))) {
		hist_lab_free(&lab);
		bb_die_usage("bisect-script --json: give the script a file (-o FILE); the JSON "
			     "describing it goes to standard output");
	}
	if (!pick) {
		hist_lab_free(&lab);
		bb_die_usage("no change point of '%s'%s%s: nothing to bisect ('history changes' lists them)",
			     o->metric, o->board ? " on " : "", o->board ? o->board : "");
	}
	self_path(self, sizeof self);
	if (bb_out_open(&out, o->out ? o->out : "-")) {
		hist_lab_free(&lab);
		return BB_EXIT_FAIL;
	}
	write_script(out.f, &lab, pick, o, self);
	rc = bb_out_close(&out) ? BB_EXIT_FAIL : 0;
	if (!rc && o->json && o->out && !bb_outfile_is_stdout(o->out)) {
		struct bb_json j;
		bb_json_init(&j, stdout, 1);
		bb_json_obj_begin(&j);
		bb_json_kstr(&j, "script", o->out);
		bb_json_key(&j, "change_point");
		hist_cp_json(&j, db, &lab, (size_t)(pick - lab.cps));
		bb_json_obj_end(&j);
		fputc('\n', stdout);
	}
	hist_lab_free(&lab);
	return rc;
}
