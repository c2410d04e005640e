/* mathx.c - e^x, 2^x and log(x) without libm (see mathx.h).
 *
 * e^x: x = k ln2 + r with |r| <= ln2/2 (ln2 split in two parts, the high
 * one short enough that k times it is exact), e^r from its Taylor series
 * (14 terms reach below half an ulp), then scaled by 2^k.
 * 2^x: k = x rounded, f = x - k (exact), 2^f = e^(f ln2), scaled by 2^k.
 * log x: x = m 2^e with m in [sqrt(1/2), sqrt(2)); with f = m - 1 and
 * s = f / (2 + f), log m = 2 atanh s = f - f s + 2 (s^3/3 + s^5/5 + ...),
 * a series in s^2 <= 0.0295; then log x = e ln2 + log m.
 * The doubles are IEEE-754 binary64 on every target boardbench builds for.
 */
#include "mathx.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define LN2_HI 0x1.62e42fefa2000p-1   /* ln 2, its first 40 bits */
#define LN2_LO 0x1.9ef35793c7673p-41  /* ln 2 - LN2_HI */
#define LN2 0x1.62e42fefa39efp-1
#define INV_LN2 0x1.71547652b82fep+0
#define SQRT2 0x1.6a09e667f3bcdp+0
#define EXP_TERMS 14
#define ATANH_TERMS 10

static uint64_t bits_of(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof u);
	return u;
}

static double from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof x);
	return x;
}

/* 2^k for k in [-1022, 1023] (a normal double). */
static double pow2i(int k)
{
	return from_bits((uint64_t)(k + 1023) << 52);
}

/* p * 2^k for p in [0.5, 2], rounded once, as ldexp does: a result below
 * the normal range is made in a normal number first, then scaled down in
 * one multiplication. */
static double scale2(double p, int k)
{
	if (k > 1023) {
		p *= pow2i(1023);
		k -= 1023;
	}
	if (k < -1021) {
		if (k < -1076)
			return 0.0;
		return p * pow2i(k + 64) * pow2i(-64);
	}
	return p * pow2i(k);
}

/* Nearest integer to x (halves away from zero), for |x| < 2^30. */
static int nearest_int(double x)
{
	return (int)(x < 0 ? x - 0.5 : x + 0.5);
}

/* e^r for |r| <= 0.35: 1 + r (1 + r/2 (1 + r/3 (... (1 + r/14)))). */
static double exp_small(double r)
{
	double q = 1.0;

	for (int n = EXP_TERMS; n >= 2; n--)
		q = 1.0 + q * r / n;
	return 1.0 + r * q;
}

double bb_exp(double x)
{
	int k;

	if (x != x)
		return x;
	if (x > 710.0)
		return INFINITY;
	if (x < -746.0)
		return 0.0;
	k = nearest_int(x * INV_LN2);
	return scale2(exp_small((x - k * LN2_HI) - k * LN2_LO), k);
}

double bb_exp2(double x)
{
	int k;

	if (x != x)
		return x;
	if (x > 1025.0)
		return INFINITY;
	if (x < -1100.0)
		return 0.0;
	k = nearest_int(x);
	return scale2(exp_small((x - k) * LN2), k);
}

/* log m for m in [sqrt(1/2), sqrt(2)). */
static double log_near1(double m)
{
	double f = m - 1.0, s = f / (2.0 + f), z = s * s, t = 0.0;

	for (int j = ATANH_TERMS; j >= 1; j--)
		t = 2.0 / (2 * j + 1) + z * t;
	return f - (f * s - s * z * t);
}

double bb_log(double x)
{
	uint64_t u;
	int e = 0;
	double m;

	if (x != x || x == INFINITY)
		return x;
	if (x == 0.0)
		return -INFINITY;
	if (x < 0.0)
		return NAN;
	if (x < 0x1p-1022) {   /* subnormal: make it normal */
		x *= 0x1p54;
		e = -54;
	}
	u = bits_of(x);
	e += (int)(u >> 52) - 1023;
	m = from_bits((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
	if (m >= SQRT2) {
		m *= 0.5;
		e++;
	}
	return e * LN2_HI + (e * LN2_LO + log_near1(m));
}
