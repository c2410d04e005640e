/* test_stream_table.c - unit tests for the STREAM variant registry
 * (src/kernels/stream_table.c) and its kernels: names are unique and found,
 * `c` is first and standard, every non-temporal row is tuned and says in
 * its description that it skips the write-allocate reads, no row is
 * marked untested (the AVX-512 ones ran on an AVX-512 host), and every supported row computes exactly what `c` computes (the
 * same mul then add, no fused multiply-add) on lengths around the vector
 * and line widths, at every start offset of a line.  Nothing here assumes
 * a CPU feature: unsupported rows are only checked for their text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/stream.h"

static void test_names(void **state)
{
	(void)state;
	assert_true(stream_nvariants >= 1);
	assert_string_equal(stream_variants[0].name, "c");
	assert_int_equal(stream_variants[0].tuned, 0);
	assert_int_equal(stream_variants[0].nt, 0);
	assert_true(stream_variants[0].supported());
	for (size_t i = 0; i < stream_nvariants; i++) {
		const struct stream_variant *v = &stream_variants[i];
		assert_ptr_equal(stream_variant_find(v->name), v);
		for (size_t j = i + 1; j < stream_nvariants; j++)
			assert_string_not_equal(v->name, stream_variants[j].name);
		assert_non_null(v->copy);
		assert_non_null(v->scale);
		assert_non_null(v->add);
		assert_non_null(v->triad);
	}
	assert_null(stream_variant_find("no-such-variant"));
}

static void test_nt_rows_say_so(void **state)
{
	(void)state;
	for (size_t i = 0; i < stream_nvariants; i++) {
		const struct stream_variant *v = &stream_variants[i];
		if (v->nt) {
			assert_true(v->tuned);
			assert_non_null(strstr(v->desc, "write-allocate"));
		}
		assert_null(strstr(v->desc, "UNTESTED"));   /* every row has run somewhere */
	}
}

#define LEN 300

static void fill(double *x, size_t n, double base)
{
	for (size_t j = 0; j < n; j++)
		x[j] = base + (double)(j % 17) * 0.25;
}

/* Every supported row against `c`, bit for bit, at offsets 0..7 of a
 * 64-byte line and lengths 0..LEN-8. */
static void test_rows_match_c(void **state)
{
	const struct stream_variant *c = &stream_variants[0];
	double *m = NULL;

	(void)state;
	assert_int_equal(posix_memalign((void **)&m, 64, 6 * (LEN + 8) * sizeof(double)), 0);
	double *a = m, *b = a + LEN + 8, *d = b + LEN + 8;      /* inputs */
	double *x = d + LEN + 8, *y = x + LEN + 8;              /* outputs */
	for (size_t i = 1; i < stream_nvariants; i++) {
		const struct stream_variant *v = &stream_variants[i];
		if (!v->supported())
			continue;
		for (size_t off = 0; off < 8; off++)
			for (size_t n = 0; n + 8 <= LEN; n += (n < 40 ? 1 : 13)) {
				fill(a, LEN + 8, 1.0);
				fill(b, LEN + 8, 2.5);
				memset(x, 0, (LEN + 8) * sizeof(double));
				memset(y, 0, (LEN + 8) * sizeof(double));
				c->triad(x + off, a + off, b + off, 3.0, n);
				v->triad(y + off, a + off, b + off, 3.0, n);
				assert_memory_equal(x, y, (LEN + 8) * sizeof(double));
				c->add(x + off, a + off, b + off, n);
				v->add(y + off, a + off, b + off, n);
				assert_memory_equal(x, y, (LEN + 8) * sizeof(double));
				c->scale(x + off, b + off, 3.0, n);
				v->scale(y + off, b + off, 3.0, n);
				assert_memory_equal(x, y, (LEN + 8) * sizeof(double));
				c->copy(x + off, a + off, n);
				v->copy(y + off, a + off, n);
				assert_memory_equal(x, y, (LEN + 8) * sizeof(double));
			}
	}
	(void)d;
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_nt_rows_say_so),
		cmocka_unit_test(test_rows_match_c),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
