/* dtprop.h - the device tree as the kernel shows it (/proc/device-tree,
 * or sysfs's copy), read through root.h: where it is, and a property as
 * 32-bit cells (big-endian in the tree). */
#ifndef BB_FACTS_DTPROP_H
#define BB_FACTS_DTPROP_H

#include <stdint.h>

/* The tree's root under the facts root, or NULL when there is none. */
const char *bb_dt_base(void);

/* The property prop of node (a path under the tree's root, "" for the
 * root itself) as up to max cells; how many (0 when absent or empty). */
int bb_dt_cells(const char *node, const char *prop, uint32_t *cells, int max);

/* Cells v[0..n) as one number (n is 1 or 2, as #address-cells says). */
uint64_t bb_dt_number(const uint32_t *v, int n);

#endif
