/* fpu.c - floating point by hardware, by a soft-float build, or trapped
 * to the kernel (see fpu.h).  The build's ABI is known at compile time;
 * the CPU's FPU is read from AT_HWCAP where the architecture has a bit
 * for it (PowerPC: PPC_FEATURE_HAS_FPU).  Where there is no such bit the
 * answer is "hardware": a guess from timing could not tell a slow FPU
 * from an emulator under qemu, so none is made. */
#include "core/fpu.h"

#if defined(__linux__)
#include <sys/auxv.h>
#endif

#if defined(_SOFT_FLOAT) || defined(__SOFTFP__) || defined(__mips_soft_float) || \
	(defined(__riscv) && !defined(__riscv_flen)) || defined(__NO_FPRS__) && !defined(__SPE__)
#define BB_SOFT_FLOAT_BUILD 1
#else
#define BB_SOFT_FLOAT_BUILD 0
#endif

#define BB_PPC_FEATURE_HAS_FPU 0x08000000UL   /* asm/cputable.h */

enum bb_fp_mode bb_fp_mode(void)
{
	if (BB_SOFT_FLOAT_BUILD)
		return BB_FP_SOFT_BUILD;
#if defined(__linux__) && (defined(__powerpc__) || defined(__powerpc64__))
	{
		unsigned long hw = getauxval(AT_HWCAP);
		if (hw != 0 && !(hw & BB_PPC_FEATURE_HAS_FPU))
			return BB_FP_TRAPPED;
	}
#endif
	return BB_FP_HARDWARE;
}

const char *bb_fp_name(enum bb_fp_mode m)
{
	switch (m) {
	case BB_FP_SOFT_BUILD: return "software (soft-float build)";
	case BB_FP_TRAPPED: return "emulated by the kernel (the CPU reports no FPU)";
	case BB_FP_HARDWARE: break;
	}
	return "hardware";
}
