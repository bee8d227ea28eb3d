/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - bytes that a traced task controls (its name) or a recording
 * holds (the channel's name), as text no terminal takes for a control:
 * the one escaping of every text relaytop prints (--dump, --report, the
 * batch blocks, the screen, Perfetto's ftrace lines).
 *
 * Printable ASCII stays as it is, but for the backslash, which is
 * doubled; valid UTF-8 of a printable character stays as it is where the
 * output takes UTF-8 (utf8).  Every other byte becomes \xNN: the C0
 * controls and DEL (ESC, BEL, CR, newline...), every byte of a C1
 * control (U+0080..U+009F: 0x9b is CSI to some terminals), of a line or
 * paragraph separator or of a bidirectional override (they make text
 * read in another order than it is), of anything that is not valid
 * UTF-8, and every byte above 0x7f where the output does not take UTF-8.
 * So "\033]0;x\007" (a title change) prints as \x1b]0;x\x07.
 */
#ifndef RELAYTOP_TEXT_H
#define RELAYTOP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Bytes text_escape() needs at most for n bytes, the NUL included. */
#define TEXT_ESCAPED_SIZE(n)	(4 * (n) + 1)

/*
 * Escape the bytes of src up to a NUL or max bytes into dst (size bytes,
 * always NUL-terminated; an escape that does not fit is left out whole).
 * Returns the length written.
 */
size_t text_escape(char *dst, size_t size, const char *src, size_t max,
		   bool utf8);

/* Does standard output's character set (the locale's LC_CTYPE) take
 * UTF-8?  What text_escape()'s utf8 is for a terminal. */
bool text_utf8(void);

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0 if
 * there is none (a stray byte, overlong, a surrogate, past U+10FFFF). */
size_t text_utf8_len(const unsigned char *s, size_t n);

#endif /* RELAYTOP_TEXT_H */
