/* virt.c - whether the measurements ran under a hypervisor or in a
 * container, both of which move numbers (a vCPU's steal, a cgroup):
 *   virt.hypervisor   "xen", "kvm", "qemu", "vmware", "microsoft",
 *                     "oracle", "amazon", "google", "parallels", "bhyve",
 *                     "acrn", "unknown" (the CPU says there is one, nothing
 *                     names it), or "none" where the x86 CPU says there is
 *                     none; from, first found: /sys/hypervisor/type, the x86
 *                     CPUID hypervisor leaf (live system only), the device
 *                     tree (/hypervisor, QEMU's "linux,dummy-virt"), DMI's
 *                     vendor and product, cpuinfo's "hypervisor" flag;
 *   virt.container    "docker", "podman", "lxc", "wsl", ... from
 *                     /run/systemd/container, /run/.containerenv,
 *                     /.dockerenv, the kernel release (WSL).
 * Left out when nothing says. */
#include "facts/facts.h"
#include "facts/root.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* Vendor strings (CPUID leaf 0x40000000 signature, DMI vendor or product
 * prefix) and the name recorded: "sig\0name\0", an empty sig ending it. */
static const char vendors[] =
	"KVMKVMKVM\0kvm\0Microsoft Hv\0microsoft\0VMwareVMware\0vmware\0XenVMMXenVMM\0xen\0"
	"TCGTCGTCGTCG\0qemu\0 lrpepyh  vr\0parallels\0bhyve bhyve \0bhyve\0ACRNACRNACRN\0acrn\0"
	"QEMU\0qemu\0VMware\0vmware\0innotek\0oracle\0VirtualBox\0oracle\0Xen\0xen\0"
	"Amazon EC2\0amazon\0Google\0google\0Parallels\0parallels\0BHYVE\0bhyve\0KVM\0kvm\0"
	"Virtual Machine\0microsoft\0\0";

/* The name for a string that starts with a known signature, or NULL. */
static const char *vendor_name(const char *s)
{
	for (const char *p = vendors; *p; p += strlen(p) + 1) {
		const char *name = p + strlen(p) + 1;
		if (strncmp(s, p, strlen(p)) == 0)
			return name;
		p = name;
	}
	return NULL;
}

/* x86 CPUID: the hypervisor's name, "unknown", "none", or NULL elsewhere. */
static const char *cpuid_hypervisor(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	if (bb_root_is_fixture() || !__get_cpuid(1, &a, &b, &c, &d))
		return NULL;
	if (!(c & 1u << 31))
		return "none";
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	return vendor_name(sig) ? vendor_name(sig) : "unknown";
#else
	return NULL;
#endif
}

static const char *file_vendor(const char *path)
{
	char v[128];

	return bb_root_line(path, v, sizeof v) == 0 ? vendor_name(v) : NULL;
}

/* Whether the first 4 KiB of a file (its NUL-separated strings as one)
 * hold word. */
static int file_has(const char *path, const char *word)
{
	char v[4096];
	ssize_t n = bb_root_read(path, v, sizeof v);

	for (ssize_t i = 0; i < n; i++)
		v[i] = v[i] ? v[i] : ' ';
	return n > 0 && strstr(v, word);
}

static const char *hypervisor(char *buf, size_t len)
{
	const char *h;

	if (bb_root_line("/sys/hypervisor/type", buf, len) == 0)
		return buf;   /* "xen" */
	if ((h = cpuid_hypervisor()) != NULL)
		return h;
	if (file_has("/proc/device-tree/hypervisor/compatible", "xen"))
		return "xen";
	if (file_has("/proc/device-tree/compatible", "linux,dummy-virt"))
		return "qemu";
	if ((h = file_vendor("/sys/class/dmi/id/sys_vendor")) ||
	    (h = file_vendor("/sys/class/dmi/id/product_name")))
		return h;
	return file_has("/proc/cpuinfo", " hypervisor") ? "unknown" : NULL;
}

static const char *container(char *buf, size_t len)
{
	if (bb_root_line("/run/systemd/container", buf, len) == 0)
		return buf;
	if (bb_root_read("/run/.containerenv", buf, len) >= 0)
		return "podman";
	if (bb_root_read("/.dockerenv", buf, len) >= 0)
		return "docker";
	if (file_has("/proc/sys/kernel/osrelease", "icrosoft"))
		return "wsl";
	return NULL;
}

void bb_facts_virt(struct bb_kvlist *kv)
{
	char buf[64];

	bb_facts_put(kv, "virt.hypervisor", hypervisor(buf, sizeof buf));
	bb_facts_put(kv, "virt.container", container(buf, sizeof buf));
}
