/* pattern.h - the bytes a ttcp sender writes in source mode (-s): printable
 * ASCII from ' ' to '~', cycling, as classic ttcp's source pattern.
 *
 * The first byte is ' ' (0x20), so the first 32-bit word of every stream
 * has its top two bits clear: iperf2's server reads a first word with
 * 0x80000000 or 0x40000000 set as a test header, not as data. */
#ifndef BB_NET_PATTERN_H
#define BB_NET_PATTERN_H

#include <stddef.h>

#define BB_PATTERN_FIRST 0x20
#define BB_PATTERN_LAST 0x7e
#define BB_PATTERN_PERIOD (BB_PATTERN_LAST - BB_PATTERN_FIRST + 1)

void bb_pattern_fill(unsigned char *buf, size_t n);

/* 1 if a stream that starts with these bytes cannot be taken for an iperf2
 * header: its first byte has the top two bits clear (n == 0 counts as safe;
 * the first byte alone decides, whatever the write size). */
int bb_pattern_iperf2_safe(const unsigned char *buf, size_t n);

#endif
