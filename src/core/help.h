/* help.h - the applets' --help texts.  Each text is a file of its own,
 * src/help/NAME.txt (edit it there: it is printed byte for byte); the
 * build deflates the texts of the applets it keeps into one gzip stream
 * ($(BUILD)/help_data.c, made by scripts/help-data.sh), and bb_help_print
 * inflates that stream (core/inflate.c, already in the binary for
 * /proc/config.gz) when a text is asked for. */
#ifndef BB_HELP_H
#define BB_HELP_H

#include <stddef.h>
#include <stdint.h>

/* One per src/help/NAME.txt: BB_HELP_ and NAME in capitals. */
enum bb_help {
	BB_HELP_RUN,
	BB_HELP_STREAM,
	BB_HELP_LAT,
	BB_HELP_CSUM,
	BB_HELP_MEM,
	BB_HELP_TTCP,
	BB_HELP_TTCP_SERVER,   /* ttcp -r --server */
	BB_HELP_TTCP_CLIENT,   /* ttcp --to-server HOST */
	BB_HELP_RR,
	BB_HELP_SELFTEST,
	BB_HELP_FACTS,
	BB_HELP_COMPARE,
	BB_HELP_REPORT,
	BB_HELP_HISTORY,
	BB_HELP_COUNT
};

/* Where a text lies in the inflated stream; length 0: not in this build. */
struct bb_help_span {
	uint32_t offset, length;
};

/* Made by scripts/help-data.sh. */
extern const unsigned char bb_help_gz[];
extern const size_t bb_help_gz_len;
extern const struct bb_help_span bb_help_index[BB_HELP_COUNT];
extern const size_t bb_help_total;   /* bytes of all texts, inflated */

/* Writes the text to stdout as it is (a write error shows when stdout is
 * flushed at exit, as for any output).  A text this build left out, or a
 * stream that does not inflate, ends the program with one line, exit 1. */
void bb_help_print(enum bb_help which);

#endif
