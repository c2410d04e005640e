/* parse.c - strict number, size and label parsing (see parse.h). */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Significant digits kept of a decimal number: 19 fit in 64 bits. */
#define KEEP_DIGITS 19
/* Exponents beyond this (in digits) make 0 or infinity anyway. */
#define EXP_LIMIT 100000

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

/* A decimal number as read: value = digits * 10^exp10. */
struct decimal {
	uint64_t digits;   /* the first KEEP_DIGITS significant digits */
	int ndigits;       /* how many of them digits holds */
	long exp10;
	int any;           /* a digit was seen */
};

/* Digits with at most one '.' among them; returns where they end. */
static const char *scan_mantissa(const char *p, struct decimal *d)
{
	int point = 0;

	for (;; p++) {
		if (*p == '.' && !point) {
			point = 1;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			return p;
		d->any = 1;
		if (d->ndigits < KEEP_DIGITS) {
			if (d->digits || *p != '0') {
				d->digits = d->digits * 10 + (uint64_t)(*p - '0');
				d->ndigits++;
			}
			d->exp10 -= point;
		} else {
			d->exp10 += !point;   /* a digit too many: only its place counts */
		}
	}
}

/* "e12", "E-3", "e+7" at p, added to *exp10; returns where it ends, or p
 * when there is no exponent there (an 'e' without digits is not one). */
static const char *scan_exponent(const char *p, long *exp10)
{
	const char *q = p + 1;
	long e = 0;
	int neg = 0;

	if (*p != 'e' && *p != 'E')
		return p;
	if (*q == '+' || *q == '-')
		neg = *q++ == '-';
	if (!isdigit((unsigned char)*q))
		return p;
	for (; isdigit((unsigned char)*q); q++)
		if (e < EXP_LIMIT)
			e = e * 10 + (*q - '0');
	*exp10 += neg ? -e : e;
	return q;
}

/* 10^n for 0 <= n <= 22: every product is exact. */
static double pow10_exact(int n)
{
	double p = 1.0;

	while (n-- > 0)
		p *= 10.0;
	return p;
}

/* v * 10^e: one correctly rounded step when |e| <= 22, else steps of
 * 10^22 first (a few ulp at most), stopping at infinity or zero. */
static double scale10(double v, long e)
{
	for (; e > 22 && v <= DBL_MAX; e -= 22)
		v *= 1e22;
	for (; e < -22 && v != 0; e += 22)
		v /= 1e22;
	if (e > 22 || e < -22)
		return v;
	return e >= 0 ? v * pow10_exact((int)e) : v / pow10_exact((int)-e);
}

double bb_strtod(const char *s, char **end)
{
	struct decimal d = { 0, 0, 0, 0 };
	const char *p = s;
	int neg = 0;
	double v;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	p = scan_mantissa(p, &d);
	if (!d.any) {
		if (end)
			*end = (char *)s;
		return 0.0;
	}
	p = scan_exponent(p, &d.exp10);
	if (end)
		*end = (char *)p;
	v = d.digits ? scale10((double)d.digits, d.exp10) : 0.0;
	if (v > DBL_MAX || (d.digits && v < DBL_MIN))
		errno = ERANGE;
	return neg ? -v : v;
}

int bb_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = bb_strtod(s, &end);
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

/* The next ':'-separated field of *s into buf (at most len - 1 bytes);
 * *s moves past it and its ':'.  0, or -1 when it is empty or too long. */
static int next_field(const char **s, char *buf, size_t len)
{
	size_t n = strcspn(*s, ":");

	if (n == 0 || n >= len)
		return -1;
	memcpy(buf, *s, n);
	buf[n] = '\0';
	*s += n + ((*s)[n] == ':');
	return 0;
}

int bb_parse_mmio(const char *s, struct bb_mmio *m)
{
	char f[24];
	uint64_t v, all;

	m->width = 32;
	if (!s || !s[0] || s[strlen(s) - 1] == ':' || next_field(&s, f, sizeof f) ||
	    bb_parse_u64(f, 0, UINT64_MAX, &m->addr))
		return -1;
	if (*s) {
		if (next_field(&s, f, sizeof f) || bb_parse_u64(f, 8, 64, &v) ||
		    (v != 8 && v != 16 && v != 32 && v != 64))
			return -1;
		m->width = (unsigned)v;
	}
	all = m->width == 64 ? UINT64_MAX : (UINT64_C(1) << m->width) - 1;
	m->mask = all;
	if (*s && (next_field(&s, f, sizeof f) || bb_parse_u64(f, 1, all, &m->mask)))
		return -1;
	return *s || m->addr % (m->width / 8) ? -1 : 0;
}

int bb_scan_field(const char *line, const char *name, unsigned long long *out)
{
	size_t n = strlen(name);
	const char *p = line + n;

	if (strncmp(line, name, n) != 0)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	*out = strtoull(p, NULL, 10);
	return 0;
}

int bb_scan_counters(const char *p, uint64_t *v, int max)
{
	int n;

	for (n = 0; n < max; n++) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v[n] = strtoull(p, &end, 10);
		p = end;
	}
	return n;
}
