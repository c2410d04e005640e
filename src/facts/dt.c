/* dt.c - board identity from the device tree and the SoC bus: the tree's
 * model and compatible strings ("dt.model", "dt.compatible"), what the
 * bootloader or firmware left in /chosen (U-Boot's "u-boot,version" and
 * "u-boot,bootconf", the Raspberry Pi firmware's /chosen/bootloader node,
 * a UEFI boot's system table) and /sys/devices/soc0's machine, family,
 * soc_id and revision ("soc.revision": the silicon revision), and the
 * compatible of the SoC's node ("dt.soc.compatible").  Keys name the tree
 * path with dots: /chosen/bootloader/version ->
 * "dt.chosen.bootloader.version".  Serial numbers are private: boot.c
 * records only a hash of them. */
#include "facts/facts.h"
#include "facts/dtprop.h"
#include "facts/root.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DT_PROP_MAX 4096

/* Whether every byte is printable text or a NUL ending a string, and the
 * last one is a NUL: a strings list, as "compatible" is. */
static int is_strings(const unsigned char *b, size_t n)
{
	if (n == 0 || b[n - 1] != '\0' || b[0] == '\0')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (b[i] ? b[i] < 0x20 || b[i] == 0x7f : i && !b[i - 1])
			return 0;
	return 1;
}

/* A property's value as text: strings joined with ", ", one or two cells
 * as a number (decimal, or hex when hex is set), other bytes in hex. */
static void prop_text(const unsigned char *b, size_t n, int hex, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	if (is_strings(b, n)) {
		for (size_t i = 0; i + 1 < n && o + 3 < len; i++) {
			if (b[i]) {
				out[o++] = (char)b[i];
			} else {
				out[o++] = ',';
				out[o++] = ' ';
			}
		}
		out[o] = '\0';
		return;
	}
	if (n == 4 || n == 8) {
		uint64_t v = 0;
		for (size_t i = 0; i < n; i++)
			v = v << 8 | b[i];
		snprintf(out, len, hex ? "0x%llx" : "%llu", (unsigned long long)v);
		return;
	}
	for (size_t i = 0; i < n && i < 32 && o + 3 < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%02x", b[i]);
}

/* One property under the tree's root as "key"; 0, or -1 if absent. */
static int dt_prop(struct bb_kvlist *kv, const char *base, const char *prop, const char *key,
		   int hex)
{
	char path[512], text[1024];
	unsigned char buf[DT_PROP_MAX];
	ssize_t n;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", base, prop) >= sizeof path)
		return -1;
	n = bb_root_read(path, (char *)buf, sizeof buf);
	if (n < 0)
		return -1;
	prop_text(buf, (size_t)n, hex, text, sizeof text);
	bb_facts_put(kv, key, text);
	return 0;
}

/* What the bootloader or firmware wrote into /chosen. */
static void dt_chosen(struct bb_kvlist *kv, const char *base)
{
	static const char *const props[] = {
		"chosen/u-boot,version",            /* U-Boot (2023.04 and later, many vendors') */
		"chosen/u-boot,bootconf",           /* the FIT configuration U-Boot booted */
		"chosen/bootloader/version",        /* Raspberry Pi firmware */
		"chosen/bootloader/build-timestamp",
		"chosen/bootloader/boot-mode",
		"openprom/model",                   /* Open Firmware (Apple, IBM, Pegasos) */
	};
	char key[128], path[512];

	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
		snprintf(key, sizeof key, "dt.%s", props[i]);
		for (char *p = key; *p; p++)
			if (*p == '/')
				*p = '.';
		dt_prop(kv, base, props[i], key, 0);
	}
	dt_prop(kv, base, "system/linux,revision", "dt.system.linux,revision", 1);
	snprintf(path, sizeof path, "%s/chosen/linux,uefi-system-table", base);
	if (bb_root_read(path, key, sizeof key) >= 0)
		bb_kv_str(kv, "dt.chosen.uefi", "yes");
}

/* /sys/devices/soc0: the SoC as its driver identifies it. */
static void soc0(struct bb_kvlist *kv)
{
	static const char *const attrs[] = { "machine", "family", "soc_id", "revision" };
	char path[128], key[64], val[256];

	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		snprintf(path, sizeof path, "/sys/devices/soc0/%s", attrs[i]);
		snprintf(key, sizeof key, "soc.%s", attrs[i]);
		if (bb_root_line(path, val, sizeof val) == 0)
			bb_facts_put(kv, key, val);
	}
}

/* The compatible of the SoC's node: /soc, /soc@ADDR (simple-bus, e.g.
 * "fsl,imx8mq-soc, simple-bus"), else TI's /ocp. */
static void dt_soc(struct bb_kvlist *kv, const char *base)
{
	char names[8][BB_ROOT_NAME_MAX], prop[BB_ROOT_NAME_MAX + 16];
	int n = bb_root_list(base, "soc", names, 8);

	for (int i = 0; i < n; i++)
		if (strcmp(names[i], "soc") == 0 || strncmp(names[i], "soc@", 4) == 0) {
			snprintf(prop, sizeof prop, "%.63s/compatible", names[i]);
			dt_prop(kv, base, prop, "dt.soc.compatible", 0);
			return;
		}
	dt_prop(kv, base, "ocp/compatible", "dt.soc.compatible", 0);
}

void bb_facts_dt(struct bb_kvlist *kv)
{
	const char *base = bb_dt_base();

	if (base) {
		dt_prop(kv, base, "model", "dt.model", 0);
		dt_prop(kv, base, "compatible", "dt.compatible", 0);
		dt_chosen(kv, base);
		dt_soc(kv, base);
	}
	soc0(kv);
}
