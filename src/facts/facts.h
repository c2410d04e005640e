/* facts.h - what tells boards and setups apart, recorded in a results
 * file's `system` as flat string keys with dotted names ("dt.model",
 * "soc.revision", "cpu.pvr", "kernel.config.CONFIG_HZ", "net.core.rmem_max",
 * "clock.policy0.max_khz"), so that `compare` can name every one that differs.
 * Each source is a small reader of its own (one file each in src/facts/),
 * reading through root.h; a reader adds nothing for what the system does not
 * expose.  Keys of values that vary by design (a temperature, a current
 * frequency) end in ".now" and are never called a difference; so are
 * "boot.id" and "boot.uptime_s" (compare groups runs by boot instead). */
#ifndef BB_FACTS_H
#define BB_FACTS_H

#include "core/kv.h"

/* For the readers: key = val with control characters made blanks and
 * surrounding blanks trimmed; an empty (or NULL) value is left out. */
void bb_facts_put(struct bb_kvlist *kv, const char *key, const char *val);

/* Every reader below, in this order. */
void bb_facts_collect(struct bb_kvlist *kv);

void bb_facts_dt(struct bb_kvlist *kv);        /* dt.*, soc.* (device tree, soc0) */
void bb_facts_cpu(struct bb_kvlist *kv);       /* cpu.* by architecture */
void bb_facts_kernel(struct bb_kvlist *kv);    /* kernel.* (release, cmdline, config) */
void bb_facts_firmware(struct bb_kvlist *kv);  /* firmware.*, board.*, memory.mcN.* (EDAC) */
void bb_facts_memory(struct bb_kvlist *kv);    /* memory.total_kb, memory.dt, memory.dmi */
void bb_facts_caches(struct bb_kvlist *kv);    /* cache.* (sysfs), cache.dt.* */
void bb_facts_clocks(struct bb_kvlist *kv);    /* clock.*, thermal.* */
void bb_facts_devfreq(struct bb_kvlist *kv);   /* devfreq.* */
void bb_facts_clktree(struct bb_kvlist *kv);   /* clk.* (debugfs clk_summary) */
void bb_facts_virt(struct bb_kvlist *kv);      /* virt.hypervisor, virt.container */
void bb_facts_netsys(struct bb_kvlist *kv);    /* net.* sysctls */
void bb_facts_boot(struct bb_kvlist *kv);      /* boot.id, boot.uptime_s, board.id* */
void bb_facts_user(struct bb_kvlist *kv);      /* fact.NAME: --fact files and registers */

#endif
