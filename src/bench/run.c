/* run.c - the `run` applet, the quick suite and boardbench's main job:
 * every applet's quick profile in turn (the CPU's own speed timed before
 * each and after the last, core/calib.c), progress on stderr when it is a
 * terminal, a short summary on stdout, and the whole run as JSON in
 * results/<hostname>-<labels>-<UTC time>.json. */
#include "applets.h"
#include "core/calib.h"
#include "core/cli.h"
#include "core/emit.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

struct run_opts {
	const char *outdir;
	const char *only;            /* comma-separated applets, or NULL: all */
	int verbose;
};

static const char run_help[] =
	"usage: boardbench run [options]\n"
	"\n"
	"The quick suite: runs the quick profile of every applet in turn, prints a\n"
	"short summary and writes every sample to\n"
	"  OUTDIR/<hostname>-<labels>-<UTC time>.json\n"
	"\n"
	"  -o, --outdir DIR   directory for the JSON file (default: results)\n"
	"  -v, --verbose      also print each applet's full classic output\n"
	"      --only LIST    only these applets of the suite, comma-separated,\n"
	"                     e.g. --only stream,ttcp\n"
	BB_COMMON_HELP
	"  (--json FILE replaces the default file name)\n";

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

static void result_name(char *path, size_t len, const char *dir, const struct bb_run *run)
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
	strncat(path, ".json", len - strlen(path) - 1);
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
	for (const struct bb_applet *a = bb_applets; a->name; a++)
		if (a->quick && strcmp(a->name, name) == 0)
			return 1;
	return 0;
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
	for (const struct bb_applet *a = bb_applets; a->name; a++)
		if (a->quick)
			fprintf(f, " %s", a->name);
	fputc('\n', f);
}

static void run_parse(int argc, char **argv, struct run_opts *o, struct bb_cli *cli)
{
	static const struct option longopts[] = {
		{ "outdir", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "only", required_argument, NULL, 'O' },
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
			o->outdir = optarg;
			break;
		case 'v': o->verbose = 1; break;
		case 'O':
			check_only(optarg);
			o->only = optarg;
			break;
		case 'h':
			fputs(run_help, stdout);
			print_suite(stdout);
			exit(0);
		default: bb_cli_bad(opt, argv);
		}
	}
	bb_cli_no_operands(argc, argv);
}

static int count_quick(const char *only)
{
	int n = 0;
	for (const struct bb_applet *a = bb_applets; a->name; a++)
		n += a->quick && in_list(only, a->name);
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

static int run_suite(struct bb_run *run, const struct run_opts *o)
{
	int tty = isatty(2), total = count_quick(o->only), i = 0, failed = 0;

	for (const struct bb_applet *a = bb_applets; a->name; a++) {
		if (!a->quick || !in_list(o->only, a->name))
			continue;
		double t0 = bb_now();
		if (tty)
			fprintf(stderr, "[%d/%d] %s ...", ++i, total, a->name);
		char prog[64];
		snprintf(prog, sizeof prog, "boardbench run: %s", a->name);
		bb_set_prog(prog);
		bb_calib_sample(run);
		size_t first = run->n;
		a->quick(run);
		bb_set_prog("boardbench run");
		if (tty)
			fprintf(stderr, " %s in %.1f s\n", all_ok(run, first) ? "done" : "FAILED",
				bb_now() - t0);
		failed += !all_ok(run, first);
		for (size_t k = first; o->verbose && k < run->n; k++)
			if (run->results[k]->render)
				run->results[k]->render(stdout, run->results[k]);
	}
	bb_calib_finish(run);
	return failed;
}

static void print_summary(const struct bb_run *run, double seconds)
{
	printf("boardbench quick suite on %s (%s, %d CPUs, %s)\n", run->sys.hostname,
	       run->sys.cpu_model, run->sys.cpus_online, run->sys.arch);
	for (size_t i = 0; i < run->labels.n; i++)
		printf("  label %s=%s\n", run->labels.v[i].key, run->labels.v[i].s);
	for (size_t i = 0; i < run->n; i++)
		if (run->results[i]->summary)
			run->results[i]->summary(stdout, run->results[i]);
	printf("suite took %.1f s\n", seconds);
}

static int ensure_dir(const char *dir)
{
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	bb_warn("cannot create directory '%s': %s", dir, strerror(errno));
	return -1;
}

int run_main(int argc, char **argv)
{
	struct run_opts o = { "results", NULL, 0 };
	struct bb_cli cli = { 0 };
	char path[1024];
	int rc, failed;

	run_parse(argc, argv, &o, &cli);
	if (!cli.json && ensure_dir(o.outdir) != 0)
		return 1;
	struct bb_run *run = bb_run_new(argc, argv);
	bb_cli_apply_labels(run, &cli);
	double t0 = bb_now();
	failed = run_suite(run, &o);
	print_summary(run, bb_now() - t0);
	if (!cli.json) {
		result_name(path, sizeof path, o.outdir, run);
		cli.json = path;
	}
	rc = bb_cli_finish(run, &cli);
	if (rc == 0)
		printf("results: %s\n", cli.json);
	if (failed)
		bb_warn("%d applet(s) failed; see the JSON file", failed);
	bb_run_free(run);
	bb_cli_free(&cli);
	return rc || failed ? 1 : 0;
}
