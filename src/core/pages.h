/* pages.h - large measurement buffers with a known kind of page: base
 * pages (transparent huge pages turned off for the buffer where the kernel
 * lets us), or huge pages, MAP_HUGETLB first and transparent huge pages
 * through madvise(MADV_HUGEPAGE) second.  The buffer is touched page by
 * page before use, and `desc` says in words which pages it got, so a
 * report never claims huge pages it did not have.
 */
#ifndef BB_PAGES_H
#define BB_PAGES_H

#include <stddef.h>
#include <stdio.h>

enum bb_page_kind { BB_PAGES_BASE, BB_PAGES_HUGETLB, BB_PAGES_THP };

struct bb_pages {
	void *map;               /* the mapping, for munmap */
	size_t map_bytes;
	void *buf;               /* usable start, aligned to huge_bytes for huge pages */
	size_t bytes;            /* usable length, as asked */
	enum bb_page_kind kind;
	size_t base_bytes;       /* the base page size */
	size_t huge_bytes;       /* the huge page size tried or used; 0 if unknown */
	char desc[256];          /* e.g. "hugetlb: 2 MiB pages (MAP_HUGETLB)" */
};

/* Maps and touches bytes of memory.  want_huge: 0 for base pages, 1 for
 * huge pages with the fallbacks above (ending on base pages, said so in
 * desc).  Returns 0, or -1 with errno set when no mapping was possible. */
int bb_pages_map(struct bb_pages *m, size_t bytes, int want_huge);
void bb_pages_unmap(struct bb_pages *m);

/* Bytes of [buf, buf+bytes) that /proc/self/smaps counts as AnonHugePages,
 * or -1 when it cannot be read. */
long long bb_pages_thp_bytes(const struct bb_pages *m);

/* The same for [lo, hi) from an smaps text read from f: the sum of the
 * AnonHugePages of the entries inside it, or -1 when none lies inside
 * (the range shares an entry that cannot be split). */
long long bb_pages_thp_in(FILE *f, unsigned long lo, unsigned long hi);

#endif
