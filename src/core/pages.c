/* pages.c - buffers on base pages, hugetlb pages or transparent huge pages,
 * touched before use and described honestly (see pages.h). */
#include "pages.h"
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#define DEFAULT_HUGE_BYTES (2u * 1024 * 1024)

/* The default huge page size from /proc/meminfo, or 0. */
static size_t huge_page_bytes(void)
{
	char line[128];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (bb_scan_field(line, "Hugepagesize:", &kb) == 0)
			break;
	fclose(f);
	return (size_t)kb * 1024;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

static void touch(struct bb_pages *m)
{
	memset(m->buf, 0, m->bytes);
}

static int try_hugetlb(struct bb_pages *m, size_t bytes)
{
#ifdef MAP_HUGETLB
	size_t len = round_up(bytes, m->huge_bytes);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	m->map = m->buf = p;
	m->map_bytes = len;
	m->kind = BB_PAGES_HUGETLB;
	return 0;
#else
	(void)m;
	(void)bytes;
	errno = ENOSYS;
	return -1;
#endif
}

/* A base-page mapping with room to align the buffer to `align`. */
static int map_aligned(struct bb_pages *m, size_t bytes, size_t align)
{
	size_t len = bytes + align;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	m->map = p;
	m->map_bytes = len;
	m->buf = (void *)round_up((size_t)(uintptr_t)p, align);
	return 0;
}

/* Returns 0 when the kernel took the advice. */
static int advise(struct bb_pages *m, int huge)
{
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	return madvise(m->buf, round_up(m->bytes, m->base_bytes),
		       huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
	(void)m;
	(void)huge;
	errno = ENOSYS;
	return -1;
#endif
}

static void describe_thp(struct bb_pages *m, const char *why_not_hugetlb)
{
	long long got = bb_pages_thp_bytes(m);
	int n = snprintf(m->desc, sizeof m->desc,
			 "transparent huge pages via madvise(MADV_HUGEPAGE) (MAP_HUGETLB: %s): ",
			 why_not_hugetlb);

	if (n < 0 || (size_t)n >= sizeof m->desc)
		return;
	if (got < 0)
		snprintf(m->desc + n, sizeof m->desc - (size_t)n,
			 "how many were granted is unknown (/proc/self/smaps)");
	else
		snprintf(m->desc + n, sizeof m->desc - (size_t)n,
			 "%.1f of %.1f MiB in %zu KiB pages", (double)got / 1048576.0,
			 (double)m->bytes / 1048576.0, m->huge_bytes / 1024);
}

static int map_huge(struct bb_pages *m, size_t bytes)
{
	char why[96];

	if (try_hugetlb(m, bytes) == 0) {
		touch(m);
		snprintf(m->desc, sizeof m->desc, "hugetlb: %zu KiB pages (MAP_HUGETLB)",
			 m->huge_bytes / 1024);
		return 0;
	}
	snprintf(why, sizeof why, "%s", strerror(errno));
	if (map_aligned(m, bytes, m->huge_bytes) != 0)
		return -1;
	if (advise(m, 1) == 0) {
		m->kind = BB_PAGES_THP;
		touch(m);
		describe_thp(m, why);
		return 0;
	}
	touch(m);
	snprintf(m->desc, sizeof m->desc,
		 "base %zu KiB pages: no huge pages (MAP_HUGETLB: %s; MADV_HUGEPAGE: %s)",
		 m->base_bytes / 1024, why, strerror(errno));
	return 0;
}

static int map_base(struct bb_pages *m, size_t bytes)
{
	if (map_aligned(m, bytes, m->base_bytes) != 0)
		return -1;
	if (advise(m, 0) == 0)
		snprintf(m->desc, sizeof m->desc,
			 "base %zu KiB pages (transparent huge pages off for the buffer)",
			 m->base_bytes / 1024);
	else
		snprintf(m->desc, sizeof m->desc,
			 "base %zu KiB pages (could not turn transparent huge pages off: %s)",
			 m->base_bytes / 1024, strerror(errno));
	touch(m);
	return 0;
}

int bb_pages_map(struct bb_pages *m, size_t bytes, int want_huge)
{
	long pg = sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof *m);
	m->bytes = bytes;
	m->base_bytes = pg > 0 ? (size_t)pg : 4096;
	m->huge_bytes = huge_page_bytes();
	if (!m->huge_bytes)
		m->huge_bytes = DEFAULT_HUGE_BYTES;
	m->kind = BB_PAGES_BASE;
	if (bytes == 0 || bytes > SIZE_MAX - m->huge_bytes) {
		errno = EINVAL;
		return -1;
	}
	return want_huge ? map_huge(m, bytes) : map_base(m, bytes);
}

void bb_pages_unmap(struct bb_pages *m)
{
	if (m->map)
		munmap(m->map, m->map_bytes);
	m->map = m->buf = NULL;
}

/* An smaps entry's first line, "7f12a000-7f12b000 rw-p ...": its start
 * and end address; -1 (and nothing set) for any other line. */
static int smaps_range(const char *line, unsigned long *start, unsigned long *end)
{
	char *dash;
	unsigned long s;

	if (!isxdigit((unsigned char)line[0]))
		return -1;
	s = strtoul(line, &dash, 16);
	if (*dash != '-' || !isxdigit((unsigned char)dash[1]))
		return -1;
	*end = strtoul(dash + 1, NULL, 16);
	*start = s;
	return 0;
}

long long bb_pages_thp_in(FILE *f, unsigned long lo, unsigned long hi)
{
	char line[256];
	unsigned long start, end;
	unsigned long long kb;
	long long total = 0;
	int inside = 0, seen = 0;

	while (fgets(line, sizeof line, f)) {
		if (smaps_range(line, &start, &end) == 0) {
			inside = start >= lo && end <= hi;
			seen |= inside;
		} else if (inside && bb_scan_field(line, "AnonHugePages:", &kb) == 0) {
			total += (long long)kb * 1024;
		}
	}
	return seen ? total : -1;
}

long long bb_pages_thp_bytes(const struct bb_pages *m)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo = (unsigned long)(uintptr_t)m->buf;
	long long total;

	if (!f)
		return -1;
	total = bb_pages_thp_in(f, lo, lo + (unsigned long)round_up(m->bytes, m->base_bytes));
	fclose(f);
	return total;
}
