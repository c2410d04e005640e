/* help.h - the applets' --help texts.  Each text is a file of its own in
 * the applet's folder, src/applets/NAME/help.txt (and help_WHAT.txt when
 * an applet has several; edit them there: they are printed byte for byte);
 * the build deflates the texts of the applets it keeps into one gzip
 * stream ($(BUILD)/help_data.c, made by scripts/help-data.sh) with a span
 * per text, bb_help_NAME, and bb_help_print inflates that stream
 * (core/inflate.c, also used for /proc/config.gz) when a text is asked
 * for. */
#ifndef BB_HELP_H
#define BB_HELP_H

#include <stddef.h>
#include <stdint.h>

/* Where a text lies in the inflated stream. */
struct bb_help_span {
	uint32_t offset, length;
};

/* Declares the span of src/applets/NAME/help.txt (BB_HELP_TEXT(NAME)) or of
 * help_WHAT.txt (BB_HELP_TEXT(NAME_WHAT)), for the applet that prints it. */
#define BB_HELP_TEXT(id) extern const struct bb_help_span bb_help_##id

/* Made by scripts/help-data.sh. */
extern const unsigned char bb_help_gz[];
extern const size_t bb_help_gz_len;
extern const size_t bb_help_total;   /* bytes of all texts, inflated */

/* Every text of this build by its source file, then { NULL, NULL }. */
struct bb_help_file {
	const char *path;
	const struct bb_help_span *span;
};
extern const struct bb_help_file bb_help_files[];

/* Writes the text to stdout as it is (a write error shows when stdout is
 * flushed at exit, as for any output).  A stream that does not inflate
 * ends the program with one line, exit 1. */
void bb_help_print(const struct bb_help_span *text);

#endif
