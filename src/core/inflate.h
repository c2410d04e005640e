/* inflate.h - a small DEFLATE (RFC 1951) and gzip (RFC 1952) decoder, so
 * that the kernel's /proc/config.gz can be read without a zlib in the
 * static binary.  Output is bounded by the caller; any input, however
 * corrupt or truncated, ends in an error code, never in a crash. */
#ifndef BB_FACTS_INFLATE_H
#define BB_FACTS_INFLATE_H

#include <stddef.h>
#include <stdint.h>

enum {
	BB_INFLATE_OK = 0,
	BB_INFLATE_BAD = -1,      /* not valid DEFLATE/gzip, truncated, or a CRC mismatch */
	BB_INFLATE_TOO_BIG = -2,  /* the output would pass the caller's bound */
	BB_INFLATE_NOMEM = -3,
};

/* Raw DEFLATE data in[0..inlen) into out (at most outcap bytes); *outlen
 * gets the bytes written, *used (if not NULL) the input bytes the stream
 * took up to its last block's end. */
int bb_inflate(const unsigned char *in, size_t inlen, unsigned char *out, size_t outcap,
	       size_t *outlen, size_t *used);

/* A gzip file (one member or several, concatenated) into a new malloc'd
 * buffer of at most max bytes, NUL-terminated (so *out holds *outlen + 1
 * bytes); CRC-32 and length of every member are checked.  *out is NULL
 * after an error. */
int bb_gunzip(const unsigned char *in, size_t inlen, unsigned char **out, size_t *outlen,
	      size_t max);

/* CRC-32 (the gzip polynomial) of buf, continuing from crc (0 to start). */
uint32_t bb_crc32(uint32_t crc, const unsigned char *buf, size_t len);

#endif
