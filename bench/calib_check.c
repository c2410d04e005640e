/* bench/calib_check.c - a check of the assumption behind boardbench's
 * estimated core clock (src/core/calib.h: one dependent integer add per
 * cycle) that needs no cycle counter: it times, alternating, a chain of
 * dependent adds (the calib kernel's loop) and a chain of dependent 64-bit
 * multiplies, whose latency the vendors document (3 cycles on AMD Zen 1-4
 * and on Intel cores since Nehalem).  If the add chain runs one add per
 * cycle, the multiply chain runs at a third of its rate; a ratio near 1.5
 * would say the add loop takes two cycles (a narrow core), near 3 it is as
 * assumed.  It prints the best of N samples of each and their ratio.
 *
 *   cc -O2 -o calib_check bench/calib_check.c && ./calib_check [samples]
 *
 * Not part of the boardbench binary.  It checks consistency, not the clock
 * itself: a core with both a 2-cycle add loop and a 6-cycle multiply would
 * pass, so the docs say which cores it was run on.  It also times the
 * estimate's chain (eight adds a step, src/core/calib.c): the calib loop
 * issues four instructions per add and slows down when an SMT sibling
 * shares the core's issue slots; the multiply chain does not. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* As bb_calib_chain(): x += i, one add after another. */
static double add_chain(unsigned long n)
{
	unsigned long x = 0;
	double t0 = now();

	for (unsigned long i = 0; i < n; i++) {
		x += i;
		__asm__ __volatile__("" : "+r"(x));
	}
	__asm__ __volatile__("" : : "r"(x));
	return now() - t0;
}

/* As the estimate's chain in calib.c: eight dependent adds a step. */
static double add8_chain(unsigned long n)
{
	unsigned long x = 0;
	double t0 = now();

#define ADD(x, i) do { x += i; __asm__ __volatile__("" : "+r"(x)); } while (0)
	for (unsigned long i = 0; i < n; i += 8) {
		ADD(x, i); ADD(x, i); ADD(x, i); ADD(x, i);
		ADD(x, i); ADD(x, i); ADD(x, i); ADD(x, i);
	}
#undef ADD
	__asm__ __volatile__("" : : "r"(x));
	return now() - t0;
}

/* x = x * odd: each multiply waits for the one before. */
static double mul_chain(unsigned long n)
{
	uint64_t x = 3;
	double t0 = now();

	for (unsigned long i = 0; i < n; i++) {
		x *= 0x9e3779b97f4a7c15ull;
		__asm__ __volatile__("" : "+r"(x));
	}
	__asm__ __volatile__("" : : "r"(x));
	return now() - t0;
}

int main(int argc, char **argv)
{
	int samples = argc > 1 ? atoi(argv[1]) : 50;
	unsigned long n = 1ul << 22;
	double best_add = 1e9, best_add8 = 1e9, best_mul = 1e9;

	if (samples < 1)
		samples = 1;
	for (int i = 0; i < samples; i++) {
		double a = add_chain(n), a8 = add8_chain(n), m = mul_chain(n / 4);
		best_add = a < best_add ? a : best_add;
		best_add8 = a8 < best_add8 ? a8 : best_add8;
		best_mul = m < best_mul ? m : best_mul;
	}
	printf("add chain: %.1f M adds/s (best of %d, %lu each)\n", n / best_add * 1e-6, samples, n);
	printf("add chain, 8 a step (the estimate's): %.1f M adds/s\n", n / best_add8 * 1e-6);
	printf("mul chain: %.1f M multiplies/s\n", n / 4 / best_mul * 1e-6);
	printf("ratio add/mul: %.2f (3.00 if an add takes 1 cycle and a multiply 3)\n",
	       4 * best_mul / best_add);
	printf("ratio add8/mul: %.2f (the same check for the estimate's chain)\n",
	       4 * best_mul / best_add8);
	return 0;
}
