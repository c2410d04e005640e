/* lavalog.c - results between markers in a LAVA log, plain or log.yaml
 * (lavalog.h). */
#include "applets/history/lavalog.h"
#include "core/error.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *hist_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char *buf;
	size_t got = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > HIST_FILE_MAX) {
		snprintf(err, errlen, "%s: %s", path, !S_ISREG(st.st_mode) ? "not a regular file"
			 : "larger than 256 MiB");
		close(fd);
		return NULL;
	}
	buf = bb_xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0) {
			snprintf(err, errlen, "%s: %s", path, n < 0 ? strerror(errno) : "shorter than it was");
			free(buf);
			close(fd);
			return NULL;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return buf;
}

int hist_lava_has_markers(const char *buf, size_t len)
{
	return memmem(buf, len, HIST_LAVA_BEGIN, strlen(HIST_LAVA_BEGIN)) != NULL;
}

/* The console text of one log line: a log.yaml entry's msg, else the line. */
static char *console_line(const char *line, size_t n)
{
	char *s = bb_xmalloc(n + 1);

	memcpy(s, line, n);
	s[n] = '\0';
	if (strncmp(s, "- {", 3) == 0) {
		cJSON *j = cJSON_Parse(s + 2);
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(j, "msg");
		if (cJSON_IsString(msg)) {
			free(s);
			s = bb_xstrdup(msg->valuestring);
		}
		cJSON_Delete(j);
	}
	return s;
}

struct block {
	char *text;
	size_t n, cap;
	char name[160];
	int open;
};

static void block_add(struct block *b, const char *s)
{
	size_t k = strlen(s);

	if (b->n + k + 2 > b->cap) {
		b->cap = 2 * (b->n + k + 2);
		b->text = bb_xrealloc(b->text, b->cap);
	}
	memcpy(b->text + b->n, s, k);
	b->n += k;
	b->text[b->n++] = '\n';
	b->text[b->n] = '\0';
}

/* A marker line: opens or closes a block; 1 when the line was a marker. */
static int marker(struct block *b, const char *s, const char *path, size_t *count,
		  void (*each)(void *, const char *, const char *, size_t), void *ctx)
{
	const char *m = strstr(s, HIST_LAVA_BEGIN);
	char full[1024];

	if (m) {
		const char *name = m + strlen(HIST_LAVA_BEGIN);
		name += strspn(name, " \t");
		snprintf(b->name, sizeof b->name, "%.*s", (int)strcspn(name, " \t\r"), name);
		b->n = 0;
		b->open = 1;
		return 1;
	}
	if (!strstr(s, HIST_LAVA_END))
		return 0;
	if (b->open) {
		(*count)++;
		if (b->name[0])
			snprintf(full, sizeof full, "%s: %s", path, b->name);
		else
			snprintf(full, sizeof full, "%s: block %zu", path, *count);
		each(ctx, full, b->text ? b->text : "", b->n);
	}
	b->open = 0;
	return 1;
}

size_t hist_lava_blocks(const char *path, const char *buf, size_t len,
			void (*each)(void *ctx, const char *name, const char *text, size_t n),
			void *ctx, char *err, size_t errlen)
{
	struct block b = { 0 };
	size_t count = 0;

	for (const char *p = buf; p < buf + len;) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(buf + len - p);
		char *s = console_line(p, n && p[n - 1] == '\r' ? n - 1 : n);
		if (!marker(&b, s, path, &count, each, ctx) && b.open)
			block_add(&b, s);
		free(s);
		p += n + 1;
	}
	if (!count)
		snprintf(err, errlen, "%s: a %s line without its %s", path, HIST_LAVA_BEGIN,
			 HIST_LAVA_END);
	else if (b.open)
		bb_warn("%s: the last %s has no %s: that block is left out", path, HIST_LAVA_BEGIN,
			HIST_LAVA_END);
	free(b.text);
	return count;
}
