/* zcopy.c - sendfile source file and MSG_ZEROCOPY completions (see zcopy.h). */
#include "zcopy.h"
#include "pattern.h"
#include "core/timer.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

static int write_pattern(int fd, size_t n)
{
	/* Whole periods, so a write starting at any phase continues the cycle. */
	unsigned char chunk[BB_PATTERN_PERIOD * 44];
	size_t done = 0;

	bb_pattern_fill(chunk, sizeof chunk);
	while (done < n) {
		size_t phase = done % BB_PATTERN_PERIOD;
		size_t k = sizeof chunk - phase;
		ssize_t w;

		if (k > n - done)
			k = n - done;
		w = write(fd, chunk + phase, k);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

int bb_zc_pattern_file(size_t n)
{
	int fd = memfd_create("boardbench-pattern", MFD_CLOEXEC);

	if (fd < 0) {
		FILE *f = tmpfile();           /* kernels before 3.17 */
		if (!f)
			return -1;
		fd = dup(fileno(f));
		fclose(f);
		if (fd < 0)
			return -1;
	}
	if (write_pattern(fd, n) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int bb_zc_enable(int fd)
{
#ifdef SO_ZEROCOPY
	int one = 1;
	return setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof one);
#else
	(void)fd;
	errno = ENOPROTOOPT;
	return -1;
#endif
}

/* One notice: a range of send ids, maybe marked "copied". */
static int reap_one(int fd, struct bb_zc_stats *z)
{
	char control[128];
	struct msghdr msg = { .msg_control = control, .msg_controllen = sizeof control };
	struct cmsghdr *cm;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		struct sock_extended_err ee;
		if (cm->cmsg_len < CMSG_LEN(sizeof ee))
			continue;
		memcpy(&ee, CMSG_DATA(cm), sizeof ee);
		if (ee.ee_errno != 0 || ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
			continue;
		uint64_t n = (uint32_t)(ee.ee_data - ee.ee_info) + 1ull;
		z->completed += n;
		if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
			z->copied += n;
	}
	return 0;
}

void bb_zc_reap(int fd, struct bb_zc_stats *z)
{
	/* Bounded: never more notices than sends. */
	for (uint64_t i = 0; i <= z->sent && reap_one(fd, z) == 0; i++)
		;
}

void bb_zc_wait_all(int fd, struct bb_zc_stats *z, double timeout_s)
{
	double end = bb_now() + timeout_s;

	bb_zc_reap(fd, z);
	while (z->completed < z->sent && bb_now() < end) {
		struct pollfd p = { .fd = fd, .events = 0 };
		poll(&p, 1, 10);              /* POLLERR is always reported */
		bb_zc_reap(fd, z);
	}
}
