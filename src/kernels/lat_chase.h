/* lat_chase.h - the pointer chase the `lat` applet times, and the builder
 * that links a buffer into the chain it follows.
 *
 * The buffer is cut into elements of `stride` bytes (one cache line by
 * default); the first word of each element points to the next element of
 * the chain.  In random order the chain visits the elements of one page in
 * a shuffled order, then moves to another page, pages also shuffled, and
 * closes into a single cycle: every load misses the cache once the working
 * set exceeds it, while TLB misses stay rare (one per page of elements).
 * In sequential order it walks the elements in address order.
 */
#ifndef BB_KERNELS_LAT_CHASE_H
#define BB_KERNELS_LAT_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* Loads done by one call of lat_chase() per count unit. */
#define LAT_CHASE_UNROLL 16

enum lat_order { LAT_ORDER_RANDOM, LAT_ORDER_SEQUENTIAL };

struct lat_chain {
	void *buf;           /* start of the buffer (aligned to a pointer) */
	size_t bytes;        /* working set: the first `bytes` of buf */
	size_t stride;       /* bytes per element, a multiple of sizeof(void *) */
	size_t page;         /* bytes per page group (random order), a multiple of stride */
	enum lat_order order;
	uint64_t seed;       /* same seed, same chain */
};

/* Scratch the builder needs: one entry per page plus one per element of a
 * page in random order, none in sequential order.  Returns the number of
 * size_t entries for chain c (0 also when its geometry is invalid). */
size_t lat_chain_scratch_len(const struct lat_chain *c);

/* Links c->bytes / c->stride elements of c->buf into one cycle and returns
 * its first element, or NULL when the chain has fewer than 2 elements or
 * the geometry is invalid.  scratch holds lat_chain_scratch_len() entries. */
void **lat_chain_build(const struct lat_chain *c, size_t *scratch);

/* Follows the chain for count * LAT_CHASE_UNROLL dependent loads from p and
 * returns where it stopped. */
void **lat_chase(void **p, size_t count);

/* Stores p where the optimiser must assume it is read. */
void lat_chase_sink(void **p);

/* The generator the builder shuffles with (splitmix64). */
uint64_t lat_rand_next(uint64_t *state);

#endif
