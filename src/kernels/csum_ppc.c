/* csum_ppc.c - PowerPC checksum variant `adde`: aligned 32-bit words in
 * one carry chain (addc/adde, CA in XER), four words per iteration, the
 * loop counted in CTR by bdnz, which leaves CA alone; addze folds the last
 * carry.  An alignment prologue (odd byte, then half-word) makes every lwz
 * aligned; csum_impl.h describes the odd-start bookkeeping. */
#if defined(__powerpc__) || defined(__powerpc64__)
#include "csum_impl.h"

#include <stdint.h>

uint32_t csum_adde(const void *buf, size_t len, uint32_t seed);

/* nblocks >= 1 blocks of 16 bytes at a 4-byte aligned p. */
static unsigned long adde_blocks(const unsigned char *p, unsigned long nblocks, unsigned long s)
{
	unsigned long t0, t1, t2, t3;

	__asm__("mtctr %[n]\n\t"
		"addic %[s], %[s], 0\n"   /* CA = 0 */
		"1:\n\t"
		"lwz %[t0], 0(%[p])\n\t"
		"lwz %[t1], 4(%[p])\n\t"
		"lwz %[t2], 8(%[p])\n\t"
		"lwz %[t3], 12(%[p])\n\t"
		"adde %[s], %[s], %[t0]\n\t"
		"adde %[s], %[s], %[t1]\n\t"
		"adde %[s], %[s], %[t2]\n\t"
		"adde %[s], %[s], %[t3]\n\t"
		"addi %[p], %[p], 16\n\t"
		"bdnz 1b\n\t"
		"addze %[s], %[s]\n\t"
		: [s] "+r"(s), [p] "+b"(p), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3)
		: [n] "r"(nblocks)
		: "ctr", "xer", "memory");
	return s;
}

uint32_t csum_adde(const void *buf, size_t len, uint32_t seed)
{
	const unsigned char *p = buf;
	int odd = (int)((uintptr_t)p & 1);
	uint64_t sum = csum_native_seed(seed, odd);
	unsigned long nblocks;

	if (odd && len) {
		sum += csum_byte_second(*p);
		p++;
		len--;
	}
	if (((uintptr_t)p & 2) && len >= 2) {
		sum += csum_load16(p);
		p += 2;
		len -= 2;
	}
	nblocks = (unsigned long)(len / 16);
	if (nblocks)
		sum = csum_add64(sum, adde_blocks(p, nblocks, 0));
	p += 16 * (size_t)nblocks;
	len -= 16 * (size_t)nblocks;
	sum = csum_add64(sum, csum_native_tail(p, len));
	return csum_native_result(csum_fold64(sum), odd);
}

#else
typedef int csum_ppc_unused;   /* ISO C forbids an empty translation unit */
#endif
