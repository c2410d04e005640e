/* csum_data.c - `boardbench csum --data FILE [--offset K]`: the checksum
 * of a file's bytes from offset K with every partial-sum variant and the
 * reference, for cross-checking against any other implementation.  The
 * file is read in fixed chunks (bounded memory) to addresses congruent to
 * K mod 8, so an odd K exercises odd start addresses.  Whatever FILE is
 * (/dev/zero, a FIFO, a pipe), at most --max-bytes are read (offset
 * included) and the first SIGINT or SIGTERM ends the reading: the file is
 * opened without blocking and waited for with poll, which no signal
 * restarts. */
#include "csum_applet.h"
#include "core/cli.h"
#include "core/error.h"
#include "core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

/* Past --max-bytes: an endless file (/dev/zero) or more than asked for. */
static _Noreturn void data_too_big(const struct csum_opts *o)
{
	char why[160];

	snprintf(why, sizeof why, "more than --max-bytes %llu bytes to read; give a larger "
		 "--max-bytes for a larger file", (unsigned long long)o->max_bytes);
	bb_die_value("--data", o->data, why);
}

static int data_open(const struct csum_opts *o)
{
	struct stat st;
	int fd = open(o->data, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			bb_die_value("--data", o->data, strerror(errno));
		bb_die("cannot open '%s': %s", o->data, strerror(errno));
	}
	if (fstat(fd, &st) != 0)
		bb_die("cannot stat '%s': %s", o->data, strerror(errno));
	if (S_ISDIR(st.st_mode))
		bb_die_value("--data", o->data, "a directory, expected a file");
	if (S_ISREG(st.st_mode) && o->offset > (uint64_t)st.st_size)
		bb_die_usage("--offset %llu is beyond the end of '%s' (%lld bytes)",
			     (unsigned long long)o->offset, o->data, (long long)st.st_size);
	if (o->offset > o->max_bytes || (S_ISREG(st.st_mode) && (uint64_t)st.st_size > o->max_bytes))
		data_too_big(o);
	return fd;
}

/* Waits until fd has bytes (or its end) for a read; 0, or -1 when a
 * signal asked to stop.  The timeout closes the window between the check
 * of the flag and poll. */
static int data_wait(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	while (!bb_stopped())
		if (poll(&p, 1, 200) > 0)
			return 0;
	return -1;
}

/* Reads up to len bytes, retrying short reads; returns the count (0 at
 * end of file, less than len at its end or when a signal asked to stop),
 * or exits 1 on a read error. */
static size_t data_read(int fd, const char *path, unsigned char *p, size_t len)
{
	size_t got = 0;

	while (got < len && data_wait(fd) == 0) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			bb_die("cannot read '%s': %s", path, strerror(errno));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static void data_skip(int fd, const struct csum_opts *o, unsigned char *scratch)
{
	uint64_t left = o->offset;

	if (lseek(fd, (off_t)o->offset, SEEK_SET) == (off_t)o->offset)
		return;
	while (left && !bb_stopped()) {   /* not seekable (a pipe): read and drop */
		size_t want = left < CSUM_DATA_CHUNK ? (size_t)left : CSUM_DATA_CHUNK;
		size_t got = data_read(fd, o->data, scratch, want);
		if (got == 0 && !bb_stopped())
			bb_die_usage("--offset %llu is beyond the end of '%s' (%llu bytes)",
				     (unsigned long long)o->offset, o->data,
				     (unsigned long long)(o->offset - left));
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
	int fd = data_open(o);
	size_t got;

	if (posix_memalign(&mem, 64, CSUM_DATA_CHUNK + 64) != 0)
		bb_die("cannot allocate %d bytes", CSUM_DATA_CHUNK + 64);
	p = (unsigned char *)mem + (o->offset & 7);
	data_skip(fd, o, p);
	while (!bb_stopped() && (got = data_read(fd, o->data, p, CSUM_DATA_CHUNK)) > 0) {
		if (got > o->max_bytes - o->offset - ds->bytes)
			data_too_big(o);
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
	bb_kv_int(&r->params, "max_bytes", (long long)o->max_bytes);
	if (bb_stopped()) {
		snprintf(names, sizeof names, "the sums of the first %llu bytes",
			 (unsigned long long)ds.bytes);
		bb_result_set_interrupted(r, names);
		return r;
	}
	bb_result_set_status(r, agree, agree ? "every variant agrees with the reference checksum"
					     : "a variant disagrees with the reference checksum");
	return r;
}
