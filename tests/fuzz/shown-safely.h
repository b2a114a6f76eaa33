/* shown-safely.h - the fuzzers' check of the one rule for showing text
 * from a trace (libltttrace/src/safe-text.c): what the library formats,
 * and every name as ltt_text_safe() gives it, is valid UTF-8 without a
 * control character (newline and tab are the library's own in none of
 * these), a C1 control, a bidi or invisible format character or a line
 * separator. A breach aborts: a finding. */
#ifndef LTT_FUZZ_SHOWN_SAFELY_H
#define LTT_FUZZ_SHOWN_SAFELY_H

#include <glib.h>
#include <stdlib.h>

static void must_be_shown_safely(const char *s)
{
	const char *p;

	if (!g_utf8_validate(s, -1, NULL))
		abort();
	for (p = s; *p; p = g_utf8_next_char(p)) {
		switch (g_unichar_type(g_utf8_get_char(p))) {
		case G_UNICODE_CONTROL:
		case G_UNICODE_FORMAT:
		case G_UNICODE_LINE_SEPARATOR:
		case G_UNICODE_PARAGRAPH_SEPARATOR:
			abort();
		default:
			break;
		}
	}
}

#endif
