/* firmware.c - firmware and memory facts: DMI/SMBIOS from
 * /sys/class/dmi/id (firmware.bios_*, board.*; serial numbers, UUIDs and
 * asset tags are private and never read here: only boot.c's board.id
 * hashes the serials and the UUID), a UEFI boot's word size
 * (firmware.efi), and the memory controllers EDAC knows
 * (/sys/devices/system/edac/mc/mcN: memory.mcN.name, memory.mcN.size_mb
 * and memory.mcN.dimms, e.g. "2x 8192 MB Unbuffered-DDR4 SECDED"; csrows
 * on kernels before DIMMs were listed; memory.mcN.ranks where the
 * controller lists ranks, its chip selects, instead of DIMMs). */
#include "facts/facts.h"
#include "facts/root.h"
#include "facts/tally.h"

#include <stdio.h>
#include <string.h>

#define EDAC_MC_MAX 8
#define EDAC_DIMM_MAX 64

static void dmi(struct bb_kvlist *kv)
{
	static const char *const map[][2] = {
		{ "bios_vendor", "firmware.bios_vendor" },
		{ "bios_version", "firmware.bios_version" },
		{ "bios_date", "firmware.bios_date" },
		{ "sys_vendor", "board.sys_vendor" },
		{ "product_name", "board.product_name" },
		{ "board_vendor", "board.vendor" },
		{ "board_name", "board.name" },
		{ "board_version", "board.version" },
	};
	char path[128], val[256];

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		snprintf(path, sizeof path, "/sys/class/dmi/id/%s", map[i][0]);
		if (bb_root_line(path, val, sizeof val) == 0)
			bb_facts_put(kv, map[i][1], val);
	}
}

static void efi(struct bb_kvlist *kv)
{
	long long bits;

	if (bb_root_llong("/sys/firmware/efi/fw_platform_size", &bits) == 0) {
		char v[32];
		snprintf(v, sizeof v, "%lld-bit UEFI", bits);
		bb_kv_str(kv, "firmware.efi", v);
	}
}

/* One DIMM directory (dimmN: size, dimm_mem_type, dimm_edac_mode; or
 * csrowN: size_mb, mem_type, edac_mode): 0, or -1. */
static int one_dimm(const char *dir, const char *pfx, char *desc, size_t len)
{
	char path[256], size[24], type[48], mode[32];

	snprintf(path, sizeof path, "%s/%s", dir, pfx[0] ? "size" : "size_mb");
	if (bb_root_line(path, size, sizeof size))
		return -1;
	snprintf(path, sizeof path, "%s/%smem_type", dir, pfx);
	bb_root_line(path, type, sizeof type);
	snprintf(path, sizeof path, "%s/%sedac_mode", dir, pfx);
	bb_root_line(path, mode, sizeof mode);
	snprintf(desc, len, "%s MB%s%s%s%s", size, type[0] ? " " : "", type, mode[0] ? " " : "",
		 mode);
	return 0;
}

/* memory.mcN.dimms: "2x 8192 MB Unbuffered-DDR4 SECDED", from dimmK (or
 * csrowK on older kernels); memory.mcN.ranks the same from rankK, which a
 * controller that counts chip selects has instead of dimmK. */
static void mc_dimms(struct bb_kvlist *kv, const char *mc, int n)
{
	static const char *const dirs[][3] = {
		{ "dimm", "dimm_", "dimms" }, { "rank", "dimm_", "ranks" }, { "csrow", "", "dimms" },
	};
	struct bb_tally t = { 0 };
	char dir[160], desc[128], key[64];

	for (size_t d = 0; d < sizeof dirs / sizeof dirs[0] && !t.n; d++) {
		snprintf(key, sizeof key, "memory.mc%d.%s", n, dirs[d][2]);
		for (int i = 0; i < EDAC_DIMM_MAX; i++) {
			snprintf(dir, sizeof dir, "%s/%s%d", mc, dirs[d][0], i);
			if (one_dimm(dir, dirs[d][1], desc, sizeof desc))
				break;
			bb_tally_add(&t, key, desc);
		}
	}
	bb_tally_put(kv, &t, ", ");
}

static void edac(struct bb_kvlist *kv)
{
	char mc[96], path[160], val[128], key[64];

	for (int n = 0; n < EDAC_MC_MAX; n++) {
		snprintf(mc, sizeof mc, "/sys/devices/system/edac/mc/mc%d", n);
		snprintf(path, sizeof path, "%s/mc_name", mc);
		if (bb_root_line(path, val, sizeof val))
			break;
		snprintf(key, sizeof key, "memory.mc%d.name", n);
		bb_facts_put(kv, key, val);
		snprintf(path, sizeof path, "%s/size_mb", mc);
		if (bb_root_line(path, val, sizeof val) == 0) {
			snprintf(key, sizeof key, "memory.mc%d.size_mb", n);
			bb_facts_put(kv, key, val);
		}
		mc_dimms(kv, mc, n);
	}
}

void bb_facts_firmware(struct bb_kvlist *kv)
{
	dmi(kv);
	efi(kv);
	edac(kv);
}
