/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_text.h - bytes as the contents of a JSON string (RFC 8259): the
 * quote and the backslash escaped, control characters as \uXXXX, valid
 * UTF-8 as it is, and any other byte (task names are bytes, not
 * necessarily UTF-8) as the code point of its value.  Used by the
 * Perfetto export and by -b --format json.
 */
#ifndef RELAYTOP_JSON_TEXT_H
#define RELAYTOP_JSON_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* The contents (no quotes) for the first max bytes of s, up to a NUL. */
void json_chars(FILE *f, const char *s, size_t max);
/* The same between quotes. */
void json_str(FILE *f, const char *s, size_t max);

#endif /* RELAYTOP_JSON_TEXT_H */
