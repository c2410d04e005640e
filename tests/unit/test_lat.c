/* test_lat.c - unit tests for the `lat` applet's parts that unit tests can
 * reach: the chain builder and the chase (src/kernels/lat_chase.c) - one
 * cycle over every element, pages visited whole and in shuffled order,
 * the same chain for the same seed - and the plateau finder
 * (src/core/plateau.c) on synthetic latency curves: sharp and smooth
 * levels, noise and outliers, a drifting level, ramps and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/plateau.h"
#include "kernels/lat_chase.h"

/* ---- the chain ---- */

struct chain_fixture {
	struct lat_chain c;
	size_t *scratch;
	void **start;
};

static void build(struct chain_fixture *f, size_t bytes, size_t stride, size_t page,
		  enum lat_order order, uint64_t seed)
{
	f->c.buf = malloc(bytes);
	assert_non_null(f->c.buf);
	memset(f->c.buf, 0, bytes);
	f->c.bytes = bytes;
	f->c.stride = stride;
	f->c.page = page;
	f->c.order = order;
	f->c.seed = seed;
	f->scratch = malloc((lat_chain_scratch_len(&f->c) + 1) * sizeof *f->scratch);
	assert_non_null(f->scratch);
	f->start = lat_chain_build(&f->c, f->scratch);
	assert_non_null(f->start);
}

static void release(struct chain_fixture *f)
{
	free(f->c.buf);
	free(f->scratch);
}

static size_t index_of(const struct chain_fixture *f, void **p)
{
	size_t off = (size_t)((char *)p - (char *)f->c.buf);

	assert_true(off < f->c.bytes);
	assert_int_equal(off % f->c.stride, 0);
	return off / f->c.stride;
}

/* Walks the chain once around; checks it visits every element exactly once
 * and returns to the start.  Returns the number of times the walk moves to
 * another page. */
static size_t walk_cycle(const struct chain_fixture *f)
{
	size_t n = f->c.bytes / f->c.stride, per_page = f->c.page / f->c.stride;
	unsigned char *seen = calloc(n, 1);
	void **p = f->start;
	size_t moves = 0;

	assert_non_null(seen);
	for (size_t i = 0; i < n; i++) {
		size_t e = index_of(f, p);
		assert_int_equal(seen[e], 0);
		seen[e] = 1;
		void **next = (void **)*p;
		if (index_of(f, next) / per_page != e / per_page)
			moves++;
		p = next;
	}
	assert_ptr_equal(p, f->start);
	free(seen);
	return moves;
}

static size_t npages(const struct chain_fixture *f)
{
	size_t n = f->c.bytes / f->c.stride, per_page = f->c.page / f->c.stride;
	return (n + per_page - 1) / per_page;
}

static void test_random_is_one_cycle(void **state)
{
	static const size_t sizes[] = { 128, 1024, 4096, 4096 + 64, 65536, 1000 * 64, 1 << 20 };
	struct chain_fixture f;

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		build(&f, sizes[i], 64, 4096, LAT_ORDER_RANDOM, 42 + i);
		walk_cycle(&f);
		release(&f);
	}
}

/* Lines of one page are visited one after another: over the whole cycle
 * the walk changes page exactly once per page (none when there is one). */
static void test_random_keeps_pages_together(void **state)
{
	static const size_t sizes[] = { 8192, 4096 * 7 + 192, 1 << 20 };
	struct chain_fixture f;

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		build(&f, sizes[i], 64, 4096, LAT_ORDER_RANDOM, 7);
		assert_int_equal(walk_cycle(&f), npages(&f));
		release(&f);
	}
	build(&f, 2048, 64, 4096, LAT_ORDER_RANDOM, 7);
	assert_int_equal(walk_cycle(&f), 0);
	release(&f);
}

/* The order is shuffled: pages are not visited in address order, and the
 * lines in a page are not either. */
static void test_random_is_shuffled(void **state)
{
	struct chain_fixture f;
	size_t ascending_lines = 0, ascending_pages = 0, n;
	void **p;

	(void)state;
	build(&f, 1 << 20, 64, 4096, LAT_ORDER_RANDOM, 3);
	n = f.c.bytes / f.c.stride;
	p = f.start;
	for (size_t i = 0; i < n; i++) {
		size_t a = index_of(&f, p), b = index_of(&f, (void **)*p);
		if (a / 64 == b / 64)
			ascending_lines += b == a + 1;
		else
			ascending_pages += b / 64 == a / 64 + 1;
		p = (void **)*p;
	}
	assert_true(ascending_lines < n / 8);
	assert_true(ascending_pages < npages(&f) / 8);
	release(&f);
}

static void test_same_seed_same_chain(void **state)
{
	struct chain_fixture a, b, c;

	(void)state;
	build(&a, 65536, 64, 4096, LAT_ORDER_RANDOM, 99);
	build(&b, 65536, 64, 4096, LAT_ORDER_RANDOM, 99);
	build(&c, 65536, 64, 4096, LAT_ORDER_RANDOM, 100);
	assert_int_equal(index_of(&a, a.start), index_of(&b, b.start));
	for (size_t i = 0; i < 65536 / 64; i++) {
		void **pa = (void **)((char *)a.c.buf + i * 64);
		void **pb = (void **)((char *)b.c.buf + i * 64);
		assert_int_equal(index_of(&a, (void **)*pa), index_of(&b, (void **)*pb));
	}
	size_t differ = 0;
	for (size_t i = 0; i < 65536 / 64; i++) {
		void **pa = (void **)((char *)a.c.buf + i * 64);
		void **pc = (void **)((char *)c.c.buf + i * 64);
		differ += index_of(&a, (void **)*pa) != index_of(&c, (void **)*pc);
	}
	assert_true(differ > 0);
	release(&a);
	release(&b);
	release(&c);
}

static void test_sequential_and_strides(void **state)
{
	struct chain_fixture f;

	(void)state;
	build(&f, 4096, 128, 4096, LAT_ORDER_SEQUENTIAL, 0);
	void **p = f.start;
	for (size_t i = 0; i < 4096 / 128; i++) {
		assert_int_equal(index_of(&f, p), i);
		p = (void **)*p;
	}
	assert_ptr_equal(p, f.start);
	release(&f);
	build(&f, 3 * 4096, sizeof(void *), 4096, LAT_ORDER_RANDOM, 5);
	assert_int_equal(walk_cycle(&f), 3);
	release(&f);
}

static void test_bad_geometry(void **state)
{
	char buf[256];
	size_t scratch[64];
	struct lat_chain c = { buf, sizeof buf, 64, 4096, LAT_ORDER_RANDOM, 1 };

	(void)state;
	c.bytes = 64;                      /* one element is no chain */
	assert_null(lat_chain_build(&c, scratch));
	c.bytes = sizeof buf;
	c.stride = sizeof(void *) + 1;     /* not a multiple of a pointer */
	assert_null(lat_chain_build(&c, scratch));
	c.stride = 64;
	c.page = 96;                       /* page not a multiple of the stride */
	assert_null(lat_chain_build(&c, scratch));
	assert_int_equal(lat_chain_scratch_len(&c), 0);
}

/* n * LAT_CHASE_UNROLL loads around a cycle of n elements end where they
 * started, and one unit is LAT_CHASE_UNROLL hops. */
static void test_chase_follows_chain(void **state)
{
	struct chain_fixture f;
	size_t n;

	(void)state;
	build(&f, 8192, 64, 4096, LAT_ORDER_RANDOM, 11);
	n = f.c.bytes / f.c.stride;
	assert_ptr_equal(lat_chase(f.start, n), f.start);
	assert_ptr_equal(lat_chase(f.start, 0), f.start);
	void **p = f.start;
	for (size_t i = 0; i < LAT_CHASE_UNROLL; i++)
		p = (void **)*p;
	assert_ptr_equal(lat_chase(f.start, 1), p);
	lat_chase_sink(p);
	release(&f);
}

/* ---- the plateau finder ---- */

#define PPD 4
#define NPTS (18 * PPD + 1)        /* 1 KiB .. 256 MiB */

static double size_at(size_t i)
{
	return 1024.0 * pow(2.0, (double)i / PPD);
}

static size_t index_at(double bytes)
{
	return (size_t)lround(log2(bytes / 1024.0) * PPD);
}

/* A hierarchy whose level k holds caps[k] bytes at lat[k] ns, with the
 * share of a working set W that hits level k or better = min(1, caps/W)^4:
 * a rise past each capacity about as smooth as this VM's L2 shows. */
static double model(double w, const double *caps, const double *lat, size_t nlev)
{
	double y = 0, covered = 0;

	for (size_t k = 0; k < nlev; k++) {
		double h = k + 1 == nlev ? 1.0 : pow(fmin(1.0, caps[k] / w), 4);
		y += lat[k] * (h - covered);
		covered = h;
	}
	return y;
}

/* Deterministic noise in [-amp, +amp]. */
static double noise(uint64_t *state, double amp)
{
	return amp * (2.0 * (double)(lat_rand_next(state) >> 11) / 9007199254740992.0 - 1.0);
}

static size_t find(const double *y, size_t n, struct bb_plateau *p, size_t max)
{
	struct bb_plateau_opts o;

	bb_plateau_defaults(&o, PPD);
	return bb_plateaus_find(y, n, &o, p, max);
}

static const double caps4[] = { 32768, 1048576, 8388608, 0 };
static const double lat4[] = { 1.4, 3.3, 9.0, 80.0 };

static void check_four_levels(const double *y, size_t tolerance)
{
	struct bb_plateau p[8];
	size_t n = find(y, NPTS, p, 8);

	assert_int_equal(n, 4);
	for (size_t k = 0; k < 3; k++) {
		size_t want = index_at(caps4[k]);
		assert_true(p[k].last + tolerance >= want && p[k].last <= want + tolerance);
		assert_true(fabs(p[k].level / lat4[k] - 1) < 0.15);
	}
	assert_true(fabs(p[3].level / lat4[3] - 1) < 0.15);
	assert_int_equal(p[3].last, NPTS - 1);
	assert_true(p[3].reaches_end);
	assert_false(p[2].reaches_end);
	assert_int_equal(p[0].first, 0);
	for (size_t k = 1; k < 4; k++)
		assert_true(p[k].first > p[k - 1].last);
}

static void test_plateaus_sharp_steps(void **state)
{
	double y[NPTS];

	(void)state;
	for (size_t i = 0; i < NPTS; i++) {
		double w = size_at(i);
		y[i] = w <= caps4[0] ? lat4[0] : w <= caps4[1] ? lat4[1] : w <= caps4[2] ? lat4[2]
										    : lat4[3];
	}
	check_four_levels(y, 0);
}

static void test_plateaus_smooth_noisy(void **state)
{
	double y[NPTS];
	uint64_t rng = 1234;

	(void)state;
	for (int seed = 0; seed < 20; seed++) {
		for (size_t i = 0; i < NPTS; i++)
			y[i] = model(size_at(i), caps4, lat4, 4) * (1 + noise(&rng, 0.04));
		check_four_levels(y, 1);
	}
}

/* Single wild points (a preempted sample that got through) do not split
 * a level or end it early. */
static void test_plateaus_outliers(void **state)
{
	double y[NPTS];

	(void)state;
	for (size_t i = 0; i < NPTS; i++)
		y[i] = model(size_at(i), caps4, lat4, 4);
	y[5] *= 4;
	y[index_at(262144)] *= 3;
	y[index_at(65536 * 1024.0)] *= 2.5;
	check_four_levels(y, 1);
}

/* A level whose latency creeps up 1.35x over two doublings (a smaller
 * cache still holding part of the working set) stays one level. */
static void test_plateaus_drift(void **state)
{
	double y[NPTS];
	struct bb_plateau p[8];
	size_t a = index_at(2097152), b = index_at(8388608);

	(void)state;
	for (size_t i = 0; i < NPTS; i++) {
		double w = size_at(i);
		if (w <= 32768)
			y[i] = 1.4;
		else if (w <= 1048576)
			y[i] = 3.3;
		else if (w <= 8388608)
			y[i] = 7.0 * pow(1.35, (double)(i > a ? i - a : 0) / (double)(b - a));
		else
			y[i] = 70;
	}
	assert_int_equal(find(y, NPTS, p, 8), 4);
	assert_int_equal(p[2].last, b);
}

static void test_plateaus_flat_ramp_and_end(void **state)
{
	double y[NPTS];
	struct bb_plateau p[8];

	(void)state;
	for (size_t i = 0; i < NPTS; i++)
		y[i] = 5.0;
	assert_int_equal(find(y, NPTS, p, 8), 1);
	assert_int_equal(p[0].first, 0);
	assert_int_equal(p[0].last, NPTS - 1);
	assert_true(fabs(p[0].level - 5.0) < 1e-12);

	for (size_t i = 0; i < NPTS; i++)      /* 1.6x per doubling: no level */
		y[i] = pow(1.6, (double)i / PPD);
	assert_int_equal(find(y, NPTS, p, 8), 0);

	for (size_t i = 0; i < NPTS; i++)      /* ends while still rising */
		y[i] = i < 30 ? 2.0 : 2.0 * pow(2.0, (double)(i - 29) / PPD);
	assert_int_equal(find(y, NPTS, p, 8), 1);
	assert_true(p[0].last <= 30);
	assert_false(p[0].reaches_end);

	for (size_t i = 0; i < NPTS; i++)      /* ends rising, by less than a level */
		y[i] = i < 40 ? 3.2 : 3.2 * pow(1.16, (double)(i - 39));
	assert_int_equal(find(y, 43, p, 8), 1);
	assert_false(p[0].reaches_end);
	assert_int_equal(p[0].last, 39);

	for (size_t i = 0; i < NPTS; i++)      /* one wild point at the very end */
		y[i] = i < 40 ? 3.0 : 60.0;
	y[NPTS - 1] = 85;
	assert_int_equal(find(y, NPTS, p, 8), 2);
	assert_true(p[1].reaches_end);
	assert_int_equal(p[1].last, NPTS - 1);
	y[NPTS - 2] = 85;                      /* two: a rise, or two wild points? */
	assert_int_equal(find(y, NPTS, p, 8), 2);
	assert_false(p[1].reaches_end);

	for (size_t i = 0; i < NPTS; i++)      /* a last level with a noisy tail */
		y[i] = i < 40 ? 3.0 : i % 2 ? 60.0 : 80.0;
	y[NPTS - 1] = 120;
	assert_int_equal(find(y, NPTS, p, 8), 2);
	assert_true(p[1].reaches_end);
	assert_int_equal(p[1].last, NPTS - 1);
}

static void test_plateaus_bad_input(void **state)
{
	double y[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct bb_plateau p[4];

	(void)state;
	assert_int_equal(find(y, 0, p, 4), 0);
	y[3] = 0;
	assert_int_equal(find(y, 10, p, 4), 0);
	y[3] = NAN;
	assert_int_equal(find(y, 10, p, 4), 0);
	y[3] = -1;
	assert_int_equal(find(y, 10, p, 4), 0);
	y[3] = 1;
	assert_int_equal(find(y, 1, p, 4), 0);  /* one point is no plateau */
	assert_int_equal(find(y, 10, p, 0), 1); /* counted even with no room */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_is_one_cycle),
		cmocka_unit_test(test_random_keeps_pages_together),
		cmocka_unit_test(test_random_is_shuffled),
		cmocka_unit_test(test_same_seed_same_chain),
		cmocka_unit_test(test_sequential_and_strides),
		cmocka_unit_test(test_bad_geometry),
		cmocka_unit_test(test_chase_follows_chain),
		cmocka_unit_test(test_plateaus_sharp_steps),
		cmocka_unit_test(test_plateaus_smooth_noisy),
		cmocka_unit_test(test_plateaus_outliers),
		cmocka_unit_test(test_plateaus_drift),
		cmocka_unit_test(test_plateaus_flat_ramp_and_end),
		cmocka_unit_test(test_plateaus_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
