/* cpu.c - the CPU as /proc/cpuinfo describes it, by architecture:
 *   x86      cpu.vendor, cpu.family, cpu.model, cpu.stepping, cpu.microcode,
 *            cpu.flags (only the flags that decide boardbench's variants);
 *   ARM      cpu.cores: every core type with its count, e.g. "4x 0x41:0xd03
 *            r0p4 (Cortex-A53), 2x 0x41:0xd08 r0p2 (Cortex-A72)" (big.LITTLE
 *            has two), cpu.architecture, cpu.flags, and on 32-bit kernels
 *            the board's Hardware and Revision lines;
 *   PowerPC  cpu.name ("cpu"), cpu.revision, cpu.pvr (the Processor Version
 *            Register, from the "(pvr 4222 18d3)" of the revision line),
 *            cpu.clock, cpu.timebase, cpu.platform, cpu.model;
 *   others   cpu.name ("cpu model", "uarch"), cpu.system_type, cpu.isa.
 * cpu.count is the processors listed.  The file is read line by line, each
 * line and the number of lines bounded; "Serial" lines are never read. */
#include "facts/facts.h"
#include "facts/root.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CPU_LINES_MAX 200000
#define CPU_TYPES_MAX 8

/* The first value of each key of interest, by key. */
enum field {
	F_VENDOR, F_FAMILY, F_MODEL, F_MODEL_NAME, F_STEPPING, F_MICROCODE, F_FLAGS,
	F_CPU, F_REVISION, F_CLOCK, F_TIMEBASE, F_PLATFORM, F_MACHINE,
	F_FEATURES, F_ARCH, F_HARDWARE, F_HW_REVISION, F_PROCESSOR_NAME,
	F_CPU_MODEL, F_SYSTEM_TYPE, F_ISA, F_UARCH, F_NFIELDS
};

static const char *const field_keys[F_NFIELDS] = {
	"vendor_id", "cpu family", "model", "model name", "stepping", "microcode", "flags",
	"cpu", "revision", "clock", "timebase", "platform", "machine",
	"Features", "CPU architecture", "Hardware", "Revision", "Processor",
	"cpu model", "system type", "isa", "uarch",
};

struct core_type {
	unsigned long impl, part, variant, rev;
	int count;
};

struct cpuinfo {
	char *v[F_NFIELDS];
	int nproc;
	struct core_type types[CPU_TYPES_MAX];
	int ntypes;
	long impl, part, variant;      /* of the core block being read, -1 unset */
};

/* ---- reading ---- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	return s;
}

static void add_core(struct cpuinfo *ci, unsigned long rev)
{
	struct core_type t = { (unsigned long)ci->impl, (unsigned long)ci->part,
			       (unsigned long)ci->variant, rev, 1 };

	ci->impl = ci->part = ci->variant = -1;
	for (int i = 0; i < ci->ntypes; i++)
		if (ci->types[i].impl == t.impl && ci->types[i].part == t.part &&
		    ci->types[i].variant == t.variant && ci->types[i].rev == t.rev) {
			ci->types[i].count++;
			return;
		}
	if (ci->ntypes < CPU_TYPES_MAX)
		ci->types[ci->ntypes++] = t;
}

/* ARM's per-core lines; the revision line ends a core's block. */
static void arm_line(struct cpuinfo *ci, const char *key, const char *val)
{
	char *end;
	long v = strtol(val, &end, 0);

	if (end == val || v < 0)
		return;
	if (strcmp(key, "CPU implementer") == 0)
		ci->impl = v;
	else if (strcmp(key, "CPU part") == 0)
		ci->part = v;
	else if (strcmp(key, "CPU variant") == 0)
		ci->variant = v;
	else if (strcmp(key, "CPU revision") == 0 && ci->impl >= 0 && ci->part >= 0 &&
		 ci->variant >= 0)
		add_core(ci, (unsigned long)v);
}

static void take_line(struct cpuinfo *ci, char *line)
{
	char *colon = strchr(line, ':'), *key, *val;

	if (!colon)
		return;
	*colon = '\0';
	key = trim(line);
	val = trim(colon + 1);
	if (strcmp(key, "processor") == 0) {
		ci->nproc++;
		return;
	}
	if (strncmp(key, "CPU ", 4) == 0)
		arm_line(ci, key, val);
	for (int f = 0; f < F_NFIELDS; f++)
		if (!ci->v[f] && strcmp(key, field_keys[f]) == 0 && val[0])
			ci->v[f] = strdup(val);
}

static int read_cpuinfo(struct cpuinfo *ci)
{
	FILE *f = bb_root_fopen("/proc/cpuinfo");
	char line[4096];
	int n = 0;

	memset(ci, 0, sizeof *ci);
	ci->impl = ci->part = ci->variant = -1;
	if (!f)
		return -1;
	while (n++ < CPU_LINES_MAX && fgets(line, sizeof line, f))
		take_line(ci, line);
	fclose(f);
	return 0;
}

static void cpuinfo_free(struct cpuinfo *ci)
{
	for (int f = 0; f < F_NFIELDS; f++)
		free(ci->v[f]);
}

/* ---- x86 ---- */

/* Words of list (space-separated) that are in want, in want's order. */
static void pick_words(const char *list, const char *const *want, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (; *want; want++) {
		size_t wl = strlen(*want);
		for (const char *p = list; (p = strstr(p, *want)) != NULL; p += wl) {
			if ((p == list || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\0')) {
				o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", *want);
				break;
			}
		}
		if (o >= len)
			break;
	}
}

static void x86_facts(struct bb_kvlist *kv, const struct cpuinfo *ci)
{
	static const char *const flags[] = {
		"cmov", "mmx", "mmxext", "3dnow", "3dnowext", "3dnowprefetch", "sse", "sse2",
		"avx", "avx2", "avx512f", "avx512bw", "erms", "fsrm", "rep_good",
		"constant_tsc", NULL,
	};
	char buf[512];

	bb_facts_put(kv, "cpu.vendor", ci->v[F_VENDOR]);
	bb_facts_put(kv, "cpu.name", ci->v[F_MODEL_NAME]);
	bb_facts_put(kv, "cpu.family", ci->v[F_FAMILY]);
	bb_facts_put(kv, "cpu.model", ci->v[F_MODEL]);
	bb_facts_put(kv, "cpu.stepping", ci->v[F_STEPPING]);
	bb_facts_put(kv, "cpu.microcode", ci->v[F_MICROCODE]);
	if (ci->v[F_FLAGS]) {
		pick_words(ci->v[F_FLAGS], flags, buf, sizeof buf);
		bb_facts_put(kv, "cpu.flags", buf[0] ? buf : "none of those boardbench uses");
	}
}

/* ---- ARM ---- */

static const char *arm_part_name(unsigned long impl, unsigned long part)
{
	static const struct {
		unsigned short impl, part;
		char name[16];           /* in the row: half the bytes of a pointer table */
	} parts[] = {
		{ 0x41, 0xb76, "ARM1176" },     { 0x41, 0xc05, "Cortex-A5" },
		{ 0x41, 0xc07, "Cortex-A7" },   { 0x41, 0xc08, "Cortex-A8" },
		{ 0x41, 0xc09, "Cortex-A9" },   { 0x41, 0xc0d, "Cortex-A12" },
		{ 0x41, 0xc0e, "Cortex-A17" },  { 0x41, 0xc0f, "Cortex-A15" },
		{ 0x41, 0xd01, "Cortex-A32" },  { 0x41, 0xd03, "Cortex-A53" },
		{ 0x41, 0xd04, "Cortex-A35" },  { 0x41, 0xd05, "Cortex-A55" },
		{ 0x41, 0xd07, "Cortex-A57" },  { 0x41, 0xd08, "Cortex-A72" },
		{ 0x41, 0xd09, "Cortex-A73" },  { 0x41, 0xd0a, "Cortex-A75" },
		{ 0x41, 0xd0b, "Cortex-A76" },  { 0x41, 0xd0c, "Neoverse-N1" },
		{ 0x41, 0xd0d, "Cortex-A77" },  { 0x41, 0xd40, "Neoverse-V1" },
		{ 0x41, 0xd41, "Cortex-A78" },  { 0x41, 0xd44, "Cortex-X1" },
		{ 0x41, 0xd46, "Cortex-A510" }, { 0x41, 0xd47, "Cortex-A710" },
		{ 0x41, 0xd48, "Cortex-X2" },   { 0x41, 0xd49, "Neoverse-N2" },
		{ 0x41, 0xd4b, "Cortex-A78C" }, { 0x41, 0xd4d, "Cortex-A715" },
		{ 0x41, 0xd4e, "Cortex-X3" },   { 0x41, 0xd80, "Cortex-A520" },
		{ 0x41, 0xd81, "Cortex-A720" }, { 0x41, 0xd82, "Cortex-X4" },
		{ 0x51, 0x800, "Kryo 2xx Gold" }, { 0x51, 0x801, "Kryo 2xx Silver" },
		{ 0x51, 0x802, "Kryo 3xx Gold" }, { 0x51, 0x803, "Kryo 3xx Silver" },
		{ 0x51, 0x805, "Kryo 4xx Silver" },
	};

	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (parts[i].impl == impl && parts[i].part == part)
			return parts[i].name;
	return NULL;
}

/* "4x 0x41:0xd03 r0p4 (Cortex-A53), 2x 0x41:0xd08 r0p2 (Cortex-A72)" */
static void arm_cores(const struct cpuinfo *ci, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < ci->ntypes && o < len; i++) {
		const struct core_type *t = &ci->types[i];
		const char *name = arm_part_name(t->impl, t->part);
		o += (size_t)snprintf(out + o, len - o, "%s%dx 0x%02lx:0x%03lx r%lup%lu%s%s%s",
				      i ? ", " : "", t->count, t->impl, t->part, t->variant,
				      t->rev, name ? " (" : "", name ? name : "", name ? ")" : "");
	}
}

static void arm_facts(struct bb_kvlist *kv, const struct cpuinfo *ci)
{
	static const char *const flags[] = { "neon", "asimd", "vfpv4", "crc32", "sve", "sve2",
					     NULL };
	char buf[512];

	bb_facts_put(kv, "cpu.name", ci->v[F_MODEL_NAME] ? ci->v[F_MODEL_NAME]
							 : ci->v[F_PROCESSOR_NAME]);
	bb_facts_put(kv, "cpu.architecture", ci->v[F_ARCH]);
	arm_cores(ci, buf, sizeof buf);
	bb_facts_put(kv, "cpu.cores", buf);
	if (ci->v[F_FEATURES]) {
		pick_words(ci->v[F_FEATURES], flags, buf, sizeof buf);
		bb_facts_put(kv, "cpu.flags", buf[0] ? buf : "none of those boardbench uses");
	}
	bb_facts_put(kv, "cpu.hardware", ci->v[F_HARDWARE]);
	bb_facts_put(kv, "cpu.hardware_revision", ci->v[F_HW_REVISION]);
}

/* ---- PowerPC ---- */

/* One to four hex digits at *p after blanks, into *v; *p moves past
 * them.  -1 (nothing moved or set) when there is no hex digit. */
static int hex4(const char **p, unsigned *v)
{
	const char *q = *p;
	unsigned x = 0;
	int n;

	while (*q == ' ' || *q == '\t')
		q++;
	for (n = 0; n < 4 && isxdigit((unsigned char)q[n]); n++)
		x = x * 16 + (unsigned)(isdigit((unsigned char)q[n]) ? q[n] - '0'
							  : tolower((unsigned char)q[n]) - 'a' + 10);
	if (n == 0)
		return -1;
	*p = q + n;
	*v = x;
	return 0;
}

/* "24.211 (pvr 4222 18d3)" -> "0x422218d3"; 0, or -1 without a pvr. */
static int ppc_pvr(const char *revision, char *out, size_t len)
{
	const char *p = revision ? strstr(revision, "(pvr ") : NULL;
	unsigned ver, rev;

	if (!p)
		return -1;
	p += 5;
	if (hex4(&p, &ver) || hex4(&p, &rev))
		return -1;
	snprintf(out, len, "0x%04x%04x", ver, rev);
	return 0;
}

static void ppc_facts(struct bb_kvlist *kv, const struct cpuinfo *ci)
{
	char pvr[16];

	bb_facts_put(kv, "cpu.name", ci->v[F_CPU]);
	bb_facts_put(kv, "cpu.revision", ci->v[F_REVISION]);
	if (ppc_pvr(ci->v[F_REVISION], pvr, sizeof pvr) == 0)
		bb_facts_put(kv, "cpu.pvr", pvr);
	bb_facts_put(kv, "cpu.clock", ci->v[F_CLOCK]);
	bb_facts_put(kv, "cpu.timebase", ci->v[F_TIMEBASE]);
	bb_facts_put(kv, "cpu.platform", ci->v[F_PLATFORM]);
	bb_facts_put(kv, "cpu.model", ci->v[F_MODEL]);
	bb_facts_put(kv, "cpu.machine", ci->v[F_MACHINE]);
}

/* ---- the rest: MIPS, RISC-V ... ---- */

static void other_facts(struct bb_kvlist *kv, const struct cpuinfo *ci)
{
	const char *name = ci->v[F_MODEL_NAME] ? ci->v[F_MODEL_NAME]
			 : ci->v[F_CPU_MODEL] ? ci->v[F_CPU_MODEL] : ci->v[F_UARCH];

	bb_facts_put(kv, "cpu.name", name);
	bb_facts_put(kv, "cpu.system_type", ci->v[F_SYSTEM_TYPE]);
	bb_facts_put(kv, "cpu.isa", ci->v[F_ISA]);
}

void bb_facts_cpu(struct bb_kvlist *kv)
{
	struct cpuinfo ci;
	char n[16];

	if (read_cpuinfo(&ci))
		return;
	if (ci.v[F_VENDOR] && ci.v[F_FAMILY])
		x86_facts(kv, &ci);
	else if (ci.ntypes || ci.v[F_FEATURES])
		arm_facts(kv, &ci);
	else if (ci.v[F_CPU] && ci.v[F_REVISION])
		ppc_facts(kv, &ci);
	else
		other_facts(kv, &ci);
	if (ci.nproc > 0) {
		snprintf(n, sizeof n, "%d", ci.nproc);
		bb_kv_str(kv, "cpu.count", n);
	}
	cpuinfo_free(&ci);
}
