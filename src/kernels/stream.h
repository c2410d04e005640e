/* stream.h - STREAM kernel variants: every variant is one table row with the
 * four kernels behind the same signatures (docs/DESIGN.md, "Variant registries").
 *
 * The standard row is plain C as McCalpin's stream.c writes it.  "Tuned"
 * rows are vector code for the width the CPU has, with ordinary stores or
 * with non-temporal ones, and are reported as "tuned STREAM", as the
 * STREAM run rules require.  supported() checks the CPU at run time.
 */
#ifndef BB_KERNELS_STREAM_H
#define BB_KERNELS_STREAM_H

#include <stddef.h>

typedef void (*stream_copy_fn)(double *restrict c, const double *restrict a, size_t n);
typedef void (*stream_scale_fn)(double *restrict b, const double *restrict c, double q, size_t n);
typedef void (*stream_add_fn)(double *restrict c, const double *restrict a,
			      const double *restrict b, size_t n);
typedef void (*stream_triad_fn)(double *restrict a, const double *restrict b,
				const double *restrict c, double q, size_t n);

struct stream_variant {
	const char *name;
	const char *desc;
	int tuned;                 /* 1: not the standard STREAM code */
	int nt;                    /* 1: non-temporal stores, which skip the
				    * write-allocate read of each destination
				    * line: Copy and Scale move 2/3, Add and
				    * Triad 3/4 of the bytes `c` moves */
	int (*supported)(void);
	stream_copy_fn copy;
	stream_scale_fn scale;
	stream_add_fn add;
	stream_triad_fn triad;
};

extern const struct stream_variant stream_variants[];
extern const size_t stream_nvariants;

const struct stream_variant *stream_variant_find(const char *name);

/* Per-file kernels; a row in stream_table.c names them. */
#define STREAM_DECLARE(prefix)                                                     \
	void prefix##_copy(double *restrict c, const double *restrict a, size_t n); \
	void prefix##_scale(double *restrict b, const double *restrict c, double q, \
			    size_t n);                                              \
	void prefix##_add(double *restrict c, const double *restrict a,            \
			  const double *restrict b, size_t n);                      \
	void prefix##_triad(double *restrict a, const double *restrict b,          \
			    const double *restrict c, double q, size_t n);          \
	int prefix##_supported(void);

#endif
