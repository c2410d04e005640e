/* random.c - secret random bytes from the kernel (see random.h).  Early
 * in a board's boot the kernel's pool may not be ready yet (on an emulated
 * vexpress it was ready 98.9 s after boot): the wait is said in one note,
 * never silent. */
#include "core/random.h"
#include "core/progress.h"

#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>

static int said;

/* getrandom that says, once, when it has to wait for the pool. */
static ssize_t random_or_wait(void *p, size_t n)
{
	ssize_t r = getrandom(p, n, GRND_NONBLOCK);

	if (r >= 0 || errno != EAGAIN)
		return r;
	if (!said) {
		said = 1;
		bb_note("waiting for the kernel's random pool (early boot: a hardware RNG, "
			"virtio-rng or jitterentropy fills it) for the secret tokens");
	}
	return getrandom(p, n, 0);
}

int bb_random(void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n > 0) {
		ssize_t r = random_or_wait(p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}
