/* outfile.c - output files written whole, in place or to standard output,
 * never replacing what they should not (see outfile.h).  The one copy of
 * the temporary-and-rename logic: emit.c (every applet's --json/--csv) and
 * analysis/toolio.c (compare and report) both write through it. */
#include "outfile.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static int data_fd = -1;      /* the real standard output, once claimed */

/* Whether fd is a pipe or socket whose reader has gone. */
static int fd_reader_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	struct stat st;

	return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) &&
	       poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

static int set_err(char *err, size_t errlen, const char *fmt, const char *s)
{
	snprintf(err, errlen, fmt, s);
	return -1;
}

int bb_outfile_is_stdout(const char *path)
{
	return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0;
}

/* Standard output becomes the data file's; what the program prints on
 * stdout from now on goes to stderr, so the two never mix. */
static int claim_stdout(char *err, size_t errlen)
{
	if (data_fd >= 0)
		return set_err(err, errlen, "%s", "standard output already carries another file");
	fflush(stdout);
	data_fd = dup(STDOUT_FILENO);
	if (data_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return set_err(err, errlen, "%s", strerror(errno));
	return 0;
}

static const char *kind_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : "a file";
}

/* The directory part of path ("." when there is none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	d = strndup(path, (size_t)(slash - path));
	return d;
}

mode_t bb_outfile_new_mode(void)
{
	mode_t m = umask(022);

	umask(m);
	return 0666 & ~m;
}

/* Whether a file can be made in dir, tried rather than asked: access(2)
 * says yes to root in /sys or /proc, or on a full or read-only file
 * system's writable mode bits, where the file could not be made after the
 * run.  The trial file is removed at once.  0 with errno set otherwise. */
static int dir_takes_files(const char *dir)
{
	size_t len = strlen(dir) + 48;
	char *probe = malloc(len);
	int fd, e;

	if (!probe)
		return 0;
	snprintf(probe, len, "%s/.boardbench-probe.%ld", dir, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	errno = e;
	return fd >= 0 || e == EEXIST;
}

int bb_outfile_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *dir;
	int rc = 0;

	if (bb_outfile_is_stdout(path))
		return claim_stdout(err, errlen) ? 2 : 0;
	if (!path[0] || path[strlen(path) - 1] == '/') {
		snprintf(err, errlen, "expected a file name");
		return 2;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "expected a file name, not %s", kind_name(st.st_mode));
			return 2;
		}
		if (!S_ISREG(st.st_mode))
			return 0;   /* written in place: checked when opened */
	}
	dir = dir_of(path);
	if (dir && !dir_takes_files(dir)) {
		int e = errno;
		struct stat ds;
		/* /proc answers a new name with ENOENT though the directory is there */
		if (e == ENOENT && stat(dir, &ds) == 0 && S_ISDIR(ds.st_mode))
			snprintf(err, errlen, "directory '%s': no file can be made there", dir);
		else
			snprintf(err, errlen, "directory '%s': %s", dir, strerror(e));
		rc = 1;
	}
	free(dir);
	return rc;
}

/* A new file next to target, created as open(2) would create target
 * (mode 0666 less the umask), so the umask applies as it does to any file. */
static int make_temp(struct bb_outfile *o, const char *target, char *err, size_t errlen)
{
	const char *slash = strrchr(target, '/');
	size_t dirlen = slash ? (size_t)(slash - target + 1) : 0, len = strlen(target) + 40;
	static unsigned seq;
	int fd = -1;

	o->tmp = malloc(len);
	if (!o->tmp)
		return set_err(err, errlen, "%s", strerror(ENOMEM));
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(o->tmp, len, "%.*s.%s.tmp.%ld.%lx", (int)dirlen, target, target + dirlen,
			 (long)getpid(), (unsigned long)ts.tv_nsec ^ (unsigned long)seq++ << 20);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		set_err(err, errlen, "%s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

/* An existing regular file: its replacement gets its owner and mode. */
static int replace_regular(struct bb_outfile *o, const char *target, const struct stat *st,
			   char *err, size_t errlen)
{
	if (!(o->target = strdup(target)))
		return set_err(err, errlen, "%s", strerror(ENOMEM));
	if (make_temp(o, target, err, errlen)) {
		free(o->target);
		o->target = NULL;
		return -1;
	}
	if (st) {
		/* as root can; otherwise the file becomes ours, as an editor's would */
		if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
		    fchown(fileno(o->f), st->st_uid, st->st_gid) != 0 && errno != EPERM) {
			set_err(err, errlen, "%s", strerror(errno));
			bb_outfile_abort(o);
			return -1;
		}
		if (fchmod(fileno(o->f), st->st_mode & 07777) != 0) {
			set_err(err, errlen, "%s", strerror(errno));
			bb_outfile_abort(o);
			return -1;
		}
	}
	return 0;
}

/* A device or FIFO: written where it is; a FIFO with no reader is refused
 * (opening it would wait for one forever). */
static int open_in_place(struct bb_outfile *o, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return set_err(err, errlen, "%s", errno == ENXIO ? "a FIFO nobody reads (start the "
					      "reader first)" : strerror(errno));
	if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    !(o->f = fdopen(fd, "w"))) {
		set_err(err, errlen, "%s", S_ISREG(st.st_mode) ? "changed while being opened" :
					   strerror(errno));
		close(fd);
		return -1;
	}
	return 0;
}

int bb_outfile_open(struct bb_outfile *o, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *real;
	int rc;

	memset(o, 0, sizeof *o);
	if (bb_outfile_is_stdout(path)) {
		if (data_fd < 0 && claim_stdout(err, errlen))
			return -1;
		o->std = 1;
		if (!(o->f = fdopen(dup(data_fd), "w")))
			return set_err(err, errlen, "%s", strerror(errno));
		return 0;
	}
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return set_err(err, errlen, "%s", strerror(errno));
		return replace_regular(o, path, NULL, err, errlen);
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) != 0)
			return set_err(err, errlen, "%s", errno == ENOENT ?
				       "a symbolic link to nothing: not replaced" : strerror(errno));
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISSOCK(st.st_mode))
			return open_in_place(o, path, err, errlen);
		if (!(real = realpath(path, NULL)))
			return set_err(err, errlen, "%s", strerror(errno));
		rc = bb_outfile_open(o, real, err, errlen);
		free(real);
		return rc;
	}
	if (S_ISREG(st.st_mode))
		return replace_regular(o, path, &st, err, errlen);
	if (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s, not a file", kind_name(st.st_mode));
		return -1;
	}
	return open_in_place(o, path, err, errlen);
}

void bb_outfile_abort(struct bb_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof *o);
}

int bb_outfile_reader_gone(const struct bb_outfile *o, int e)
{
	return o->std && (e == EPIPE || (o->f && fd_reader_gone(fileno(o->f))));
}

int bb_outfile_commit(struct bb_outfile *o, char *err, size_t errlen)
{
	int bad, e;

	errno = 0;
	bad = fflush(o->f) != 0 || ferror(o->f);
	if (!bad && o->tmp && fsync(fileno(o->f)) != 0)
		bad = 1;
	e = errno;
	if (bad && !e && o->std && fd_reader_gone(fileno(o->f)))
		e = EPIPE;   /* an earlier write failed for this reason */
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (bad && bb_outfile_reader_gone(o, e))
		bad = 0;
	if (!bad && o->tmp && rename(o->tmp, o->target) != 0) {
		bad = 1;
		e = errno;
	}
	if (!bad && o->tmp) {
		free(o->tmp);
		o->tmp = NULL;
	}
	if (bad)
		set_err(err, errlen, "%s", strerror(e ? e : EIO));
	bb_outfile_abort(o);
	return bad ? -1 : 0;
}

static int stdout_checked;

/* For exit() outside main's return (--help): a write error still fails. */
static void check_at_exit(void)
{
	if (!stdout_checked && !bb_error_exit && bb_stdout_finish(0) != 0)
		_exit(1);
}

void bb_outfile_init(void)
{
	signal(SIGPIPE, SIG_IGN);
	atexit(check_at_exit);
}


int bb_stdout_finish(int status)
{
	int e;

	stdout_checked = 1;
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	e = errno;
	if (e == 0 && write(STDOUT_FILENO, "", 0) < 0)
		e = errno;   /* an earlier write failed: a device says why again */
	if (e == EPIPE || fd_reader_gone(STDOUT_FILENO))
		return status;
	bb_warn("cannot write standard output: %s", e ? strerror(e) : "write error");
	return 1;
}
