/* root.c - the one root path under which system facts are read (see
 * root.h): tests point BB_SYSROOT at a fixture tree of a board. */
#include "facts/root.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *root;

void bb_root_reset(void)
{
	root = NULL;
}

const char *bb_root(void)
{
	if (!root) {
		const char *e = getenv("BB_SYSROOT");
		root = e && e[0] ? e : "";
	}
	return root;
}

int bb_root_is_fixture(void)
{
	return bb_root()[0] != '\0';
}

int bb_root_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "%s%s", bb_root(), path);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

FILE *bb_root_fopen(const char *path)
{
	char full[4096];

	if (bb_root_path(full, sizeof full, path))
		return NULL;
	return fopen(full, "re");
}

ssize_t bb_root_read(const char *path, char *buf, size_t len)
{
	char full[4096];
	size_t got = 0;
	int fd;

	buf[0] = '\0';
	if (len < 2 || bb_root_path(full, sizeof full, path))
		return -1;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	while (got < len - 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

int bb_root_line(const char *path, char *buf, size_t len)
{
	char *s, *e;

	if (bb_root_read(path, buf, len) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	for (s = buf; isspace((unsigned char)*s); s++)
		;
	memmove(buf, s, strlen(s) + 1);
	for (e = buf + strlen(buf); e > buf && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	return buf[0] ? 0 : -1;
}

int bb_root_llong(const char *path, long long *v)
{
	char buf[64], *end;

	if (bb_root_line(path, buf, sizeof buf))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf || *end ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int bb_root_list(const char *dir, const char *prefix, char (*names)[BB_ROOT_NAME_MAX], int max)
{
	char full[4096];
	size_t pl = strlen(prefix);
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (bb_root_path(full, sizeof full, dir) || !(d = opendir(full)))
		return 0;
	while (n < max && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && strncmp(e->d_name, prefix, pl) == 0 &&
		    strlen(e->d_name) < BB_ROOT_NAME_MAX)
			strcpy(names[n++], e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, by_name);
	return n;
}
