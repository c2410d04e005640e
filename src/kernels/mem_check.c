/* mem_check.c - checks memory primitive variants against plain references
 * (see mem_check.h for what is covered).  Buffers are mappings with a
 * PROT_NONE page on each side; the source is filled with bytes 0..254 and
 * made read-only, so a variant that writes to it faults too.  A fault
 * (caught by core/guard.c) ends the check of that operation with one
 * failure that names the case. */
#include "mem_check.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "core/guard.h"

#define DENSE_MAX_SIZE 256   /* sizes with every destination alignment */
#define START_EVERY 61       /* the buffer-start layout: every 61st size */
#define DST_FILL 0xff        /* never in the source, so any stray copy shows */
#define PAGE_FILL 0xa5

enum layout { AT_ALIGN, AT_END, AT_START };
static const char *const layout_names[] = { "aligned", "ending at a guard page",
					    "starting after a guard page" };
static const char *const page_layout_names[] = { "between guard bytes", "ending at a guard page",
						 "starting after a guard page" };

struct check_bufs {
	struct bb_guarded src, ones, dst;
};

/* One case: where the buffers sit and the arguments.  Page operations
 * keep the source page's layout in sa. */
struct mem_case {
	enum mem_op op;
	enum layout layout;
	size_t n;
	unsigned sa, da;
	int c;
};

/* ---- buffers ---- */

static void fill_random(unsigned char *p, size_t n)
{
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)(x % 255);   /* 0..254: never DST_FILL */
	}
}

static int bufs_open(struct check_bufs *b)
{
	size_t len = MEM_CHECK_MAX_SIZE + 3 * MEM_CHECK_MAX_ALIGN + MEM_PAGE;

	memset(b, 0, sizeof *b);
	if (bb_guarded_map(&b->src, len) || bb_guarded_map(&b->ones, len) ||
	    bb_guarded_map(&b->dst, len))
		return -1;
	fill_random(b->src.lo, (size_t)(b->src.hi - b->src.lo));
	memset(b->ones.lo, 0xff, (size_t)(b->ones.hi - b->ones.lo));
	if (mprotect(b->src.lo, (size_t)(b->src.hi - b->src.lo), PROT_READ) ||
	    mprotect(b->ones.lo, (size_t)(b->ones.hi - b->ones.lo), PROT_READ))
		return -1;
	return 0;
}

static void bufs_close(struct check_bufs *b)
{
	bb_guarded_unmap(&b->src);
	bb_guarded_unmap(&b->ones);
	bb_guarded_unmap(&b->dst);
}

/* Where n bytes at alignment a start in g for a layout. */
static unsigned char *place(const struct bb_guarded *g, enum layout l, size_t n, unsigned a)
{
	switch (l) {
	case AT_END: return g->hi - n;
	case AT_START: return g->lo;
	default: return g->lo + MEM_CHECK_MAX_ALIGN + a;
	}
}

/* A page-aligned page: the second page for AT_ALIGN, so that guard bytes
 * fit on both sides. */
static unsigned char *place_page(const struct bb_guarded *g, enum layout l)
{
	return l == AT_ALIGN ? g->lo + MEM_PAGE : place(g, l, MEM_PAGE, 0);
}

/* ---- reporting ---- */

static void describe(const struct mem_case *k, char *buf, size_t len)
{
	if (k->op == MEM_COPY_PAGE || k->op == MEM_CLEAR_PAGE)
		snprintf(buf, len, "%s, page %s", mem_op_name(k->op), page_layout_names[k->layout]);
	else if (k->layout == AT_ALIGN)
		snprintf(buf, len, "%s n=%zu src+%u dst+%u", mem_op_name(k->op), k->n, k->sa,
			 k->da);
	else
		snprintf(buf, len, "%s n=%zu, buffers %s", mem_op_name(k->op), k->n,
			 layout_names[k->layout]);
}

static void fail(struct mem_check *res, const struct mem_case *k, const char *what)
{
	char where[128];

	res->failures++;
	if (res->first[0])
		return;
	describe(k, where, sizeof where);
	snprintf(res->first, sizeof res->first, "%s: %s", where, what);
}

/* Index of the first byte in p[0..n) that is not b, or n. */
static size_t first_not(const unsigned char *p, size_t n, unsigned char b)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != b)
			return i;
	return n;
}

/* The destination window: MEM_CHECK_GUARD bytes each side where they fit. */
struct window {
	unsigned char *lo, *d, *end, *hi;
};

static struct window window_at(const struct bb_guarded *g, unsigned char *d, size_t n)
{
	struct window w = { d, d, d + n, d + n };
	size_t before = (size_t)(d - g->lo), after = (size_t)(g->hi - (d + n));

	w.lo = d - (before < MEM_CHECK_GUARD ? before : MEM_CHECK_GUARD);
	w.hi = w.end + (after < MEM_CHECK_GUARD ? after : MEM_CHECK_GUARD);
	return w;
}

static void window_fill(const struct window *w, unsigned char b)
{
	memset(w->lo, b, (size_t)(w->hi - w->lo));
}

/* Guard bytes must still hold b; returns 0 or a failure text. */
static const char *guards_intact(const struct window *w, unsigned char b)
{
	if (first_not(w->lo, (size_t)(w->d - w->lo), b) != (size_t)(w->d - w->lo))
		return "wrote a guard byte before the destination";
	if (first_not(w->end, (size_t)(w->hi - w->end), b) != (size_t)(w->hi - w->end))
		return "wrote a guard byte after the destination";
	return NULL;
}

/* ---- one call of each operation, compared with the reference ---- */

static void check_copy(const struct mem_variant *v, const struct check_bufs *b,
		       const struct mem_case *k, struct mem_check *res)
{
	const unsigned char *s = place(&b->src, k->layout, k->n, k->sa);
	struct window w = window_at(&b->dst, place(&b->dst, k->layout, k->n, k->da), k->n);
	const char *why;

	window_fill(&w, DST_FILL);
	if (v->copy(w.d, s, k->n) != w.d)
		fail(res, k, "did not return the destination");
	else if (memcmp(w.d, s, k->n) != 0)
		fail(res, k, "destination differs from the source");
	else if ((why = guards_intact(&w, DST_FILL)) != NULL)
		fail(res, k, why);
	res->checks++;
}

static void check_set(const struct mem_variant *v, const struct check_bufs *b,
		      const struct mem_case *k, struct mem_check *res)
{
	struct window w = window_at(&b->dst, place(&b->dst, k->layout, k->n, k->da), k->n);
	unsigned char c = (unsigned char)k->c, other = (unsigned char)~c;
	const char *why;

	window_fill(&w, other);
	if (v->set(w.d, k->c, k->n) != w.d)
		fail(res, k, "did not return the destination");
	else if (first_not(w.d, k->n, c) != k->n)
		fail(res, k, "a destination byte is not (unsigned char)c");
	else if ((why = guards_intact(&w, other)) != NULL)
		fail(res, k, why);
	res->checks++;
}

static void check_read(const struct mem_variant *v, const struct bb_guarded *g,
		       const struct mem_case *k, struct mem_check *res)
{
	const unsigned char *s = place(g, k->layout, k->n, k->sa);

	if (v->read(s, k->n) != mem_ref_sum(s, k->n))
		fail(res, k, "sum differs from the byte-by-byte sum");
	res->checks++;
}

static void check_page(const struct mem_variant *v, const struct check_bufs *b,
		       const struct mem_case *k, struct mem_check *res)
{
	const unsigned char *s = place_page(&b->src, (enum layout)k->sa);
	struct window w = window_at(&b->dst, place_page(&b->dst, k->layout), MEM_PAGE);
	const char *why;

	window_fill(&w, PAGE_FILL);
	if (k->op == MEM_COPY_PAGE) {
		v->copy_page(w.d, s);
		if (memcmp(w.d, s, MEM_PAGE) != 0)
			fail(res, k, "page differs from the source page");
	} else {
		v->clear_page(w.d);
		if (first_not(w.d, MEM_PAGE, 0) != MEM_PAGE)
			fail(res, k, "page is not all zero");
	}
	if ((why = guards_intact(&w, PAGE_FILL)) != NULL)
		fail(res, k, why);
	res->checks++;
}

/* ---- the x87 stack after a call ---- */

#if defined(__i386__) || defined(__x86_64__)
/* 1 if the x87 register stack is empty, as the ABI wants it between calls.
 * An MMX kernel that ends without emms (or femms) leaves its registers
 * tagged valid, and the x87 code after it (the timing's doubles on a
 * 32-bit build) would overflow the stack.  fnstenv also masks the x87
 * exceptions, so fldenv puts the environment back at once. */
static int x87_stack_empty(void)
{
	unsigned char env[28];   /* fcw, fsw, ftw, ... 4 bytes each */

	__asm__ __volatile__("fnstenv %0\n\tfldenv %0" : "=m"(env) : : "memory");
	return env[8] == 0xff && env[9] == 0xff;   /* every tag "empty" */
}
#else
static int x87_stack_empty(void)
{
	return 1;
}
#endif

/* ---- the schedule ---- */

/* The current case, kept where it outlives a fault that cuts the run short. */
static struct mem_case current;

static void run_case(const struct mem_variant *v, const struct check_bufs *b,
		     const struct mem_case *k, struct mem_check *res)
{
	current = *k;
	switch (k->op) {
	case MEM_MEMCPY: check_copy(v, b, k, res); break;
	case MEM_MEMSET: check_set(v, b, k, res); break;
	case MEM_READ:
		check_read(v, &b->src, k, res);
		if (k->layout == AT_END)   /* all-0xff bytes: the largest sums */
			check_read(v, &b->ones, k, res);
		break;
	default: check_page(v, b, k, res); break;
	}
	if (!x87_stack_empty())
		fail(res, k, "left the MMX/x87 registers in use (no emms or femms)");
}

/* Size n's cases: a scrambled (src, dst) alignment pair (1021 is odd, so
 * every 4096 consecutive sizes meet all 64 x 64 pairs), the buffers' end at
 * the guard page, sometimes their start, and for small sizes every
 * destination alignment. */
static void run_size(const struct mem_variant *v, const struct check_bufs *b, enum mem_op op,
		     size_t n, struct mem_check *res)
{
	unsigned pair = (unsigned)(n * 1021 % (MEM_CHECK_MAX_ALIGN * MEM_CHECK_MAX_ALIGN));
	struct mem_case k = { op, AT_ALIGN, n, pair % MEM_CHECK_MAX_ALIGN,
			      pair / MEM_CHECK_MAX_ALIGN, (int)(n * 37 % 512) - 128 };

	run_case(v, b, &k, res);
	k.layout = AT_END;
	run_case(v, b, &k, res);
	if (n <= 512 || n % START_EVERY == 0) {
		k.layout = AT_START;
		run_case(v, b, &k, res);
	}
	if (n > DENSE_MAX_SIZE)
		return;
	k.layout = AT_ALIGN;
	for (unsigned da = 0; da < MEM_CHECK_MAX_ALIGN; da++) {
		k.da = da;
		k.sa = (da * 37 + (unsigned)n) % MEM_CHECK_MAX_ALIGN;
		k.c = (int)(da * 11 + n) % 384 - 128;
		run_case(v, b, &k, res);
	}
}

static void run_op(const struct mem_variant *v, const struct check_bufs *b, enum mem_op op,
		   struct mem_check *res)
{
	if (op == MEM_COPY_PAGE || op == MEM_CLEAR_PAGE) {
		for (int l = AT_ALIGN; l <= AT_START; l++)
			for (unsigned sl = AT_ALIGN; sl <= AT_START; sl++) {
				struct mem_case k = { op, (enum layout)l, MEM_PAGE, sl, 0, 0 };
				run_case(v, b, &k, res);
			}
		return;
	}
	for (size_t n = 0; n <= MEM_CHECK_MAX_SIZE; n++)
		run_size(v, b, op, n, res);
}

/* One operation's whole schedule, run where a fault is caught. */
struct op_run {
	const struct mem_variant *v;
	const struct check_bufs *b;
	enum mem_op op;
	struct mem_check *res;
};

static void op_run(void *arg)
{
	const struct op_run *r = arg;

	run_op(r->v, r->b, r->op, r->res);
}

long mem_check_op(const struct mem_variant *v, enum mem_op op, struct mem_check *res)
{
	struct check_bufs b;
	struct op_run run = { v, &b, op, res };
	int sig;

	memset(res, 0, sizeof *res);
	if (bufs_open(&b) != 0) {
		bufs_close(&b);
		snprintf(res->first, sizeof res->first, "cannot map the check buffers");
		return -1;
	}
	sig = bb_guard_run(op_run, &run);
	if (sig) {
		fail(res, &current, sig == SIGBUS ? "bus error (SIGBUS)"
			: "fault (SIGSEGV): access outside the buffers, or a write to the source");
		res->checks++;
	}
	bufs_close(&b);
	return res->failures;
}

/* ---- the selftest row ---- */

/* Checks every operation of one supported variant; one line. */
static long selftest_variant(FILE *f, const struct mem_variant *v, int verbose)
{
	char ops[96] = "";
	const char *first = NULL;
	struct mem_check res[MEM_NOPS];
	long failed = 0, checks = 0;

	for (int op = 0; op < MEM_NOPS; op++) {
		if (!mem_variant_has(v, (enum mem_op)op))
			continue;
		long fl = mem_check_op(v, (enum mem_op)op, &res[op]);
		failed += fl < 0 ? 1 : fl;
		checks += res[op].checks;
		if (fl && !first)
			first = res[op].first;
		snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s", ops[0] ? " " : "",
			 mem_op_name((enum mem_op)op));
		if (verbose)
			fprintf(f, "mem %-8s %-10s %s (%ld checks)\n", v->name,
				mem_op_name((enum mem_op)op), fl ? "FAIL" : "pass", res[op].checks);
	}
	if (failed)
		fprintf(f, "mem %-8s FAIL  %ld failed of %ld checks; first: %s\n", v->name, failed,
			checks, first);
	else
		fprintf(f, "mem %-8s pass  %s (%ld checks)\n", v->name, ops, checks);
	return failed;
}

long mem_selftest(FILE *f, int verbose)
{
	long failed = 0;

	for (size_t i = 0; i < mem_nvariants; i++) {
		const struct mem_variant *v = &mem_variants[i];
		if (!v->supported()) {
			fprintf(f, "mem %-8s unsupported on this CPU, not checked\n", v->name);
			continue;
		}
		failed += selftest_variant(f, v, verbose);
	}
	return failed;
}
