/* units.h - network units the way network tools write them: rates in bits
 * per second with decimal (SI) suffixes, k = 10^3, M = 10^6, G = 10^9, as
 * link speeds are quoted (a "100M" link carries 10^8 bits per second). */
#ifndef BB_NET_UNITS_H
#define BB_NET_UNITS_H

#include <stddef.h>

/* "100M", "1.5g", "250000" -> bits per second in (0, 10^12].  Returns 0, or
 * -1 on anything else (empty, junk, zero, negative, too large). */
int bb_parse_rate(const char *s, double *bits_per_s);

/* "943.72 Mbit/s" with an SI prefix chosen for the size of the value. */
void bb_fmt_si_rate(char *buf, size_t len, double bits_per_s);

#endif
