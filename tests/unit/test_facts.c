/* test_facts.c - unit tests for the board identity readers (src/facts/dt.c,
 * cpu.c, kernel.c, firmware.c) and sysinfo.c through fixture trees
 * (tests/fixtures/boards/: a PPC440, an MPC8313E with a silicon revision,
 * an RK3399 big.LITTLE, a Geode LX): each tree is set as BB_SYSROOT in
 * turn (bb_root_reset between them) and its facts asserted.  Also: the
 * checked-in config.gz files match their config texts, private DMI fields
 * are never recorded, malformed files are survived, and the live system's
 * facts take a few milliseconds (printed, with a generous bound). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "facts/sysinfo.h"
#include "facts/facts.h"
#include "core/inflate.h"
#include "facts/root.h"

#include "facts_fixture.h"


static int teardown(void **state)
{
	(void)state;
	use_root(NULL);
	return 0;
}

static void test_ppc440(void **state)
{
	(void)state;
	collect("ppc440");
	assert_fact("dt.model", "amcc,yosemite");
	assert_fact("dt.compatible", "amcc,yosemite, amcc,bamboo");
	assert_fact("cpu.name", "440EP Rev. B");
	assert_fact("cpu.revision", "24.211 (pvr 4222 18d3)");
	assert_fact("cpu.pvr", "0x422218d3");
	assert_fact("cpu.clock", "533.333328MHz");
	assert_fact("cpu.platform", "PowerPC 44x Platform");
	assert_fact("cpu.model", "amcc,yosemite");
	assert_fact("cpu.count", "1");
	assert_fact("kernel.release", "2.6.30");
	assert_fact("kernel.preempt", "none");
	assert_fact("kernel.config", "/proc/config.gz");
	assert_fact("kernel.config.CONFIG_HZ", "250");
	assert_fact("kernel.config.CONFIG_PPC_FPU", "y");
	assert_fact("kernel.config.CONFIG_MATH_EMULATION", "n");
	assert_fact("kernel.config.CONFIG_PPC_4K_PAGES", "y");
	assert_no_fact("kernel.config.CONFIG_PPC_16K_PAGES");   /* an unchosen choice */
	assert_fact("kernel.config.CONFIG_DEFAULT_TCP_CONG", "cubic");
	assert_no_fact("soc.revision");
	assert_no_fact("dt.chosen.u-boot,version");
	assert_true(strstr(fact("kernel.cmdline"), "console=ttyS0,115200") != NULL);
}

static void test_mpc8313e(void **state)
{
	(void)state;
	collect("mpc8313e");
	assert_fact("dt.model", "MPC8313ERDB");
	assert_fact("soc.machine", "MPC8313ERDB");
	assert_fact("soc.family", "PowerQUICC II Pro");
	assert_fact("soc.soc_id", "svr:0x80b00021");
	assert_fact("soc.revision", "2.1");
	assert_fact("dt.chosen.u-boot,version", "U-Boot 2016.01 (Mar 02 2016 - 11:20:05 +0100)");
	assert_fact("cpu.name", "e300c3");
	assert_fact("cpu.pvr", "0x80850020");
	assert_fact("cpu.revision", "2.0 (pvr 8085 0020)");
	assert_fact("cpu.platform", "MPC831x RDB");
	assert_fact("kernel.release", "4.14.98");
	assert_fact("kernel.preempt", "full");
	assert_fact("kernel.config.CONFIG_HZ", "1000");
	assert_fact("kernel.config.CONFIG_PREEMPT", "y");
	assert_no_fact("kernel.config.CONFIG_PREEMPT_NONE");
	assert_fact("memory.mc0.name", "fsl_mc_err");
	assert_fact("memory.mc0.size_mb", "128");
	assert_fact("memory.mc0.dimms", "1x 128 MB Unbuffered-DDR2 SECDED");
}

static void test_biglittle(void **state)
{
	(void)state;
	collect("biglittle");
	assert_fact("dt.model", "Pine64 RockPro64 v2.1");
	assert_fact("dt.compatible", "pine64,rockpro64-v2.1, pine64,rockpro64, rockchip,rk3399");
	assert_fact("dt.chosen.u-boot,version", "2024.01");
	assert_fact("dt.chosen.u-boot,bootconf", "conf-rockchip_rk3399-rockpro64.dtb");
	assert_fact("cpu.cores",
		    "4x 0x41:0xd03 r0p4 (Cortex-A53), 2x 0x41:0xd08 r0p2 (Cortex-A72)");
	assert_fact("cpu.architecture", "8");
	assert_fact("cpu.flags", "asimd crc32");
	assert_fact("cpu.count", "6");
	assert_no_fact("cpu.pvr");
	assert_no_fact("cpu.vendor");
	assert_fact("kernel.release", "6.1.0-18-arm64");
	/* PREEMPT_VOLUNTARY built, PREEMPT_DYNAMIC, preempt=full on the command line */
	assert_fact("kernel.preempt", "full (dynamic)");
	assert_fact("kernel.config.CONFIG_CPU_FREQ_DEFAULT_GOV_SCHEDUTIL", "y");
	assert_no_fact("kernel.config.CONFIG_CPU_FREQ_DEFAULT_GOV_PERFORMANCE");
	assert_fact("kernel.config.CONFIG_ARM64_4K_PAGES", "y");
	assert_fact("kernel.config.CONFIG_TRANSPARENT_HUGEPAGE_MADVISE", "y");
}

static void test_geode(void **state)
{
	(void)state;
	collect("geode");
	assert_fact("cpu.vendor", "AuthenticAMD");
	assert_fact("cpu.name", "Geode(TM) Integrated Processor by AMD PCS");
	assert_fact("cpu.family", "5");
	assert_fact("cpu.model", "10");
	assert_fact("cpu.stepping", "2");
	assert_no_fact("cpu.microcode");       /* 2.6.22 printed none */
	assert_fact("cpu.flags", "cmov mmx mmxext 3dnow 3dnowext");
	assert_fact("kernel.config", "/boot/config-2.6.22.19-geode");
	assert_fact("kernel.config.CONFIG_X86_USE_PPRO_CHECKSUM", "y");
	assert_fact("kernel.config.CONFIG_X86_USE_3DNOW", "y");
	assert_fact("kernel.config.CONFIG_MGEODE_LX", "y");
	assert_no_fact("kernel.config.CONFIG_MK7");
	assert_fact("kernel.config.CONFIG_HZ", "100");
	assert_fact("kernel.preempt", "none");
	assert_fact("firmware.bios_vendor", "coreboot");
	assert_fact("board.product_name", "ALIX.2D3");
	assert_fact("board.name", "ALIX.2");
	assert_no_fact("dt.model");
	/* the fixture has serials and a UUID: none may appear anywhere */
	for (size_t i = 0; i < kv.n; i++) {
		assert_null(strstr(kv.v[i].key, "serial"));
		assert_null(strstr(kv.v[i].key, "uuid"));
		assert_null(strstr(kv.v[i].s, "PCE-2D3-0815"));
		assert_null(strstr(kv.v[i].s, "8b0a1e42"));
	}
}

/* Every value is a non-empty string on one line. */
static void test_values_clean(void **state)
{
	static const char *const boards[] = { "ppc440", "mpc8313e", "biglittle", "geode" };

	(void)state;
	for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
		collect(boards[b]);
		assert_true(kv.n > 5);
		for (size_t i = 0; i < kv.n; i++) {
			assert_int_equal(kv.v[i].type, BB_KV_STR);
			assert_true(kv.v[i].s[0] != '\0');
			for (const char *p = kv.v[i].s; *p; p++)
				assert_true((unsigned char)*p >= 0x20);
			assert_non_null(strchr(kv.v[i].key, '.'));
		}
	}
}

/* sysinfo's own readers (cpuinfo, caches, meminfo, cpufreq, THP, kernel)
 * read the fixture too. */
static void test_sysinfo(void **state)
{
	struct bb_sysinfo si;

	(void)state;
	use_root(BOARDS "biglittle");
	bb_sysinfo_collect(&si);
	assert_int_equal(si.ncaches, 3);
	assert_int_equal(si.caches[2].level, 2);
	assert_int_equal(si.caches[2].size_bytes, 512 * 1024);
	assert_int_equal(si.caches[0].line_bytes, 64);
	assert_true(si.mem_total_bytes == 3969604ull * 1024);
	assert_true(si.mem_available_bytes == 3671532ull * 1024);
	assert_string_equal(si.governor, "schedutil");
	assert_true(si.max_freq_hz == 1416000e3);
	assert_string_equal(si.thp, "madvise");
	assert_string_equal(si.kernel, "6.1.0-18-arm64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
	assert_string_equal(bb_kv_get(&si.facts, "dt.model")->s, "Pine64 RockPro64 v2.1");
	bb_kv_free(&si.facts);

	use_root(BOARDS "ppc440");
	bb_sysinfo_collect(&si);
	assert_string_equal(si.cpu_model, "440EP Rev. B");
	assert_int_equal(si.ncaches, 2);
	assert_true(si.mem_total_bytes == 256236ull * 1024);
	assert_true(si.mem_available_bytes == si.mem_total_bytes / 2);   /* no MemAvailable */
	assert_string_equal(si.governor, "");
	assert_string_equal(si.thp, "");
	bb_kv_free(&si.facts);
}

/* The checked-in config.gz files are gzip of the config texts beside them. */
static void test_config_gz_in_sync(void **state)
{
	static const char *const boards[] = { "ppc440", "mpc8313e", "biglittle" };

	(void)state;
	use_root(NULL);
	for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
		char path[256];
		unsigned char gz[65536], *out = NULL;
		char text[65536];
		size_t n, len;
		FILE *f;

		snprintf(path, sizeof path, BOARDS "%s/proc/config.gz", boards[b]);
		f = fopen(path, "rb");
		assert_non_null(f);
		n = fread(gz, 1, sizeof gz, f);
		fclose(f);
		snprintf(path, sizeof path, BOARDS "%s/config", boards[b]);
		f = fopen(path, "rb");
		assert_non_null(f);
		len = fread(text, 1, sizeof text, f);
		fclose(f);
		assert_int_equal(bb_gunzip(gz, n, &out, &n, 1u << 20), BB_INFLATE_OK);
		assert_int_equal(n, len);
		assert_memory_equal(out, text, len);
		free(out);
	}
}

static void write_file(const char *root, const char *rel, const void *data, size_t n)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof path, "%s%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')) != NULL; slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* Malformed files: no crash, nothing invented, every value still clean. */
static void test_malformed(void **state)
{
	char root[] = "/tmp/bb-facts-XXXXXX", cmd[64];
	static char big[300000];
	static const unsigned char junk[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff,
					      0xff, 0x00, 0x12, 0x34, 0, 0, 0, 0, 0, 0 };

	(void)state;
	assert_non_null(mkdtemp(root));
	memset(big, 'A', sizeof big);
	big[1000] = ':';
	write_file(root, "/proc/cpuinfo", big, sizeof big);
	write_file(root, "/proc/device-tree/model", "no terminator", 13);
	write_file(root, "/proc/device-tree/compatible", "\0\0\0", 3);
	write_file(root, "/proc/device-tree/chosen/u-boot,version", "\x01\x02\x03\x04\x05", 5);
	write_file(root, "/proc/config.gz", junk, sizeof junk);
	write_file(root, "/proc/sys/kernel/osrelease", "../../etc\n", 10);
	write_file(root, "/proc/cmdline", "a\tb\x1b[31mc\n", 11);
	write_file(root, "/sys/devices/system/edac/mc/mc0/mc_name", "x\n", 2);
	use_root(root);
	bb_facts_collect(&kv);
	assert_fact("kernel.config", "/proc/config.gz (unreadable: not valid gzip)");
	assert_fact("dt.model", "6e6f207465726d696e61746f72");   /* not a string: hex */
	assert_fact("dt.chosen.u-boot,version", "0102030405");
	assert_fact("kernel.cmdline", "a b [31mc");
	assert_fact("memory.mc0.name", "x");
	assert_no_fact("memory.mc0.dimms");
	assert_no_fact("cpu.count");
	for (size_t i = 0; i < kv.n; i++)
		for (const char *p = kv.v[i].s; *p; p++)
			assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* kernel.preempt from the version string when the config does not say. */
static void test_preempt_from_version(void **state)
{
	static const struct { const char *version, *config, *want; } cases[] = {
		{ "#1 SMP PREEMPT Tue Feb 5 14:02:11 UTC 2019\n", NULL, "full" },
		{ "#1 SMP PREEMPT Tue Feb 5 14:02:11 UTC 2019\n", "CONFIG_SMP=y\n", "full" },
		{ "#1 SMP PREEMPT_RT Tue Feb 5 14:02:11 UTC 2019\n", NULL, "rt" },
		{ "#1 SMP PREEMPT_DYNAMIC Tue Feb 5 2019\n", NULL, "dynamic" },
		{ "#1 SMP Tue Feb 5 14:02:11 UTC 2019\n", NULL, "none or voluntary" },
		{ "#1 SMP Tue Feb 5 2019\n", "CONFIG_PREEMPT_VOLUNTARY=y\n", "voluntary" },
	};
	char cmd[64];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char root[] = "/tmp/bb-preempt-XXXXXX";
		assert_non_null(mkdtemp(root));
		write_file(root, "/proc/sys/kernel/osrelease", "5.4.0\n", 6);
		write_file(root, "/proc/sys/kernel/version", cases[i].version,
			   strlen(cases[i].version));
		if (cases[i].config)
			write_file(root, "/boot/config-5.4.0", cases[i].config,
				   strlen(cases[i].config));
		use_root(root);
		bb_facts_collect(&kv);
		assert_fact("kernel.preempt", cases[i].want);
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
		assert_int_equal(system(cmd), 0);
	}
}

/* The live system: whatever it has, in a few milliseconds. */
static void test_live_timing(void **state)
{
	struct timespec t0, t1;
	double ms;

	(void)state;
	use_root(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bb_facts_collect(&kv);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# facts of this system: %zu keys in %.2f ms\n", kv.n, ms);
	assert_true(ms < 1000);
	if (access("/proc/sys/kernel/osrelease", R_OK) == 0)
		assert_non_null(fact("kernel.release"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ppc440),
		cmocka_unit_test(test_mpc8313e),
		cmocka_unit_test(test_biglittle),
		cmocka_unit_test(test_geode),
		cmocka_unit_test(test_values_clean),
		cmocka_unit_test(test_sysinfo),
		cmocka_unit_test(test_config_gz_in_sync),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_preempt_from_version),
		cmocka_unit_test(test_live_timing),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
