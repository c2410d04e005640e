/* csum_render.c - the `csum` applet's text, rendered from the results
 * model after the timing: the classic report's "Bytes Time Avg (usec/run)" table and
 * "Total time" per variant, the side-by-side comparison (ns per call,
 * bytes per core cycle or per counter tick, improvement over the
 * baseline), the ip_fast_csum and csum-and-copy tables, the latency table
 * and the --data table; plus the quick suite's summary line. */
#include "csum_applet.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers shared by the applet's files ---- */

void csum_append(char *dst, size_t len, const char *item)
{
	size_t used = strlen(dst);
	snprintf(dst + used, len - used, "%s%s", used ? "," : "", item);
}

/* The i-th item of a comma list into buf; NULL past the end. */
const char *csum_list_nth(const char *list, int i, char *buf, size_t len)
{
	const char *p = list;

	for (; i > 0 && p; i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p || !*p)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
	return buf;
}

const char *csum_param_str(const struct bb_result *r, const char *key)
{
	const struct bb_kv *kv = bb_kv_get(&r->params, key);
	return kv && kv->type == BB_KV_STR ? kv->s : "";
}

static size_t size_nth(const struct bb_result *r, int i)
{
	char buf[32];
	return csum_list_nth(csum_param_str(r, "sizes"), i, buf, sizeof buf) ? strtoul(buf, NULL, 10) : 0;
}

void csum_series_name(char *buf, size_t len, const char *prefix, size_t bytes)
{
	snprintf(buf, len, "%s%s" CSUM_BYTES "%zu", prefix, prefix[0] ? " " : "", bytes);
}

/* "bytes_per_cycle", "bytes_per_tick" or "bytes_per_ns" for this counter. */
const char *csum_rate_key(const char *unit)
{
	if (strcmp(unit, "cycles") == 0)
		return "bytes_per_cycle";
	if (strcmp(unit, "ticks") == 0)
		return "bytes_per_tick";
	return "bytes_per_ns";
}

/* ---- the classic text, rendered from the model ---- */

static const struct bb_series *find_sz(const struct bb_result *r, const char *prefix,
				       size_t bytes, const char *variant)
{
	char name[64];
	csum_series_name(name, sizeof name, prefix, bytes);
	return bb_result_find(r, name, variant);
}

static double value_sz(const struct bb_result *r, const char *prefix, size_t bytes,
		       const char *variant, const char *key)
{
	const struct bb_series *s = find_sz(r, prefix, bytes, variant);
	return s ? bb_kv_getnum(&s->values, key, 0) : 0;
}

/* The seed's table: Time is microseconds for all N calls (the best of
 * the kept samples), Avg is microseconds per call. */
static void render_seed_table(FILE *f, const struct bb_result *r, const char *variant)
{
	double total = 0, calls = bb_kv_getnum(&r->params, "calls", 1);
	size_t bytes;

	fprintf(f, "Starting %s test....\n", variant);
	fprintf(f, "Bytes\tTime\tAvg (usec/run)\n----------------------------\n");
	for (int i = 0; (bytes = size_nth(r, i)) != 0; i++) {
		double us = value_sz(r, "", bytes, variant, "time_best_s") * 1e6;
		fprintf(f, "%zu\t%.0f\t%f\n", bytes, us, us / calls);
		total += us;
	}
	fprintf(f, "Total time: %.0f\n\n", total);
}

static void counter_title(FILE *f, const struct bb_result *r)
{
	const char *unit = csum_param_str(r, "counter_unit");
	double hz = bb_kv_getnum(&r->params, "counter_hz", 0);

	if (strcmp(unit, "cycles") == 0)
		fprintf(f, "Bytes per core cycle (%s, %.0f MHz while busy)",
			csum_param_str(r, "counter"), hz * 1e-6);
	else if (strcmp(unit, "ticks") == 0)
		fprintf(f, "Bytes per %s tick (%.1f MHz; a tick is not a core cycle)",
			csum_param_str(r, "counter"), hz * 1e-6);
	else
		fprintf(f, "Bytes per nanosecond (no cycle counter readable)");
}

typedef double (*cell_fn)(const struct bb_result *r, size_t bytes, const char *variant);

static double cell_ns(const struct bb_result *r, size_t bytes, const char *variant)
{
	return value_sz(r, "", bytes, variant, "ns_per_call");
}

static double cell_rate(const struct bb_result *r, size_t bytes, const char *variant)
{
	return value_sz(r, "", bytes, variant, csum_rate_key(csum_param_str(r, "counter_unit")));
}

static double cell_est(const struct bb_result *r, size_t bytes, const char *variant)
{
	return value_sz(r, "", bytes, variant, "bytes_per_est_cycle");
}

static double cell_improvement(const struct bb_result *r, size_t bytes, const char *variant)
{
	return value_sz(r, "", bytes, variant, "improvement_pct");
}

static void render_header_row(FILE *f, const char *first, const char *variants)
{
	char v[64];

	fprintf(f, "%-7s", first);
	for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++)
		fprintf(f, " %11s", v);
	fputc('\n', f);
}

/* Rows of sizes, a column per variant. */
static void render_grid(FILE *f, const struct bb_result *r, cell_fn cell, const char *fmt)
{
	const char *variants = csum_param_str(r, "variants");
	char v[64];
	size_t bytes;

	render_header_row(f, "Bytes", variants);
	for (int s = 0; (bytes = size_nth(r, s)) != 0; s++) {
		fprintf(f, "%-7zu", bytes);
		for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++)
			fprintf(f, fmt, cell(r, bytes, v));
		fputc('\n', f);
	}
}

/* The seed's "Total time" row: ns summed over the sizes, and the
 * improvement of those totals. */
static void render_totals(FILE *f, const struct bb_result *r, int improvement)
{
	const char *variants = csum_param_str(r, "variants"), *base = csum_param_str(r, "baseline");
	char v[64];
	double tb = 0;
	size_t bytes;

	for (int s = 0; (bytes = size_nth(r, s)) != 0; s++)
		tb += cell_ns(r, bytes, base);
	fprintf(f, "%-7s", "Total");
	for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++) {
		double t = 0;
		for (int s = 0; (bytes = size_nth(r, s)) != 0; s++)
			t += cell_ns(r, bytes, v);
		if (improvement)
			fprintf(f, " %10.1f%%", tb > 0 ? 100.0 * (tb - t) / tb : 0);
		else
			fprintf(f, " %11.1f", t);
	}
	fputc('\n', f);
}

static void render_comparison(FILE *f, const struct bb_result *r)
{
	fprintf(f, "Side by side: ns per call (best of %.0f runs of %.0f calls)\n",
		bb_kv_getnum(&r->params, "reps", 0) - 1, bb_kv_getnum(&r->params, "calls", 0));
	render_grid(f, r, cell_ns, " %11.2f");
	render_totals(f, r, 0);
	fputc('\n', f);
	counter_title(f, r);
	fputc('\n', f);
	render_grid(f, r, cell_rate, " %11.2f");
	fputc('\n', f);
	if (!bb_kv_getnum(&r->params, "core_cycles", 0) &&
	    bb_kv_getnum(&r->params, "est_core_hz", 0) > 0) {
		fprintf(f, "Bytes per ESTIMATED core cycle (%.0f MHz: the fastest dependent-add chain\n"
			   "timed around the runs, median %.0f MHz; assumes one add per cycle)\n",
			bb_kv_getnum(&r->params, "est_core_hz", 0) * 1e-6,
			bb_kv_getnum(&r->params, "est_core_hz_median", 0) * 1e-6);
		render_grid(f, r, cell_est, " %11.2f");
		fputc('\n', f);
	}
	fprintf(f, "Improvement over %s: (t_%s - t) / t_%s, as in the kernel's checksum table\n",
		csum_param_str(r, "baseline"), csum_param_str(r, "baseline"), csum_param_str(r, "baseline"));
	render_grid(f, r, cell_improvement, " %10.1f%%");
	render_totals(f, r, 1);
	fputc('\n', f);
}

/* A table of one section ("ip" or "copy"): rows of sizes, ns per call. */
static void render_section(FILE *f, const struct bb_result *r, const char *prefix,
			   const char *variants_key, const char *title)
{
	const char *variants = csum_param_str(r, variants_key);
	char v[64];
	int any = 0;

	if (!variants[0])
		return;
	fprintf(f, "%s: ns per call (best)\n", title);
	render_header_row(f, "Bytes", variants);
	for (size_t i = 0; i < r->n; i++) {
		const struct bb_series *s = r->series[i];
		size_t bytes = (size_t)bb_kv_getnum(&s->values, "bytes", 0);
		char first[64];
		if (strncmp(s->name, prefix, strlen(prefix)) != 0 || strstr(s->name, CSUM_COUNTER) ||
		    !csum_list_nth(variants, 0, first, sizeof first) || strcmp(s->variant, first) != 0)
			continue;
		fprintf(f, "%-7zu", bytes);
		for (int k = 0; csum_list_nth(variants, k, v, sizeof v); k++)
			fprintf(f, " %11.2f", value_sz(r, prefix, bytes, v, "ns_per_call"));
		fputc('\n', f);
		any = 1;
	}
	if (any)
		fputc('\n', f);
}

static void render_latency(FILE *f, const struct bb_result *r)
{
	const char *variants = csum_param_str(r, "variants");
	char v[64];
	size_t bytes;

	fprintf(f, "Latency and throughput, ns per call (best of %.0f runs of %.0f calls)\n"
		   "throughput: independent calls; latency: each result is the next call's starting sum\n",
		bb_kv_getnum(&r->params, "reps", 0) - 1, bb_kv_getnum(&r->params, "calls", 0));
	fprintf(f, "%-11s", "Variant");
	for (int s = 0; (bytes = size_nth(r, s)) != 0; s++)
		fprintf(f, " %6zu B thr %6zu B lat", bytes, bytes);
	fputc('\n', f);
	for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++) {
		fprintf(f, "%-11s", v);
		for (int s = 0; (bytes = size_nth(r, s)) != 0; s++)
			fprintf(f, " %12.2f %12.2f", value_sz(r, "", bytes, v, "ns_per_call"),
				value_sz(r, "latency", bytes, v, "ns_per_call"));
		fputc('\n', f);
	}
	fputc('\n', f);
}

static int list_count(const char *list)
{
	char v[64];
	int n = 0;

	while (csum_list_nth(list, n, v, sizeof v))
		n++;
	return n;
}

/* How the samples were taken, when a table had anything to alternate. */
static void render_rounds_note(FILE *f, const struct bb_result *r)
{
	static const char *const keys[] = { "variants", "ip_variants", "copy_variants" };
	int most = 0;

	for (int i = 0; i < 3; i++) {
		int n = list_count(csum_param_str(r, keys[i]));
		most = n > most ? n : most;
	}
	if (most > 1 && strcmp(csum_param_str(r, "rounds"), "alternating") == 0)
		fprintf(f, "Variants alternate round by round (ABAB..., the first rotating), "
			   "size by size.\n");
}

static void render_footer(FILE *f, const struct bb_result *r)
{
	const char *unsup = csum_param_str(r, "unsupported");

	if (unsup[0])
		fprintf(f, "unsupported on this CPU (not run): %s\n", unsup);
	fprintf(f, "%s%s\n", r->ok ? "" : "FAILED: ", r->message ? r->message : "");
}

void csum_render(FILE *f, const struct bb_result *r)
{
	const char *variants = csum_param_str(r, "variants");
	char v[64];

	fprintf(f, "boardbench csum: Internet checksum (RFC 1071), %.0f calls per size, "
		   "buffer at a 64-byte boundary + %.0f\n",
		bb_kv_getnum(&r->params, "calls", 0), bb_kv_getnum(&r->params, "offset", 0));
	render_rounds_note(f, r);
	fputc('\n', f);
	if (strcmp(csum_param_str(r, "mode"), "latency") == 0) {
		render_latency(f, r);
	} else {
		for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++)
			render_seed_table(f, r, v);
		render_comparison(f, r);
		render_section(f, r, "ip", "ip_variants", "ip_fast_csum (IPv4 headers)");
		render_section(f, r, "copy", "copy_variants", "csum-and-copy");
	}
	render_footer(f, r);
}

void csum_summary(FILE *f, const struct bb_result *r)
{
	const char *variants = csum_param_str(r, "variants"), *key;
	const char *unit = csum_param_str(r, "counter_unit");
	char v[64], best[64] = "";
	double best_rate = 0, base_rate, ns1500 = 0;

	key = csum_rate_key(unit);
	for (int i = 0; csum_list_nth(variants, i, v, sizeof v); i++) {
		double rate = value_sz(r, "", 4096, v, key);
		if (rate > best_rate) {
			best_rate = rate;
			snprintf(best, sizeof best, "%s", v);
			ns1500 = value_sz(r, "", 1500, v, "ns_per_call");
		}
	}
	base_rate = value_sz(r, "", 4096, csum_param_str(r, "baseline"), key);
	fprintf(f, "csum     4096 B: best %s %.2f bytes/%s (%s %.2f)", best, best_rate,
		key + strlen("bytes_per_"), csum_param_str(r, "baseline"), base_rate);
	if (strcmp(key, "bytes_per_cycle") != 0 && value_sz(r, "", 4096, best, "bytes_per_est_cycle") > 0)
		fprintf(f, ", %.2f bytes/estimated cycle",
			value_sz(r, "", 4096, best, "bytes_per_est_cycle"));
	fprintf(f, "; 1500 B in %.1f ns; %s\n", ns1500,
		r->ok ? "checked against the reference" : "FAILED CHECK");
}

/* ---- --data ---- */

void csum_data_render(FILE *f, const struct bb_result *r)
{
	const char *variants = csum_param_str(r, "variants");
	char v[64], key[96];

	fprintf(f, "csum of '%s' from offset %.0f: %.0f bytes, read to addresses = %.0f mod 8\n",
		csum_param_str(r, "file"), bb_kv_getnum(&r->params, "offset", 0),
		bb_kv_getnum(&r->params, "bytes", 0),
		(double)((uint64_t)bb_kv_getnum(&r->params, "offset", 0) & 7));
	fprintf(f, "%-11s %-5s %s\n", "Variant", "Sum", "Checksum (~sum)");
	for (int i = -1; i < 0 || csum_list_nth(variants, i, v, sizeof v); i++) {
		if (i < 0)
			snprintf(v, sizeof v, "reference");
		snprintf(key, sizeof key, "sum.%s", v);
		unsigned sum = (unsigned)strtoul(csum_param_str(r, key), NULL, 16);
		fprintf(f, "%-11s %04x  %04x\n", v, sum, ~sum & 0xffff);
	}
	render_footer(f, r);
}
