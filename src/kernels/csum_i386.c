/* csum_i386.c - the two shapes of the Linux i386 Internet checksum that the
 * Geode report compared ("ppro" against "non-ppro"), written here from
 * their description, for 32-bit x86 builds:
 *
 *   i386-generic  the generic shape: 32 bytes a loop, each word loaded
 *                 into a register (movl) and added with adcl, then the
 *                 words left one at a time, then 2 and 1 bytes
 *   i386-ppro     the PPro shape (X86_USE_PPRO_CHECKSUM): one block of
 *                 32 adcl instructions with memory operands, 128 bytes a
 *                 loop, entered by a computed jump so the first, partial
 *                 block needs no separate loop
 *
 * Both first align the pointer as the kernel does (an odd byte, then a
 * 16-bit word) and keep one carry chain through their loops: every add is
 * an adcl and the loop control (lea, dec) leaves the carry flag alone.  A
 * chain that starts with the carry clear never reaches 0xffffffff with the
 * carry set, so the one adcl $0 that closes it cannot carry out.
 *
 * An x86-64 build lists both as unsupported (the report's variants are
 * 32-bit code); there the functions are never called.
 */
#include "csum_impl.h"

#include <stdint.h>
#include <stdlib.h>

uint32_t csum_i386_generic(const void *buf, size_t len, uint32_t seed);
uint32_t csum_i386_ppro(const void *buf, size_t len, uint32_t seed);
int csum_i386_supported(void);

#if defined(__i386__)

int csum_i386_supported(void)
{
	return 1;
}

/* ---- the generic shape ---- */

#define MOVADC(off) "movl " #off "(%[p]), %[t]\n\tadcl %[t], %[s]\n\t"

/* The native sum of nwords 32-bit words at p (4-byte aligned), added to sum. */
static uint32_t generic_words(const unsigned char *p, size_t nwords, uint32_t sum)
{
	size_t blocks = nwords / 8, rest = nwords % 8;
	uint32_t t;

	__asm__("testl %[b], %[b]\n\t"   /* clears the carry */
		"jz 2f\n"
		"1:\n\t"
		MOVADC(0) MOVADC(4) MOVADC(8) MOVADC(12)
		MOVADC(16) MOVADC(20) MOVADC(24) MOVADC(28)
		"leal 32(%[p]), %[p]\n\t"
		"decl %[b]\n\t"
		"jnz 1b\n\t"
		"adcl $0, %[s]\n"
		"2:\n\t"
		"testl %[r], %[r]\n\t"
		"jz 4f\n"
		"3:\n\t"
		"adcl (%[p]), %[s]\n\t"
		"leal 4(%[p]), %[p]\n\t"
		"decl %[r]\n\t"
		"jnz 3b\n\t"
		"adcl $0, %[s]\n"
		"4:"
		: [s] "+r"(sum), [p] "+r"(p), [b] "+r"(blocks), [r] "+r"(rest), [t] "=&r"(t)
		:
		: "cc", "memory");
	return sum;
}

#undef MOVADC

/* ---- the PPro shape ---- */

#define ADC4(o) "adcl " #o "(%[p]), %[s]\n\tadcl " #o "+4(%[p]), %[s]\n\t" \
		"adcl " #o "+8(%[p]), %[s]\n\tadcl " #o "+12(%[p]), %[s]\n\t"
#define ADC_BYTES 3   /* adcl disp8(%reg), %reg: opcode, ModRM, disp8 */

/* The same for nwords >= 1.  %[p] points at the end of the current block
 * and the block reads -128(%[p]) .. -4(%[p]), each adcl the same 3 bytes
 * long (never a zero displacement, which would be shorter).  The first
 * block holds r = nwords % 32 words (32 if that is 0): p starts at
 * buf + 4r and the jump enters the block at its (32 - r)th adcl.  The
 * block's address comes from a call to a two-instruction routine inside
 * the asm (mov (%esp); ret), so the code is position independent and every
 * call meets its ret. */
static uint32_t ppro_words(const unsigned char *p, size_t nwords, uint32_t sum)
{
	size_t r = nwords % 32 ? nwords % 32 : 32;
	size_t loops = (nwords + 31) / 32;
	size_t skip = ADC_BYTES * (32 - r);
	uintptr_t here;

	p += 4 * r;
	__asm__("jmp 6f\n"
		"5:\n\t"
		"movl (%%esp), %[h]\n\t"
		"ret\n"
		"6:\n\t"
		"call 5b\n"
		"7:\n\t"
		"leal 1f-7b(%[h],%[k]), %[k]\n\t"
		"clc\n\t"
		"jmp *%[k]\n"
		".p2align 4\n"
		"1:\n\t"
		ADC4(-128) ADC4(-112) ADC4(-96) ADC4(-80)
		ADC4(-64) ADC4(-48) ADC4(-32) ADC4(-16)
		"leal 128(%[p]), %[p]\n\t"
		"decl %[n]\n\t"
		"jnz 1b\n\t"
		"adcl $0, %[s]"
		: [s] "+r"(sum), [p] "+r"(p), [n] "+r"(loops), [k] "+r"(skip), [h] "=&r"(here)
		:
		: "cc", "memory");
	return sum;
}

#undef ADC4

/* ---- the common frame: alignment, words, the last 2 and 1 bytes ---- */

typedef uint32_t (*words_fn)(const unsigned char *p, size_t nwords, uint32_t sum);

static uint32_t i386_csum(const void *buf, size_t len, uint32_t seed, words_fn words)
{
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint32_t sum = csum_native_seed(seed, odd);

	if (odd && len) {
		sum = csum_add32(sum, csum_byte_second(*p));
		p++;
		len--;
	}
	if (((uintptr_t)p & 2) && len >= 2) {
		sum = csum_add32(sum, csum_load16(p));
		p += 2;
		len -= 2;
	}
	if (len >= 4) {
		sum = words(p, len / 4, sum);
		p += len / 4 * 4;
		len %= 4;
	}
	if (len >= 2) {
		sum = csum_add32(sum, csum_load16(p));
		p += 2;
		len -= 2;
	}
	if (len)
		sum = csum_add32(sum, csum_byte_first(*p));
	return csum_native_result(sum, odd);
}

uint32_t csum_i386_generic(const void *buf, size_t len, uint32_t seed)
{
	return i386_csum(buf, len, seed, generic_words);
}

uint32_t csum_i386_ppro(const void *buf, size_t len, uint32_t seed)
{
	return i386_csum(buf, len, seed, ppro_words);
}

#elif defined(__x86_64__)

int csum_i386_supported(void)
{
	return 0;
}

uint32_t csum_i386_generic(const void *buf, size_t len, uint32_t seed)
{
	(void)buf, (void)len, (void)seed;
	abort();
}

uint32_t csum_i386_ppro(const void *buf, size_t len, uint32_t seed)
{
	(void)buf, (void)len, (void)seed;
	abort();
}

#endif
