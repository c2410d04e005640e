/* fpu.h - how floating point is done here: by the FPU, by library
 * routines the compiler calls (a soft-float build), or by the kernel
 * trapping every floating-point instruction (a hard-float build on a CPU
 * without an FPU, such as a PPC440 board running a hard-float userland).
 * STREAM's Scale, Add and Triad then time the emulation, not the memory,
 * and the stream applet says so.  Nothing else in boardbench depends on
 * an FPU: timing uses doubles outside the timed loops only. */
#ifndef BB_CORE_FPU_H
#define BB_CORE_FPU_H

enum bb_fp_mode {
	BB_FP_HARDWARE,   /* a hard-float build, and the CPU reports an FPU or cannot say */
	BB_FP_SOFT_BUILD, /* this build calls library routines for floating point */
	BB_FP_TRAPPED,    /* hard-float build, the CPU reports no FPU (AT_HWCAP) */
};

enum bb_fp_mode bb_fp_mode(void);

/* "hardware", "software (soft-float build)", "emulated by the kernel (no FPU)". */
const char *bb_fp_name(enum bb_fp_mode m);

#endif
