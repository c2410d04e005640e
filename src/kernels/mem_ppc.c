/* mem_ppc.c - PowerPC memory primitives: `dcbz` clears a page one data
 * cache block at a time (dcbz zeroes a whole block without reading it, so
 * the block size must be the real one: it comes from AT_DCACHEBSIZE, and
 * without it the variant is unsupported); `dcbt` copies words while
 * touching the source a few cache lines ahead with dcbt. */
#if defined(__powerpc__) || defined(__powerpc64__)
#include "mem.h"

#include <string.h>
#include <sys/auxv.h>

MEM_DECLARE(mem_dcbz, 0, 0, 0, 1, 0)
MEM_DECLARE(mem_dcbt, 1, 0, 1, 0, 0)

MEM_KERNELS_BEGIN

#ifndef AT_DCACHEBSIZE
#define AT_DCACHEBSIZE 19
#endif

#define DCBT_LINES_AHEAD 4
#define DCBT_DEFAULT_LINE 32   /* a hint only: any size is safe for dcbt */

typedef size_t word_t;
#define WORD sizeof(word_t)

/* The data cache block size the kernel reports, or 0 if it is unknown or
 * implausible. */
static size_t block_size(void)
{
	static size_t cached;   /* mem runs single-threaded */
	unsigned long v;

	if (cached)
		return cached;
	v = getauxval(AT_DCACHEBSIZE);
	if (v < 16 || v > MEM_PAGE || (v & (v - 1)))
		return 0;
	cached = v;
	return cached;
}

int mem_dcbz_supported(void)
{
	return block_size() != 0;
}

void mem_dcbz_clear_page(void *dst)
{
	size_t line = block_size();
	unsigned char *d = dst;

	if (!line)
		__builtin_trap();   /* only called when supported() said yes */
	for (size_t i = 0; i < MEM_PAGE; i += line)
		__asm__ __volatile__("dcbz 0, %0" : : "r"(d + i) : "memory");
}

int mem_dcbt_supported(void)
{
	return 1;
}

static inline void dcbt(const void *p)
{
	__asm__ __volatile__("dcbt 0, %0" : : "r"(p));
}

static inline size_t prefetch_line(void)
{
	size_t line = block_size();

	if (!line)
		line = DCBT_DEFAULT_LINE;
	return line < 4 * WORD ? 4 * WORD : line;   /* copy_lines moves 4 words a step */
}

/* Copies whole lines of words from a word-aligned destination, touching
 * the source DCBT_LINES_AHEAD lines ahead; returns the bytes copied. */
static size_t copy_lines(unsigned char *d, const unsigned char *s, size_t n, size_t line)
{
	size_t done = 0;

	for (; n - done >= line; done += line) {
		dcbt(s + done + DCBT_LINES_AHEAD * line);
		for (size_t i = done; i < done + line; i += 4 * WORD) {
			word_t a, b, c, e;
			memcpy(&a, s + i, WORD);
			memcpy(&b, s + i + WORD, WORD);
			memcpy(&c, s + i + 2 * WORD, WORD);
			memcpy(&e, s + i + 3 * WORD, WORD);
			__asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(e));   /* no memcpy idiom */
			memcpy(d + i, &a, WORD);
			memcpy(d + i + WORD, &b, WORD);
			memcpy(d + i + 2 * WORD, &c, WORD);
			memcpy(d + i + 3 * WORD, &e, WORD);
		}
	}
	return done;
}

void *mem_dcbt_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t h = (WORD - ((uintptr_t)d & (WORD - 1))) & (WORD - 1), done;

	if (h > n)
		h = n;
	for (n -= h; h; h--)
		*d++ = *s++;
	done = copy_lines(d, s, n, prefetch_line());
	d += done, s += done, n -= done;
	for (; n >= WORD; n -= WORD, d += WORD, s += WORD) {
		word_t w;
		memcpy(&w, s, WORD);
		memcpy(d, &w, WORD);
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void mem_dcbt_copy_page(void *restrict dst, const void *restrict src)
{
	copy_lines(dst, src, MEM_PAGE, prefetch_line());
}

MEM_KERNELS_END

#else
typedef int mem_ppc_unused;   /* ISO C forbids an empty translation unit */
#endif
