/* bytes.h - big-endian integers in byte buffers, as every wire format and
 * digest of boardbench writes them (the control protocols, the UDP and
 * iperf2 headers, SHA-256): one definition, inlined, whatever the host's
 * own byte order. */
#ifndef BB_CORE_BYTES_H
#define BB_CORE_BYTES_H

#include <stdint.h>

/* The n-byte (1..8) big-endian number at p. */
static inline uint64_t bb_get_be(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* v's low n bytes (1..8) at p, most significant first. */
static inline void bb_put_be(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
}

static inline uint32_t bb_get_be32(const unsigned char *p)
{
	return (uint32_t)bb_get_be(p, 4);
}

static inline void bb_put_be32(unsigned char *p, uint32_t v)
{
	bb_put_be(p, v, 4);
}

#endif
