/* csum_data.c - `boardbench csum --data FILE [--offset K]`: the checksum
 * of a file's bytes from offset K with every partial-sum variant and the
 * reference, for cross-checking against any other implementation.  The
 * file is read in fixed chunks (any size, bounded memory) to addresses
 * congruent to K mod 8, so an odd K exercises odd start addresses. */
#include "csum_applet.h"
#include "core/cli.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* ---- --data FILE: the checksum of a file's bytes with every variant ---- */

struct data_sums {
	const struct csum_variant *v[CSUM_MAX_RUN];
	uint32_t sum[CSUM_MAX_RUN];
	int n;
	uint32_t ref;
	uint64_t bytes;
};

static int data_open(const char *path, uint64_t offset)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			bb_die_value("--data", path, strerror(errno));
		bb_die("cannot open '%s': %s", path, strerror(errno));
	}
	if (fstat(fd, &st) != 0)
		bb_die("cannot stat '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		bb_die_value("--data", path, "a directory, expected a file");
	if (S_ISREG(st.st_mode) && offset > (uint64_t)st.st_size)
		bb_die_usage("--offset %llu is beyond the end of '%s' (%lld bytes)",
			     (unsigned long long)offset, path, (long long)st.st_size);
	return fd;
}

/* Reads up to len bytes, retrying short reads; returns the count (0 at
 * end of file), or exits 1 on a read error. */
static size_t data_read(int fd, const char *path, unsigned char *p, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			bb_die("cannot read '%s': %s", path, strerror(errno));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static void data_skip(int fd, const char *path, uint64_t offset, unsigned char *scratch)
{
	uint64_t left = offset;

	if (lseek(fd, (off_t)offset, SEEK_SET) == (off_t)offset)
		return;
	while (left) {   /* not seekable (a pipe): read and drop */
		size_t want = left < CSUM_DATA_CHUNK ? (size_t)left : CSUM_DATA_CHUNK;
		size_t got = data_read(fd, path, scratch, want);
		if (got == 0)
			bb_die_usage("--offset %llu is beyond the end of '%s' (%llu bytes)",
				     (unsigned long long)offset, path,
				     (unsigned long long)(offset - left));
		left -= got;
	}
}

/* Chunks are read at an address congruent to the offset mod 8, so an odd
 * --offset exercises odd start addresses; each variant's partial sum of
 * one chunk seeds the next (chunks are even-sized). */
static void data_sum(const struct csum_opts *o, struct data_sums *ds)
{
	void *mem;
	unsigned char *p;
	int fd = data_open(o->data, o->offset);
	size_t got;

	if (posix_memalign(&mem, 64, CSUM_DATA_CHUNK + 64) != 0)
		bb_die("cannot allocate %d bytes", CSUM_DATA_CHUNK + 64);
	p = (unsigned char *)mem + (o->offset & 7);
	data_skip(fd, o->data, o->offset, p);
	while ((got = data_read(fd, o->data, p, CSUM_DATA_CHUNK)) > 0) {
		ds->ref = csum_reference(p, got, ds->ref);
		for (int i = 0; i < ds->n; i++)
			ds->sum[i] = ds->v[i]->fn(p, got, ds->sum[i]);
		ds->bytes += got;
	}
	close(fd);
	free(mem);
}

struct bb_result *csum_data_execute(struct bb_run *run, const struct csum_opts *o,
				      const struct csum_plan *plan)
{
	struct data_sums ds;
	struct bb_result *r = bb_run_add_result(run, "csum");
	char key[96], val[16], names[1024] = "";
	int agree = 1;

	r->render = csum_data_render;
	memset(&ds, 0, sizeof ds);
	for (int i = 0; i < plan->nsum; i++)
		ds.v[ds.n++] = plan->sum[i];
	data_sum(o, &ds);
	bb_kv_str(&r->params, "mode", "data");
	bb_kv_str(&r->params, "file", o->data);
	bb_kv_int(&r->params, "offset", (long long)o->offset);
	bb_kv_int(&r->params, "bytes", (long long)ds.bytes);
	bb_kv_str(&r->params, "unsupported", plan->unsupported);
	snprintf(val, sizeof val, "%04x", csum_fold(ds.ref));
	bb_kv_str(&r->params, "sum.reference", val);
	for (int i = 0; i < ds.n; i++) {
		snprintf(key, sizeof key, "sum.%s", ds.v[i]->name);
		snprintf(val, sizeof val, "%04x", csum_fold(ds.sum[i]));
		bb_kv_str(&r->params, key, val);
		csum_append(names, sizeof names, ds.v[i]->name);
		agree &= csum_fold(ds.sum[i]) == csum_fold(ds.ref);
	}
	bb_kv_str(&r->params, "variants", names);
	bb_result_set_status(r, agree, agree ? "every variant agrees with the reference checksum"
					     : "a variant disagrees with the reference checksum");
	return r;
}
