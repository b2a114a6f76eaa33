/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_safe_text - the one rule for showing text from a trace
 * (libltttrace/src/safe-text.c, ltt_text_escape() and ltt_text_safe()):
 * the escapes of what a terminal or a renderer would act on (C0, DEL, C1
 * controls, bidi and invisible format characters, line separators,
 * invalid UTF-8), what stays as it is, snprintf's contract, and random
 * bytes whose escape must be valid UTF-8 holding none of those.
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ltttrace.h"
#include "rand.h"
#include "tap.h"

static const char *esc(const char *s, size_t n)
{
	static char buf[512];

	ltt_text_escape(buf, sizeof(buf), s, n);
	return buf;
}

#define ESC(lit) esc(lit, sizeof(lit) - 1)

/* Text fit to show: valid UTF-8, no byte below 0x20, no DEL, no code
 * point of the kinds the issue named (checked by value, not by the
 * library's tables). */
static int shown_safely(const char *s, size_t n)
{
	const char *p;

	if (!g_utf8_validate(s, (gssize)n, NULL))
		return 0;
	for (p = s; p < s + n; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c ||
		    (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
		    (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff ||
		    (c >= 0xe0001 && c <= 0xe007f))
			return 0;
	}
	return 1;
}

int main(void)
{
	char small[9];
	const char *plain = "init", *t;
	unsigned i, bad = 0;

	is_str(ESC("bash"), "bash", "plain ASCII stays");
	is_str(ESC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
	       "printable UTF-8 (2, 3 and 4 bytes) stays");
	is_str(ESC("\x1b]0;owned\x07|\b\r\n\t\x7f"), "\\x1b]0;owned\\x07|\\x08\\r\\n\\t\\x7f",
	       "C0 controls and DEL: \\xHH, newline, tab, CR by name");
	is_str(ESC("a\"b\\c"), "a\\\"b\\\\c", "quote and backslash escaped");
	is_str(ESC("x\0y"), "x\\x00y", "a NUL inside the n bytes: \\x00");
	is_str(ESC("\xc2\x9b" "31m|\xc2\x9d" "0;t|\xc2\x85"), "<U+009B>31m|<U+009D>0;t|<U+0085>",
	       "C1 controls CSI, OSC, NEL (as UTF-8): <U+XXXX>");
	is_str(ESC("a\xe2\x80\xae" "gpj.exe"), "a<U+202E>gpj.exe", "bidi override U+202E");
	is_str(ESC("\xe2\x81\xa6\xe2\x81\xa9\xd8\x9c\xe2\x80\x8f"), "<U+2066><U+2069><U+061C><U+200F>",
	       "bidi isolates, Arabic letter mark, RLM");
	is_str(ESC("l1\xe2\x80\xa8l2\xe2\x80\xa9"), "l1<U+2028>l2<U+2029>", "line and paragraph separators");
	is_str(ESC("\xe2\x80\x8b\xef\xbb\xbf\xf3\xa0\x80\x81"), "<U+200B><U+FEFF><U+E0001>",
	       "zero width space, BOM, a tag character (5 digits)");
	is_str(ESC("caf\xe9!"), "caf\\xe9!", "Latin-1 (not UTF-8): \\xHH");
	is_str(ESC("\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82"),
	       "\\xc0\\xaf|\\xed\\xa0\\x80|\\xf4\\x90\\x80\\x80|\\xe2\\x82",
	       "overlong, surrogate, beyond U+10FFFF, cut short: each byte \\xHH");
	is_str(ESC("\x80\xbf"), "\\x80\\xbf", "stray continuation bytes");

	is_int(ltt_text_escape(small, sizeof(small), "\x1b\x1b\x1b", 3), 12,
	       "the length needed is returned, as snprintf does");
	is_str(small, "\\x1b\\x1b", "what did not fit is cut, NUL-terminated");
	is_int(ltt_text_escape(small, 7, "\x1b\x1b\x1b", 3), 12, "a cut inside an escape: the length needed");
	is_str(small, "\\x1b", "the escape cut is left out whole");
	ltt_text_escape(small, 4, "ab\xc3\xa9", 4);
	is_str(small, "ab", "a cut inside a UTF-8 character leaves it out whole");
	is_int(ltt_text_escape(NULL, 0, "ab", 2), 2, "size 0: only the length");

	ok(ltt_text_safe(plain) == plain, "ltt_text_safe: a safe string is returned as it is (no copy)");
	t = ltt_text_safe("\x1b[2J");
	is_str(t, "\\x1b[2J", "ltt_text_safe: an unsafe one escaped");
	{
		const char *a = ltt_text_safe("\x01"), *b = ltt_text_safe("\x02");

		ok(strcmp(a, "\\x01") == 0 && strcmp(b, "\\x02") == 0,
		   "two results at once stay valid (one printf may take several)");
	}
	is_str(ltt_text_safe(NULL), "(null)", "ltt_text_safe(NULL)");

	for (i = 0; i < 200000; i++) {
		unsigned char in[24];
		char out[24 * 10 + 1];
		size_t n = (size_t)(rnd() % sizeof(in)) + 1, k, len;

		for (k = 0; k < n; k++) {
			uint32_t x = (uint32_t)rnd();
			/* bias towards the lead bytes of 2-4 byte sequences */
			in[k] = (unsigned char)(x & 1 ? 0x80 | ((x >> 8) & 0x7f) : (x >> 8));
		}
		len = ltt_text_escape(out, sizeof(out), (const char *)in, n);
		if (len >= sizeof(out) || !shown_safely(out, len)) {
			if (bad++ < 5)
				printf("#   unsafe escape of %zu random bytes: \"%s\"\n", n, out);
		}
	}
	is_int(bad, 0, "200000 random byte strings: every escape valid UTF-8 without controls");
	return tap_done();
}
