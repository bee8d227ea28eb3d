// SPDX-License-Identifier: GPL-2.0
/* text.c - hostile bytes as text that cannot control a terminal (text.h). */
#include "text.h"

#include <langinfo.h>
#include <stdint.h>
#include <string.h>

size_t text_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;	/* overlong, too large or a surrogate */
	return len;
}

/* The code point of the valid sequence at s of len bytes (len > 1). */
static uint32_t code_point(const unsigned char *s, size_t len)
{
	uint32_t cp = s[0] & (0x7f >> len);

	for (size_t i = 1; i < len; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/* A character that controls how a terminal shows text, not shown. */
static bool is_control(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||		/* C1 */
	       cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) ||	/* separators, bidi */
	       (cp >= 0x2066 && cp <= 0x2069);		/* bidi isolates */
}

size_t text_escape(char *dst, size_t size, const char *src, size_t max,
		   bool utf8)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)src;
	size_t n = strnlen(src, max), out = 0;

	if (!size)
		return 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		size_t len = 1;

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (out + 1 >= size)
				break;
			dst[out++] = (char)c;
			i++;
			continue;
		}
		if (c == '\\') {
			if (out + 2 >= size)
				break;
			dst[out++] = '\\';
			dst[out++] = '\\';
			i++;
			continue;
		}
		if (utf8 && c >= 0x80 && (len = text_utf8_len(p + i, n - i)) &&
		    !is_control(code_point(p + i, len))) {
			if (out + len >= size)
				break;
			memcpy(dst + out, p + i, len);
			out += len;
			i += len;
			continue;
		}
		/* a control, or all of a sequence that is one */
		if (!len)
			len = 1;
		if (out + 4 * len >= size)
			break;
		for (size_t k = 0; k < len; k++, i++) {
			dst[out++] = '\\';
			dst[out++] = 'x';
			dst[out++] = hex[p[i] >> 4];
			dst[out++] = hex[p[i] & 15];
		}
	}
	dst[out] = '\0';
	return out;
}

bool text_utf8(void)
{
	const char *codeset = nl_langinfo(CODESET);

	return codeset && !strcmp(codeset, "UTF-8");
}
