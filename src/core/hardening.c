/* hardening.c - the hardening this binary was built with (hardening.h),
 * from the macros the compiler defined for this file (which is compiled
 * with the flags of everything but the kernels), the ELF header's type
 * (__ehdr_start, which GNU ld, gold and lld define in every executable)
 * and the running binary's program headers (the kernel's AT_PHDR). */
#include "core/hardening.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

extern const ElfW(Ehdr) __ehdr_start;

static const char *stack_protector(void)
{
#if defined(__SSP_ALL__)
	return "all";
#elif defined(__SSP_STRONG__)
	return "strong";
#elif defined(__SSP_EXPLICIT__)
	return "explicit";
#elif defined(__SSP__)
	return "yes";
#else
	return "no";
#endif
}

static int fortify_level(void)
{
#if defined(__USE_FORTIFY_LEVEL)
	return __USE_FORTIFY_LEVEL;
#else
	return 0;
#endif
}

/* Whether the C library applies PT_GNU_RELRO in a static binary: glibc
 * does at startup; musl only in its dynamic linker. */
static int static_relro_applied(void)
{
#if defined(__GLIBC__) && !defined(__UCLIBC__)
	return 1;
#else
	return 0;
#endif
}

struct elf_facts {
	int pie, interp, relro, dynamic, bind_now;
};

/* DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW in the dynamic section. */
static int binds_now(const ElfW(Dyn) *d)
{
	for (; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_BIND_NOW || (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_BIND_NOW)) ||
		    (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NOW)))
			return 1;
	return 0;
}

/* The program headers as the kernel mapped them (AT_PHDR), and where the
 * binary was loaded: from PT_PHDR, else from the segment that holds the
 * ELF header. */
static void read_elf(struct elf_facts *e)
{
	uintptr_t at = (uintptr_t)getauxval(AT_PHDR), bias = 0;
	size_t n = (size_t)getauxval(AT_PHNUM);
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)at, *dyn = NULL;

	memset(e, 0, sizeof *e);
	e->pie = __ehdr_start.e_type == ET_DYN;
	if (!at)
		return;
	for (size_t i = 0; i < n; i++) {
		if (ph[i].p_type == PT_PHDR)
			bias = at - (uintptr_t)ph[i].p_vaddr;
		else if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0 && !bias)
			bias = (uintptr_t)&__ehdr_start - (uintptr_t)ph[i].p_vaddr;
		e->interp |= ph[i].p_type == PT_INTERP;
		e->relro |= ph[i].p_type == PT_GNU_RELRO;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = &ph[i];
	}
	e->dynamic = dyn != NULL;
	if (dyn)
		e->bind_now = binds_now((const ElfW(Dyn) *)(bias + (uintptr_t)dyn->p_vaddr));
}

static const char *relro(const struct elf_facts *e)
{
	if (!e->relro || (!e->interp && !static_relro_applied()))
		return "no";
	return e->bind_now || !e->dynamic ? "full" : "partial";
}

void bb_hardening(char *buf, size_t len)
{
	struct elf_facts e;
	char fortify[8] = "no";

	read_elf(&e);
	if (fortify_level() > 0)
		snprintf(fortify, sizeof fortify, "%d", fortify_level());
	snprintf(buf, len, "stack-protector=%s fortify=%s pie=%s relro=%s link=%s", stack_protector(),
		 fortify, e.pie ? "yes" : "no", relro(&e), e.interp ? "dynamic" : "static");
}
