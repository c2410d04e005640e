/* mem_generic.c - the variants every build has: `libc` (the C library's
 * memcpy/memset, called through a pointer the compiler cannot inline),
 * `bytes` (a naive byte loop) and `words` (an unrolled size_t loop).
 *
 * "Naive means naive": besides MEM_KERNELS_BEGIN (no loop becomes a memcpy
 * or memset call), gcc compiles this file without tree vectorisation and
 * clang gets a loop pragma per loop.  The words loops pass their values
 * through an empty asm so that no SLP vectoriser merges them into vector
 * registers.
 */
#include "mem.h"

#include <string.h>

MEM_DECLARE(mem_libc, 1, 1, 1, 1, 0)
MEM_DECLARE(mem_bytes, 1, 1, 1, 1, 1)
MEM_DECLARE(mem_words, 1, 1, 1, 1, 1)

MEM_KERNELS_BEGIN
#if defined(__clang__)
#define NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#pragma GCC optimize ("no-tree-vectorize")   /* every function here: inlining stays possible */
#define NOVEC
#else
#define NOVEC
#endif

typedef size_t word_t;
#define WORD sizeof(word_t)

/* ---- libc ---- */

static void *(*volatile libc_memcpy)(void *restrict, const void *restrict, size_t) = memcpy;
static void *(*volatile libc_memset)(void *, int, size_t) = memset;

int mem_libc_supported(void)
{
	return 1;
}

void *mem_libc_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return libc_memcpy(dst, src, n);
}

void *mem_libc_memset(void *dst, int c, size_t n)
{
	return libc_memset(dst, c, n);
}

void mem_libc_copy_page(void *restrict dst, const void *restrict src)
{
	libc_memcpy(dst, src, MEM_PAGE);
}

void mem_libc_clear_page(void *dst)
{
	libc_memset(dst, 0, MEM_PAGE);
}

/* ---- bytes ---- */

int mem_bytes_supported(void)
{
	return 1;
}

void *mem_bytes_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	NOVEC
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}

void *mem_bytes_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	NOVEC
	for (size_t i = 0; i < n; i++)
		d[i] = (unsigned char)c;
	return dst;
}

void mem_bytes_copy_page(void *restrict dst, const void *restrict src)
{
	mem_bytes_memcpy(dst, src, MEM_PAGE);
}

void mem_bytes_clear_page(void *dst)
{
	mem_bytes_memset(dst, 0, MEM_PAGE);
}

uint64_t mem_bytes_read(const void *src, size_t n)
{
	const unsigned char *s = src;
	uint64_t sum = 0;

	NOVEC
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	return sum;
}

/* ---- words ---- */

static inline word_t load_word(const unsigned char *p)
{
	word_t w;
	memcpy(&w, p, WORD);   /* an unaligned-safe load; one instruction where allowed */
	return w;
}

static inline void store_word(unsigned char *p, word_t w)
{
	memcpy(p, &w, WORD);
}

int mem_words_supported(void)
{
	return 1;
}

/* Bytes until p is word-aligned, at most n. */
static inline size_t head_bytes(const void *p, size_t n)
{
	size_t h = (WORD - ((uintptr_t)p & (WORD - 1))) & (WORD - 1);
	return h < n ? h : n;
}

void *mem_words_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t h = head_bytes(d, n);

	n -= h;
	NOVEC
	while (h--)
		*d++ = *s++;
	NOVEC
	for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
		word_t a = load_word(s), b = load_word(s + WORD);
		word_t c = load_word(s + 2 * WORD), e = load_word(s + 3 * WORD);
		__asm__("" : "+r"(a), "+r"(b), "+r"(c), "+r"(e));
		store_word(d, a);
		store_word(d + WORD, b);
		store_word(d + 2 * WORD, c);
		store_word(d + 3 * WORD, e);
	}
	NOVEC
	for (; n >= WORD; n -= WORD, d += WORD, s += WORD) {
		word_t a = load_word(s);
		__asm__("" : "+r"(a));
		store_word(d, a);
	}
	NOVEC
	while (n--)
		*d++ = *s++;
	return dst;
}

void *mem_words_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	size_t h = head_bytes(d, n);
	word_t w = (word_t)-1 / 0xff * (unsigned char)c;   /* c in every byte */

	n -= h;
	NOVEC
	while (h--)
		*d++ = (unsigned char)c;
	__asm__("" : "+r"(w));
	NOVEC
	for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD) {
		store_word(d, w);
		store_word(d + WORD, w);
		store_word(d + 2 * WORD, w);
		store_word(d + 3 * WORD, w);
	}
	NOVEC
	for (; n >= WORD; n -= WORD, d += WORD)
		store_word(d, w);
	NOVEC
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void mem_words_copy_page(void *restrict dst, const void *restrict src)
{
	mem_words_memcpy(dst, src, MEM_PAGE);
}

void mem_words_clear_page(void *dst)
{
	mem_words_memset(dst, 0, MEM_PAGE);
}

/* Byte sum of a word: add the even and the odd bytes as 16-bit lanes
 * (SWAR).  A lane gets at most 2 * 255 per word, so lanes are folded into
 * the 64-bit total every 64 words, long before they could overflow. */
#define LANES ((word_t)-1 / 0xffff * 0xff)   /* 0x00ff00ff... */
#define FOLD_WORDS 64

static inline uint64_t fold_lanes(word_t acc)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < WORD / 2; i++, acc >>= 16)
		sum += acc & 0xffff;
	return sum;
}

uint64_t mem_words_read(const void *src, size_t n)
{
	const unsigned char *s = src;
	size_t h = head_bytes(s, n);
	uint64_t sum = 0;

	n -= h;
	NOVEC
	while (h--)
		sum += *s++;
	while (n >= WORD) {
		size_t k = n / WORD < FOLD_WORDS ? n / WORD : FOLD_WORDS;
		word_t acc = 0;
		n -= k * WORD;
		NOVEC
		for (; k; k--, s += WORD) {
			word_t w = load_word(s);
			__asm__("" : "+r"(w));
			acc += (w & LANES) + ((w >> 8) & LANES);
		}
		sum += fold_lanes(acc);
	}
	NOVEC
	while (n--)
		sum += *s++;
	return sum;
}

MEM_KERNELS_END
