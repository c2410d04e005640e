/* lat_chase.c - builds the pointer chain of the `lat` applet (random order
 * within and across pages, or address order) and follows it with an
 * unrolled loop of dependent loads.  See lat_chase.h. */
#include "lat_chase.h"

/* Read by nobody, but volatile: the final pointer of every chase goes here
 * so the compiler cannot drop the loads that produced it. */
static void *volatile lat_chase_last;

uint64_t lat_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Fisher-Yates shuffle of a[0..n). */
static void shuffle(size_t *a, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(lat_rand_next(state) % i);
		size_t t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static int geometry_ok(const struct lat_chain *c)
{
	if (!c->buf || c->stride < sizeof(void *) || c->stride % sizeof(void *))
		return 0;
	if (c->order == LAT_ORDER_RANDOM && (c->page < c->stride || c->page % c->stride))
		return 0;
	return c->bytes / c->stride >= 2;
}

static size_t per_page(const struct lat_chain *c)
{
	return c->page / c->stride;
}

size_t lat_chain_scratch_len(const struct lat_chain *c)
{
	size_t nelem, pp;

	if (!geometry_ok(c) || c->order == LAT_ORDER_SEQUENTIAL)
		return 0;
	nelem = c->bytes / c->stride;
	pp = per_page(c);
	return (nelem + pp - 1) / pp + pp;
}

static void **element(const struct lat_chain *c, size_t i)
{
	return (void **)((char *)c->buf + i * c->stride);
}

static void **build_sequential(const struct lat_chain *c)
{
	size_t n = c->bytes / c->stride;

	for (size_t i = 0; i + 1 < n; i++)
		*element(c, i) = element(c, i + 1);
	*element(c, n - 1) = element(c, 0);
	return element(c, 0);
}

/* Pages in shuffled order; inside each, its elements in shuffled order. */
static void **build_random(const struct lat_chain *c, size_t *scratch)
{
	size_t nelem = c->bytes / c->stride, pp = per_page(c);
	size_t npages = (nelem + pp - 1) / pp;
	size_t *pages = scratch, *lines = scratch + npages;
	uint64_t state = c->seed;
	void **first = NULL, **prev = NULL;

	for (size_t i = 0; i < npages; i++)
		pages[i] = i;
	shuffle(pages, npages, &state);
	for (size_t i = 0; i < npages; i++) {
		size_t base = pages[i] * pp;
		size_t k = nelem - base < pp ? nelem - base : pp;
		for (size_t j = 0; j < k; j++)
			lines[j] = base + j;
		shuffle(lines, k, &state);
		for (size_t j = 0; j < k; j++) {
			void **e = element(c, lines[j]);
			if (prev)
				*prev = e;
			else
				first = e;
			prev = e;
		}
	}
	*prev = first;
	return first;
}

void **lat_chain_build(const struct lat_chain *c, size_t *scratch)
{
	if (!geometry_ok(c))
		return NULL;
	if (c->order == LAT_ORDER_SEQUENTIAL)
		return build_sequential(c);
	return scratch ? build_random(c, scratch) : NULL;
}

#define HOP p = (void **)*p;
#define HOP4 HOP HOP HOP HOP

void **lat_chase(void **p, size_t count)
{
	while (count--) {
		HOP4 HOP4 HOP4 HOP4
	}
	return p;
}

void lat_chase_sink(void **p)
{
	lat_chase_last = p;
}
