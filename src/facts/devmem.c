/* devmem.c - a physical register read once through /dev/mem (see
 * devmem.h): one page mapped read-only at the page holding the address,
 * one load of the width asked (a 64-bit one is two loads on a 32-bit
 * CPU), a SIGBUS or SIGSEGV from an address nothing answers turned into
 * an error instead of a crash.  64-bit file offsets, so that a 32-bit
 * build reaches physical addresses above 2 GiB. */
#define _FILE_OFFSET_BITS 64
#include "facts/devmem.h"
#include "facts/root.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static sigjmp_buf fault_jmp;

static void on_fault(int sig)
{
	siglongjmp(fault_jmp, sig);
}

static uint64_t load(const volatile void *p, unsigned width)
{
	switch (width) {
	case 8: return *(const volatile uint8_t *)p;
	case 16: return *(const volatile uint16_t *)p;
	case 32: return *(const volatile uint32_t *)p;
	default: return *(const volatile uint64_t *)p;
	}
}

/* One load at p with SIGBUS and SIGSEGV caught: 0, or the signal. */
static int guarded_load(const volatile void *p, unsigned width, uint64_t *v)
{
	struct sigaction sa, old_bus, old_segv;
	volatile int sig;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fault;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	sig = sigsetjmp(fault_jmp, 1);
	if (!sig)
		*v = load(p, width);
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

static int open_devmem(char *path, size_t len, char *err, size_t errlen)
{
	int fd;

	if (bb_root_path(path, len, "/dev/mem")) {
		snprintf(err, errlen, "the path of /dev/mem under BB_SYSROOT is too long");
		return -1;
	}
	fd = open(path, O_RDONLY | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, errlen, "cannot open %s: %s%s", path, strerror(errno),
			 errno == EACCES || errno == EPERM ? " (reading a physical register needs "
							     "root: CAP_SYS_RAWIO)"
			 : errno == ENOENT ? " (a kernel without CONFIG_DEVMEM)" : "");
	return fd;
}

int bb_devmem_read(const struct bb_mmio *m, uint64_t *val, char *err, size_t errlen)
{
	char path[4096];
	long pg = sysconf(_SC_PAGESIZE);
	unsigned long long a = (unsigned long long)m->addr;
	uint64_t base;
	void *map;
	int fd, sig;

	pg = pg > 0 ? pg : 4096;
	base = m->addr & ~(uint64_t)(pg - 1);
	if (base > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "physical address 0x%llx is beyond what mmap can reach", a);
		return -1;
	}
	if ((fd = open_devmem(path, sizeof path, err, errlen)) < 0)
		return -1;
	map = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, (off_t)base);
	close(fd);
	if (map == MAP_FAILED) {
		snprintf(err, errlen, "the kernel refused to map physical address 0x%llx through %s: "
			 "%s (CONFIG_STRICT_DEVMEM or lockdown lets /dev/mem reach only I/O that no "
			 "driver claims; record the register from debugfs or sysfs: --fact NAME=PATH)",
			 a, path, strerror(errno));
		return -1;
	}
	sig = guarded_load((const char *)map + (m->addr - base), m->width, val);
	munmap(map, (size_t)pg);
	if (sig) {
		snprintf(err, errlen, "reading physical address 0x%llx raised %s: nothing answers "
			 "there", a, sig == SIGBUS ? "a bus error" : "a fault");
		return -1;
	}
	*val &= m->mask;
	return 0;
}
