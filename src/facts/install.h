/* install.h - puts the facts floor in place under the results model
 * (core/results.h, struct bb_run_hooks): each run's description of the
 * system (facts/sysinfo.c), and the watches around each measured result,
 * the clocks and heat (facts/heat.h) and what else used the machine
 * (facts/load.h).  main() calls it before any applet runs; a unit test
 * that wants a run described and watched calls it too. */
#ifndef BB_FACTS_INSTALL_H
#define BB_FACTS_INSTALL_H

void bb_facts_install(void);

#endif
