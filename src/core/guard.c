/* guard.c - guard-page buffers and fault-catching calls for the kernel
 * checkers (see guard.h).  A run installs one handler for SIGSEGV and
 * SIGBUS that jumps back to the innermost run still going; outside any
 * run the handler falls back to the default action, so a fault there
 * still ends the process as it would have without us. */
#include "guard.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static size_t page_bytes(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (size_t)page : 4096;
}

/* ---- buffers ---- */

int bb_guarded_map(struct bb_guarded *g, size_t bytes)
{
	size_t page = page_bytes();
	size_t data = (bytes + page - 1) / page * page;

	g->map_bytes = data + 2 * page;
	g->map = mmap(NULL, g->map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED) {
		g->map = NULL;
		return -1;
	}
	g->lo = g->map + page;
	g->hi = g->lo + data;
	if (mprotect(g->lo, data, PROT_READ | PROT_WRITE) != 0) {
		bb_guarded_unmap(g);
		return -1;
	}
	return 0;
}

void bb_guarded_unmap(struct bb_guarded *g)
{
	if (g->map)
		munmap(g->map, g->map_bytes);
	g->map = NULL;
}

/* ---- runs that may fault ---- */

/* Where the innermost run lands after a fault; NULL outside any run. */
static sigjmp_buf *volatile landing;

static void on_fault(int sig)
{
	sigjmp_buf *to = landing;

	if (!to) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(*to, sig);
}

struct fault_handlers {
	struct sigaction segv, bus;
};

static void faults_catch(struct fault_handlers *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_NODEFER;   /* the handler leaves by siglongjmp */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old->segv);
	sigaction(SIGBUS, &sa, &old->bus);
}

static void faults_restore(const struct fault_handlers *old)
{
	sigaction(SIGSEGV, &old->segv, NULL);
	sigaction(SIGBUS, &old->bus, NULL);
}

int bb_guard_run(bb_guard_fn fn, void *arg)
{
	sigjmp_buf here;
	sigjmp_buf *outer = landing;
	struct fault_handlers old;
	int sig;

	faults_catch(&old);
	sig = sigsetjmp(here, 0);
	if (sig == 0) {
		landing = &here;
		fn(arg);
	}
	landing = outer;
	faults_restore(&old);
	return sig;
}
