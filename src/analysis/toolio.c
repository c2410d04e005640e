/* toolio.c - results in (files and directories), files out (through
 * core/outfile.c), and
 * XML escaping for the report (see toolio.h). */
#include "analysis/toolio.h"
#include "core/error.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void add_run(struct bb_runs *runs, const char *path)
{
	char err[768];
	int rc;

	if (runs->n >= BB_RUNS_MAX)
		bb_die_usage("more than %d results files", BB_RUNS_MAX);
	if (runs->n == runs->cap) {
		runs->cap = runs->cap ? 2 * runs->cap : 8;
		runs->r = bb_xrealloc(runs->r, runs->cap * sizeof *runs->r);
	}
	rc = bb_read_file(path, &runs->r[runs->n], err, sizeof err);
	if (rc) {
		bb_rrun_free(&runs->r[runs->n]);
		if (rc == BB_READ_RESOURCE)
			bb_die("%s", err);
		bb_die_usage("%s", err);
	}
	runs->n++;
}

static int has_json_suffix(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && name[0] != '.' && strcmp(name + n - 5, ".json") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json names in dir, sorted; exits 2 when there are none. */
static char **json_names(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		bb_die_usage("%s: cannot open directory: %s", dir, strerror(errno));
	while ((e = readdir(d)) && *n < BB_RUNS_MAX) {
		if (!has_json_suffix(e->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			names = bb_xrealloc(names, cap * sizeof *names);
		}
		names[(*n)++] = bb_xstrdup(e->d_name);
	}
	closedir(d);
	if (!*n)
		bb_die_usage("%s: no *.json results files in this directory", dir);
	qsort(names, *n, sizeof *names, cmp_str);
	return names;
}

static void add_dir(struct bb_runs *runs, const char *dir)
{
	size_t n;
	char **names = json_names(dir, &n);

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = bb_xmalloc(len);
		snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
		add_run(runs, path);
		free(path);
		free(names[i]);
	}
	free(names);
}

void bb_runs_load(struct bb_runs *runs, char **paths, int n)
{
	struct stat st;

	for (int i = 0; i < n; i++) {
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			add_dir(runs, paths[i]);
		else
			add_run(runs, paths[i]);
	}
}

void bb_runs_free(struct bb_runs *runs)
{
	for (size_t i = 0; i < runs->n; i++)
		bb_rrun_free(&runs->r[i]);
	free(runs->r);
	memset(runs, 0, sizeof *runs);
}

int bb_out_open(struct bb_out *o, const char *path)
{
	char err[256];

	o->path = path;
	if (bb_outfile_open(&o->file, path, err, sizeof err) == 0) {
		o->f = o->file.f;
		return 0;
	}
	o->f = NULL;
	bb_warn("cannot write '%s': %s", path, err);
	return -1;
}

int bb_out_close(struct bb_out *o)
{
	char err[256];

	if (bb_outfile_commit(&o->file, err, sizeof err) == 0)
		return 0;
	bb_warn("cannot write '%s': %s", o->path, err);
	return -1;
}

void bb_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		const unsigned char *u = (const unsigned char *)s;
		if (*u >= 0x80) {
			int n = bb_utf8_len(u);
			if (n)
				fwrite(s, 1, (size_t)n, f);
			else
				fputc('?', f);
			s += n ? n - 1 : 0;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}
