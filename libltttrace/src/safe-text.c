// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * safe-text.c - how text taken from a trace is shown: the one rule.
 *
 * Names and strings in a trace are chosen by whoever was traced (a
 * process names itself with prctl(), a file can be named with an escape
 * sequence, a trace's eventdefs can hold any character), so every tool
 * shows them through this rule, whether to a terminal, a file or a
 * window. What a terminal or a text renderer would act on, or what would
 * make the text lie about itself, is written out visibly instead, as
 * babeltrace2 and less do:
 *   - a backslash and a double quote: \\ and \" (so that an escape in the
 *     output always comes from this rule, and quoted strings stay quoted);
 *   - newline, tab, carriage return: \n \t \r; every other C0 control
 *     byte and DEL: \xHH (hex digits in lower case);
 *   - a byte that is not part of valid UTF-8 (overlong forms, surrogates
 *     and code points beyond U+10FFFF included): \xHH, each byte;
 *   - code points that control the display rather than show a character,
 *     Unicode's general categories Cc, Cf, Zl and Zp as GLib's tables
 *     give them: the C1 controls (U+0080..U+009F: CSI, OSC, NEL), the
 *     bidirectional marks, embeddings, overrides and isolates (U+061C,
 *     U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), zero-width and
 *     invisible characters (U+200B..U+200D, U+2060.., U+FEFF, the soft
 *     hyphen U+00AD), the line and paragraph separators U+2028, U+2029,
 *     the tag characters U+E0001..U+E007F: <U+XXXX> (4 to 6 hex digits,
 *     upper case).
 * The library's own messages keep their quotes and backslashes
 * (LTT_SAFE_PROSE): they quote the names they hold; the rest holds.
 * Everything else (printable ASCII, other valid UTF-8) is kept, so the
 * output is valid UTF-8 without controls: GTK draws it, a terminal shows
 * it as it is.
 */
#include <string.h>

#include <glib.h>

#include "internal.h"
#include "safe-text.h"

/* Any byte of the eight in x that is not plain printable ASCII: below
 * 0x20, '"', '\\', DEL, or with its top bit set (the start of UTF-8
 * that must be decoded)? Exact for the word as a whole. */
static inline int needs_look8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
#define HAS_ZERO(y) (((y) - ones) & ~(y) & high)
	return ((x | ((x - 0x20 * ones) & ~x)) & high) ||
	       HAS_ZERO(x ^ ('"' * ones)) || HAS_ZERO(x ^ ('\\' * ones)) ||
	       HAS_ZERO(x ^ (0x7f * ones));
#undef HAS_ZERO
}

/* A code point that controls the display rather than shows a character:
 * Unicode's general categories Cc, Cf, Zl and Zp (GLib's tables). */
static int is_display_control(uint32_t c)
{
	switch (g_unichar_type(c)) {
	case G_UNICODE_CONTROL:
	case G_UNICODE_FORMAT:
	case G_UNICODE_LINE_SEPARATOR:
	case G_UNICODE_PARAGRAPH_SEPARATOR:
		return 1;
	default:
		return 0;
	}
}

/* The valid UTF-8 sequence at s (n > 0, s[0] >= 0x80): its length, the
 * code point in *cp; 0 if it is not valid (overlong, a surrogate, beyond
 * U+10FFFF, cut short, a stray continuation byte). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; c &= 0x1f; min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; c &= 0x0f; min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; c &= 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

size_t ltt_safe_prefix(const char *s, size_t n, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	for (;;) {
		uint64_t x;

		while (i + 8 <= n) {
			memcpy(&x, u + i, 8);
			if (needs_look8(x))
				break;
			i += 8;
		}
		if (i >= n)
			return n;
		if (u[i] < 0x80) {
			if (u[i] < 0x20 || u[i] == 0x7f ||
			    ((u[i] == '"' || u[i] == '\\') && !(flags & LTT_SAFE_PROSE)))
				return i;
			i++;
		} else {
			uint32_t cp;
			size_t len = utf8_decode(u + i, n - i, &cp);

			if (!len || is_display_control(cp))
				return i;
			i += len;
		}
	}
}

size_t ltt_safe_escape_unit(const char *s, size_t n, char *out, size_t *used)
{
	static const char hex[16] = "0123456789ABCDEF";
	static const char lower[16] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	uint32_t cp;
	size_t len;

	*used = 1;
	switch (u[0]) {
	case '"': memcpy(out, "\\\"", 2); return 2;
	case '\\': memcpy(out, "\\\\", 2); return 2;
	case '\n': memcpy(out, "\\n", 2); return 2;
	case '\t': memcpy(out, "\\t", 2); return 2;
	case '\r': memcpy(out, "\\r", 2); return 2;
	default: break;
	}
	if (u[0] >= 0x80 && (len = utf8_decode(u, n, &cp)) != 0) {
		/* a valid code point that controls the display: <U+XXXX> */
		int k = cp > 0xfffff ? 6 : cp > 0xffff ? 5 : 4, i;

		*used = len;
		memcpy(out, "<U+", 3);
		for (i = 0; i < k; i++)
			out[3 + i] = hex[(cp >> (4 * (k - 1 - i))) & 15];
		out[3 + k] = '>';
		return (size_t)k + 4;
	}
	out[0] = '\\';		/* a control or a byte that is not UTF-8 */
	out[1] = 'x';
	out[2] = lower[u[0] >> 4];
	out[3] = lower[u[0] & 15];
	return 4;
}

static size_t escape_into(char *buf, size_t size, const char *s, size_t n,
			  unsigned flags)
{
	size_t len = 0, kept = 0;	/* kept: what buf holds, whole units */
	int full = 0;

	while (n) {
		size_t k = ltt_safe_prefix(s, n, flags), used = 0;
		char unit[LTT_SAFE_UNIT_MAX];
		const char *piece = s;

		if (!k) {
			k = ltt_safe_escape_unit(s, n, unit, &used);
			piece = unit;
		} else {
			used = k;
		}
		if (!full && size) {
			size_t room = size - 1 - kept, take = k;

			if (take > room) {	/* cut: never inside a character
						 * or an escape */
				full = 1;
				take = piece == unit ? 0 : room;
				while (take && ((unsigned char)piece[take] & 0xc0) == 0x80)
					take--;
			}
			memcpy(buf + kept, piece, take);
			kept += take;
		}
		len += k;
		s += used;
		n -= used;
	}
	if (size)
		buf[kept] = '\0';
	return len;
}

size_t ltt_text_escape(char *buf, size_t size, const char *s, size_t n)
{
	return escape_into(buf, size, s, n, 0);
}

char *ltt_safe_message(char *msg)
{
	size_t n = strlen(msg), need;
	char *safe;

	if (ltt_safe_prefix(msg, n, LTT_SAFE_PROSE) == n)
		return msg;
	need = escape_into(NULL, 0, msg, n, LTT_SAFE_PROSE);
	safe = g_malloc(need + 1);
	escape_into(safe, need + 1, msg, n, LTT_SAFE_PROSE);
	g_free(msg);
	return safe;
}

/*
 * ltt_text_safe(): the string itself when nothing in it needs escaping
 * (no copy), else its escaped copy in one of a few buffers per thread,
 * so that several can be passed to one printf.
 */
#define SAFE_RING 8

typedef struct safe_ring {
	GString *buf[SAFE_RING];
	unsigned next;
} safe_ring;

static void safe_ring_free(gpointer p)
{
	safe_ring *r = p;

	for (unsigned i = 0; i < SAFE_RING; i++)
		if (r->buf[i])
			g_string_free(r->buf[i], TRUE);
	g_free(r);
}

static GPrivate safe_ring_key = G_PRIVATE_INIT(safe_ring_free);

const char *ltt_text_safe(const char *s)
{
	size_t n, need;
	safe_ring *r;
	GString *g;

	if (!s)
		return "(null)";
	n = strlen(s);
	if (ltt_safe_prefix(s, n, 0) == n)
		return s;
	r = g_private_get(&safe_ring_key);
	if (!r) {
		r = g_new0(safe_ring, 1);
		g_private_set(&safe_ring_key, r);
	}
	g = r->buf[r->next];
	if (!g)
		g = r->buf[r->next] = g_string_sized_new(64);
	r->next = (r->next + 1) % SAFE_RING;
	need = ltt_text_escape(NULL, 0, s, n);
	g_string_set_size(g, need);
	ltt_text_escape(g->str, need + 1, s, n);
	return g->str;
}
