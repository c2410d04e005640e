/* memory.c - the memory a board has, as the kernel, the device tree and
 * the firmware say it (EDAC's memory controllers are in firmware.c):
 *   memory.total_kb   /proc/meminfo's MemTotal (what the kernel manages:
 *                     the RAM less what firmware and the kernel reserve)
 *   memory.dt         the banks of the device tree's /memory nodes, each
 *                     "BASE SIZE" in hex bytes and MiB, as U-Boot or the
 *                     firmware fixed them up: "0x40000000 3072 MiB"
 *   memory.dmi        SMBIOS type 17 memory devices (DIMMs) alike, counted:
 *                     "2x 8192 MB DDR4 3200 MT/s (configured 2933 MT/s)",
 *                     from /sys/firmware/dmi/entries/17-N/raw (root only)
 * Serial numbers, part numbers and asset tags of DIMMs are not read. */
#include "facts/facts.h"
#include "facts/dtprop.h"
#include "facts/root.h"
#include "facts/tally.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

#define DT_BANKS_MAX 16
#define DMI_DEVICES_MAX 64

static void total(struct bb_kvlist *kv)
{
	FILE *f = bb_root_fopen("/proc/meminfo");
	char line[128], v[24];
	unsigned long long kb;

	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (bb_scan_field(line, "MemTotal:", &kb) == 0) {
			snprintf(v, sizeof v, "%llu", kb);
			bb_facts_put(kv, "memory.total_kb", v);
			break;
		}
	fclose(f);
}

/* "0x40000000 3072 MiB" (KiB, or bytes, when not whole MiB). */
static size_t bank_text(char *out, size_t len, uint64_t base, uint64_t size)
{
	const char *unit = size % (1 << 20) == 0 ? "MiB" : size % 1024 == 0 ? "KiB" : "bytes";
	uint64_t n = size % (1 << 20) == 0 ? size >> 20 : size % 1024 == 0 ? size >> 10 : size;

	return (size_t)snprintf(out, len, "0x%llx %llu %s", (unsigned long long)base,
				(unsigned long long)n, unit);
}

/* The banks of one node's reg: (address, size) pairs of ac and sc cells,
 * appended to out; the new length. */
static size_t node_banks(const char *node, uint32_t ac, uint32_t sc, char *out, size_t o,
			 size_t len)
{
	uint32_t c[4 * DT_BANKS_MAX];
	int k = bb_dt_cells(node, "reg", c, 4 * DT_BANKS_MAX);

	for (int j = 0; j + (int)(ac + sc) <= k && o + 2 < len; j += (int)(ac + sc)) {
		uint64_t size = bb_dt_number(c + j + ac, (int)sc);
		if (!size)
			continue;
		o += (size_t)snprintf(out + o, len - o, "%s", o ? ", " : "");
		o += bank_text(out + o, len - o, bb_dt_number(c + j, (int)ac), size);
	}
	return o;
}

/* Every /memory and /memory@ADDR node's reg, in the cells of the root's
 * #address-cells and #size-cells (2 and 1 when not given). */
static void dt_banks(struct bb_kvlist *kv)
{
	char names[8][BB_ROOT_NAME_MAX], out[512] = "";
	uint32_t ac = 2, sc = 1;
	size_t o = 0;
	int n;

	if (!bb_dt_base() || !(n = bb_root_list(bb_dt_base(), "memory", names, 8)))
		return;
	bb_dt_cells("", "#address-cells", &ac, 1);
	bb_dt_cells("", "#size-cells", &sc, 1);
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return;
	for (int i = 0; i < n; i++)
		if (names[i][6] == '\0' || names[i][6] == '@')
			o = node_banks(names[i], ac, sc, out, o, sizeof out);
	if (o < sizeof out)
		bb_facts_put(kv, "memory.dt", out);
}

/* SMBIOS memory types (DSP0134 7.18.2), from 0x01, one string each. */
static const char dmi_types[] =
	"Other\0Unknown\0DRAM\0EDRAM\0VRAM\0SRAM\0RAM\0ROM\0FLASH\0EEPROM\0FEPROM\0EPROM\0"
	"CDRAM\0" "3DRAM\0SDRAM\0SGRAM\0RDRAM\0DDR\0DDR2\0DDR2 FB-DIMM\0\0\0\0DDR3\0FBD2\0"
	"DDR4\0LPDDR\0LPDDR2\0LPDDR3\0LPDDR4\0Logical non-volatile device\0HBM\0HBM2\0DDR5\0"
	"LPDDR5\0HBM3\0";

static const char *dmi_type(unsigned t, char *buf, size_t len)
{
	const char *p = dmi_types, *end = dmi_types + sizeof dmi_types - 1;

	for (unsigned i = 1; i < t && p < end; i++)
		p += strlen(p) + 1;
	if (t == 0 || p >= end || !*p)
		snprintf(buf, len, "type 0x%02x", t);
	return t == 0 || p >= end || !*p ? buf : p;
}

static unsigned word(const unsigned char *b, int at)
{
	return b[at] | (unsigned)b[at + 1] << 8;
}

/* One type 17 structure: 0 and its description, or -1 (an empty slot,
 * or too short). */
static int dmi_device(const unsigned char *b, size_t n, char *desc, size_t len)
{
	unsigned size, speed, conf;
	unsigned long long mb;
	char tb[16];

	if (n < 0x17 || b[0] != 17 || b[1] < 0x17 || b[1] > n)
		return -1;
	size = word(b, 0x0c);
	if (size == 0 || size == 0xffff)
		return -1;
	mb = size == 0x7fff && b[1] >= 0x20 ? (word(b, 0x1c) | (unsigned long long)word(b, 0x1e) << 16)
					     & 0x7fffffff : size;
	speed = word(b, 0x15);
	conf = b[1] >= 0x22 ? word(b, 0x20) : 0;
	snprintf(desc, len, "%llu %s %s", size & 0x8000 ? size & 0x7fff : mb,
		 size & 0x8000 ? "KB" : "MB", dmi_type(b[0x12], tb, sizeof tb));
	if (speed && speed != 0xffff)
		snprintf(desc + strlen(desc), len - strlen(desc), " %u MT/s", speed);
	if (conf && conf != 0xffff && conf != speed)
		snprintf(desc + strlen(desc), len - strlen(desc), " (configured %u MT/s)", conf);
	return 0;
}

static void dmi_devices(struct bb_kvlist *kv)
{
	struct bb_tally t = { 0 };
	unsigned char b[128];
	char path[64], desc[72];

	for (int i = 0; i < DMI_DEVICES_MAX; i++) {
		ssize_t n;
		snprintf(path, sizeof path, "/sys/firmware/dmi/entries/17-%d/raw", i);
		if ((n = bb_root_read(path, (char *)b, sizeof b)) < 0)
			break;
		if (dmi_device(b, (size_t)n, desc, sizeof desc) == 0)
			bb_tally_add(&t, "memory.dmi", desc);
	}
	bb_tally_put(kv, &t, ", ");
}

void bb_facts_memory(struct bb_kvlist *kv)
{
	total(kv);
	dt_banks(kv);
	dmi_devices(kv);
}
