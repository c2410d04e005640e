/* random.c - secret random bytes from the kernel (see random.h). */
#include "core/random.h"

#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>

int bb_random(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		ssize_t r = getrandom(p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}
