/* root.h - every system fact (device tree, cpuinfo, sysctls, interfaces,
 * clocks) is read through one root path: "" on a board, a fixture tree in
 * the tests (BB_SYSROOT=tests/fixtures/boards/ppc440).  Only files are
 * redirected; what the kernel answers through syscalls (uname, ioctl,
 * getsockopt) is read from the running system and skipped when a root
 * is set, so a fixture never mixes with the machine the tests run on. */
#ifndef BB_FACTS_ROOT_H
#define BB_FACTS_ROOT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The root ("" when none): BB_SYSROOT from the environment, read once. */
const char *bb_root(void);

/* For tests only: forget the root read, so that the next bb_root() reads
 * BB_SYSROOT again (a test binary that visits several fixture trees). */
void bb_root_reset(void);

/* 1 when a fixture root is set (syscall facts are then left out). */
int bb_root_is_fixture(void);

/* root + path into buf; -1 when it does not fit. */
int bb_root_path(char *buf, size_t len, const char *path);

FILE *bb_root_fopen(const char *path);

/* The first line of a file without its newline and surrounding blanks;
 * 0, or -1 (absent, unreadable or empty) with buf "". */
int bb_root_line(const char *path, char *buf, size_t len);

/* A whole small file (sysfs, device tree) into buf, NUL-terminated, at
 * most len - 1 bytes; the byte count, or -1 with buf "". */
ssize_t bb_root_read(const char *path, char *buf, size_t len);

/* A number file (sysfs "1500", sysctl "131071"): 0 and *v, or -1. */
int bb_root_llong(const char *path, long long *v);

/* The names in the directory dir (under the root) that start with prefix
 * ("" for every one but . and ..), sorted, at most max, each at most
 * BB_ROOT_NAME_MAX - 1 bytes (longer ones are left out); how many. */
#define BB_ROOT_NAME_MAX 64
int bb_root_list(const char *dir, const char *prefix, char (*names)[BB_ROOT_NAME_MAX], int max);

#endif
