/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* safe-text.h - the one rule for showing text taken from a trace, for the
 * library's own formatting (event.c); tools call ltt_text_safe() and
 * ltt_text_escape() (ltttrace.h). */
#ifndef LTT_SAFE_TEXT_H
#define LTT_SAFE_TEXT_H

#include <stddef.h>

/* The longest escape of one unit: "<U+10FFFF>". */
#define LTT_SAFE_UNIT_MAX 10

/* The library's own messages (errors, warnings) quote the names they
 * hold: their quotes and backslashes stay, the rest of the rule holds. */
#define LTT_SAFE_PROSE 1u

/* How many bytes at the start of s[0..n) are shown as they are. */
size_t ltt_safe_prefix(const char *s, size_t n, unsigned flags);
/* The escape of the unit at s (n > 0, not in a safe prefix) into
 * out[LTT_SAFE_UNIT_MAX]: its length; *used: the bytes of s it stands for. */
size_t ltt_safe_escape_unit(const char *s, size_t n, char *out, size_t *used);
/* A message the library made (g_malloc'd, may hold names from a trace),
 * made safe under LTT_SAFE_PROSE: msg itself, or its escape (msg freed). */
char *ltt_safe_message(char *msg);

#endif
