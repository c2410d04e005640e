/* random.h - secret random bytes from the kernel (getrandom), for the
 * tokens, nonces and cookie keys that network peers must not guess. */
#ifndef BB_CORE_RANDOM_H
#define BB_CORE_RANDOM_H

#include <stddef.h>

/* Fills buf with n bytes from getrandom(); 0, or -1 with errno. */
int bb_random(void *buf, size_t n);

#endif
