/* dtprop.c - the device tree's root and its cells (see dtprop.h). */
#include "facts/dtprop.h"
#include "facts/root.h"

#include <stdio.h>
#include <unistd.h>

const char *bb_dt_base(void)
{
	static const char *const bases[] = { "/proc/device-tree", "/sys/firmware/devicetree/base" };
	char path[4096];

	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (bb_root_path(path, sizeof path, bases[i]) == 0 && access(path, F_OK) == 0)
			return bases[i];
	return NULL;
}

int bb_dt_cells(const char *node, const char *prop, uint32_t *cells, int max)
{
	const char *base = bb_dt_base();
	unsigned char b[256];
	char path[512];
	ssize_t n;
	int k;

	if (!base || (size_t)snprintf(path, sizeof path, "%s%s%s/%s", base, node[0] ? "/" : "",
				      node, prop) >= sizeof path)
		return 0;
	n = bb_root_read(path, (char *)b, sizeof b);
	for (k = 0; n >= 4 && k < max && (k + 1) * 4 <= n; k++)
		cells[k] = (uint32_t)b[4 * k] << 24 | (uint32_t)b[4 * k + 1] << 16 |
			   (uint32_t)b[4 * k + 2] << 8 | b[4 * k + 3];
	return k;
}

uint64_t bb_dt_number(const uint32_t *v, int n)
{
	return n == 2 ? (uint64_t)v[0] << 32 | v[1] : v[0];
}
