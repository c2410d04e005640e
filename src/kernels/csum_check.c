/* csum_check.c - the checksum correctness checker: every variant against
 * the plain reference (csum_reference) on the cases that together catch
 * the known checksum bugs; `selftest` and tests/unit/test_csum.c run it.
 *
 *   every length 0..max_len at every start offset 0..7, bytes around the
 *     buffer poisoned so reading outside it changes the sum, on data
 *     families: random, all 0xFF (carry storms), all zero (must give 0,
 *     never 0xffff), and 0x04 with the seed that makes the sum exactly
 *     0xffff, then that seed + 1 (one end-around carry); seeds 0,
 *     0xffffffff and random
 *   known answers: RFC 1071's 00 01 f2 03 f4 f5 f6 f7 -> ddf2, and an IPv4
 *     header that sums to ffff, at every offset
 *   chaining: a partial sum as the next call's seed, split at even points
 *   buffers that end at a PROT_NONE page, and that start right after one
 *     (core/guard.c catches the fault; it is reported, not a crash)
 *   256 KiB, 1 MiB and 4 MiB of 0xFF and of zeros, for accumulators that
 *     overflow (or biased SIMD lanes that reach their limits)
 *
 * A check family stops at its first failure, which is printed in full.
 */
#include "csum.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/guard.h"

#define SLACK 64           /* poisoned bytes on either side of the buffer */
#define POISON 0x5a
#define NOFFSETS 8

struct checker {
	const char *name;
	FILE *f;
	long checks;
	long failed;
};

static uint32_t rng_next(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static void fill_random(unsigned char *p, size_t n, uint32_t *rng)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(rng_next(rng) >> 24);
}

/* The reference fold of seed + the data's sum (kept incrementally). */
static uint16_t expect_of(uint64_t data_sum, uint32_t seed)
{
	uint64_t s = data_sum + seed;

	while (s >> 32)
		s = (s & 0xffffffffu) + (s >> 32);
	return csum_fold((uint32_t)s);
}

/* Records one comparison; returns 1 if it failed. */
static int compare(struct checker *c, const char *what, size_t len, size_t off, uint32_t seed,
		   unsigned got, unsigned want)
{
	c->checks++;
	if (got == want)
		return 0;
	c->failed++;
	if (c->f)
		fprintf(c->f, "FAIL csum %s: %s len=%zu offset=%zu seed=0x%08x: got 0x%04x, "
			"want 0x%04x\n", c->name, what, len, off, (unsigned)seed, got, want);
	return 1;
}

static int no_memory(struct checker *c, const char *what)
{
	c->failed++;
	if (c->f)
		fprintf(c->f, "FAIL csum %s: %s: cannot map test memory\n", c->name, what);
	return 1;
}

/* ---- partial sums: lengths x offsets x data families x seeds ---- */

enum family { FAM_RANDOM, FAM_FF, FAM_ZERO, FAM_04, NFAMILIES };

static const char *const family_names[NFAMILIES] = {
	"random bytes", "all 0xFF", "all zero", "all 0x04",
};

static unsigned char family_byte(enum family fam, uint32_t *rng)
{
	switch (fam) {
	case FAM_RANDOM: return (unsigned char)(rng_next(rng) >> 24);
	case FAM_FF: return 0xff;
	case FAM_ZERO: return 0;
	default: return 0x04;
	}
}

/* The three seeds of one (family, length).  For 0x04 they bring the sum
 * to exactly 0xffff, one past it (the end-around carry) and the first
 * with the high half set; otherwise 0, 0xffffffff and random. */
static void family_seeds(enum family fam, uint64_t data_sum, uint32_t *rng, uint32_t seed[3])
{
	if (fam == FAM_04) {
		uint32_t to_ffff = (uint32_t)((0xffff - data_sum % 0xffff) % 0xffff);
		seed[0] = data_sum ? to_ffff : 0xffff;
		seed[1] = seed[0] + 1;
		seed[2] = seed[0] + 0xffff0000u;
		return;
	}
	seed[0] = 0;
	seed[1] = 0xffffffffu;
	seed[2] = rng_next(rng);
}

/* Sanity of the yardstick itself on the families with a known answer. */
static int expect_known(enum family fam, size_t len, const uint32_t seed[3], uint64_t data_sum)
{
	if (fam == FAM_ZERO)
		return expect_of(data_sum, seed[0]) == 0;
	if (fam == FAM_04 && len)
		return expect_of(data_sum, seed[0]) == 0xffff && expect_of(data_sum, seed[1]) == 1;
	return 1;
}

/* Every length at one offset: bytes are revealed one at a time, the rest
 * of the area stays poisoned.  Returns 1 on the first failure. */
static int lengths_at(struct checker *c, csum_fn fn, unsigned char *area, size_t max_len,
		      size_t off, enum family fam, uint32_t *rng)
{
	unsigned char *buf = area + SLACK + off;
	uint64_t data_sum = 0;
	char what[64];

	memset(area, POISON, 2 * SLACK + NOFFSETS + max_len);
	snprintf(what, sizeof what, "%s", family_names[fam]);
	for (size_t len = 0; len <= max_len; len++) {
		uint32_t seed[3];
		if (len) {
			buf[len - 1] = family_byte(fam, rng);
			data_sum += (len - 1) & 1 ? buf[len - 1] : (uint64_t)buf[len - 1] << 8;
		}
		family_seeds(fam, data_sum, rng, seed);
		if (!expect_known(fam, len, seed, data_sum))
			return compare(c, "reference self-check", len, off, seed[0], 1, 0);
		for (int k = 0; k < 3; k++)
			if (compare(c, what, len, off, seed[k], csum_fold(fn(buf, len, seed[k])),
				    expect_of(data_sum, seed[k])))
				return 1;
	}
	return 0;
}

static long check_lengths(struct checker *c, csum_fn fn, size_t max_len)
{
	struct bb_guarded r;
	uint32_t rng = 0x2545f491u;
	long failed = 0;

	if (bb_guarded_map(&r, 2 * SLACK + NOFFSETS + max_len))
		return no_memory(c, "lengths");
	for (int fam = 0; fam < NFAMILIES; fam++)
		for (size_t off = 0; off < NOFFSETS; off++)
			if (lengths_at(c, fn, r.lo, max_len, off, (enum family)fam, &rng)) {
				failed++;
				break;
			}
	bb_guarded_unmap(&r);
	return failed;
}

/* ---- known answers ---- */

static const unsigned char rfc1071_example[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };

/* 4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7: a correct header. */
static const unsigned char ipv4_header[20] = {
	0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
};

static long check_known(struct checker *c, csum_fn fn)
{
	unsigned char buf[64 + NOFFSETS];
	long failed = 0;

	for (size_t off = 0; off < NOFFSETS && !failed; off++) {
		memset(buf, POISON, sizeof buf);
		memcpy(buf + off, rfc1071_example, sizeof rfc1071_example);
		failed += compare(c, "RFC 1071 example", 8, off, 0,
				  csum_fold(fn(buf + off, 8, 0)), 0xddf2);
		memcpy(buf + off, ipv4_header, sizeof ipv4_header);
		failed += compare(c, "IPv4 header", 20, off, 0,
				  csum_fold(fn(buf + off, 20, 0)), 0xffff);
	}
	return failed;
}

/* ---- chaining: fn(b + k, n - k, fn(b, k, s)) == fn(b, n, s), k even ---- */

static long check_chaining(struct checker *c, csum_fn fn)
{
	enum { N = 1000 };
	unsigned char buf[N + NOFFSETS + SLACK];   /* over-reads are the guard pages' job */
	uint32_t rng = 0x9e3779b9u;

	fill_random(buf, sizeof buf, &rng);
	for (size_t off = 0; off < NOFFSETS; off++)
		for (size_t k = 0; k <= N; k += (k < 80 || k > N - 80) ? 2 : 98) {
			uint32_t seed = rng_next(&rng);
			unsigned want = csum_fold(csum_reference(buf + off, N, seed));
			unsigned got = csum_fold(fn(buf + off + k, N - k, fn(buf + off, k, seed)));
			char what[48];
			snprintf(what, sizeof what, "chained at byte %zu", k);
			if (compare(c, what, N, off, seed, got, want))
				return 1;
		}
	return 0;
}

/* ---- guard pages: no byte outside the buffer may be touched ---- */

/* One call of a variant, run where a fault is caught. */
struct sum_call {
	csum_fn fn;
	const unsigned char *buf;
	size_t len;
	uint32_t got;
};

static void sum_call_run(void *arg)
{
	struct sum_call *s = arg;

	s->got = s->fn(s->buf, s->len, 0);
}

static int guard_one(struct checker *c, csum_fn fn, const unsigned char *buf, size_t len,
		     const char *what)
{
	struct sum_call s = { fn, buf, len, 0 };
	int sig = bb_guard_run(sum_call_run, &s);

	if (sig) {
		c->checks++;
		c->failed++;
		if (c->f)
			fprintf(c->f, "FAIL csum %s: %s len=%zu: signal %d, read outside the "
				"buffer\n", c->name, what, len, sig);
		return 1;
	}
	return compare(c, what, len, (uintptr_t)buf & 7, 0, csum_fold(s.got),
		       csum_fold(csum_reference(buf, len, 0)));
}

static long check_guards(struct checker *c, csum_fn fn, size_t max_len)
{
	struct bb_guarded r;
	uint32_t rng = 0x1234567u;
	long failed = 0;

	if (bb_guarded_map(&r, max_len))
		return no_memory(c, "guard pages");
	fill_random(r.lo, (size_t)(r.hi - r.lo), &rng);
	for (size_t len = 0; len <= max_len; len++)
		if (guard_one(c, fn, r.hi - len, len, "buffer ending at a PROT_NONE page")) {
			failed++;
			break;
		}
	for (size_t len = 0; len <= max_len; len++)
		if (guard_one(c, fn, r.lo, len, "buffer starting after a PROT_NONE page")) {
			failed++;
			break;
		}
	bb_guarded_unmap(&r);
	return failed;
}

/* ---- big buffers: accumulators must neither overflow nor lose a bias ---- */

#define BIG_MAX (4u * 1024 * 1024 + 130)

static long check_big(struct checker *c, csum_fn fn)
{
	/* 256 KiB and 1 MiB as asked; 4 MiB + 130 crosses every SIMD span */
	static const size_t sizes[] = { 256 * 1024, 1024 * 1024, 1024 * 1024 + 3, BIG_MAX };
	static const size_t offs[] = { 0, 1, 3, 6 };
	static const uint32_t seeds[] = { 0, 0xffffffffu };
	static const unsigned char fills[] = { 0xff, 0x00 };
	struct bb_guarded r;
	unsigned char *buf;
	long failed = 0;

	if (bb_guarded_map(&r, BIG_MAX + 8))
		return no_memory(c, "big buffers");
	buf = r.lo;
	for (size_t f = 0; f < sizeof fills; f++) {
		const char *what = fills[f] ? "big buffer of 0xFF" : "big buffer of zeros";
		long before = failed;
		memset(buf, fills[f], BIG_MAX + 8);
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && failed == before; i++)
			for (size_t j = 0; j < sizeof offs / sizeof offs[0] && failed == before; j++)
				for (size_t k = 0; k < 2 && failed == before; k++)
					failed += compare(c, what, sizes[i], offs[j], seeds[k],
						csum_fold(fn(buf + offs[j], sizes[i], seeds[k])),
						csum_fold(csum_reference(buf + offs[j], sizes[i],
									 seeds[k])));
	}
	bb_guarded_unmap(&r);
	return failed;
}

long csum_check_variant(const char *name, csum_fn fn, const struct csum_check_opts *o,
			FILE *f, long *checks)
{
	struct checker c = { name, f, 0, 0 };
	size_t max_len = o && o->max_len ? o->max_len : CSUM_CHECK_MAX_LEN;
	long failed = 0;

	failed += check_known(&c, fn);
	failed += check_lengths(&c, fn, max_len);
	failed += check_chaining(&c, fn);
	failed += check_guards(&c, fn, max_len);
	if (!o || o->big_buffers)
		failed += check_big(&c, fn);
	if (checks)
		*checks = c.checks;
	return failed;
}

/* ---- ip_fast_csum ---- */

static uint16_t ip_expect(const unsigned char *h, unsigned ihl)
{
	return (uint16_t)~csum_fold(csum_reference(h, 4 * ihl, 0));
}

static long check_ip_known(struct checker *c, csum_ip_fn fn, unsigned char *buf)
{
	long failed = 0;

	memcpy(buf, ipv4_header, sizeof ipv4_header);
	failed += compare(c, "ip_fast_csum of a correct IPv4 header", 20, 0, 0, fn(buf, 5), 0);
	buf[10] = buf[11] = 0;
	failed += compare(c, "ip_fast_csum, checksum field zero", 20, 0, 0, fn(buf, 5), 0xb861);
	memset(buf, 0, 60);
	failed += compare(c, "ip_fast_csum of zeros", 60, 0, 0, fn(buf, 15), 0xffff);
	memset(buf, 0xff, 60);
	failed += compare(c, "ip_fast_csum of 0xFF", 60, 0, 0, fn(buf, 15), 0);
	return failed;
}

long csum_check_ip(const char *name, csum_ip_fn fn, FILE *f, long *checks)
{
	struct checker c = { name, f, 0, 0 };
	struct bb_guarded r;
	uint32_t rng = 0xc0ffee11u;
	long failed;

	if (bb_guarded_map(&r, 64))
		return no_memory(&c, "ip_fast_csum");
	failed = check_ip_known(&c, fn, r.lo);
	for (unsigned ihl = 5; ihl <= 15 && !failed; ihl++)
		for (size_t off = 0; off < NOFFSETS && !failed; off++)
			for (int rep = 0; rep < 64 && !failed; rep++) {
				unsigned char *h = rep & 1 ? r.hi - 4 * ihl - off : r.lo + off;
				fill_random(h, 4 * ihl, &rng);
				if (rep == 2)
					memset(h, 0xff, 4 * ihl);
				failed += compare(&c, "ip_fast_csum", 4 * ihl, off, 0, fn(h, ihl),
						  ip_expect(h, ihl));
			}
	bb_guarded_unmap(&r);
	if (checks)
		*checks = c.checks;
	return failed;
}

/* ---- checksum and copy ---- */

/* One copy: the sum must match, dst must equal src, and the poisoned
 * bytes around dst must be untouched. */
static int copy_one(struct checker *c, csum_copy_fn fn, unsigned char *dst,
		    const unsigned char *src, size_t len, uint32_t seed)
{
	unsigned want = csum_fold(csum_reference(src, len, seed));

	memset(dst - SLACK, POISON, len + 2 * SLACK);
	if (compare(c, "csum-and-copy sum", len, (uintptr_t)src & 7, seed,
		    csum_fold(fn(dst, src, len, seed)), want))
		return 1;
	for (size_t i = 0; i < SLACK; i++)
		if (dst[-1 - (ptrdiff_t)i] != POISON || dst[len + i] != POISON)
			return compare(c, "csum-and-copy wrote outside dst", len,
				       (uintptr_t)dst & 7, seed, 1, 0);
	if (memcmp(dst, src, len) != 0)
		return compare(c, "csum-and-copy copy differs", len, (uintptr_t)dst & 7, seed, 1, 0);
	return 0;
}

static long copy_lengths(struct checker *c, csum_copy_fn fn, unsigned char *src,
			 unsigned char *dst, size_t max_len, uint32_t *rng)
{
	for (int fam = 0; fam < 3; fam++) {
		memset(src, fam == 1 ? 0xff : 0, max_len + NOFFSETS);
		if (fam == 0)
			fill_random(src, max_len + NOFFSETS, rng);
		for (size_t off = 0; off < NOFFSETS; off++)
			for (size_t len = 0; len <= max_len; len++) {
				uint32_t seeds[3] = { 0, 0xffffffffu, rng_next(rng) };
				size_t doff = (off + len) & 7;
				if (copy_one(c, fn, dst + doff, src + off, len, seeds[len % 3]))
					return 1;
			}
	}
	return 0;
}

/* Maps a copy's source and destination; returns 0, or -1 with neither. */
static int copy_map(struct bb_guarded *rs, size_t src_bytes, struct bb_guarded *rd,
		    size_t dst_bytes)
{
	int failed = bb_guarded_map(rs, src_bytes);

	failed |= bb_guarded_map(rd, dst_bytes);
	if (failed) {
		bb_guarded_unmap(rs);
		bb_guarded_unmap(rd);
	}
	return failed;
}

/* Big copies of 0xFF and zeros, past every SIMD span. */
static long copy_big(struct checker *c, csum_copy_fn fn)
{
	static const unsigned char fills[] = { 0xff, 0x00 };
	struct bb_guarded rs, rd;
	unsigned char *src, *dst;
	long failed = 0;

	if (copy_map(&rs, BIG_MAX + 8, &rd, BIG_MAX + 8 + 2 * SLACK))
		return no_memory(c, "big csum-and-copy");
	src = rs.lo;
	dst = rd.lo;
	for (size_t f = 0; f < sizeof fills && !failed; f++) {
		memset(src, fills[f], BIG_MAX + 8);
		failed += copy_one(c, fn, dst + SLACK + 3, src + 1, BIG_MAX, 0xffffffffu);
		failed += copy_one(c, fn, dst + SLACK, src, 1024 * 1024 + 5, 0);
	}
	bb_guarded_unmap(&rs);
	bb_guarded_unmap(&rd);
	return failed;
}

long csum_check_copy(const char *name, csum_copy_fn fn, const struct csum_check_opts *o,
		     FILE *f, long *checks)
{
	struct checker c = { name, f, 0, 0 };
	size_t max_len = o && o->max_len ? o->max_len : CSUM_CHECK_MAX_LEN;
	struct bb_guarded rs, rd;
	uint32_t rng = 0xabad1deau;
	long failed = 0;

	if (copy_map(&rs, max_len + NOFFSETS, &rd, max_len + NOFFSETS + 2 * SLACK))
		return no_memory(&c, "csum-and-copy");
	failed += copy_lengths(&c, fn, rs.lo, rd.lo + SLACK, max_len, &rng);
	if (!o || o->big_buffers)
		failed += copy_big(&c, fn);
	/* source and destination both ending at a guard page */
	for (size_t len = 0; len <= max_len && !failed; len += len < 300 ? 1 : 97) {
		unsigned char *s = rs.hi - len, *d = rd.hi - len;
		uint32_t seed = rng_next(&rng);
		fill_random(s, len, &rng);
		failed += compare(&c, "csum-and-copy ending at a guard page", len,
				  (uintptr_t)s & 7, seed, csum_fold(fn(d, s, len, seed)),
				  csum_fold(csum_reference(s, len, seed)));
	}
	bb_guarded_unmap(&rs);
	bb_guarded_unmap(&rd);
	if (checks)
		*checks = c.checks;
	return failed;
}

/* ---- the selftest row ---- */

static void report(FILE *f, const char *kind, const char *name, long failed, long checks)
{
	fprintf(f, "csum %-12s %-14s %s (%ld checks, %ld failed)\n", name, kind,
		failed ? "FAILED" : "passed", checks, failed);
}

static void unsupported(FILE *f, const char *kind, const char *name)
{
	fprintf(f, "csum %-12s %-14s unsupported on this CPU, not checked\n", name, kind);
}

long csum_selftest(FILE *f, int verbose)
{
	long total = 0, checks, failed;

	(void)verbose;   /* one line per variant either way */
	for (size_t i = 0; i < csum_nvariants; i++) {
		const struct csum_variant *v = &csum_variants[i];
		if (!v->supported()) {
			unsupported(f, "partial sum", v->name);
			continue;
		}
		failed = csum_check_variant(v->name, v->fn, NULL, f, &checks);
		report(f, "partial sum", v->name, failed, checks);
		total += failed;
	}
	for (size_t i = 0; i < csum_ip_nvariants; i++) {
		const struct csum_ip_variant *v = &csum_ip_variants[i];
		if (!v->supported()) {
			unsupported(f, "ip_fast_csum", v->name);
			continue;
		}
		failed = csum_check_ip(v->name, v->fn, f, &checks);
		report(f, "ip_fast_csum", v->name, failed, checks);
		total += failed;
	}
	for (size_t i = 0; i < csum_copy_nvariants; i++) {
		const struct csum_copy_variant *v = &csum_copy_variants[i];
		if (!v->supported()) {
			unsupported(f, "csum-and-copy", v->name);
			continue;
		}
		failed = csum_check_copy(v->name, v->fn, NULL, f, &checks);
		report(f, "csum-and-copy", v->name, failed, checks);
		total += failed;
	}
	return total;
}
