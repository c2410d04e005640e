/* run.c - the `run` applet, the quick suite and boardbench's main job:
 * every applet's quick profile in turn (the CPU's own speed timed before
 * each and after the last, core/calib.c), progress on stderr when it is a
 * terminal, a short summary on stdout, and the whole run as JSON in
 * results/<hostname>-<labels>-<UTC time>.json, never over an existing
 * file.  --repeat N runs the suite N times, each run a file of its own
 * (...-rK.json) that records which repetition it is, so that compare has
 * several runs a side to pool.  Its --help is src/applets/run/help.txt, then the
 * suite. */
#include "core/applet.h"
#include "buildinfo.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"
#include "core/help.h"
#include "applets/run/lava.h"
#include "core/outfile.h"
#include "core/parse.h"
#include "core/progress.h"
#include "core/stop.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

BB_HELP_TEXT(run);

struct run_opts {
	const char *outdir;
	const char *only;            /* comma-separated applets, or NULL: all */
	int verbose;
	int repeat;                  /* runs of the suite, each a file of its own */
	const char *lava;            /* --lava FILE: lava-test-case lines, or NULL */
};

#define RUN_REPEAT_MAX 1000
#define RUN_PATH_MAX 4352        /* a --json/--csv path is < 4096 (core/cli.c) */
#define RUN_OUTDIR_MAX 3072      /* leaves room for host, labels and time */

/* Append src to dst, mapping characters unsafe in file names to '_'. */
static void append_safe(char *dst, size_t len, const char *src)
{
	size_t n = strlen(dst);

	for (; *src && n + 1 < len; src++)
		dst[n++] = (strchr("._=,+-", *src) || (*src >= '0' && *src <= '9') ||
			    (*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z'))
				   ? *src : '_';
	dst[n] = '\0';
}

/* 1 when the clock is before the date of the sources this binary was
 * built from: a board without an RTC starts in 1970. */
static int clock_before_sources(void)
{
	return (long long)BB_SOURCE_EPOCH > 0 && (long long)time(NULL) < (long long)BB_SOURCE_EPOCH;
}

/* The default file name without ".json": DIR/<host>-<labels>-<UTC time>
 * ("-clock-unset" after it when the clock is before the sources' date),
 * and "-rK" for repetition k of a --repeat series. */
static void result_stem(char *path, size_t len, const char *dir, const struct bb_run *run,
			int k, int repeat)
{
	snprintf(path, len, "%s/", dir);
	append_safe(path, len, run->sys.hostname);
	if (run->labels.n) {
		append_safe(path, len, "-");
		for (size_t i = 0; i < run->labels.n; i++) {
			char kv[320];
			snprintf(kv, sizeof kv, "%s%s=%s", i ? "," : "", run->labels.v[i].key,
				 run->labels.v[i].s);
			append_safe(path, len, kv);
		}
	}
	append_safe(path, len, "-");
	append_safe(path, len, run->sys.utc_compact);
	if (clock_before_sources())
		append_safe(path, len, "-clock-unset");
	if (repeat > 1) {
		char rk[16];
		snprintf(rk, sizeof rk, "-r%d", k);
		append_safe(path, len, rk);
	}
}

/* An explicit --json/--csv FILE for repetition k: "-K" before the file's
 * extension (run.json -> run-2.json), or at the end if it has none.  A
 * single run keeps FILE as given. */
static const char *rep_name(char *dst, size_t len, const char *path, int k, int repeat)
{
	const char *base = strrchr(path, '/'), *dot;

	if (repeat == 1)
		return path;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	if ((size_t)snprintf(dst, len, "%.*s-%d%s", (int)(dot - path), path, k, dot) >= len)
		bb_die("cannot name run %d's file after '%s': path too long", k, path);
	return dst;
}

/* Whether applet name is in the comma-separated list (NULL: every one). */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list)
		return 1;
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

static int is_quick(const char *name)
{
	const struct bb_applet *a = bb_applet_find(name);

	return a && a->quick;
}

/* Every name in --only must be an applet of the suite. */
static void check_only(const char *list)
{
	char name[64];

	for (const char *p = list;; p++) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof name)
			bb_die_value("--only", list, "expected applet names separated by commas");
		memcpy(name, p, n);
		name[n] = '\0';
		if (!is_quick(name))
			bb_die_value("--only", list, "not an applet of the quick suite; see --help");
		p += n;
		if (!*p)
			return;
	}
}

/* One line naming the applets in the suite, for --help and for tests. */
static void print_suite(FILE *f)
{
	fputs("\nApplets in the quick suite:", f);
	for (size_t k = 0; bb_applets[k]; k++)
		if (bb_applets[k]->quick)
			fprintf(f, " %s", bb_applets[k]->name);
	fputc('\n', f);
}

static int repeat_arg(const char *arg)
{
	uint64_t v;

	if (bb_parse_u64(arg, 1, RUN_REPEAT_MAX, &v))
		bb_die_value("--repeat", arg, "expected a whole number of runs, 1 to 1000");
	return (int)v;
}

static void run_parse(int argc, char **argv, struct run_opts *o, struct bb_cli *cli)
{
	enum { OPT_REPEAT = BB_OPT_FIRST_APPLET, OPT_LAVA };
	static const struct option longopts[] = {
		{ "outdir", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "only", required_argument, NULL, 'O' },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "lava", required_argument, NULL, OPT_LAVA },
		BB_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	bb_cli_begin();
	while ((opt = getopt_long(argc, argv, ":o:vh", longopts, NULL)) != -1) {
		if (bb_cli_common(opt, optarg, cli))
			continue;
		switch (opt) {
		case 'o':
			if (!optarg[0])
				bb_die_value("--outdir", optarg, "expected a directory");
			if (strlen(optarg) > RUN_OUTDIR_MAX)
				bb_die_value("--outdir", "...", "path too long");
			o->outdir = optarg;
			break;
		case 'v': o->verbose = 1; break;
		case 'O':
			check_only(optarg);
			o->only = optarg;
			break;
		case OPT_REPEAT: o->repeat = repeat_arg(optarg); break;
		case OPT_LAVA:
			o->lava = bb_cli_output("--lava", optarg);
			break;
		case 'h':
			bb_help_print(&bb_help_run);
			print_suite(stdout);
			exit(0);
		default: bb_cli_bad(opt, argv);
		}
	}
	bb_cli_no_operands(argc, argv);
	/* several runs into one standard output would be no one JSON document */
	if (o->repeat > 1 && cli->json && strcmp(cli->json, "-") == 0)
		bb_die_value("--json", "-", "expected a file name: --repeat above 1 writes a file per run");
	if (o->repeat > 1 && cli->csv && strcmp(cli->csv, "-") == 0)
		bb_die_value("--csv", "-", "expected a file name: --repeat above 1 writes a file per run");
	if (o->repeat > 1 && o->lava && strcmp(o->lava, "-") == 0)
		bb_die_value("--lava", "-", "expected a file name: --repeat above 1 writes a file per run");
}

static int count_quick(const char *only)
{
	int n = 0;
	for (size_t k = 0; bb_applets[k]; k++)
		n += bb_applets[k]->quick && in_list(only, bb_applets[k]->name);
	return n;
}

/* Whether the results an applet added from index first on all succeeded. */
static int all_ok(const struct bb_run *run, size_t first)
{
	for (size_t k = first; k < run->n; k++)
		if (!run->results[k]->ok)
			return 0;
	return 1;
}

/* Whether a result the applet added from index first on was cut short. */
static int any_interrupted(const struct bb_run *run, size_t first)
{
	for (size_t k = first; k < run->n; k++)
		if (run->results[k]->interrupted)
			return 1;
	return 0;
}

/* The applets a SIGINT/SIGTERM left out, in the "run" result's params
 * (not_run: "mem,ttcp"), so that a reader sees the suite was cut. */
static void note_skipped(struct bb_run *run, const char *name)
{
	struct bb_result *r = NULL;
	const struct bb_kv *kv;
	char list[256];

	for (size_t i = 0; i < run->n && !r; i++)
		if (strcmp(run->results[i]->applet, "run") == 0)
			r = run->results[i];
	if (!r) {
		r = bb_run_add_span(run, "run");
		bb_result_set_status(r, 1, "");
	}
	kv = bb_kv_get(&r->params, "not_run");
	snprintf(list, sizeof list, "%s%s%s", kv ? kv->s : "", kv ? "," : "", name);
	bb_kv_str(&r->params, "not_run", list);
	r->interrupted = 1;
	r->ok = 0;
	snprintf(list, sizeof list, "interrupted by %s: the suite stopped before %s",
		 bb_stop_name(), bb_kv_get(&r->params, "not_run")->s);
	free(r->message);
	r->message = bb_xstrdup(list);
}

/* "run 2 of 5: " before progress and warnings of a --repeat series. */
static const char *rep_prefix(char *buf, size_t len, int k, int repeat)
{
	if (repeat == 1)
		return "";
	snprintf(buf, len, "run %d of %d: ", k, repeat);
	return buf;
}

/* The summary lines of results [from, to), on stdout as each applet ends
 * (a reader of a pipe sees stream's line while lat runs). */
static void print_summaries(const struct bb_run *run, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (run->results[i]->summary)
			run->results[i]->summary(stdout, run->results[i]);
	fflush(stdout);
}

static int run_suite(struct bb_run *run, const struct run_opts *o, int k)
{
	int tty = isatty(2), total = count_quick(o->only), i = 0, failed = 0;
	char rep[32];
	const char *pre = rep_prefix(rep, sizeof rep, k, o->repeat);

	for (size_t ai = 0; bb_applets[ai]; ai++) {
		const struct bb_applet *a = bb_applets[ai];
		if (!a->quick || !in_list(o->only, a->name))
			continue;
		if (bb_stopped()) {
			note_skipped(run, a->name);
			continue;
		}
		bb_stop_install();   /* again: an applet may have caught the signals itself */
		double t0 = bb_now();
		if (tty)
			fprintf(stderr, "%s[%d/%d] %s ...", pre, ++i, total, a->name);
		bb_progress_line_open(tty);
		char prog[64];
		snprintf(prog, sizeof prog, "boardbench run: %s", a->name);
		bb_set_prog(prog);
		bb_calib_sample(run);
		size_t first = run->n;
		a->quick(run);
		bb_set_prog("boardbench run");
		if (tty && bb_progress_line_was_broken())
			fprintf(stderr, "%s[%d/%d] %s", pre, i, total, a->name);
		bb_progress_line_open(0);
		if (tty)
			fprintf(stderr, " %s in %.1f s\n", all_ok(run, first) ? "done" :
				any_interrupted(run, first) ? "interrupted" : "FAILED", bb_now() - t0);
		failed += !all_ok(run, first) && !any_interrupted(run, first);
		for (size_t j = first; o->verbose && j < run->n; j++)
			if (run->results[j]->render)
				run->results[j]->render(stdout, run->results[j]);
		print_summaries(run, first, run->n);
	}
	bb_calib_finish(run);
	return failed;
}

/* Appends "what value" (or just value) to line when the fact is known. */
static void identity_part(char *line, size_t len, const struct bb_kvlist *facts,
			  const char *what, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(facts, key);
	size_t n = strlen(line);

	if (kv && kv->s && kv->s[0] && n < len)
		snprintf(line + n, len - n, "%s%s%s%s", n ? ", " : "", what, what[0] ? " " : "",
			 kv->s);
}

/* One line of identity: board, SoC revision, CPU, kernel release, HZ and
 * preemption, as far as they are known; with -v every fact after it. */
static void print_identity(const struct bb_sysinfo *si, int verbose)
{
	const struct bb_kvlist *f = &si->facts;
	char line[1024] = "";

	identity_part(line, sizeof line, f, "board",
		      bb_kv_get(f, "dt.model") ? "dt.model" : "board.product_name");
	identity_part(line, sizeof line, f, "SoC rev", "soc.revision");
	identity_part(line, sizeof line, f, "CPU",
		      bb_kv_get(f, "cpu.cores") ? "cpu.cores" : "cpu.name");
	identity_part(line, sizeof line, f, "PVR", "cpu.pvr");
	identity_part(line, sizeof line, f, "kernel", "kernel.release");
	identity_part(line, sizeof line, f, "HZ", "kernel.config.CONFIG_HZ");
	identity_part(line, sizeof line, f, "preempt", "kernel.preempt");
	if (line[0])
		printf("  %s\n", line);
	for (size_t i = 0; verbose && i < f->n; i++)
		printf("  %s: %s\n", f->v[i].key, f->v[i].s ? f->v[i].s : "");
}

/* The summary's first lines, printed before the suite starts. */
static void print_head(const struct bb_run *run, int verbose)
{
	printf("boardbench quick suite on %s (%s, %d CPUs, %s)\n", run->sys.hostname,
	       run->sys.cpu_model, run->sys.cpus_online, run->sys.arch);
	print_identity(&run->sys, verbose);
	for (size_t i = 0; i < run->labels.n; i++)
		printf("  label %s=%s\n", run->labels.v[i].key, run->labels.v[i].s);
	fflush(stdout);
}

/* The rest: the clock-speed line (calib, last in the run) and the time. */
static void print_tail(const struct bb_run *run, double seconds)
{
	if (run->n && strcmp(run->results[run->n - 1]->applet, "calib") == 0)
		print_summaries(run, run->n - 1, run->n);
	printf("suite took %.1f s\n", seconds);
}

static int ensure_dir(const char *dir)
{
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	bb_warn("cannot create directory '%s': %s", dir, strerror(errno));
	return -1;
}

/* The files a --repeat series has written, listed at its end. */
struct written {
	char **path;
	size_t n;
};

static void written_add(struct written *w, const char *path)
{
	w->path = bb_xrealloc(w->path, (w->n + 1) * sizeof *w->path);
	w->path[w->n++] = bb_xstrdup(path);
}

static void written_free(struct written *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->path[i]);
	free(w->path);
}

/* A ^C or kill while a file is written takes effect once it is complete
 * and its temporary is gone. */
static void signals_hold(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static int write_file(const char *what, const char *path, bb_emit_fn fn, struct bb_run *run,
		      struct written *w)
{
	char err[256];

	if (bb_write_atomic(path, fn, run, err, sizeof err) != 0) {
		bb_warn("cannot write %s file '%s': %s", what, path, err);
		return 1;
	}
	written_add(w, path);
	return 0;
}

/* Whether link() failing with err means the file system has no hard links
 * (FAT on an SD card or USB stick) rather than that the name is bad. */
static int no_hard_links(int err)
{
	return err == EPERM || err == ENOSYS || err == EOPNOTSUPP || err == EMLINK;
}

/* Give the complete file tmp the name stem.json, or stem-2.json, -3 ...
 * when that is taken: link() fails rather than replace a file, even one
 * another process creates at the same moment.  Where there are no hard
 * links the name is checked and then renamed to (a small race). */
static int claim_name(const char *tmp, const char *stem, char *path, size_t len)
{
	for (int seq = 1; seq <= RUN_REPEAT_MAX; seq++) {
		int n = seq == 1 ? snprintf(path, len, "%s.json", stem)
				 : snprintf(path, len, "%s-%d.json", stem, seq);
		if (n < 0 || (size_t)n >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (link(tmp, path) == 0) {
			unlink(tmp);
			return 0;
		}
		if (errno == EEXIST)
			continue;
		if (!no_hard_links(errno))
			return -1;
		if (access(path, F_OK) == 0)
			continue;
		return errno == ENOENT && rename(tmp, path) == 0 ? 0 : -1;
	}
	errno = EEXIST;
	return -1;
}

/* The JSON file under its default name, never over an existing file. */
static int write_default(const char *stem, struct bb_run *run, struct written *w)
{
	char tmp[RUN_PATH_MAX], path[RUN_PATH_MAX], err[256];
	int fd;

	fd = -1;
	errno = ENAMETOOLONG;
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.json.tmp.XXXXXX", stem) < sizeof tmp)
		fd = mkstemp(tmp);
	if (fd < 0) {
		bb_warn("cannot write JSON file '%s.json': %s", stem, strerror(errno));
		return 1;
	}
	fchmod(fd, bb_outfile_new_mode());   /* kept by bb_write_atomic: not mkstemp's 0600 */
	close(fd);
	if (bb_write_atomic(tmp, bb_emit_json, run, err, sizeof err) != 0) {
		bb_warn("cannot write JSON file '%s.json': %s", stem, err);
		unlink(tmp);
		return 1;
	}
	if (claim_name(tmp, stem, path, sizeof path) != 0) {
		bb_warn("cannot write JSON file '%s.json': %s", stem, strerror(errno));
		unlink(tmp);
		return 1;
	}
	written_add(w, path);
	return 0;
}

/* Writes repetition k's JSON (and CSV) file and names the JSON file on
 * stdout; returns 0, or 1 after a one-line warning. */
static int write_run(struct bb_run *run, const struct bb_cli *cli, const struct run_opts *o,
		     int k, struct written *w)
{
	char name[RUN_PATH_MAX];
	size_t first = w->n;
	sigset_t old;
	int rc;

	signals_hold(&old);
	if (cli->json) {
		rc = write_file("JSON", rep_name(name, sizeof name, cli->json, k, o->repeat),
				bb_emit_json, run, w);
	} else {
		result_stem(name, sizeof name, o->outdir, run, k, o->repeat);
		rc = write_default(name, run, w);
	}
	if (rc == 0)
		printf("results: %s\n", w->path[first]);
	if (cli->csv)
		rc |= write_file("CSV", rep_name(name, sizeof name, cli->csv, k, o->repeat),
				 bb_emit_csv, run, w);
	if (o->lava)
		rc |= write_file("LAVA", rep_name(name, sizeof name, o->lava, k, o->repeat),
				 bb_emit_lava, run, w);
	fflush(stdout);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* The result that tells which run of a --repeat series a file holds: a
 * parameter, not a label, so that compare pools the runs as one side. */
static void note_repetition(struct bb_run *run, int k, int repeat)
{
	struct bb_result *r = bb_run_add_span(run, "run");
	char msg[64];

	bb_kv_int(&r->params, "repeat", k);
	bb_kv_int(&r->params, "repeats", repeat);
	snprintf(msg, sizeof msg, "repetition %d of %d", k, repeat);
	bb_result_set_status(r, 1, msg);
}

/* The one line after a SIGINT/SIGTERM: what was kept, and in which file. */
static void warn_stopped(const struct bb_run *run, const char *path, const char *pre)
{
	char where[RUN_PATH_MAX + 64];
	const char *not_run = NULL;

	for (size_t i = 0; i < run->n; i++)
		if (strcmp(run->results[i]->applet, "run") == 0 &&
		    bb_kv_get(&run->results[i]->params, "not_run"))
			not_run = bb_kv_get(&run->results[i]->params, "not_run")->s;
	snprintf(where, sizeof where, "in %s%s%s%s%.*s", path ? path : "no file (see above)",
		 not_run ? "; not run: " : "", not_run ? not_run : "", pre[0] ? "; " : "",
		 pre[0] ? (int)strlen(pre) - 2 : 0, pre);   /* "run 2 of 5" without ": " */
	bb_run_warn_stopped(run, where);
}

/* Run k of o->repeat: the suite, its summary and its files.  Returns 0, or
 * 1 when an applet failed or a file could not be written. */
static int run_once(int argc, char **argv, const struct run_opts *o, const struct bb_cli *cli,
		    int k, struct written *w)
{
	char rep[32];
	const char *pre = rep_prefix(rep, sizeof rep, k, o->repeat);
	struct bb_run *run;
	size_t first;
	int failed, rc;

	if (o->repeat > 1) {
		printf("run %d of %d\n", k, o->repeat);
		fflush(stdout);
	}
	run = bb_run_new(argc, argv);
	bb_cli_apply_labels(run, cli);
	if (o->repeat > 1)
		note_repetition(run, k, o->repeat);
	double t0 = bb_now();
	if (clock_before_sources()) {
		char src[32];
		bb_utc_stamp(src, sizeof src, (time_t)BB_SOURCE_EPOCH, 0);
		bb_warn("the clock says %s, before the date of this boardbench's sources (%s): no RTC, "
			"or not set yet (date -s, NTP); the results file is marked -clock-unset",
			run->sys.utc, src);
	}
	print_head(run, o->verbose);
	failed = run_suite(run, o, k);
	print_tail(run, bb_now() - t0);
	fflush(stdout);
	first = w->n;
	rc = write_run(run, cli, o, k, w);
	if (bb_stopped())
		warn_stopped(run, w->n > first ? w->path[first] : NULL, pre);
	else if (failed)
		bb_warn("%s%d applet(s) failed; see the JSON file", pre, failed);
	bb_run_free(run);
	return rc || failed;
}

static void list_written(const struct written *w, int done, int repeat, double seconds)
{
	printf("%d of %d runs in %.1f s; files written:\n", done, repeat, seconds);
	for (size_t i = 0; i < w->n; i++)
		printf("  %s\n", w->path[i]);
}

static int run_main(int argc, char **argv)
{
	struct run_opts o = { "results", NULL, 0, 1, NULL };
	struct bb_cli cli = { 0 };
	struct written w = { 0 };
	int k, rc = 0;

	run_parse(argc, argv, &o, &cli);
	if (!cli.json && ensure_dir(o.outdir) != 0)
		return 1;
	double t0 = bb_now();
	bb_stop_install();
	for (k = 1; k <= o.repeat && rc == 0 && !bb_stopped(); k++)
		rc = run_once(argc, argv, &o, &cli, k, &w);
	k--;
	if (o.repeat > 1)
		list_written(&w, k, o.repeat, bb_now() - t0);
	if (bb_stopped())
		rc = 1;
	else if (rc && k < o.repeat)
		bb_warn("stopped after run %d of %d failed; the files already written are kept",
			k, o.repeat);
	written_free(&w);
	bb_cli_free(&cli);
	return rc ? 1 : 0;
}

const struct bb_applet bb_applet_run = {
	.name = "run",
	.summary = "run every applet's quick profile; write results/<host>-<labels>-<UTC>.json",
	.main = run_main,
};
