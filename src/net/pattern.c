/* pattern.c - the source-mode pattern (see pattern.h). */
#include "pattern.h"

void bb_pattern_fill(unsigned char *buf, size_t n)
{
	unsigned char c = BB_PATTERN_FIRST;

	for (size_t i = 0; i < n; i++) {
		buf[i] = c;
		c = c == BB_PATTERN_LAST ? BB_PATTERN_FIRST : (unsigned char)(c + 1);
	}
}

int bb_pattern_iperf2_safe(const unsigned char *buf, size_t n)
{
	return n == 0 || (buf[0] & 0xc0) == 0;
}
