/* devfreq.c - devices whose clock the kernel scales (devfreq): on many
 * ARM SoCs the DDR controller (an i.MX8M's 3d400000.memory-controller,
 * an RK3399's dmc), the interconnect, the GPU.  Per device NAME of
 * /sys/class/devfreq, strings as sysfs says them:
 *   devfreq.NAME.governor       "userspace", "simple_ondemand", ...
 *   devfreq.NAME.min_hz, .max_hz          the limits
 *   devfreq.NAME.available_hz   the operating points, "25000000 800000000"
 *   devfreq.NAME.hz             cur_freq, under a governor that holds it
 *                               (performance, powersave, userspace): a
 *                               setting, which compare calls a difference;
 *   devfreq.NAME.hz.now         cur_freq under any other governor, which
 *                               moves it with the load by design. */
#include "facts/facts.h"
#include "facts/root.h"

#include <stdio.h>
#include <string.h>

#define DEVFREQ_MAX 16

static void put_attr(struct bb_kvlist *kv, const char *name, const char *attr, const char *key)
{
	char path[160], k[112], v[512];

	snprintf(path, sizeof path, "/sys/class/devfreq/%.63s/%s", name, attr);
	snprintf(k, sizeof k, "devfreq.%.63s.%s", name, key);
	if (bb_root_line(path, v, sizeof v) == 0)
		bb_facts_put(kv, k, v);
}

static int holds_clock(const char *governor)
{
	return strcmp(governor, "performance") == 0 || strcmp(governor, "powersave") == 0 ||
	       strcmp(governor, "userspace") == 0;
}

void bb_facts_devfreq(struct bb_kvlist *kv)
{
	char names[DEVFREQ_MAX][BB_ROOT_NAME_MAX], path[160], gov[32];
	int n = bb_root_list("/sys/class/devfreq", "", names, DEVFREQ_MAX);

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "/sys/class/devfreq/%.63s/governor", names[i]);
		if (bb_root_line(path, gov, sizeof gov))
			gov[0] = '\0';
		put_attr(kv, names[i], "governor", "governor");
		put_attr(kv, names[i], "min_freq", "min_hz");
		put_attr(kv, names[i], "max_freq", "max_hz");
		put_attr(kv, names[i], "available_frequencies", "available_hz");
		put_attr(kv, names[i], "cur_freq", holds_clock(gov) ? "hz" : "hz.now");
	}
}
