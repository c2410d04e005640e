/* emit.c - text, JSON and CSV emitters, and bb_write_atomic() that puts
 * one in a file through outfile.c. */
#include "emit.h"
#include "error.h"
#include "hardening.h"
#include "json.h"
#include "outfile.h"
#include "stats.h"
#include "version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int bb_emit_text(FILE *f, const struct bb_run *run)
{
	for (size_t i = 0; i < run->n; i++)
		if (run->results[i]->render)
			run->results[i]->render(f, run->results[i]);
	return ferror(f) ? -1 : 0;
}

static void json_kvlist(struct bb_json *j, const char *key, const struct bb_kvlist *l)
{
	bb_json_key(j, key);
	bb_json_obj_begin(j);
	for (size_t i = 0; i < l->n; i++) {
		const struct bb_kv *kv = &l->v[i];
		bb_json_key(j, kv->key);
		switch (kv->type) {
		case BB_KV_STR: bb_json_str(j, kv->s); break;
		case BB_KV_NUM: bb_json_num(j, kv->d); break;
		case BB_KV_INT: bb_json_int(j, kv->i); break;
		case BB_KV_BOOL: bb_json_bool(j, (int)kv->i); break;
		}
	}
	bb_json_obj_end(j);
}

static void json_tool(struct bb_json *j)
{
	char hardening[128];

	bb_hardening(hardening, sizeof hardening);
	bb_json_key(j, "tool");
	bb_json_obj_begin(j);
	bb_json_kstr(j, "name", "boardbench");
	bb_json_kstr(j, "version", BB_VERSION);
	bb_json_kstr(j, "git", BB_GIT_REV);
	bb_json_kstr(j, "compiler", BB_COMPILER);
	bb_json_kstr(j, "cflags", BB_CFLAGS_STR);
	bb_json_kstr(j, "kernel_cflags", BB_KERNEL_CFLAGS_STR);
	bb_json_kstr(j, "hardening_cflags", BB_HARDEN_CFLAGS_STR);
	bb_json_kstr(j, "ldflags", BB_LDFLAGS_STR);
	bb_json_kstr(j, "hardening", hardening);
	bb_json_obj_end(j);
}

static void json_caches(struct bb_json *j, const struct bb_sysinfo *si)
{
	bb_json_key(j, "caches");
	bb_json_arr_begin(j);
	for (int i = 0; i < si->ncaches; i++) {
		bb_json_obj_begin(j);
		bb_json_kint(j, "level", si->caches[i].level);
		bb_json_kstr(j, "type", si->caches[i].type);
		bb_json_kuint(j, "size_bytes", si->caches[i].size_bytes);
		bb_json_kint(j, "line_bytes", si->caches[i].line_bytes);
		bb_json_obj_end(j);
	}
	bb_json_arr_end(j);
}

static void json_system(struct bb_json *j, const struct bb_sysinfo *si)
{
	bb_json_key(j, "system");
	bb_json_obj_begin(j);
	bb_json_kstr(j, "hostname", si->hostname);
	bb_json_kstr(j, "cpu_model", si->cpu_model);
	bb_json_kstr(j, "arch", si->arch);
	bb_json_kstr(j, "endian", si->endian);
	bb_json_kint(j, "pointer_bits", si->pointer_bits);
	bb_json_kint(j, "cpus_online", si->cpus_online);
	json_caches(j, si);
	bb_json_kstr(j, "kernel", si->kernel);
	bb_json_kuint(j, "mem_total_bytes", si->mem_total_bytes);
	bb_json_kuint(j, "mem_available_bytes", si->mem_available_bytes);
	bb_json_kstr(j, "governor", si->governor);
	bb_json_knum(j, "cur_freq_hz", si->cur_freq_hz);
	bb_json_knum(j, "max_freq_hz", si->max_freq_hz);
	bb_json_kstr(j, "transparent_hugepage", si->thp);
	bb_json_kstr(j, "compiler", si->compiler);
	bb_json_kstr(j, "cflags", si->cflags);
	bb_json_kstr(j, "libc", si->libc);
	bb_json_kstr(j, "glibc_tunables", si->glibc_tunables);
	for (size_t i = 0; i < si->facts.n; i++)   /* "dt.model" ...: all strings */
		bb_json_kstr(j, si->facts.v[i].key, si->facts.v[i].s ? si->facts.v[i].s : "");
	bb_json_obj_end(j);
}

static void json_clocks(struct bb_json *j, const struct bb_run *run)
{
	bb_json_key(j, "clock");
	bb_json_obj_begin(j);
	bb_json_kstr(j, "source", "CLOCK_MONOTONIC");
	bb_json_knum(j, "resolution_s", run->timer.resolution_s);
	bb_json_knum(j, "granularity_s", run->timer.granularity_s);
	bb_json_knum(j, "overhead_s", run->timer.overhead_s);
	bb_json_obj_end(j);
	bb_json_key(j, "cycles");
	bb_json_obj_begin(j);
	bb_json_kstr(j, "source", run->cycles.name);
	bb_json_kstr(j, "unit", run->cycles.unit);
	bb_json_kbool(j, "core_cycles", run->cycles.core_cycles);
	bb_json_knum(j, "hz", run->cycles.hz);
	bb_json_obj_end(j);
}

static void json_stats(struct bb_json *j, const struct bb_series *s)
{
	size_t n;
	const double *x = bb_series_kept(s, &n);
	struct bb_stats st;

	bb_json_key(j, "stats");
	if (bb_stats_compute(x, n, &st)) {
		bb_json_null(j);
		return;
	}
	bb_json_obj_begin(j);
	bb_json_kuint(j, "n", st.n);
	bb_json_knum(j, "min", st.min);
	bb_json_knum(j, "median", st.median);
	bb_json_knum(j, "mean", st.mean);
	bb_json_knum(j, "max", st.max);
	bb_json_knum(j, "stddev", st.stddev);
	bb_json_knum(j, "cv", st.cv);
	bb_json_obj_end(j);
}

static void json_series(struct bb_json *j, const struct bb_series *s)
{
	bb_json_obj_begin(j);
	bb_json_kstr(j, "name", s->name);
	bb_json_kstr(j, "variant", s->variant);
	bb_json_kstr(j, "unit", s->unit);
	bb_json_knum(j, "work", s->work);
	bb_json_kstr(j, "work_unit", s->work_unit);
	bb_json_kuint(j, "discard", s->discard);
	bb_json_key(j, "samples");
	bb_json_arr_begin(j);
	for (size_t i = 0; i < s->n; i++)
		bb_json_num(j, s->samples[i]);
	bb_json_arr_end(j);
	json_stats(j, s);
	json_kvlist(j, "values", &s->values);
	bb_json_obj_end(j);
}

static void json_result(struct bb_json *j, const struct bb_result *r)
{
	bb_json_obj_begin(j);
	bb_json_kstr(j, "applet", r->applet);
	bb_json_kstr(j, "status", bb_result_status(r));
	bb_json_kstr(j, "message", r->message ? r->message : "");
	json_kvlist(j, "params", &r->params);
	bb_json_key(j, "series");
	bb_json_arr_begin(j);
	for (size_t i = 0; i < r->n; i++)
		json_series(j, r->series[i]);
	bb_json_arr_end(j);
	bb_json_obj_end(j);
}

int bb_emit_json(FILE *f, const struct bb_run *run)
{
	struct bb_json j;

	bb_json_init(&j, f, 1);
	bb_json_obj_begin(&j);
	bb_json_kstr(&j, "schema", BB_SCHEMA_NAME);
	bb_json_kint(&j, "schema_version", BB_SCHEMA_VERSION);
	json_tool(&j);
	bb_json_key(&j, "command");
	bb_json_arr_begin(&j);
	for (int i = 0; i < run->argc; i++)
		bb_json_str(&j, run->argv[i]);
	bb_json_arr_end(&j);
	bb_json_kstr(&j, "started_utc", run->sys.utc);
	json_kvlist(&j, "labels", &run->labels);
	json_system(&j, &run->sys);
	json_clocks(&j, run);
	bb_json_key(&j, "results");
	bb_json_arr_begin(&j);
	for (size_t i = 0; i < run->n; i++)
		json_result(&j, run->results[i]);
	bb_json_arr_end(&j);
	bb_json_obj_end(&j);
	return ferror(f) ? -1 : 0;
}

void bb_csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Every label as one field, "k=v;k2=v2", sized to fit them all. */
static void csv_labels(FILE *f, const struct bb_kvlist *labels)
{
	size_t len = 1, used = 0;
	char *buf;

	for (size_t i = 0; i < labels->n; i++)
		len += strlen(labels->v[i].key) + 2 +
		       (labels->v[i].s ? strlen(labels->v[i].s) : 0);
	buf = bb_xmalloc(len);
	buf[0] = '\0';
	for (size_t i = 0; i < labels->n; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? ";" : "",
					 labels->v[i].key, labels->v[i].s ? labels->v[i].s : "");
	bb_csv_field(f, buf);
	free(buf);
}

int bb_emit_csv(FILE *f, const struct bb_run *run)
{
	fputs("applet,series,variant,index,warmup,value,unit,work,work_unit,labels\n", f);
	for (size_t r = 0; r < run->n; r++) {
		const struct bb_result *res = run->results[r];
		for (size_t k = 0; k < res->n; k++) {
			const struct bb_series *s = res->series[k];
			for (size_t i = 0; i < s->n; i++) {
				bb_csv_field(f, res->applet);
				fputc(',', f);
				bb_csv_field(f, s->name);
				fputc(',', f);
				bb_csv_field(f, s->variant);
				fprintf(f, ",%zu,%d,%.17g,", i, i < s->discard, s->samples[i]);
				bb_csv_field(f, s->unit);
				fprintf(f, ",%.17g,", s->work);
				bb_csv_field(f, s->work_unit);
				fputc(',', f);
				csv_labels(f, &run->labels);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? -1 : 0;
}

int bb_write_atomic(const char *path, bb_emit_fn fn, const struct bb_run *run,
		    char *err, size_t errlen)
{
	struct bb_outfile o;

	if (bb_outfile_open(&o, path, err, errlen))
		return -1;
	errno = 0;
	if (fn(o.f, run) != 0) {
		int e = errno ? errno : EIO, gone = bb_outfile_reader_gone(&o, e);

		snprintf(err, errlen, "%s", strerror(e));
		bb_outfile_abort(&o);
		return gone ? 0 : -1;
	}
	return bb_outfile_commit(&o, err, errlen);
}
