/* help.c - prints an applet's --help text from the compressed texts in
 * the binary (see help.h): the whole stream is inflated into one buffer
 * (a few tens of KiB, for as long as the print takes), its CRC and length
 * checked, and the one text written. */
#include "core/help.h"
#include "core/error.h"
#include "core/inflate.h"

#include <stdio.h>
#include <stdlib.h>

/* Every text, inflated, in a malloc'd buffer; ends the program with one
 * line when memory is short or the stream is not what the build made. */
static unsigned char *inflate_texts(void)
{
	unsigned char *all = NULL;
	size_t len = 0;
	int rc = bb_gunzip(bb_help_gz, bb_help_gz_len, &all, &len, bb_help_total);

	if (rc == BB_INFLATE_NOMEM)
		bb_die("out of memory for the help text (%zu bytes)", bb_help_total);
	if (rc != BB_INFLATE_OK || len != bb_help_total) {
		free(all);
		bb_die("the help texts in this binary are damaged (they do not inflate)");
	}
	return all;
}

void bb_help_print(const struct bb_help_span *s)
{
	unsigned char *all;

	if (s->offset > bb_help_total || s->length > bb_help_total - s->offset)
		bb_die("the help texts in this binary are damaged (index)");
	all = inflate_texts();
	fwrite(all + s->offset, 1, s->length, stdout);
	free(all);
}
