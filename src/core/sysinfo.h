/* sysinfo.h - the environment that moves numbers, recorded with every run:
 * CPU, caches (as sysfs claims them), memory, kernel, frequency governor,
 * transparent huge pages, compiler and flags, libc, host and time, and the
 * facts that tell boards apart.  Part of the results model; the facts
 * floor reads it (facts/sysinfo.h, through the root of facts/root.h, so a
 * fixture tree feeds it all) and core/results.c asks for it through the
 * hook the facts put in place (bb_run_hooks_install). */
#ifndef BB_SYSINFO_H
#define BB_SYSINFO_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/kv.h"

#define BB_MAX_CACHES 8

struct bb_cache {
	int level;
	char type[16];        /* Data, Instruction, Unified */
	uint64_t size_bytes;
	int line_bytes;
};

struct bb_sysinfo {
	char cpu_model[128];
	char arch[72];            /* uname machine */
	int cpus_online;
	int ncaches;
	struct bb_cache caches[BB_MAX_CACHES];
	char kernel[200];         /* uname release + version */
	uint64_t mem_total_bytes;
	uint64_t mem_available_bytes;
	char governor[32];        /* "" when not readable */
	double cur_freq_hz;       /* 0 when not readable */
	double max_freq_hz;
	char thp[32];             /* transparent_hugepage mode, "" if unknown */
	char hostname[64];
	char compiler[96];
	char cflags[512];
	char libc[64];
	char glibc_tunables[256];
	char endian[8];           /* "little" or "big" */
	int pointer_bits;
	char utc[32];             /* ISO 8601, e.g. 2026-11-29T21:30:00Z */
	char utc_compact[24];     /* 20261129T213000Z, for file names */
	struct bb_kvlist facts;   /* "dt.model" -> "amcc,yosemite" ...: strings, in
				     collection order; freed with bb_kv_free */
};

/* t in UTC as "2026-11-29T21:30:00Z", or compact "20261129T213000Z". */
void bb_utc_stamp(char *buf, size_t len, time_t t, int compact);

/* Largest cache sysfs reports, in bytes (0 if none). */
uint64_t bb_sysinfo_largest_cache(const struct bb_sysinfo *si);

#endif
