/* zcopy.h - the sender's zero-copy paths (--zerocopy):
 *   sendfile: the pattern is put once in an anonymous in-memory file
 *             (memfd) and sent from the page cache with sendfile(), or
 *             stdin is sent with sendfile() when it is a regular file;
 *   msg:      send(MSG_ZEROCOPY) from the pattern buffer (which is never
 *             written while sends are in flight), reaping the kernel's
 *             completion notices from the socket error queue.  The kernel
 *             copies anyway on loopback; the notices say so and we count it. */
#ifndef BB_NET_ZCOPY_H
#define BB_NET_ZCOPY_H

#include <stddef.h>

#include "xfer.h"

/* An in-memory file holding n bytes of the pattern; fd or -1 (errno). */
int bb_zc_pattern_file(size_t n);

/* SO_ZEROCOPY on fd; 0 or -1 (errno; EOPNOTSUPP/ENOPROTOOPT: no kernel support). */
int bb_zc_enable(int fd);

/* Reads every pending completion notice without waiting. */
void bb_zc_reap(int fd, struct bb_zc_stats *z);

/* Waits at most timeout_s for the notices of every send. */
void bb_zc_wait_all(int fd, struct bb_zc_stats *z, double timeout_s);

#endif
