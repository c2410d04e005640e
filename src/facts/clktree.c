/* clktree.c - the rates of the clock tree, where debugfs shows it
 * (/sys/kernel/debug/clk/clk_summary: root only, CONFIG_COMMON_CLK):
 * "clk.NAME" = the rate in Hz of every clock that is enabled (enable count
 * above 0), in the file's (tree) order, at most CLK_MAX of them
 * ("clk.more" then counts the rest).  Disabled clocks' rates are left
 * out: they move nothing.  The columns differ between kernels (4.x has
 * no protect count; 5.x adds duty cycle, 6.x hardware enable and the
 * consumers): the header line naming "clock" and "rate" says how many
 * counts precede the rate. */
#include "facts/facts.h"
#include "facts/root.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLK_MAX 256
#define CLK_LINES_MAX 20000

/* In the header "clock count count count rate ...": the counts between
 * "clock" and "rate"; -1 when line is not that header. */
static int counts_before_rate(char *line)
{
	char *save;
	int n = -1;

	for (char *w = strtok_r(line, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(w, "clock") == 0)
			n = 0;
		else if (strcmp(w, "rate") == 0)
			return n;
		else if (n >= 0)
			n++;
	}
	return -1;
}

/* "  name  1  1  0  24000000 ...": 1 and name, rate when enabled; 0 when
 * disabled; -1 when the line is no clock's. */
static int clock_line(char *line, int counts, char **name, char **rate)
{
	char *end, *save;
	long enable = 0;

	if (!(*name = strtok_r(line, " \t\n", &save)))
		return -1;
	for (int i = 0; i <= counts; i++) {
		char *w = strtok_r(NULL, " \t\n", &save);
		long v = w ? strtol(w, &end, 10) : -1;
		if (!w || end == w || *end || v < 0)
			return -1;
		if (i == 0)
			enable = v;
		*rate = w;
	}
	return enable > 0;
}

void bb_facts_clktree(struct bb_kvlist *kv)
{
	FILE *f = bb_root_fopen("/sys/kernel/debug/clk/clk_summary");
	char line[512], key[96], *name, *rate;
	int counts = -1, kept = 0, more = 0;

	if (!f)
		return;
	for (int n = 0; n < CLK_LINES_MAX && fgets(line, sizeof line, f); n++) {
		if (counts < 0) {
			counts = counts_before_rate(line);
			continue;
		}
		if (clock_line(line, counts, &name, &rate) != 1)
			continue;
		if (kept++ >= CLK_MAX) {
			more++;
			continue;
		}
		snprintf(key, sizeof key, "clk.%s", name);
		bb_facts_put(kv, key, rate);
	}
	fclose(f);
	if (more) {
		snprintf(line, sizeof line, "%d enabled clocks beyond the first %d not recorded", more,
			 CLK_MAX);
		bb_facts_put(kv, "clk.more", line);
	}
}
