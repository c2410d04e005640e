/* parse.c - strict number, size and label parsing (see parse.h). */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_digits(const char *s, const char **end, uint64_t *out)
{
	int base = 10;
	uint64_t v = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!isxdigit((unsigned char)*p))
		return -1;
	for (; *p; p++) {
		int d;
		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*end = p;
	*out = v;
	return 0;
}

int bb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (!s || parse_digits(s, &end, &v) || *end)
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int suffix_shift(const char *p)
{
	int shift;

	switch (tolower((unsigned char)*p)) {
	case '\0': return 0;
	case 'k': shift = 10; break;
	case 'm': shift = 20; break;
	case 'g': shift = 30; break;
	default: return -1;
	}
	p++;
	if (*p == 'i')
		p++;
	if (*p == 'b' || *p == 'B')
		p++;
	return *p ? -1 : shift;
}

int bb_parse_size(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int shift;

	if (!s || parse_digits(s, &end, &v))
		return -1;
	shift = suffix_shift(end);
	if (shift < 0)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}

int bb_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int label_key_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '-';
}

int bb_parse_label(const char *s, char *key, int keylen, char *val, int vallen)
{
	const char *eq = s ? strchr(s, '=') : NULL;
	int klen, vlen, i;

	if (!eq)
		return -1;
	klen = (int)(eq - s);
	vlen = (int)strlen(eq + 1);
	if (klen < 1 || klen > 63 || klen >= keylen || vlen > 255 || vlen >= vallen)
		return -1;
	for (i = 0; i < klen; i++)
		if (!label_key_char((unsigned char)s[i]))
			return -1;
	for (i = 0; i < vlen; i++)
		if ((unsigned char)eq[1 + i] < 0x20 || eq[1 + i] == 0x7f)
			return -1;
	memcpy(key, s, (size_t)klen);
	key[klen] = '\0';
	memcpy(val, eq + 1, (size_t)vlen + 1);
	return 0;
}
