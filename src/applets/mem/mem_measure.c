/* mem_measure.c - the measurements of the `mem` applet, each filling one
 * series per (row, variant) of the results model with every sample:
 *
 *   tot    the classic report's method: every length 2..4095, four times; a
 *          sample is the counter (cycles or ticks) per such sweep, over as
 *          many sweeps as make the sample last >= 1 ms; page operations:
 *          counts per 4 KiB page, the same page again and again.
 *   page   copy_page / clear_page per page: hot; cold (pages in random order
 *          over an arena larger than the last-level cache); cold+use (each
 *          page is read right after, as its user would).
 *   sweep  bandwidth against size, 4 points per doubling (or the --sizes
 *          given), in seconds per sample; rates are bytes copied (counted
 *          once) per second.
 *
 * Each row of a table (an operation, a page case, a size) is measured in
 * rounds: every variant that has code for it takes one sample per round,
 * in turn, the first rotating (core/rounds.h), so drift in the clock
 * frequency falls on all of them alike.  The first round warms up and is
 * kept but left out of the statistics.
 *
 * Kernels are called through the table's function pointers, hidden from
 * the optimiser, with an asm memory barrier after each call.  The
 * variants of a row share their buffers, so after the rounds each one is
 * validated (memcmp for copies) on a destination poisoned first: one call
 * more, unmeasured (tot: its last and longest length, which a sample
 * leaves behind; sweep: the size), or one pass more for the page rows.
 */
#include "mem_applet.h"
#include "core/error.h"
#include "core/mathx.h"
#include "core/progress.h"
#include "core/rounds.h"
#include "core/stats.h"
#include "core/stop.h"
#include "core/timer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define POISON 0xa5           /* the destination before a check; never a result */
#define SET_VALUE 0           /* memset fills with 0, the common case */
#define HOT_MIN_PAGES 16
#define HOT_MAX_PAGES (1u << 22)
#define SWEEP_POINTS_PER_DOUBLING 4
#define ARENA_MIN (8u << 20)
#define ARENA_MAX (256u << 20)

/* Keeps the compiler from assuming anything about memory at p. */
static inline void barrier(const void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* ---- buffers ---- */

static unsigned char *map_buffer(size_t bytes, const char *what)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		bb_die("cannot map %zu bytes for %s: %s", bytes, what, strerror(errno));
	return p;
}

/* One line before two buffers of each bytes that need more than
 * BB_NOTE_BYTES in all. */
static void announce_buffers(const char *what, size_t each)
{
	char sz[32], all[32];

	if (2.0 * (double)each <= (double)BB_NOTE_BYTES)
		return;
	bb_fmt_bytes(sz, sizeof sz, (double)each);
	bb_fmt_bytes(all, sizeof all, 2.0 * (double)each);
	bb_note("%s of %s each (%s in all)", what, sz, all);
}

static void fill_pattern(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 1 + (i >> 12));
}

/* Buffers may use at most half of MemAvailable: an explicit size beyond it
 * is an error, a default one shrinks and says so. */
static uint64_t fit_memory(const struct bb_run *run, uint64_t each, int nbuf, int explicit_size,
			   const char *opt)
{
	uint64_t limit = run->sys.mem_available_bytes / 2 / (uint64_t)nbuf;

	if (each > SIZE_MAX / 4)
		bb_die("%s of %llu bytes does not fit this address space", opt,
		       (unsigned long long)each);
	if (!limit || each <= limit)
		return each;
	if (explicit_size)
		bb_die("%d buffers of %s %.1f MiB need more than half of MemAvailable "
		       "(%.1f MiB)", nbuf, opt, each / 1048576.0,
		       run->sys.mem_available_bytes / 1048576.0);
	bb_warn("%s reduced to %.1f MiB to fit half of MemAvailable; caches may not be "
		"fully defeated", opt, limit / 1048576.0);
	return limit / MEM_PAGE * MEM_PAGE;
}

/* ---- samples and their summary ---- */

typedef void (*work_fn)(void *ctx);

static double count_once(const struct bb_run *run, work_fn fn, void *ctx)
{
	uint64_t c0 = bb_cycles_read(&run->cycles);
	fn(ctx);
	return (double)(bb_cycles_read(&run->cycles) - c0);
}

static double seconds_once(work_fn fn, void *ctx)
{
	double t0 = bb_now();
	fn(ctx);
	return bb_now() - t0;
}

static void summarise(struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	struct bb_stats st;

	if (bb_stats_compute(x, n, &st) != 0)
		return;
	bb_kv_num(&s->values, "best", st.min);
	bb_kv_num(&s->values, "avg", st.mean);   /* tot's table: the report's figure */
	bb_kv_num(&s->values, "median", st.median);
	bb_kv_num(&s->values, "cv", st.cv);
}

/* ---- rounds: the variants of one row take their samples in turn ---- */

/* One variant's cell of a row: its series and the pass a sample times. */
struct cell {
	struct bb_series *s;
	work_fn fn;
	void *ctx;
	double per;   /* a sample is the counter over fn, divided by per; 0: seconds */
};

struct row {
	const struct bb_run *run;
	struct cell cell[MEM_MAX_RUN];
	int n;
};

static void row_turn(void *p, int round, int i)
{
	struct row *w = p;
	const struct cell *c = &w->cell[i];

	(void)round;
	if (c->per > 0)
		bb_series_add(c->s, count_once(w->run, c->fn, c->ctx) / c->per);
	else
		bb_series_add(c->s, seconds_once(c->fn, c->ctx));
}

/* One warm-up round (kept, but left out of the statistics), then repeat
 * rounds, the variants alternating; then each series is summarised. */
static int rows_cut;   /* a SIGINT/SIGTERM cut a row short or left rows out */

int mem_measure_cut(void)
{
	return rows_cut;
}

/* Before a row: 0, or 1 when a stop request (core/stop.h) leaves it out. */
static int row_skipped(void)
{
	rows_cut |= bb_stopped() != 0;
	return bb_stopped() != 0;
}

/* Returns 1 when every round ran (a stop request ends them between two). */
static int row_measure(struct row *w, int repeat)
{
	int done = bb_rounds_run(repeat + 1, w->n, row_turn, w);

	rows_cut |= done < repeat + 1;
	for (int i = 0; i < w->n; i++) {
		w->cell[i].s->discard = 1;
		summarise(w->cell[i].s);
	}
	return done == repeat + 1;
}

static struct bb_series *add_series(struct bb_result *r, const struct bb_run *run,
				    const char *name, const struct mem_variant *v, double work)
{
	return bb_result_add_series(r, name, v->name, run->cycles.unit, work, "bytes");
}

static void invalid(struct bb_result *r, const char *what, const struct mem_variant *v,
		    size_t n)
{
	char msg[200];

	snprintf(msg, sizeof msg, "%s variant %s gave a wrong result after measuring (%zu bytes)",
		 what, v->name, n);
	bb_warn("%s", msg);
	bb_result_set_status(r, 0, msg);
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char b)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != b)
			return 0;
	return 1;
}

/* ---- single calls: the sweep's pass, and the check after the rounds ---- */

struct sweep_ctx {
	const struct mem_variant *v;
	enum mem_op op;
	unsigned char *dst;
	const unsigned char *src;
	size_t n, iters;
	uint64_t last;
};

static void sweep_pass(void *p)
{
	struct sweep_ctx *c = p;
	mem_copy_fn copy = c->v->copy;
	mem_set_fn set = c->v->set;
	mem_read_fn read = c->v->read;

	__asm__("" : "+r"(copy), "+r"(set), "+r"(read));
	for (size_t i = 0; i < c->iters; i++) {
		if (c->op == MEM_MEMCPY)
			copy(c->dst, c->src, c->n);
		else if (c->op == MEM_MEMSET)
			set(c->dst, SET_VALUE, c->n);
		else
			c->last = read(c->src, c->n);
		barrier(c->dst);
	}
}

static int sweep_valid(const struct sweep_ctx *c)
{
	switch (c->op) {
	case MEM_MEMCPY: return memcmp(c->dst, c->src, c->n) == 0;
	case MEM_MEMSET: return all_bytes(c->dst, c->n, SET_VALUE);
	default: return c->last == mem_ref_sum(c->src, c->n);
	}
}

/* After the rounds: one call more, unmeasured, on a poisoned destination;
 * tot checks its last length, as its last call of a sample left it. */
static void call_check(struct bb_result *r, const struct mem_variant *v, enum mem_op op,
		       unsigned char *dst, const unsigned char *src, size_t n)
{
	struct sweep_ctx c = { v, op, dst, src, n, 1, 0 };

	memset(dst, POISON, n);
	sweep_pass(&c);
	if (!sweep_valid(&c))
		invalid(r, mem_op_name(op), v, n);
}

/* ---- tot: every length 2..4095, four times ---- */

struct tot_ctx {
	const struct mem_variant *v;
	enum mem_op op;
	unsigned char *dst;
	const unsigned char *src;
	size_t sweeps;   /* whole sweeps per sample */
	uint64_t last;   /* the last read's sum: the reads cannot be dropped */
};

static void tot_pass(void *p)
{
	struct tot_ctx *t = p;
	mem_copy_fn copy = t->v->copy;
	mem_set_fn set = t->v->set;
	mem_read_fn read = t->v->read;

	__asm__("" : "+r"(copy), "+r"(set), "+r"(read));   /* opaque pointers */
	for (size_t k = 0; k < t->sweeps * MEM_TOT_ROUNDS; k++)
		for (size_t n = MEM_TOT_MIN_LEN; n <= MEM_TOT_MAX_LEN; n++) {
			if (t->op == MEM_MEMCPY)
				copy(t->dst, t->src, n);
			else if (t->op == MEM_MEMSET)
				set(t->dst, SET_VALUE, n);
			else
				t->last = read(t->src, n);
			barrier(t->dst);
		}
}

static double tot_bytes(void)
{
	double lo = MEM_TOT_MIN_LEN, hi = MEM_TOT_MAX_LEN;
	return MEM_TOT_ROUNDS * (lo + hi) * (hi - lo + 1) / 2;
}

/* Sweeps per sample: doubled until a sample lasts the minimum sample (on a
 * slow board one sweep already does); the value is counts per sweep. */
static void tot_calibrate(const struct bb_run *run, struct tot_ctx *t)
{
	double min = bb_timer_min_sample(&run->timer);

	for (t->sweeps = 1; t->sweeps < 1024; t->sweeps *= 2)
		if (seconds_once(tot_pass, t) >= min)
			break;
}

/* ---- pages: hot, cold and cold+use ---- */

struct page_ctx {
	const struct mem_variant *v;
	enum mem_op op;
	unsigned char *dst;
	const unsigned char *src;
	const uint32_t *order;   /* page indexes to visit; NULL: page 0 every time */
	size_t npages;           /* pages per sample */
	int use;                 /* read each page after the operation */
};

/* The page's user: a plain word sum, the same code for every variant. */
static uint64_t use_page(const unsigned char *p)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < MEM_PAGE; i += sizeof(size_t)) {
		size_t w;
		memcpy(&w, p + i, sizeof w);
		sum += w;
	}
	return sum;
}

static void page_pass(void *p)
{
	struct page_ctx *c = p;
	mem_copy_page_fn copy = c->v->copy_page;
	mem_clear_page_fn clear = c->v->clear_page;

	__asm__("" : "+r"(copy), "+r"(clear));
	for (size_t i = 0; i < c->npages; i++) {
		size_t off = c->order ? (size_t)c->order[i] * MEM_PAGE : 0;
		if (c->op == MEM_COPY_PAGE)
			copy(c->dst + off, c->src + off);
		else
			clear(c->dst + off);
		barrier(c->dst + off);
		if (c->use) {
			uint64_t u = use_page(c->dst + off);
			__asm__ __volatile__("" : : "r"(u));   /* the use is not optimised away */
		}
	}
}

/* Pages per hot sample: doubled until a pass lasts the minimum sample. */
static size_t hot_pages(const struct bb_run *run, struct page_ctx *c)
{
	double min = bb_timer_min_sample(&run->timer);

	for (c->npages = HOT_MIN_PAGES; c->npages < HOT_MAX_PAGES; c->npages *= 2)
		if (seconds_once(page_pass, c) >= min)
			break;
	return c->npages;
}

static int page_valid(const struct page_ctx *c, size_t bytes)
{
	if (c->op == MEM_COPY_PAGE)
		return memcmp(c->dst, c->src, bytes) == 0;
	return all_bytes(c->dst, bytes, 0);
}

/* After the rounds: one pass more, unmeasured, on a poisoned destination
 * (hot: the one page; cold: the whole arena, bytes long). */
static void page_check(struct bb_result *r, const struct page_ctx *pc, size_t bytes)
{
	struct page_ctx c = *pc;

	if (!c.order)
		c.npages = 1;
	c.use = 0;
	memset(c.dst, POISON, bytes);
	page_pass(&c);
	if (!page_valid(&c, bytes))
		invalid(r, mem_op_name(c.op), c.v, bytes);
}

/* A hot cell: one page pair, again and again, as many pages per sample as
 * last the minimum sample. */
static struct cell hot_cell(const struct bb_run *run, struct bb_result *r, const char *name,
			    struct page_ctx *c)
{
	struct bb_series *s = add_series(r, run, name, c->v, MEM_PAGE);

	c->order = NULL;
	c->use = 0;
	hot_pages(run, c);
	bb_kv_int(&s->values, "pages_per_sample", (long long)c->npages);
	return (struct cell){ s, page_pass, c, (double)c->npages };
}

/* ---- tot ---- */

static void tot_page_row(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
			 const struct mem_plan *p, enum mem_op op, unsigned char *dst,
			 const unsigned char *src)
{
	struct page_ctx c[MEM_MAX_RUN];
	struct row w = { .run = run, .n = 0 };
	char name[32];

	snprintf(name, sizeof name, MEM_TOT_PREFIX "%s", mem_op_name(op));
	for (int i = 0; i < p->nrun; i++) {
		if (!mem_variant_has(p->run[i], op))
			continue;
		c[w.n] = (struct page_ctx){ p->run[i], op, dst, src, NULL, 0, 0 };
		w.cell[w.n] = hot_cell(run, r, name, &c[w.n]);
		w.n++;
	}
	if (!row_measure(&w, o->repeat))
		return;
	for (int i = 0; i < w.n; i++)
		page_check(r, &c[i], MEM_PAGE);
}

/* A tot row: every length 2..4095, as many sweeps per sample as last the
 * minimum sample, found for each variant before the rounds. */
static void tot_row(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		    const struct mem_plan *p, enum mem_op op, unsigned char *dst,
		    const unsigned char *src)
{
	struct tot_ctx t[MEM_MAX_RUN];
	struct row w = { .run = run, .n = 0 };
	char name[32];

	snprintf(name, sizeof name, MEM_TOT_PREFIX "%s", mem_op_name(op));
	for (int i = 0; i < p->nrun; i++) {
		struct tot_ctx *c = &t[w.n];
		if (!mem_variant_has(p->run[i], op))
			continue;
		*c = (struct tot_ctx){ p->run[i], op, dst, src, 1, 0 };
		tot_calibrate(run, c);
		w.cell[w.n] = (struct cell){ add_series(r, run, name, c->v, tot_bytes()), tot_pass, c,
					     (double)c->sweeps };
		bb_kv_int(&w.cell[w.n].s->values, "sweeps_per_sample", (long long)c->sweeps);
		w.n++;
	}
	if (!row_measure(&w, o->repeat))
		return;
	for (int i = 0; i < w.n; i++)
		call_check(r, t[i].v, op, dst, src, MEM_TOT_MAX_LEN);
}

void mem_measure_tot(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		     const struct mem_plan *p)
{
	unsigned char *src = map_buffer(2 * MEM_PAGE, "tot"), *dst = src + MEM_PAGE;

	fill_pattern(src, MEM_PAGE);
	struct bb_eta eta;

	bb_eta_start(&eta, p->nops, "rows");
	for (int k = 0; k < p->nops && !row_skipped(); k++) {
		enum mem_op op = p->ops[k];
		bb_progress("mem: %s", mem_op_name(op));
		if (op == MEM_COPY_PAGE || op == MEM_CLEAR_PAGE)
			tot_page_row(run, r, o, p, op, dst, src);
		else
			tot_row(run, r, o, p, op, dst, src);
		bb_eta_step(&eta);
	}
	bb_progress_clear();
	munmap(src, 2 * MEM_PAGE);
}

/* ---- page ---- */

/* A fixed pseudo-random order of n pages (Fisher-Yates, xorshift). */
static uint32_t *page_order(size_t n)
{
	uint32_t *order = bb_xmalloc(n * sizeof *order);
	uint64_t x = 88172645463325252ull;

	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = (size_t)(x % (i + 1));
		uint32_t tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	return order;
}

/* 4x the last-level cache, within 8..256 MiB, but always at least twice
 * the cache sysfs claims (even when a VM claims a huge one). */
static uint64_t default_arena(const struct bb_run *run)
{
	uint64_t llc = bb_sysinfo_largest_cache(&run->sys), a = 4 * llc;

	if (a < ARENA_MIN)
		a = ARENA_MIN;
	if (a > ARENA_MAX)
		a = ARENA_MAX;
	if (a < 2 * llc)
		a = 2 * llc;
	return (a + MEM_PAGE - 1) / MEM_PAGE * MEM_PAGE;
}

struct arena {
	unsigned char *src, *dst;
	size_t bytes, npages;
	uint32_t *order;
};

/* A cold cell: every page of the arena in random order; use: each page is
 * read right after. */
static struct cell cold_cell(const struct bb_run *run, struct bb_result *r,
			     const struct arena *a, struct page_ctx *c, int use)
{
	char name[40];

	snprintf(name, sizeof name, "%s" MEM_PAGE_SEP "%s", mem_op_name(c->op),
		 use ? "cold+use" : "cold");
	c->order = a->order;
	c->npages = a->npages;
	c->use = use;
	return (struct cell){ add_series(r, run, name, c->v, MEM_PAGE), page_pass, c,
			      (double)a->npages };
}

#define PAGE_CASES 3   /* hot, cold, cold+use */

/* One operation: each variant's series (hot, cold, cold+use, as before
 * the rounds existed), then the rows of the three cases, then every
 * result checked, variant by variant. */
static void page_op(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		    const struct mem_plan *p, const struct arena *a, enum mem_op op,
		    struct bb_eta *eta)
{
	struct page_ctx c[PAGE_CASES][MEM_MAX_RUN];
	struct row w[PAGE_CASES];
	char name[40];
	int n = 0;

	snprintf(name, sizeof name, "%s" MEM_PAGE_SEP "hot", mem_op_name(op));
	for (int i = 0; i < p->nrun; i++) {
		if (!mem_variant_has(p->run[i], op))
			continue;
		for (int k = 0; k < PAGE_CASES; k++)
			c[k][n] = (struct page_ctx){ p->run[i], op, a->dst, a->src, NULL, 0, 0 };
		w[0].cell[n] = hot_cell(run, r, name, &c[0][n]);
		w[1].cell[n] = cold_cell(run, r, a, &c[1][n], 0);
		w[2].cell[n] = cold_cell(run, r, a, &c[2][n], 1);
		n++;
	}
	for (int k = 0; k < PAGE_CASES; k++) {
		w[k].run = run;
		w[k].n = n;
		if (!row_skipped())
			row_measure(&w[k], o->repeat);
		bb_eta_step(eta);
	}
	for (int i = 0; i < n && !rows_cut; i++) {
		page_check(r, &c[0][i], MEM_PAGE);
		page_check(r, &c[1][i], a->bytes);
		page_check(r, &c[2][i], a->bytes);
	}
}

void mem_measure_page(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		      const struct mem_plan *p)
{
	struct arena a;
	struct bb_eta eta;
	uint64_t want = o->arena ? o->arena : default_arena(run);

	a.bytes = (size_t)fit_memory(run, want, 2, o->arena != 0, "--arena");
	a.npages = a.bytes / MEM_PAGE;
	announce_buffers("source and destination arenas", a.bytes);
	a.src = map_buffer(a.bytes, "the source arena");
	a.dst = map_buffer(a.bytes, "the destination arena");
	a.order = page_order(a.npages);
	fill_pattern(a.src, a.bytes);
	bb_kv_int(&r->params, "arena_bytes", (long long)a.bytes);
	bb_kv_int(&r->params, "llc_bytes_sysfs", (long long)bb_sysinfo_largest_cache(&run->sys));
	bb_eta_start(&eta, p->nops * PAGE_CASES, "rows (hot, cold, cold+use)");
	for (int k = 0; k < p->nops && !row_skipped(); k++) {
		bb_progress("mem: %s, arena of %zu MiB", mem_op_name(p->ops[k]), a.bytes >> 20);
		page_op(run, r, o, p, &a, p->ops[k], &eta);
	}
	bb_progress_clear();
	free(a.order);
	munmap(a.src, a.bytes);
	munmap(a.dst, a.bytes);
}

/* ---- sweep ---- */

/* Calls per sample: doubled until a sample lasts the minimum sample. */
static void sweep_calibrate(const struct bb_run *run, struct sweep_ctx *c)
{
	double min = bb_timer_min_sample(&run->timer);

	for (c->iters = 1; c->iters < SIZE_MAX / 4; c->iters *= 2)
		if (seconds_once(sweep_pass, c) >= min)
			break;
}

/* A sweep cell: calls per sample found before the rounds; samples in s. */
static struct cell sweep_cell(const struct bb_run *run, struct bb_result *r,
			      struct sweep_ctx *c)
{
	char name[48];

	sweep_calibrate(run, c);
	snprintf(name, sizeof name, "%s" MEM_SWEEP_SEP "%zu", mem_op_name(c->op), c->n);
	return (struct cell){ bb_result_add_series(r, name, c->v->name, "s",
						   (double)c->n * (double)c->iters, "bytes"),
			      sweep_pass, c, 0 };
}

/* After the rounds: the rates, then the check. */
static void sweep_finish(struct bb_result *r, struct bb_series *s, const struct sweep_ctx *c,
			 int checked)
{
	bb_kv_int(&s->values, "size_bytes", (long long)c->n);
	bb_kv_int(&s->values, "calls_per_sample", (long long)c->iters);
	bb_kv_num(&s->values, "best_GBps", s->work / bb_kv_getnum(&s->values, "best", 1) / 1e9);
	bb_kv_num(&s->values, "median_GBps",
		  s->work / bb_kv_getnum(&s->values, "median", 1) / 1e9);
	if (checked)
		call_check(r, c->v, c->op, c->dst, c->src, c->n);
}

/* One size and operation: the variants that have code for it alternate. */
static void sweep_row(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		      const struct mem_plan *p, struct sweep_ctx *proto)
{
	struct sweep_ctx c[MEM_MAX_RUN];
	struct row w = { .run = run, .n = 0 };

	for (int i = 0; i < p->nrun; i++) {
		if (!mem_variant_has(p->run[i], proto->op))
			continue;
		c[w.n] = *proto;
		c[w.n].v = p->run[i];
		w.cell[w.n] = sweep_cell(run, r, &c[w.n]);
		w.n++;
	}
	int full = row_measure(&w, o->repeat);

	for (int i = 0; i < w.n; i++)
		sweep_finish(r, w.cell[i].s, &c[i], full);
}

/* The k-th size: min * 2^(k/4), in multiples of 16 bytes from 64 up. */
static size_t sweep_size(uint64_t min, int k)
{
	double x = (double)min * bb_exp2((double)k / SWEEP_POINTS_PER_DOUBLING);
	uint64_t n = (uint64_t)llround(x);

	return (size_t)(n >= 64 ? (n + 8) / 16 * 16 : n);
}

/* The k-th point of the sweep: the --sizes list, else the doubling series;
 * 0 past the end of the list. */
static size_t sweep_point(const struct mem_opts *o, int k)
{
	if (!o->nsizes)
		return sweep_size(o->min_size, k);
	return k < o->nsizes ? (size_t)o->sizes[k] : 0;
}

static void record_sizes(struct bb_result *r, const struct mem_opts *o)
{
	char list[MEM_MAX_SIZES * 21] = "";

	for (int i = 0; i < o->nsizes; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%llu", i ? "," : "",
			 (unsigned long long)o->sizes[i]);
	bb_kv_str(&r->params, "sizes", list);
	bb_kv_int(&r->params, "min_size", (long long)o->sizes[0]);
}

static uint64_t default_max(const struct bb_run *run)
{
	uint64_t m = 4 * bb_sysinfo_largest_cache(&run->sys);
	return m > ARENA_MAX ? m : ARENA_MAX;
}

/* The distinct sizes of the sweep up to max. */
static int sweep_count(const struct mem_opts *o, uint64_t max)
{
	size_t prev = 0, n;
	int count = 0;

	for (int k = 0; (n = sweep_point(o, k)) != 0 && n <= max; k++)
		if (n != prev) {
			count++;
			prev = n;
		}
	return count;
}

void mem_measure_sweep(struct bb_run *run, struct bb_result *r, const struct mem_opts *o,
		       const struct mem_plan *p)
{
	uint64_t max = o->nsizes ? o->sizes[o->nsizes - 1]
		     : o->max_size ? o->max_size : default_max(run);
	size_t bytes, prev = 0;
	unsigned char *src, *dst;
	struct bb_eta eta;

	if (o->nsizes)
		max = fit_memory(run, max, 2, 1, "--sizes");
	else
		max = fit_memory(run, max, 2, o->max_size != 0, "--max-size");
	bytes = ((size_t)max + MEM_PAGE - 1) / MEM_PAGE * MEM_PAGE;
	announce_buffers("source and destination buffers", bytes);
	src = map_buffer(bytes, "the source");
	dst = map_buffer(bytes, "the destination");
	fill_pattern(src, bytes);
	if (o->nsizes) {
		record_sizes(r, o);
	} else {
		bb_kv_int(&r->params, "min_size", (long long)o->min_size);
		bb_kv_int(&r->params, "points_per_doubling", SWEEP_POINTS_PER_DOUBLING);
	}
	bb_kv_int(&r->params, "max_size", (long long)max);
	bb_eta_start(&eta, sweep_count(o, max), "sizes");
	for (int k = 0;; k++) {
		size_t n = sweep_point(o, k);
		if (n == 0 || n > max)
			break;
		if (n == prev)
			continue;
		if (row_skipped())
			break;
		prev = n;
		bb_progress("mem: sweep at %zu bytes", n);
		for (int j = 0; j < p->nops; j++) {
			struct sweep_ctx c = { NULL, p->ops[j], dst, src, n, 0, 0 };
			sweep_row(run, r, o, p, &c);
		}
		bb_eta_step(&eta);
	}
	bb_progress_clear();
	munmap(src, bytes);
	munmap(dst, bytes);
}
