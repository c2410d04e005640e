/* devmem.h - one read-only read of a physical register through /dev/mem,
 * for --fact NAME=mmio:ADDR[:WIDTH[:MASK]] (the register an engineer just
 * changed, recorded with the run).  /dev/mem is read under the facts root
 * (root.h), so tests give a file standing in for it: no test ever reads
 * physical memory. */
#ifndef BB_FACTS_DEVMEM_H
#define BB_FACTS_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/parse.h"

/* Maps the page holding m->addr with PROT_READ, loads m->width bits once
 * (a bus error or fault caught), unmaps, and masks: 0 and *val, or -1 with
 * one line in err (no /dev/mem, not root, the kernel refused the mapping,
 * nothing answers at the address). */
int bb_devmem_read(const struct bb_mmio *m, uint64_t *val, char *err, size_t errlen);

#endif
