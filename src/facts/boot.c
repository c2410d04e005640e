/* boot.c - which boot and which board a run comes from, so that compare
 * can take boots and boards as levels of replication: "boot.id"
 * (/proc/sys/kernel/random/boot_id) and "boot.uptime_s" (/proc/uptime's
 * first figure), both varying by design; and "board.id", a pseudonymous
 * identity of the board: the first 16 hex digits of SHA-256 over
 * "boardbench board.id\n", the source's name and its fields, each ending
 * "\n" (a field unreadable or a placeholder: empty).  "board.id_source"
 * names the first source whose first file the board has:
 *   dt          /proc/device-tree/model, serial-number;
 *   dmi         /sys/class/dmi/id/product_name, product_serial,
 *               board_serial, product_uuid (the last three need root);
 *   machine-id  /etc/machine-id (an install's, not a board's);
 *   none        board.id "".
 * A serial or UUID with no digit but 0 ("Not Specified", "To Be Filled By
 * O.E.M.", all zeros, all Fs) is a placeholder.  When a dt or dmi source
 * has no serial or UUID, "board.id_note" says that boards of one model
 * share the id.  "soc.serial_id" is the same hash of the SoC's own serial
 * number alone (/sys/devices/soc0/serial_number, else the device tree's
 * /serial-number: "boardbench soc.serial_id\n", the serial, "\n"), so
 * that two boards of one model tell apart where board.id cannot.  No
 * serial, UUID or machine id is ever recorded: only the hash. */
#include "facts/facts.h"
#include "facts/root.h"
#include "core/sha256.h"

#include <string.h>

#define DMI "/sys/class/dmi/id/"

static const struct {
	const char *name;
	const char *file[4];
} sources[] = {
	{ "dt", { "/proc/device-tree/model", "/proc/device-tree/serial-number" } },
	{ "dmi", { DMI "product_name", DMI "product_serial", DMI "board_serial", DMI "product_uuid" } },
	{ "machine-id", { "/etc/machine-id" } },
};

static void hash_field(struct bb_sha256 *h, const char *v)
{
	bb_sha256_update(h, v, strlen(v));
	bb_sha256_update(h, "\n", 1);
}

/* Source i's hash, begun in h: how many of its fields after the first
 * the board has, or -1 when it lacks the first. */
static int hash_source(struct bb_sha256 *h, size_t i)
{
	char v[256];
	int ids = 0;

	bb_sha256_init(h);
	hash_field(h, "boardbench board.id");
	hash_field(h, sources[i].name);
	for (int k = 0; k < 4 && sources[i].file[k]; k++) {
		if (bb_root_line(sources[i].file[k], v, sizeof v) || (k && !strpbrk(v, "123456789"))) {
			if (!k)
				return -1;
			v[0] = '\0';
		}
		ids += k && v[0];
		hash_field(h, v);
	}
	return ids;
}

/* The first 16 hex digits of a finished hash. */
static void hash_hex(struct bb_sha256 *h, char hex[17])
{
	unsigned char d[BB_SHA256_LEN];

	bb_sha256_final(h, d);
	for (int k = 0; k < 16; k++)
		hex[k] = "0123456789abcdef"[k & 1 ? d[k / 2] & 15 : d[k / 2] >> 4];
	hex[16] = '\0';
}

static void put_soc_serial(struct bb_kvlist *kv)
{
	struct bb_sha256 h;
	char v[256], hex[17];

	if ((bb_root_line("/sys/devices/soc0/serial_number", v, sizeof v) ||
	     !strpbrk(v, "123456789")) &&
	    (bb_root_line("/proc/device-tree/serial-number", v, sizeof v) ||
	     !strpbrk(v, "123456789")))
		return;
	bb_sha256_init(&h);
	hash_field(&h, "boardbench soc.serial_id");
	hash_field(&h, v);
	hash_hex(&h, hex);
	bb_kv_str(kv, "soc.serial_id", hex);
}

static void put_board(struct bb_kvlist *kv)
{
	struct bb_sha256 h;
	char hex[17] = "";
	const char *note = NULL;
	size_t i = 0;
	int ids = -1;

	while (i < sizeof sources / sizeof sources[0] && (ids = hash_source(&h, i)) < 0)
		i++;
	if (ids >= 0) {
		if (!ids && sources[i].file[1])
			note = "no serial number or UUID readable: boards of one model share this id";
		hash_hex(&h, hex);
	}
	bb_kv_str(kv, "board.id", hex);
	bb_kv_str(kv, "board.id_source", ids >= 0 ? sources[i].name : "none");
	bb_facts_put(kv, "board.id_note", note);
}

void bb_facts_boot(struct bb_kvlist *kv)
{
	char buf[128];

	if (bb_root_line("/proc/sys/kernel/random/boot_id", buf, sizeof buf) == 0)
		bb_facts_put(kv, "boot.id", buf);
	if (bb_root_line("/proc/uptime", buf, sizeof buf) == 0) {
		buf[strcspn(buf, " ")] = '\0';
		bb_facts_put(kv, "boot.uptime_s", buf);
	}
	put_board(kv);
	put_soc_serial(kv);
}
