/* hardening.h - which of the usual hardening measures this binary has
 * (stack protector, _FORTIFY_SOURCE, PIE, RELRO with BIND_NOW), as the
 * compiler's own macros and the binary's ELF headers say, never as the
 * Makefile meant it: --version prints it, results files keep it in
 * tool.hardening.  The measured kernels (src/kernels/) are built without
 * the compiler flags; this tells the rest. */
#ifndef BB_HARDENING_H
#define BB_HARDENING_H

#include <stddef.h>

/* "stack-protector=strong fortify=2 pie=yes relro=full link=dynamic":
 *   stack-protector  no | yes | strong | all | explicit  (__SSP*__)
 *   fortify          no | 1 | 2 | 3  (glibc's __USE_FORTIFY_LEVEL: what is
 *                    in effect, not only asked; musl has none)
 *   pie              yes | no  (the ELF type of the running binary)
 *   relro            full (GNU_RELRO, and BIND_NOW or nothing to bind) |
 *                    partial (GNU_RELRO, lazy binding) | no (none, or a
 *                    static binary whose C library does not apply it: musl)
 *   link             static | dynamic  (a PT_INTERP or not) */
void bb_hardening(char *buf, size_t len);

#endif
