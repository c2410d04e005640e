/* mem.h - memory primitive variants for the `mem` applet and its checker:
 * memcpy, memset, copy_page, clear_page and read (a sum over a buffer).
 *
 * Every variant is one table row (docs/DESIGN.md, "Variant registries") with one
 * function per operation behind the same signature for every row, or NULL
 * when the variant has no code for that operation (a dc zva row only clears
 * pages).  supported() checks the CPU at run time.  The rows are listed per
 * architecture in mem_table.c; the kernels live in mem_<arch>.c.
 */
#ifndef BB_KERNELS_MEM_H
#define BB_KERNELS_MEM_H

#include <stddef.h>
#include <stdint.h>

/* The page that copy_page and clear_page work on: 4 KiB, page-aligned, as
 * the kernel's copy_page()/clear_page() see it. */
#define MEM_PAGE 4096

enum mem_op { MEM_MEMCPY, MEM_MEMSET, MEM_COPY_PAGE, MEM_CLEAR_PAGE, MEM_READ, MEM_NOPS };

/* memcpy and memset take libc's signatures; read returns the sum of the
 * buffer's bytes (as unsigned values, modulo 2^64), which is the same on
 * every architecture, byte order and alignment, so every variant can be
 * checked exactly against a byte loop. */
typedef void *(*mem_copy_fn)(void *restrict dst, const void *restrict src, size_t n);
typedef void *(*mem_set_fn)(void *dst, int c, size_t n);
typedef void (*mem_copy_page_fn)(void *restrict dst, const void *restrict src);
typedef void (*mem_clear_page_fn)(void *dst);
typedef uint64_t (*mem_read_fn)(const void *src, size_t n);

struct mem_variant {
	const char *name;
	const char *desc;
	int (*supported)(void);
	mem_copy_fn copy;
	mem_set_fn set;
	mem_copy_page_fn copy_page;
	mem_clear_page_fn clear_page;
	mem_read_fn read;
};

extern const struct mem_variant mem_variants[];
extern const size_t mem_nvariants;

const struct mem_variant *mem_variant_find(const char *name);

/* "memcpy", "memset", "copy_page", "clear_page", "read". */
const char *mem_op_name(enum mem_op op);
/* Returns the op, or -1 for an unknown name. */
int mem_op_parse(const char *name);
/* 1 if v has code for op. */
int mem_variant_has(const struct mem_variant *v, enum mem_op op);

/* The plain byte sum every read variant must return. */
uint64_t mem_ref_sum(const void *src, size_t n);

/* Brackets every kernel file's functions: a loop of loads and stores must
 * stay the code it is, never be replaced by a call to memcpy or memset (gcc's
 * loop distribution and clang's loop idiom recognition both do that). */
#if defined(__clang__)
#define MEM_KERNELS_BEGIN \
	_Pragma("clang attribute push (__attribute__((no_builtin)), apply_to = function)")
#define MEM_KERNELS_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#define MEM_KERNELS_BEGIN \
	_Pragma("GCC push_options") _Pragma("GCC optimize (\"no-tree-loop-distribute-patterns\")")
#define MEM_KERNELS_END _Pragma("GCC pop_options")
#else
#define MEM_KERNELS_BEGIN
#define MEM_KERNELS_END
#endif

/* Declarations for a kernel file: MEM_IF_1(x) keeps x, MEM_IF_0(x) drops it,
 * so one X-macro row with 0/1 flags declares and fills exactly the
 * operations a variant has (see mem_table.c). */
#define MEM_IF_1(x) x
#define MEM_IF_0(x)
#define MEM_OR_NULL_1(f) f
#define MEM_OR_NULL_0(f) NULL

#define MEM_DECLARE(pfx, C, S, P, Z, R)                                                  \
	int pfx##_supported(void);                                                       \
	MEM_IF_##C(void *pfx##_memcpy(void *restrict dst, const void *restrict src,     \
				      size_t n);)                                        \
	MEM_IF_##S(void *pfx##_memset(void *dst, int c, size_t n);)                      \
	MEM_IF_##P(void pfx##_copy_page(void *restrict dst, const void *restrict src);) \
	MEM_IF_##Z(void pfx##_clear_page(void *dst);)                                    \
	MEM_IF_##R(uint64_t pfx##_read(const void *src, size_t n);)

#endif
