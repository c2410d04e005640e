/* stream_generic.c - the standard STREAM kernels in plain C, as stream.c
 * writes them; the compiler may vectorise them, as it does for stream.c. */
#include "stream.h"

STREAM_DECLARE(stream_c)

int stream_c_supported(void)
{
	return 1;
}

void stream_c_copy(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

void stream_c_scale(double *restrict b, const double *restrict c, double q, size_t n)
{
	for (size_t j = 0; j < n; j++)
		b[j] = q * c[j];
}

void stream_c_add(double *restrict c, const double *restrict a, const double *restrict b,
		  size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j] + b[j];
}

void stream_c_triad(double *restrict a, const double *restrict b, const double *restrict c,
		    double q, size_t n)
{
	for (size_t j = 0; j < n; j++)
		a[j] = b[j] + q * c[j];
}
