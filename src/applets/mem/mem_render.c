/* mem_render.c - the `mem` applet's text, rendered from the results model
 * only.  tot and page print the classic report's comparison table, one column
 * per variant (the baseline first) and the improvement against it:
 *
 *                     libc   words  improvement
 *   tot_memcpy      4635754 4360040  5.9%
 *
 * tot prints it twice: the average of the passes (the report's figure:
 * "averaged over 4 test runs"), then the best pass; page prints the best.
 * sweep prints GB/s against size, one column per variant.
 */
#include "mem_applet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MIN 14   /* the classic report's label column */
#define CELL 32
#define MAX_ROWS 16

struct names {
	char buf[512];
	const char *v[MEM_MAX_RUN];
	int n;
};

static const char *param_str(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

/* Splits the comma list in param key into names. */
static void split_param(const struct bb_result *r, const char *key, struct names *out)
{
	out->n = 0;
	snprintf(out->buf, sizeof out->buf, "%s", param_str(r, key));
	for (char *save = NULL, *tok = strtok_r(out->buf, ",", &save); tok && out->n < MEM_MAX_RUN;
	     tok = strtok_r(NULL, ",", &save))
		out->v[out->n++] = tok;
}

/* The rows the plan asked for (params mode and ops), whether or not any
 * variant had code for them: tot_<op>, or <op> hot / cold / cold+use. */
static int row_names(const struct bb_result *r, char rows[][CELL], int max)
{
	static const char *const cases[] = { "hot", "cold", "cold+use" };
	int page = strcmp(param_str(r, "mode"), "page") == 0, n = 0;
	struct names ops;

	split_param(r, "ops", &ops);
	for (int k = 0; k < ops.n; k++) {
		if (!page && n < max)
			snprintf(rows[n++], CELL, MEM_TOT_PREFIX "%s", ops.v[k]);
		for (int c = 0; page && c < 3 && n < max; c++)
			snprintf(rows[n++], CELL, "%s" MEM_PAGE_SEP "%s", ops.v[k], cases[c]);
	}
	return n;
}

static double best(const struct bb_series *s)
{
	return s ? bb_kv_getnum(&s->values, "best", NAN) : NAN;
}

/* A series' value under key ("best" or "avg"); NaN if there is none. */
static double value_of(const struct bb_series *s, const char *key)
{
	return s ? bb_kv_getnum(&s->values, key, NAN) : NAN;
}

static void fmt_count(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, CELL, "n/a");
	else
		snprintf(buf, CELL, v >= 100 ? "%.0f" : "%.1f", v);
}

/* (baseline - variant) / baseline: how much less the variant needs. */
static void fmt_improvement(char *buf, double base, double v)
{
	if (isnan(base) || isnan(v) || base <= 0)
		snprintf(buf, CELL, "  n/a");
	else
		snprintf(buf, CELL, "%5.1f%%", 100.0 * (base - v) / base);
	if (buf[0] != ' ') {   /* wider than the classic report's %5.1f: keep a space */
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = ' ';
	}
}

/* ---- the comparison table (tot, page) ----
 *
 * Two variants: the classic report's layout, an improvement column after the values.
 * More: the values, then a second block with the improvement of each
 * variant under its own column.
 */

struct table {
	const char *key;   /* the value shown: "best" or "avg" */
	char rows[MAX_ROWS][CELL];
	int nrows;
	struct names cols;
	int label_w, w[MEM_MAX_RUN];
};

static double cell_value(const struct bb_result *r, const struct table *t, int i, int j)
{
	return value_of(bb_result_find(r, t->rows[i], t->cols.v[j]), t->key);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void table_widths(const struct bb_result *r, struct table *t)
{
	char cell[CELL];

	t->label_w = LABEL_MIN;
	for (int i = 0; i < t->nrows; i++)
		t->label_w = max_int(t->label_w, (int)strlen(t->rows[i]));
	for (int j = 0; j < t->cols.n; j++) {
		t->w[j] = (int)strlen(t->cols.v[j]);
		for (int i = 0; i < t->nrows; i++) {
			fmt_count(cell, cell_value(r, t, i, j));
			t->w[j] = max_int(t->w[j], (int)strlen(cell));
			fmt_improvement(cell, cell_value(r, t, i, 0), cell_value(r, t, i, j));
			if (j > 0 && t->cols.n > 2)
				t->w[j] = max_int(t->w[j], (int)strlen(cell));
		}
	}
}

static void table_header(FILE *f, const struct table *t)
{
	fprintf(f, "%-*s", t->label_w, "");
	for (int j = 0; j < t->cols.n; j++)
		fprintf(f, " %*s", t->w[j], t->cols.v[j]);
	fputs(t->cols.n == 2 ? "  improvement\n" : "\n", f);
}

static void table_row(FILE *f, const struct bb_result *r, const struct table *t, int i)
{
	char cell[CELL];

	fprintf(f, "%-*s", t->label_w, t->rows[i]);
	for (int j = 0; j < t->cols.n; j++) {
		fmt_count(cell, cell_value(r, t, i, j));
		fprintf(f, " %*s", t->w[j], cell);
	}
	if (t->cols.n == 2) {   /* the classic report's column, right after the values */
		fmt_improvement(cell, cell_value(r, t, i, 0), cell_value(r, t, i, 1));
		fputs(cell, f);
	}
	fputc('\n', f);
}

static void improvement_block(FILE *f, const struct bb_result *r, const struct table *t)
{
	char cell[CELL];

	fprintf(f, "improvement against %s:\n", t->cols.v[0]);
	for (int i = 0; i < t->nrows; i++) {
		fprintf(f, "%-*s %*s", t->label_w, t->rows[i], t->w[0], "");
		for (int j = 1; j < t->cols.n; j++) {
			fmt_improvement(cell, cell_value(r, t, i, 0), cell_value(r, t, i, j));
			fprintf(f, " %*s", t->w[j], cell + strspn(cell, " "));
		}
		fputc('\n', f);
	}
}

static int has_gaps(const struct bb_result *r, const struct table *t)
{
	for (int i = 0; i < t->nrows; i++)
		for (int j = 0; j < t->cols.n; j++)
			if (!bb_result_find(r, t->rows[i], t->cols.v[j]))
				return 1;
	return 0;
}

/* One table of the value under key; 1 if a variant lacks a row. */
static int render_table(FILE *f, const struct bb_result *r, const char *key)
{
	struct table t;

	t.key = key;
	t.nrows = row_names(r, t.rows, MAX_ROWS);
	split_param(r, "variants", &t.cols);
	table_widths(r, &t);
	table_header(f, &t);
	for (int i = 0; i < t.nrows; i++)
		table_row(f, r, &t, i);
	if (t.cols.n > 2)
		improvement_block(f, r, &t);
	return has_gaps(r, &t);
}

/* tot: the report's table (the average of the passes), then the best. */
static void render_tables(FILE *f, const struct bb_result *r, int tot)
{
	double passes = bb_kv_getnum(&r->params, "repeat", 0);
	int gaps;

	if (tot) {
		fprintf(f, "tot, the average of %.0f passes (as the report printed it):\n", passes);
		render_table(f, r, "avg");
		fprintf(f, "tot, the best of the %.0f passes:\n", passes);
	}
	gaps = render_table(f, r, "best");
	if (gaps)
		fprintf(f, "n/a: the variant has no code for that operation.\n");
}

static void render_counter_note(FILE *f, const struct bb_result *r, const char *taken)
{
	int core = (int)bb_kv_getnum(&r->params, "counter_core_cycles", 0);
	const char *base = param_str(r, "baseline");

	fprintf(f, "counts: %s %s at %.3g GHz (%s);\n", param_str(r, "counter"),
		param_str(r, "counter_unit"), bb_kv_getnum(&r->params, "counter_hz", 0) * 1e-9,
		core ? "core cycles" : "a constant-rate counter, not core cycles");
	fprintf(f, "%s %.0f samples after a warm-up; improvement = (%s - variant) / %s.\n",
		taken, bb_kv_getnum(&r->params, "repeat", 0), base, base);
}

/* Where the counter is not core cycles: bytes per counter tick and per
 * ESTIMATED core cycle (the dependent-add chain, core/calib.h), each row
 * of the table, each variant. */
static void render_rates(FILE *f, const struct bb_result *r)
{
	char rows[MAX_ROWS][CELL], cell[CELL];
	int nrows = row_names(r, rows, MAX_ROWS);
	double est = bb_kv_getnum(&r->params, "est_core_hz", 0);
	struct names cols;

	if (bb_kv_getnum(&r->params, "counter_core_cycles", 0) || !(est > 0))
		return;
	split_param(r, "variants", &cols);
	fprintf(f, "bytes per %s %s / per ESTIMATED core cycle (%.0f MHz: the fastest\n"
		   "dependent-add chain timed around the runs; assumes one add per cycle):\n",
		param_str(r, "counter"),
		strcmp(param_str(r, "counter_unit"), "ticks") == 0 ? "tick" : param_str(r, "counter_unit"),
		est * 1e-6);
	fprintf(f, "%-*s", LABEL_MIN, "");
	for (int j = 0; j < cols.n; j++)
		fprintf(f, " %13s", cols.v[j]);
	fputc('\n', f);
	for (int i = 0; i < nrows; i++) {
		fprintf(f, "%-*s", LABEL_MIN, rows[i]);
		for (int j = 0; j < cols.n; j++) {
			const struct bb_series *s = bb_result_find(r, rows[i], cols.v[j]);
			double est_rate = s ? bb_kv_getnum(&s->values, "bytes_per_est_cycle", 0) : 0;
			if (est_rate > 0)
				snprintf(cell, sizeof cell, "%.2f/%.2f",
					 s->work / bb_kv_getnum(&s->values, "best", 1), est_rate);
			else
				snprintf(cell, sizeof cell, "n/a");
			fprintf(f, " %13s", cell);
		}
		fputc('\n', f);
	}
}

static void render_tot_notes(FILE *f, const struct bb_result *r)
{
	fprintf(f, "tot_<op>: the total for one sweep of every length %d..%d, %d times;\n"
		   "memset writes 0.  tot_copy_page, tot_clear_page: per 4 KiB page, the\n"
		   "same page again and again.  A pass is one such sample; the tables give\n"
		   "the average of the passes (the report's figure) and the best.\n",
		MEM_TOT_MIN_LEN, MEM_TOT_MAX_LEN, MEM_TOT_ROUNDS);
	render_counter_note(f, r, "average and best of");
}

static void render_page_notes(FILE *f, const struct bb_result *r)
{
	double arena = bb_kv_getnum(&r->params, "arena_bytes", 0) / 1048576.0;
	double llc = bb_kv_getnum(&r->params, "llc_bytes_sysfs", 0) / 1048576.0;

	fprintf(f, "per 4 KiB page.  hot: the same page again and again; cold: every page\n"
		   "of a %.0f MiB arena in random order (sysfs claims a %.1f MiB last-level\n"
		   "cache); cold+use: each page is then read (a word sum), as its user would.\n",
		arena, llc);
	render_counter_note(f, r, "best of");
}

/* ---- sweep ---- */

static void fmt_size(char *buf, size_t n)
{
	if (n < 1024)
		snprintf(buf, CELL, "%zu B", n);
	else if (n < (1u << 20))
		snprintf(buf, CELL, n % 1024 ? "%.2f KiB" : "%.0f KiB", n / 1024.0);
	else
		snprintf(buf, CELL, n % (1u << 20) ? "%.2f MiB" : "%.0f MiB", n / 1048576.0);
}

static const char *counted(const char *op)
{
	if (strcmp(op, "memcpy") == 0)
		return "each byte copied is counted once";
	if (strcmp(op, "memset") == 0)
		return "each byte written is counted once";
	return "each byte read is counted once";
}

static int sweep_width(const char *variant)
{
	int n = (int)strlen(variant);
	return n > 9 ? n : 9;
}

static int is_op_series(const struct bb_series *s, const char *op)
{
	size_t oplen = strlen(op);
	return strncmp(s->name, op, oplen) == 0 && s->name[oplen] == ':';
}

/* The variants that have code for op: the columns of its table. */
static void op_columns(const struct bb_result *r, const char *op, const struct names *all,
		       struct names *cols)
{
	cols->n = 0;
	for (int j = 0; j < all->n; j++)
		for (size_t i = 0; i < r->n; i++)
			if (is_op_series(r->series[i], op) &&
			    strcmp(r->series[i]->variant, all->v[j]) == 0) {
				cols->v[cols->n++] = all->v[j];
				break;
			}
}

static void sweep_row(FILE *f, const struct bb_result *r, const struct names *cols,
		      const char *name, size_t n, const char *key)
{
	char size[CELL];

	fmt_size(size, n);
	fprintf(f, "%12s", size);
	for (int j = 0; j < cols->n; j++) {
		const struct bb_series *s = bb_result_find(r, name, cols->v[j]);
		if (s)
			fprintf(f, " %*.2f", sweep_width(cols->v[j]),
				bb_kv_getnum(&s->values, key, NAN));
		else
			fprintf(f, " %*s", sweep_width(cols->v[j]), "n/a");
	}
	fputc('\n', f);
}

/* Rows are the sizes in measured order (a size's series are adjacent);
 * key: the value shown. */
static void sweep_table(FILE *f, const struct bb_result *r, const char *op,
			const struct names *cols, const char *key)
{
	const char *last = "";

	fprintf(f, "%12s", "size");
	for (int j = 0; j < cols->n; j++)
		fprintf(f, " %*s", sweep_width(cols->v[j]), cols->v[j]);
	fputc('\n', f);
	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		if (!is_op_series(s, op) || strcmp(s->name, last) == 0)
			continue;
		last = s->name;
		sweep_row(f, r, cols, s->name, (size_t)bb_kv_getnum(&s->values, "size_bytes", 0), key);
	}
}

static void render_sweep_op(FILE *f, const struct bb_result *r, const char *op,
			    const struct names *all)
{
	double est = bb_kv_getnum(&r->params, "est_core_hz", 0);
	struct names cols;

	op_columns(r, op, all, &cols);
	fprintf(f, "%s bandwidth in GB/s, best of %.0f samples after a warm-up\n(GB = 10^9 bytes;"
		   " %s)\n", op, bb_kv_getnum(&r->params, "repeat", 0), counted(op));
	if (cols.n == 0) {
		fprintf(f, "(no variant in the plan has code for %s)\n", op);
		return;
	}
	sweep_table(f, r, op, &cols, "best_GBps");
	if (!bb_kv_getnum(&r->params, "counter_core_cycles", 0) && est > 0) {
		fprintf(f, "%s bytes per ESTIMATED core cycle (%.0f MHz: the fastest dependent-add\n"
			   "chain timed around the runs; assumes one add per cycle)\n", op, est * 1e-6);
		sweep_table(f, r, op, &cols, "bytes_per_est_cycle");
	}
}

static void render_sweep(FILE *f, const struct bb_result *r)
{
	struct names cols, ops;

	split_param(r, "variants", &cols);
	split_param(r, "ops", &ops);
	for (int k = 0; k < ops.n; k++)
		render_sweep_op(f, r, ops.v[k], &cols);
}

/* How the samples were taken, when there was anything to alternate. */
static void render_rounds_note(FILE *f, const struct bb_result *r)
{
	struct names cols;

	split_param(r, "variants", &cols);
	if (cols.n > 1 && strcmp(param_str(r, "rounds"), "alternating") == 0)
		fprintf(f, "rounds: variants alternate round by round (ABAB..., the first "
			   "rotating)\n");
}

void mem_render(FILE *f, const struct bb_result *r)
{
	const char *mode = param_str(r, "mode");
	const char *unsup = param_str(r, "unsupported");

	if (strcmp(mode, "sweep") == 0) {
		render_sweep(f, r);
	} else {
		render_tables(f, r, strcmp(mode, "tot") == 0);
		if (strcmp(mode, "page") == 0)
			render_page_notes(f, r);
		else
			render_tot_notes(f, r);
		render_rates(f, r);
	}
	render_rounds_note(f, r);
	if (unsup[0])
		fprintf(f, "unsupported on this CPU (not run): %s\n", unsup);
	fprintf(f, "validation: %s\n", r->ok ? "every result checked after measuring (memcmp "
		"for copies)" : r->message);
}

/* ---- the quick suite's line ---- */

void mem_summary(FILE *f, const struct bb_result *r)
{
	struct names cols;
	const char *row = MEM_TOT_PREFIX "memcpy";
	const struct bb_series *base, *fast = NULL;

	split_param(r, "variants", &cols);
	base = cols.n ? bb_result_find(r, row, cols.v[0]) : NULL;
	if (!base) {
		fprintf(f, "mem      no tot_memcpy result\n");
		return;
	}
	for (int j = 1; j < cols.n; j++) {
		const struct bb_series *s = bb_result_find(r, row, cols.v[j]);
		if (s && (!fast || best(s) < best(fast)))
			fast = s;
	}
	fprintf(f, "mem      tot_memcpy %s %.0f %s", base->variant, best(base), base->unit);
	if (fast && best(fast) < best(base))
		fprintf(f, "; fastest %s %.0f (%.1f%% less)", fast->variant, best(fast),
			100.0 * (best(base) - best(fast)) / best(base));
	else if (fast)           /* the baseline (libc) is the fastest itself */
		fprintf(f, ", the fastest; next %s %.0f (%.1f%% more)", fast->variant, best(fast),
			100.0 * (best(fast) - best(base)) / best(base));
	fprintf(f, " [%s] %s\n", param_str(r, "counter"),
		r->ok ? "validated" : "FAILED VALIDATION");
}
