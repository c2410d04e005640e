/* test_guard.c - unit tests for src/core/guard.c: the layout of a guarded
 * buffer (whole pages, a PROT_NONE page on each side), that a read one byte
 * past either end faults and comes back from bb_guard_run as the signal
 * while a read of the last and first usable bytes does not, that SIGBUS is
 * caught as well as SIGSEGV, that the handlers in place before a run are
 * back after it (so a fault outside any run still ends the process), and
 * that runs nest and repeat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "core/guard.h"

static size_t page(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* What a run did: the byte it was told to read, how far it got. */
struct probe {
	const unsigned char *at;
	int reached;      /* set just before the read */
	int finished;     /* set after it: stays 0 when the read faulted */
	unsigned char got;
};

static void read_one(void *arg)
{
	struct probe *p = arg;

	p->reached = 1;
	p->got = *(const volatile unsigned char *)p->at;
	p->finished = 1;
}

/* Runs a read of *at; returns the signal, 0 if none. */
static int probe_read(const unsigned char *at, struct probe *p)
{
	memset(p, 0, sizeof *p);
	p->at = at;
	return bb_guard_run(read_one, p);
}

static void assert_faults(const unsigned char *at)
{
	struct probe p;
	int sig = probe_read(at, &p);

	if (sig != SIGSEGV && sig != SIGBUS)
		fail_msg("a read at the guard page gave %d, not SIGSEGV or SIGBUS", sig);
	assert_true(p.reached);
	assert_false(p.finished);
}

static void assert_reads(const unsigned char *at, unsigned char want)
{
	struct probe p;

	assert_int_equal(probe_read(at, &p), 0);
	assert_true(p.finished);
	assert_int_equal(p.got, want);
}

/* ---- the buffer ---- */

static void test_map_layout(void **state)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 100000 };
	struct bb_guarded g;

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t want = (sizes[i] + page() - 1) / page() * page();
		assert_int_equal(bb_guarded_map(&g, sizes[i]), 0);
		assert_non_null(g.map);
		assert_int_equal((uintptr_t)g.lo % page(), 0);
		assert_int_equal((size_t)(g.hi - g.lo), want);
		assert_ptr_equal(g.lo, g.map + page());
		assert_int_equal(g.map_bytes, want + 2 * page());
		memset(g.lo, 0x5a, want);   /* every usable byte is writable */
		bb_guarded_unmap(&g);
		assert_null(g.map);
		bb_guarded_unmap(&g);       /* twice is harmless */
	}
}

/* ---- faults come back as a value ---- */

static void test_read_inside_does_not_fault(void **state)
{
	struct bb_guarded g;

	(void)state;
	assert_int_equal(bb_guarded_map(&g, 100), 0);
	memset(g.lo, 0, (size_t)(g.hi - g.lo));
	g.lo[0] = 0x11;
	g.hi[-1] = 0x22;
	assert_reads(g.lo, 0x11);
	assert_reads(g.hi - 1, 0x22);
	bb_guarded_unmap(&g);
}

static void test_read_past_end_faults(void **state)
{
	struct bb_guarded g;

	(void)state;
	assert_int_equal(bb_guarded_map(&g, 100), 0);
	assert_faults(g.hi);              /* one past the end */
	assert_faults(g.hi + page() - 1); /* the guard page's last byte */
	assert_faults(g.lo - 1);          /* one before the start */
	assert_faults(g.map);
	bb_guarded_unmap(&g);
}

static void write_one(void *arg)
{
	struct probe *p = arg;

	p->reached = 1;
	*(volatile unsigned char *)(uintptr_t)p->at = 0xee;
	p->finished = 1;
}

static void test_write_past_end_faults(void **state)
{
	struct bb_guarded g;
	struct probe p = { 0 };

	(void)state;
	assert_int_equal(bb_guarded_map(&g, 1), 0);
	p.at = g.hi - 1;
	assert_int_equal(bb_guard_run(write_one, &p), 0);
	assert_int_equal(g.hi[-1], 0xee);
	p = (struct probe){ g.hi, 0, 0, 0 };
	assert_int_equal(bb_guard_run(write_one, &p), SIGSEGV);
	assert_true(p.reached);
	assert_false(p.finished);
	bb_guarded_unmap(&g);
}

/* A read of a file mapping past the end of the file raises SIGBUS. */
static void test_sigbus_caught(void **state)
{
	FILE *f = tmpfile();
	unsigned char *m;
	struct probe p;

	(void)state;
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), (off_t)page()), 0);
	m = mmap(NULL, 2 * page(), PROT_READ, MAP_SHARED, fileno(f), 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(probe_read(m, &p), 0);              /* inside the file */
	assert_int_equal(probe_read(m + page(), &p), SIGBUS); /* past its end */
	assert_false(p.finished);
	munmap(m, 2 * page());
	fclose(f);
}

/* ---- handlers ---- */

static void marker(int sig)
{
	(void)sig;
}

static void assert_same_handler(int sig, const struct sigaction *before)
{
	struct sigaction now;

	sigaction(sig, NULL, &now);
	assert_ptr_equal((void *)(uintptr_t)now.sa_handler, (void *)(uintptr_t)before->sa_handler);
	assert_int_equal(now.sa_flags, before->sa_flags);
}

static void test_handlers_restored(void **state)
{
	struct sigaction mine, old_segv, old_bus, segv, bus;
	struct bb_guarded g;
	struct probe p;

	(void)state;
	memset(&mine, 0, sizeof mine);
	mine.sa_handler = marker;
	sigemptyset(&mine.sa_mask);
	sigaction(SIGSEGV, &mine, &old_segv);
	sigaction(SIGBUS, &mine, &old_bus);
	sigaction(SIGSEGV, NULL, &segv);
	sigaction(SIGBUS, NULL, &bus);
	assert_int_equal(bb_guarded_map(&g, 1), 0);
	assert_faults(g.hi);                       /* after a fault */
	assert_same_handler(SIGSEGV, &segv);
	assert_same_handler(SIGBUS, &bus);
	assert_int_equal(probe_read(g.lo, &p), 0); /* and after a clean run */
	assert_same_handler(SIGSEGV, &segv);
	assert_same_handler(SIGBUS, &bus);
	bb_guarded_unmap(&g);
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

/* In a child with the default action: a run catches its fault, then the
 * same read outside any run ends the child by SIGSEGV. */
static void test_fault_after_run_is_fatal(void **state)
{
	int status = 0;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct bb_guarded g;
		struct probe p;
		signal(SIGSEGV, SIG_DFL);
		if (bb_guarded_map(&g, 1) || probe_read(g.hi, &p) != SIGSEGV)
			_exit(3);
		(void)*(const volatile unsigned char *)g.hi;
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
}

/* ---- nesting and repetition ---- */

struct nest {
	struct bb_guarded *g;
	int inner_sig;      /* what the inner run returned */
	int after_inner;    /* the outer run went on after it */
	int fault_at_end;   /* then fault in the outer run itself */
};

static void outer_run(void *arg)
{
	struct nest *n = arg;
	struct probe p;

	n->inner_sig = probe_read(n->g->hi, &p);
	n->after_inner = 1;
	if (n->fault_at_end)
		(void)*(const volatile unsigned char *)n->g->hi;
}

static void test_nested_runs(void **state)
{
	struct bb_guarded g;
	struct nest n = { &g, 0, 0, 0 };

	(void)state;
	assert_int_equal(bb_guarded_map(&g, 1), 0);
	assert_int_equal(bb_guard_run(outer_run, &n), 0);
	assert_int_equal(n.inner_sig, SIGSEGV);
	assert_true(n.after_inner);
	n = (struct nest){ &g, 0, 0, 1 };
	assert_int_equal(bb_guard_run(outer_run, &n), SIGSEGV);
	assert_int_equal(n.inner_sig, SIGSEGV);
	assert_true(n.after_inner);
	bb_guarded_unmap(&g);
}

static void test_repeated_runs(void **state)
{
	struct bb_guarded g;

	(void)state;
	assert_int_equal(bb_guarded_map(&g, 10), 0);
	memset(g.lo, 7, (size_t)(g.hi - g.lo));
	for (int i = 0; i < 500; i++) {
		assert_faults(g.hi + i % 64);
		assert_reads(g.hi - 1 - i % 64, 7);
	}
	bb_guarded_unmap(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_layout),
		cmocka_unit_test(test_read_inside_does_not_fault),
		cmocka_unit_test(test_read_past_end_faults),
		cmocka_unit_test(test_write_past_end_faults),
		cmocka_unit_test(test_sigbus_caught),
		cmocka_unit_test(test_handlers_restored),
		cmocka_unit_test(test_fault_after_run_is_fatal),
		cmocka_unit_test(test_nested_runs),
		cmocka_unit_test(test_repeated_runs),
	};

	return cmocka_run_group_tests_name("guard", tests, NULL, NULL);
}
