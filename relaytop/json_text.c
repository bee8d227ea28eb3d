// SPDX-License-Identifier: GPL-2.0
/* json_text.c - bytes as JSON string contents (see json_text.h). */
#include "json_text.h"

#include <string.h>

#include "text.h"

/*
 * The contents of a JSON string (no quotes) for the first max bytes of s,
 * up to a NUL.  Task names are bytes, not necessarily UTF-8: a byte that
 * is not part of valid UTF-8 is written as the code point of its value.
 */
void json_chars(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strnlen(s, max);

	for (size_t i = 0; i < n;) {
		size_t len;

		switch (p[i]) {
		case '"':  fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\u%04x", p[i++]);
			continue;
		}
		len = text_utf8_len(p + i, n - i);
		if (!len) {
			fprintf(f, "\\u%04x", p[i++]);
			continue;
		}
		fwrite(p + i, 1, len, f);
		i += len;
	}
}

void json_str(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	json_chars(f, s, max);
	fputc('"', f);
}
