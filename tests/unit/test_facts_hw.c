/* test_facts_hw.c - unit tests for the facts of memory, caches, clocks,
 * devfreq, the clock tree, virtualisation, SoC identity and --fact
 * (src/facts/memory.c, caches.c, devfreq.c, clktree.c, virt.c, dt.c,
 * boot.c, firmware.c's EDAC ranks, userfact.c, devmem.c): the fixture
 * boards of tests/fixtures/boards/ (an i.MX8MQ EVK, a Raspberry Pi 3 B,
 * a BeagleBone Black, an RK3399 big.LITTLE, a QEMU x86 guest) and small
 * trees made here for what no fixture shows (SMBIOS memory devices, EDAC
 * ranks, other clk_summary layouts, hypervisor sources, a file standing in
 * for /dev/mem).  Nothing here reads the real /dev/mem: every register
 * read has BB_SYSROOT set to a tree of this test's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/cli.h"
#include "facts/devmem.h"
#include "facts/facts.h"
#include "facts/root.h"

#include "facts_fixture.h"

static char tree[64];   /* this test's own tree, when one is made */

/* How many facts start with prefix. */
static int count_prefix(const char *prefix)
{
	int n = 0;

	for (size_t i = 0; i < kv.n; i++)
		n += strncmp(kv.v[i].key, prefix, strlen(prefix)) == 0;
	return n;
}

/* ---- a tree of the test's own ---- */

static void make_tree(void)
{
	snprintf(tree, sizeof tree, "/tmp/bb-facts-hw-XXXXXX");
	assert_non_null(mkdtemp(tree));
	use_root(tree);
}

/* tree/path with len bytes of data, directories made as needed. */
static void put_bytes(const char *path, const void *data, size_t len)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof full, "%s%s", tree, path);
	for (char *p = full + strlen(tree) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	assert_non_null(f = fopen(full, "wb"));
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put(const char *path, const char *text)
{
	put_bytes(path, text, strlen(text));
}

static int teardown(void **state)
{
	char cmd[96];

	(void)state;
	bb_kv_free(&kv);
	bb_cli_facts_reset();
	if (tree[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
		assert_int_equal(system(cmd), 0);
		tree[0] = '\0';
	}
	return 0;
}

/* ---- the fixture boards ---- */

static void test_imx8mq(void **state)
{
	(void)state;
	collect("imx8mq-evk");
	assert_fact("soc.machine", "NXP i.MX8MQ EVK");
	assert_fact("soc.family", "Freescale i.MX");
	assert_fact("soc.soc_id", "i.MX8MQ");
	assert_fact("soc.revision", "2.1");
	/* printf 'boardbench soc.serial_id\n2D1A0E0C4B3F2209\n' | sha256sum | cut -c1-16 */
	assert_fact("soc.serial_id", "24312f03528a67ec");
	assert_fact("dt.soc.compatible", "fsl,imx8mq-soc, simple-bus");
	assert_fact("memory.total_kb", "3012340");
	assert_fact("memory.dt", "0x40000000 3072 MiB");
	assert_fact("cache.L1d", "4x 32K, 64 B lines, 4-way");
	assert_fact("cache.L1i", "4x 32K, 64 B lines, 2-way");
	assert_fact("cache.L2", "1x 1024K, 64 B lines, 16-way");
	assert_fact("cache.dt.L1d", "4x 32K, 64 B lines, 128 sets");
	assert_fact("cache.dt.L2", "1x 1024K, 64 B lines, 1024 sets");
	assert_fact("clock.policy0.available_khz", "800000 1000000 1300000 1500000");
	assert_fact("devfreq.3d400000.memory-controller.governor", "userspace");
	assert_fact("devfreq.3d400000.memory-controller.available_hz", "25000000 100000000 800000000");
	assert_fact("devfreq.3d400000.memory-controller.min_hz", "25000000");
	assert_fact("devfreq.3d400000.memory-controller.max_hz", "800000000");
	/* userspace holds the clock: a setting, not ".now" */
	assert_fact("devfreq.3d400000.memory-controller.hz", "800000000");
	assert_no_fact("devfreq.3d400000.memory-controller.hz.now");
	assert_fact("devfreq.32700000.interconnect.hz", "800000000");
	assert_fact("clk.dram_pll_out", "800000000");
	assert_fact("clk.arm_a53_core", "1500000000");
	assert_fact("clk.ipg_root", "66666667");
	assert_no_fact("clk.vpu_pll");       /* disabled */
	assert_no_fact("clk.gpu_core_src");  /* disabled */
	assert_int_equal(count_prefix("clk."), 23);
	assert_no_fact("virt.hypervisor");
}

static void test_rpi3b(void **state)
{
	(void)state;
	collect("rpi3b");
	assert_no_fact("soc.machine");   /* no soc0 on a BCM2837 */
	/* the tree's /serial-number, hashed */
	assert_fact("soc.serial_id", "9d2e74236e2936a9");
	for (size_t i = 0; i < kv.n; i++)
		if (kv.v[i].s && strstr(kv.v[i].s, "b3c4d5e6"))
			fail_msg("%s records the serial number: %s", kv.v[i].key, kv.v[i].s);
	assert_fact("dt.soc.compatible", "simple-bus");
	assert_fact("memory.dt", "0x0 948 MiB");
	assert_no_fact("cache.L1d");     /* 32-bit ARM 6.1: no cacheinfo */
	assert_fact("cache.dt.L1d", "4x 32K, 64 B lines, 128 sets");
	assert_fact("cache.dt.L1i", "4x 32K, 64 B lines, 256 sets");
	assert_fact("cache.dt.L2", "1x 512K, 64 B lines, 512 sets");
	assert_fact("clk.fw-clk-arm", "600000000");
	assert_no_fact("clk.pllb");
	assert_fact("clock.policy0.governor", "ondemand");
}

static void test_am335x(void **state)
{
	(void)state;
	collect("am335x-boneblack");
	assert_fact("soc.machine", "AM335X");
	assert_fact("soc.family", "AM33xx");
	assert_fact("soc.revision", "ES2.1");
	assert_no_fact("soc.soc_id");
	assert_no_fact("soc.serial_id");
	assert_fact("dt.soc.compatible", "simple-pm-bus");   /* TI's /ocp */
	assert_fact("memory.dt", "0x80000000 512 MiB");
	assert_int_equal(count_prefix("cache."), 0);
	/* the 5.x columns: no hardware enable */
	assert_fact("clk.dpll_ddr_m2_ck", "400000000");
	assert_fact("clk.dpll_mpu_m2_ck", "1000000000");
	assert_no_fact("clk.dpll_disp_ck");
	assert_int_equal(count_prefix("clk."), 14);
	assert_fact("clock.policy0.available_khz", "300000 600000 720000 800000 1000000");
}

/* Each cluster's caches are a group of their own, in CPU order; a DDR
 * controller under simple_ondemand moves its clock by design (.now). */
static void test_biglittle(void **state)
{
	(void)state;
	collect("biglittle");
	assert_fact("cache.L1d", "4x 32K, 64 B lines, 4-way; 2x 32K, 64 B lines, 2-way");
	assert_fact("cache.L1i", "4x 32K, 64 B lines, 2-way; 2x 48K, 64 B lines, 3-way");
	assert_fact("cache.L2", "1x 512K, 64 B lines, 16-way; 1x 1024K, 64 B lines, 16-way");
	assert_fact("devfreq.dmc.hz.now", "666000000");
	assert_no_fact("devfreq.dmc.hz");
	assert_fact("devfreq.dmc.governor", "simple_ondemand");
}

static void test_qemu_x86(void **state)
{
	(void)state;
	collect("qemu-x86");
	assert_fact("virt.hypervisor", "qemu");
	assert_fact("memory.dmi", "1x 2048 MB RAM");
	assert_fact("cache.L3", "1x 16384K, 64 B lines, 16-way");
	assert_no_fact("virt.container");
}

/* ---- trees made here ---- */

/* An SMBIOS type 17 structure of 0x28 bytes. */
static void dmi17(int n, unsigned size, unsigned type, unsigned speed, unsigned conf,
		  unsigned ext_mb, size_t len)
{
	unsigned char b[0x28];
	char path[64];

	memset(b, 0, sizeof b);
	b[0] = 17;
	b[1] = (unsigned char)len;
	b[0x0c] = size & 0xff;
	b[0x0d] = size >> 8;
	b[0x12] = (unsigned char)type;
	b[0x15] = speed & 0xff;
	b[0x16] = speed >> 8;
	for (int i = 0; i < 4; i++)
		b[0x1c + i] = (unsigned char)(ext_mb >> (8 * i));
	b[0x20] = conf & 0xff;
	b[0x21] = conf >> 8;
	snprintf(path, sizeof path, "/sys/firmware/dmi/entries/17-%d/raw", n);
	put_bytes(path, b, len < sizeof b ? len : sizeof b);
}

static void test_dmi_memory_devices(void **state)
{
	(void)state;
	make_tree();
	dmi17(0, 8192, 0x1a, 3200, 2933, 0, 0x28);
	dmi17(1, 8192, 0x1a, 3200, 2933, 0, 0x28);
	dmi17(2, 0, 0x1a, 0, 0, 0, 0x28);                 /* an empty slot */
	dmi17(3, 0x7fff, 0x22, 4800, 4800, 32768, 0x28);  /* extended size */
	dmi17(4, 0x8000 | 512, 0x0f, 0, 0, 0, 0x28);      /* in KB */
	dmi17(5, 1024, 0x99, 0xffff, 0, 0, 0x28);         /* a type of no name yet */
	dmi17(6, 1024, 0x1a, 0, 0, 0, 0x15);              /* cut short: not read */
	dmi17(7, 2048, 0x18, 1600, 0, 0, 0x1b);           /* SMBIOS 2.3: no configured speed */
	bb_facts_memory(&kv);
	assert_fact("memory.dmi", "2x 8192 MB DDR4 3200 MT/s (configured 2933 MT/s), "
		    "1x 32768 MB DDR5 4800 MT/s, 1x 512 KB SDRAM, 1x 1024 MB type 0x99, "
		    "1x 2048 MB DDR3 1600 MT/s");
	assert_no_fact("memory.dt");
}

/* Banks of several nodes, 2 address cells and 1 size cell (the default
 * when the root does not say), sizes in MiB, KiB or bytes. */
static void test_memory_dt_banks(void **state)
{
	static const unsigned char reg0[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0,
					      0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const unsigned char reg1[] = { 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0x10, 0 };
	static const unsigned char reg2[] = { 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 100 };

	(void)state;
	make_tree();
	put_bytes("/proc/device-tree/memory@0/reg", reg0, sizeof reg0);   /* a 0-byte bank too */
	put_bytes("/proc/device-tree/memory@200000000/reg", reg1, sizeof reg1);
	put_bytes("/proc/device-tree/memory@300000000/reg", reg2, sizeof reg2);
	put_bytes("/proc/device-tree/memoryx/reg", reg2, sizeof reg2);    /* not a memory node */
	bb_facts_memory(&kv);
	assert_fact("memory.dt", "0x0 1024 MiB, 0x200000000 4 KiB, 0x300000000 100 bytes");
}

static void test_edac_ranks(void **state)
{
	static const char *const rank_files[][2] = {
		{ "size", "2048\n" }, { "dimm_mem_type", "Unbuffered-DDR4\n" },
		{ "dimm_edac_mode", "SECDED\n" }, { "dimm_dev_type", "x8\n" },
	};
	char path[128];

	(void)state;
	make_tree();
	put("/sys/devices/system/edac/mc/mc0/mc_name", "Synopsys DDR\n");
	put("/sys/devices/system/edac/mc/mc0/size_mb", "4096\n");
	for (int r = 0; r < 2; r++)
		for (size_t i = 0; i < sizeof rank_files / sizeof rank_files[0]; i++) {
			snprintf(path, sizeof path, "/sys/devices/system/edac/mc/mc0/rank%d/%s", r,
				 rank_files[i][0]);
			put(path, rank_files[i][1]);
		}
	bb_facts_firmware(&kv);
	assert_fact("memory.mc0.name", "Synopsys DDR");
	assert_fact("memory.mc0.ranks", "2x 2048 MB Unbuffered-DDR4 SECDED");
	assert_no_fact("memory.mc0.dimms");
}

/* A 4.x kernel's clk_summary (no protect count), then more enabled
 * clocks than are kept. */
static void test_clk_summary_layouts(void **state)
{
	char *big = malloc(64 * 1024);
	size_t o = 0;

	(void)state;
	assert_non_null(big);
	make_tree();
	put("/sys/kernel/debug/clk/clk_summary",
	    "   clock                         enable_cnt  prepare_cnt        rate   accuracy   phase\n"
	    "----------------------------------------------------------------------------------------\n"
	    " xtal                                     1            1    24000000          0 0\n"
	    "    pll_ddr                               1            1   912000000          0 0\n"
	    "    pll_video                             0            0   297000000          0 0\n");
	bb_facts_clktree(&kv);
	assert_fact("clk.xtal", "24000000");
	assert_fact("clk.pll_ddr", "912000000");
	assert_no_fact("clk.pll_video");
	bb_kv_free(&kv);
	o += (size_t)sprintf(big, "   clock  count count count  rate accuracy phase cycle\n");
	for (int i = 0; i < 300; i++)
		o += (size_t)sprintf(big + o, " c%d  1 1 0 %d 0 0 50000\n", i, 1000 + i);
	put("/sys/kernel/debug/clk/clk_summary", big);
	free(big);
	bb_facts_clktree(&kv);
	assert_int_equal(count_prefix("clk.c"), 256);
	assert_fact("clk.c255", "1255");
	assert_no_fact("clk.c256");
	assert_fact("clk.more", "44 enabled clocks beyond the first 256 not recorded");
}

/* Each source of virt.hypervisor and virt.container, alone. */
static void test_virt_sources(void **state)
{
	(void)state;
	make_tree();
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor lahf_lm\n");
	bb_facts_virt(&kv);
	assert_fact("virt.hypervisor", "unknown");
	assert_no_fact("virt.container");
	bb_kv_free(&kv);
	put("/proc/device-tree/compatible", "linux,dummy-virt\0");
	bb_facts_virt(&kv);
	assert_fact("virt.hypervisor", "qemu");
	bb_kv_free(&kv);
	put("/sys/class/dmi/id/product_name", "VirtualBox\n");
	put("/proc/device-tree/compatible", "acme,board\0");
	bb_facts_virt(&kv);
	assert_fact("virt.hypervisor", "oracle");
	bb_kv_free(&kv);
	put("/sys/hypervisor/type", "xen\n");
	put("/.dockerenv", "");
	bb_facts_virt(&kv);
	assert_fact("virt.hypervisor", "xen");
	assert_fact("virt.container", "docker");
	bb_kv_free(&kv);
	put("/run/systemd/container", "lxc\n");
	bb_facts_virt(&kv);
	assert_fact("virt.container", "lxc");
}

/* ---- --fact ---- */

static const unsigned char regs[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };

/* A file standing in for /dev/mem: 64 KiB of zeros, regs at 0x1000. */
static void fake_devmem(void)
{
	char path[128];
	int fd;

	put("/dev/.keep", "");
	snprintf(path, sizeof path, "%s/dev/mem", tree);
	assert_true((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0);
	assert_int_equal(ftruncate(fd, 65536), 0);
	assert_int_equal(pwrite(fd, regs, sizeof regs, 0x1000), (ssize_t)sizeof regs);
	close(fd);
}

static void add_fact(const char *arg)
{
	struct bb_cli cli = { 0 };

	assert_int_equal(bb_cli_common(BB_OPT_FACT, arg, &cli), 1);
	bb_cli_free(&cli);
}

/* What a register read of width bits at regs + off gives on this host
 * (its byte order), masked, as userfact.c writes it. */
static void expect_reg(const char *key, size_t off, unsigned width, uint64_t mask)
{
	uint8_t v8 = 0;
	uint16_t v16 = 0;
	uint32_t v32 = 0;
	uint64_t v64 = 0, v;
	char want[24];

	memcpy(&v8, regs + off, 1);
	memcpy(&v16, regs + off, 2 * (width >= 16));
	memcpy(&v32, regs + off, 4 * (width >= 32));
	memcpy(&v64, regs + off, 8 * (width == 64));
	v = width == 8 ? v8 : width == 16 ? v16 : width == 32 ? v32 : v64;
	snprintf(want, sizeof want, "0x%0*llx", (int)width / 4, (unsigned long long)(v & mask));
	assert_fact(key, want);
}

static void test_user_facts(void **state)
{
	static const unsigned char cell[4] = { 0, 0, 0x10, 0 };

	(void)state;
	make_tree();
	fake_devmem();
	put("/sys/kernel/debug/ddrc/cfg0", "  MSTR: 0x01040001\n  PWRCTL:   0x00000000 \n");
	put_bytes("/proc/device-tree/chosen/strings", "a\0b\0", 4);
	put_bytes("/proc/device-tree/cell", cell, sizeof cell);
	put("/sys/empty", "");
	add_fact("ddr=/sys/kernel/debug/ddrc/cfg0");
	add_fact("strings=/proc/device-tree/chosen/strings");
	add_fact("cell=/proc/device-tree/cell");
	add_fact("empty=/sys/empty");
	add_fact("rel=" BOARDS "rpi3b/proc/sys/kernel/osrelease");   /* relative: as given */
	add_fact("r8=mmio:0x1003:8");
	add_fact("r16=mmio:0x1002:16");
	add_fact("r32=mmio:0x1000");
	add_fact("r64=mmio:0x1000:64");
	add_fact("m32=mmio:0x1004:32:0x00ff00f0");
	bb_facts_collect(&kv);
	assert_fact("fact.ddr", "MSTR: 0x01040001 PWRCTL: 0x00000000");
	assert_fact("fact.strings", "a b");
	assert_fact("fact.cell", "0x00001000");
	assert_fact("fact.empty", "(empty)");
	assert_fact("fact.rel", "6.1.21-v7+");
	expect_reg("fact.r8", 3, 8, 0xff);
	expect_reg("fact.r16", 2, 16, 0xffff);
	expect_reg("fact.r32", 0, 32, 0xffffffff);
	expect_reg("fact.r64", 0, 64, UINT64_MAX);
	expect_reg("fact.m32", 4, 32, 0x00ff00f0);
	/* collected once already: a file gone is recorded, not fatal */
	bb_cli_facts_reset();
	bb_kv_free(&kv);
	add_fact("gone=/sys/no/such/file");
	bb_facts_user(&kv);
	assert_fact("fact.gone", "(unreadable: No such file or directory)");
}

/* The register reader's refusals, each one line; the process survives a
 * bus error. */
static void test_devmem_errors(void **state)
{
	struct bb_mmio m = { 0x1000, 32, 0xffffffff };
	uint64_t v = 0;
	char err[512], path[128];

	(void)state;
	make_tree();
	assert_int_equal(bb_devmem_read(&m, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "cannot open"));
	assert_non_null(strstr(err, "CONFIG_DEVMEM"));
	fake_devmem();
	m.addr = 0x100000;   /* pages past the end of the file: a bus error */
	assert_int_equal(bb_devmem_read(&m, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "physical address 0x100000 raised a bus error"));
	assert_null(strchr(err, '\n'));
	m.addr = 0x1000;
	assert_int_equal(bb_devmem_read(&m, &v, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/dev/mem", tree);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);   /* nothing to map */
	assert_int_equal(bb_devmem_read(&m, &v, err, sizeof err), -1);
	assert_non_null(strstr(err, "the kernel refused to map physical address 0x1000"));
	assert_non_null(strstr(err, "--fact NAME=PATH"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_imx8mq, teardown),
		cmocka_unit_test_teardown(test_rpi3b, teardown),
		cmocka_unit_test_teardown(test_am335x, teardown),
		cmocka_unit_test_teardown(test_biglittle, teardown),
		cmocka_unit_test_teardown(test_qemu_x86, teardown),
		cmocka_unit_test_teardown(test_dmi_memory_devices, teardown),
		cmocka_unit_test_teardown(test_memory_dt_banks, teardown),
		cmocka_unit_test_teardown(test_edac_ranks, teardown),
		cmocka_unit_test_teardown(test_clk_summary_layouts, teardown),
		cmocka_unit_test_teardown(test_virt_sources, teardown),
		cmocka_unit_test_teardown(test_user_facts, teardown),
		cmocka_unit_test_teardown(test_devmem_errors, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
