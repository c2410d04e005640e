/* version.h - release number and compiler identity; the Makefile generates
 * buildinfo.h with the git revision and the exact flags of this build. */
#ifndef BB_VERSION_H
#define BB_VERSION_H

#include "buildinfo.h"   /* BB_GIT_REV, BB_CFLAGS_STR, BB_HARDEN_CFLAGS_STR, BB_LDFLAGS_STR */

#define BB_VERSION "0.1.0"

#if defined(__clang__)
#define BB_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define BB_COMPILER "gcc " __VERSION__
#else
#define BB_COMPILER "unknown C compiler"
#endif

#define BB_CFLAGS BB_CFLAGS_STR

#endif
