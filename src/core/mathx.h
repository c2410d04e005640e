/* mathx.h - e^x, 2^x and the natural logarithm of a double, written out
 * here so that the small static binary does without the C library's
 * table-driven versions (about 12 KB with musl), which boardbench needs
 * only for log-spaced sizes (lat, mem sweep) and the ratios of the
 * plateau finder.  The host-side analysis (src/analysis/) keeps libm.
 *
 * Each result is within 2 ulp of the exact value (the unit test compares
 * them with libm's over the whole range), and exact where that is easy
 * to promise: bb_exp2 of an integer is that power of two, bb_exp(0) and
 * bb_log(1) are exact.  Special values follow C's rules: NaN gives NaN,
 * bb_exp(+inf) = +inf, bb_exp(-inf) = 0, results too large are +inf and
 * too small 0; bb_log(0) = -inf, bb_log(+inf) = +inf, and the log of a
 * negative number is NaN.  errno is never set.
 */
#ifndef BB_MATHX_H
#define BB_MATHX_H

double bb_exp(double x);
double bb_exp2(double x);
double bb_log(double x);

#endif
