/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctf-meta.c - TSDL, the CTF 1.8 metadata language, as LTTng 2.13 writes
 * it: typealias, integer, floating_point, string, enum, struct, variant,
 * arrays and sequences, and the trace, env, clock, stream and event
 * blocks (callsite blocks are skipped). Anything else is refused with its
 * file, line and construct.
 *
 * Hand-written rather than through a library: Debian's babeltrace2 has
 * no API that gives a metadata's types without its own (slower) decoder,
 * and the subset is small. A recursive descent over tokens, with every
 * recursion counted (CTF_MAX_DEPTH), so that hostile nesting is an error
 * and never a stack overflow.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"

/* ---- packetized metadata ---- */

#define META_PACKET_MAGIC 0x75D11D57u
#define META_HEADER_BYTES 37

/* The text of packetized metadata: each packet's header says how much
 * of it is text (content_size) and where the next packet begins. */
static char *unpacketize(const uint8_t *data, size_t len, const char *origin,
			 size_t *text_len, ltt_error **err)
{
	GString *s = g_string_new(NULL);
	size_t off = 0;

	while (off < len) {
		uint32_t magic, content, packet;

		if (len - off < META_HEADER_BYTES) {
			ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: metadata packet at offset "
				      "0x%zx: truncated header (%zu bytes)", origin, off, len - off);
			goto fail;
		}
		memcpy(&magic, data + off, 4);
		memcpy(&content, data + off + 24, 4);
		memcpy(&packet, data + off + 28, 4);
		if (magic != META_PACKET_MAGIC) {
			ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: metadata packet at offset "
				      "0x%zx: bad magic 0x%08x", origin, off, magic);
			goto fail;
		}
		if (data[off + 32] || data[off + 33] || data[off + 34]) {
			ltt_set_error(err, LTT_ERROR_UNSUPPORTED, "%s: metadata packet at offset "
				      "0x%zx: compressed, encrypted or checksummed (not "
				      "supported)", origin, off);
			goto fail;
		}
		if (content % 8 || packet % 8 || content < META_HEADER_BYTES * 8 ||
		    content > packet || packet / 8 > len - off) {
			ltt_set_error(err, LTT_ERROR_CORRUPT, "%s: metadata packet at offset "
				      "0x%zx: content size %u bits, packet size %u bits in a "
				      "file of %zu bytes", origin, off, content, packet, len);
			goto fail;
		}
		g_string_append_len(s, (const char *)data + off + META_HEADER_BYTES,
				    (gssize)(content / 8 - META_HEADER_BYTES));
		off += packet / 8;
	}
	*text_len = s->len;
	return g_string_free(s, FALSE);
fail:
	g_string_free(s, TRUE);
	return NULL;
}

/* ---- tokens ---- */

typedef enum tok_kind { T_END, T_ID, T_NUM, T_STR, T_PUNCT } tok_kind;

typedef struct token {
	tok_kind kind;
	const char *p;		/* in the text */
	size_t len;
	unsigned line;
	uint64_t num;
} token;

typedef struct parser {
	ctf_meta *m;
	const char *text, *end, *cur;
	unsigned line;
	token tok;		/* the current token */
	token saved;		/* one token of look-back (alias names) */
	bool has_saved;
	GHashTable *aliases;	/* name -> ctf_type* */
	GHashTable *structs, *enums, *variants;	/* tag name -> ctf_type* */
	/* integers, floats and enums of the trace's byte order, which the
	 * trace block may declare after them: set at the end */
	GPtrArray *native;
	int depth;
	ltt_error **err;
	bool failed;
} parser;

static void *own(parser *ps, void *p)
{
	g_ptr_array_add(ps->m->owned, p);
	return p;
}

static char *own_strndup(parser *ps, const char *s, size_t n)
{
	return own(ps, g_strndup(s, n));
}

static int fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(parser *ps, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (ps->failed)
		return -1;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ltt_set_error(ps->err, LTT_ERROR_DESCRIPTION, "%s:%u: %s", ps->m->path,
		      ps->tok.line, msg);
	g_free(msg);
	ps->failed = true;
	return -1;
}

static bool is_id_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id_char(char c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* Reads the next token into ps->tok. */
static int next(parser *ps)
{
	const char *c;
	token *t = &ps->tok;

	if (ps->has_saved) {
		*t = ps->saved;
		ps->has_saved = false;
		return 0;
	}
	for (;;) {
		c = ps->cur;
		while (c < ps->end && (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')) {
			if (*c == '\n')
				ps->line++;
			c++;
		}
		if (c + 1 < ps->end && c[0] == '/' && c[1] == '*') {
			const char *e = c + 2;

			while (e + 1 < ps->end && !(e[0] == '*' && e[1] == '/')) {
				if (*e == '\n')
					ps->line++;
				e++;
			}
			if (e + 1 >= ps->end) {
				t->line = ps->line;
				return fail(ps, "comment: no end");
			}
			ps->cur = e + 2;
			continue;
		}
		if (c + 1 < ps->end && c[0] == '/' && c[1] == '/') {
			while (c < ps->end && *c != '\n')
				c++;
			ps->cur = c;
			continue;
		}
		break;
	}
	t->p = c;
	t->line = ps->line;
	t->num = 0;
	if (c >= ps->end) {
		t->kind = T_END;
		t->len = 0;
		ps->cur = c;
		return 0;
	}
	if (is_id_start(*c)) {
		const char *e = c;

		while (e < ps->end && is_id_char(*e))
			e++;
		t->kind = T_ID;
		t->len = (size_t)(e - c);
	} else if (*c >= '0' && *c <= '9') {
		const char *e = c;
		char buf[32];
		char *stop;
		int base = 10;

		while (e < ps->end && is_id_char(*e))
			e++;
		t->kind = T_NUM;
		t->len = (size_t)(e - c);
		if (t->len >= sizeof(buf))
			return fail(ps, "number '%.*s': too long", (int)t->len, c);
		memcpy(buf, c, t->len);
		buf[t->len] = '\0';
		/* suffixes u, U, l, L are allowed by TSDL */
		for (size_t k = t->len; k > 0 && strchr("uUlL", buf[k - 1]); k--)
			buf[k - 1] = '\0';
		if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
			base = 16;
		else if (buf[0] == '0' && buf[1])
			base = 8;
		errno = 0;
		t->num = strtoull(buf, &stop, base);
		if (errno || *stop || stop == buf)
			return fail(ps, "number '%s': not an integer of 64 bits", buf);
	} else if (*c == '"') {
		const char *e = c + 1;

		while (e < ps->end && *e != '"') {
			if (*e == '\\' && e + 1 < ps->end)
				e++;
			if (*e == '\n')
				ps->line++;
			e++;
		}
		if (e >= ps->end)
			return fail(ps, "string: no closing quote");
		t->kind = T_STR;
		t->p = c + 1;
		t->len = (size_t)(e - c - 1);
		e++;
		ps->cur = e;
		return 0;
	} else {
		static const char *const multi[] = { ":=", "...", "->" };

		t->kind = T_PUNCT;
		t->len = 1;
		for (unsigned k = 0; k < G_N_ELEMENTS(multi); k++) {
			size_t n = strlen(multi[k]);

			if ((size_t)(ps->end - c) >= n && memcmp(c, multi[k], n) == 0)
				t->len = n;
		}
		if (t->len == 1 && !strchr("{}()[];,=<>.:+-*", *c))
			return fail(ps, "unexpected character 0x%02x", (unsigned char)*c);
	}
	ps->cur = c + t->len;
	return 0;
}

static bool is(const parser *ps, const char *s)
{
	size_t n = strlen(s);

	return (ps->tok.kind == T_PUNCT || ps->tok.kind == T_ID) && ps->tok.len == n &&
	       memcmp(ps->tok.p, s, n) == 0;
}

static int expect(parser *ps, const char *s)
{
	if (!is(ps, s))
		return fail(ps, "expected '%s', found '%.*s'", s, (int)ps->tok.len,
			    ps->tok.kind == T_END ? "end of file" : ps->tok.p);
	return next(ps);
}

static char *tok_str(parser *ps)
{
	return own_strndup(ps, ps->tok.p, ps->tok.len);
}

/* ---- values of attributes ---- */

typedef struct value {
	tok_kind kind;		/* T_NUM, T_STR, T_ID (a dotted path) */
	uint64_t num;
	bool negative;
	char *s;
} value;

static int parse_value(parser *ps, value *v)
{
	memset(v, 0, sizeof(*v));
	if (is(ps, "-")) {
		if (next(ps) < 0)
			return -1;
		if (ps->tok.kind != T_NUM)
			return fail(ps, "'-' not followed by a number");
		v->negative = true;
	}
	v->kind = ps->tok.kind;
	if (ps->tok.kind == T_NUM) {
		v->num = ps->tok.num;
		if (v->negative && v->num > (uint64_t)INT64_MAX + 1)
			return fail(ps, "number -%" PRIu64 ": below the 64-bit range", v->num);
		return next(ps);
	}
	if (ps->tok.kind == T_STR) {
		v->s = tok_str(ps);
		return next(ps);
	}
	if (ps->tok.kind != T_ID)
		return fail(ps, "expected a value, found '%.*s'", (int)ps->tok.len, ps->tok.p);
	{
		GString *path = g_string_new(NULL);

		for (;;) {
			g_string_append_len(path, ps->tok.p, (gssize)ps->tok.len);
			if (next(ps) < 0 || !is(ps, "."))
				break;
			g_string_append_c(path, '.');
			if (next(ps) < 0 || ps->tok.kind != T_ID) {
				g_string_free(path, TRUE);
				return fail(ps, "a path ends with '.'");
			}
		}
		v->s = own(ps, g_string_free(path, FALSE));
	}
	return ps->failed ? -1 : 0;
}

static int64_t value_int(const value *v)
{
	return v->negative ? (int64_t)(0 - v->num) : (int64_t)v->num;
}

static bool value_bool(const value *v, bool *out)
{
	if (v->kind == T_NUM && !v->negative && v->num <= 1) {
		*out = v->num;
		return true;
	}
	if (v->kind == T_ID && (!g_ascii_strcasecmp(v->s, "true") ||
				!g_ascii_strcasecmp(v->s, "false"))) {
		*out = !g_ascii_strcasecmp(v->s, "true");
		return true;
	}
	return false;
}

/* ---- types ---- */

static ctf_type *new_type(parser *ps, ctf_kind kind)
{
	ctf_type *t = own(ps, g_new0(ctf_type, 1));
	char *where = g_strdup_printf("%s:%u", ps->m->path, ps->tok.line);

	g_ptr_array_add(ps->m->where, where);
	t->kind = kind;
	t->where = where;
	t->ref_slot = -1;
	t->align = 8;
	t->base = 10;
	return t;
}

static ctf_type *parse_type(parser *ps);
static int parse_members(parser *ps, ctf_type *t);

/* Byte order: le, be, network, native (the trace's). */
static int byte_order(parser *ps, const value *v, bool *big)
{
	if (v->kind == T_ID && !strcmp(v->s, "le"))
		*big = false;
	else if (v->kind == T_ID && (!strcmp(v->s, "be") || !strcmp(v->s, "network")))
		*big = true;
	else if (v->kind == T_ID && !strcmp(v->s, "native"))
		*big = ps->m->big_endian;
	else
		return fail(ps, "byte_order: '%s' is not le, be, network or native",
			    v->s ? v->s : "(a number)");
	return 0;
}

static bool power_of_two(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* integer { ... } and floating_point { ... }: attributes */
static ctf_type *parse_scalar(parser *ps, bool is_float)
{
	ctf_type *t = new_type(ps, is_float ? CTF_FLOAT : CTF_INT);
	const char *what = is_float ? "floating_point" : "integer";
	bool have_size = false, native = true;

	t->big_endian = ps->m->big_endian;
	t->align = 0;
	if (next(ps) < 0 || expect(ps, "{") < 0)
		return NULL;
	while (!is(ps, "}")) {
		char *key;
		value v;

		if (ps->tok.kind != T_ID)
			return fail(ps, "%s: expected an attribute name", what), NULL;
		key = tok_str(ps);
		if (next(ps) < 0 || expect(ps, "=") < 0 || parse_value(ps, &v) < 0 ||
		    expect(ps, ";") < 0)
			return NULL;
		if (!strcmp(key, "size") || !strcmp(key, "exp_dig") || !strcmp(key, "mant_dig") ||
		    !strcmp(key, "align")) {
			if (v.kind != T_NUM || v.negative || v.num == 0 || v.num > 64 * 1024)
				return fail(ps, "%s: %s must be a positive number", what, key), NULL;
			if (!strcmp(key, "size")) {
				if (is_float || v.num > 64)
					return fail(ps, "%s: size %" PRIu64 " (1 to 64 bits are read)",
						    what, v.num), NULL;
				t->bits = (unsigned)v.num;
				have_size = true;
			} else if (!strcmp(key, "align")) {
				if (!power_of_two(v.num))
					return fail(ps, "%s: align %" PRIu64 " is not a power of two",
						    what, v.num), NULL;
				t->align = (unsigned)v.num;
			} else if (!is_float) {
				return fail(ps, "integer: unknown attribute '%s'", key), NULL;
			} else if (!strcmp(key, "exp_dig")) {
				t->exp_dig = (unsigned)v.num;
			} else {
				t->mant_dig = (unsigned)v.num;
			}
		} else if (!strcmp(key, "byte_order")) {
			if (byte_order(ps, &v, &t->big_endian) < 0)
				return NULL;
			native = v.kind == T_ID && !strcmp(v.s, "native");
		} else if (!strcmp(key, "signed") && !is_float) {
			if (!value_bool(&v, &t->is_signed))
				return fail(ps, "integer: signed must be true or false"), NULL;
		} else if (!strcmp(key, "base") && !is_float) {
			static const struct { const char *name; unsigned base; } bases[] = {
				{ "decimal", 10 }, { "dec", 10 }, { "d", 10 }, { "i", 10 },
				{ "u", 10 }, { "hexadecimal", 16 }, { "hex", 16 }, { "x", 16 },
				{ "X", 16 }, { "p", 16 }, { "octal", 8 }, { "oct", 8 },
				{ "o", 8 }, { "binary", 2 }, { "bin", 2 }, { "b", 2 },
			};
			t->base = 0;
			if (v.kind == T_NUM && (v.num == 2 || v.num == 8 || v.num == 10 || v.num == 16))
				t->base = (unsigned)v.num;
			for (unsigned k = 0; v.kind == T_ID && k < G_N_ELEMENTS(bases); k++)
				if (!strcmp(v.s, bases[k].name))
					t->base = bases[k].base;
			if (!t->base)
				return fail(ps, "integer: unknown base"), NULL;
		} else if (!strcmp(key, "encoding") && !is_float) {
			if (v.kind != T_ID || (strcmp(v.s, "none") && strcmp(v.s, "UTF8") &&
					       strcmp(v.s, "ASCII")))
				return fail(ps, "integer: encoding must be none, UTF8 or ASCII"), NULL;
			t->text = strcmp(v.s, "none") != 0;
		} else if (!strcmp(key, "map") && !is_float) {
			const ctf_clock *ck = ps->m->clock;

			if (v.kind != T_ID || strncmp(v.s, "clock.", 6) != 0 ||
			    !g_str_has_suffix(v.s, ".value"))
				return fail(ps, "integer: map must be clock.NAME.value"), NULL;
			if (!ck || strlen(v.s) != strlen(ck->name) + 12 ||
			    strncmp(v.s + 6, ck->name, strlen(ck->name)) != 0)
				return fail(ps, "integer: map to %s, a clock not declared before",
					    v.s), NULL;
			t->clock = true;
		} else {
			return fail(ps, "%s: unknown attribute '%s'", what, key), NULL;
		}
	}
	if (next(ps) < 0)
		return NULL;
	if (native)
		g_ptr_array_add(ps->native, t);
	if (is_float) {
		if (!((t->exp_dig == 8 && t->mant_dig == 24) || (t->exp_dig == 11 && t->mant_dig == 53)))
			return fail(ps, "floating_point: exp_dig %u, mant_dig %u (only IEEE 754 "
				    "single and double are read)", t->exp_dig, t->mant_dig), NULL;
		t->bits = t->exp_dig + t->mant_dig;
		if (!t->align)
			t->align = 8;
	} else {
		if (!have_size)
			return fail(ps, "integer: no size"), NULL;
		if (!t->align)
			t->align = t->bits % 8 ? 1 : 8;
	}
	return t;
}

/* Words of a type name ("unsigned long"), up to but not including the
 * last identifier when `leave_last` (it is the declarator). */
static ctf_type *alias_type(parser *ps, bool leave_last)
{
	GString *name = g_string_new(NULL);
	token last = ps->tok;
	ctf_type *t;

	while (ps->tok.kind == T_ID) {
		token here = ps->tok;

		if (next(ps) < 0)
			goto out;
		if (leave_last && ps->tok.kind != T_ID) {
			/* `here` is the declarator: give it back */
			ps->saved = ps->tok;
			ps->has_saved = true;
			ps->tok = here;
			break;
		}
		if (name->len)
			g_string_append_c(name, ' ');
		g_string_append_len(name, here.p, (gssize)here.len);
		last = here;
	}
	(void)last;
	t = g_hash_table_lookup(ps->aliases, name->str);
	if (!t)
		fail(ps, "unknown type '%s'", name->str);
	g_string_free(name, TRUE);
	return t;
out:
	g_string_free(name, TRUE);
	return NULL;
}

static int parse_enum_body(parser *ps, ctf_type *t)
{
	GArray *maps = g_array_new(FALSE, TRUE, sizeof(ctf_mapping));
	int64_t next_value = 0;
	int ret = -1;

	if (expect(ps, "{") < 0)
		goto out;
	while (!is(ps, "}")) {
		ctf_mapping mp = { 0 };
		value lo, hi;

		if (ps->tok.kind != T_STR && ps->tok.kind != T_ID) {
			fail(ps, "enum: expected a label");
			goto out;
		}
		mp.label = tok_str(ps);
		if (next(ps) < 0)
			goto out;
		if (is(ps, "=")) {
			if (next(ps) < 0 || parse_value(ps, &lo) < 0)
				goto out;
			if (lo.kind != T_NUM) {
				fail(ps, "enum: the value of '%s' is not a number", mp.label);
				goto out;
			}
			hi = lo;
			if (is(ps, "...")) {
				if (next(ps) < 0 || parse_value(ps, &hi) < 0)
					goto out;
				if (hi.kind != T_NUM) {
					fail(ps, "enum: the range of '%s' does not end with a number",
					     mp.label);
					goto out;
				}
			}
			mp.lo = value_int(&lo);
			mp.hi = value_int(&hi);
		} else {
			mp.lo = mp.hi = next_value;
		}
		if (t->is_signed ? mp.hi < mp.lo : (uint64_t)mp.hi < (uint64_t)mp.lo) {
			fail(ps, "enum: the range of '%s' ends before it begins", mp.label);
			goto out;
		}
		next_value = mp.hi + 1;
		g_array_append_val(maps, mp);
		if (is(ps, ",")) {
			if (next(ps) < 0)
				goto out;
		} else if (!is(ps, "}")) {
			fail(ps, "enum: expected ',' or '}' after '%s'", mp.label);
			goto out;
		}
	}
	ret = next(ps);
out:
	t->num_maps = maps->len;
	t->maps = own(ps, g_array_free(maps, FALSE));
	return ret;
}

static ctf_type *parse_enum(parser *ps)
{
	char *name = NULL;
	ctf_type *t, *container;

	if (next(ps) < 0)
		return NULL;
	if (ps->tok.kind == T_ID) {
		name = tok_str(ps);
		if (next(ps) < 0)
			return NULL;
		if (!is(ps, ":") && !is(ps, "{")) {
			t = g_hash_table_lookup(ps->enums, name);
			if (!t)
				fail(ps, "enum %s: not declared", name);
			return t;
		}
	}
	if (is(ps, ":")) {
		if (next(ps) < 0)
			return NULL;
		container = ps->tok.kind == T_ID && is(ps, "integer") ? parse_scalar(ps, false)
			  : alias_type(ps, false);
	} else {
		container = g_hash_table_lookup(ps->aliases, "int");
		if (!container)
			return fail(ps, "enum: no container type, and no 'int' declared"), NULL;
	}
	if (!container)
		return NULL;
	if (container->kind != CTF_INT)
		return fail(ps, "enum: the container is not an integer"), NULL;
	t = new_type(ps, CTF_ENUM);
	t->bits = container->bits;
	t->align = container->align;
	t->is_signed = container->is_signed;
	t->big_endian = container->big_endian;
	t->base = container->base;
	for (guint i = 0; i < ps->native->len; i++)
		if (ps->native->pdata[i] == container) {
			g_ptr_array_add(ps->native, t);
			break;
		}
	if (parse_enum_body(ps, t) < 0)
		return NULL;
	if (name)
		g_hash_table_insert(ps->enums, name, t);
	return t;
}

/* struct [NAME] [{ ... }] [align(N)], variant [NAME] [<tag>] [{ ... }] */
static ctf_type *parse_compound(parser *ps, ctf_kind kind)
{
	GHashTable *names = kind == CTF_STRUCT ? ps->structs : ps->variants;
	const char *what = kind == CTF_STRUCT ? "struct" : "variant";
	char *name = NULL, *tag = NULL;
	ctf_type *t;

	if (next(ps) < 0)
		return NULL;
	if (ps->tok.kind == T_ID) {
		name = tok_str(ps);
		if (next(ps) < 0)
			return NULL;
	}
	if (kind == CTF_VARIANT && is(ps, "<")) {
		value v;

		if (next(ps) < 0 || parse_value(ps, &v) < 0)
			return NULL;
		if (v.kind != T_ID)
			return fail(ps, "variant: the tag is not a field's name"), NULL;
		tag = v.s;
		if (expect(ps, ">") < 0)
			return NULL;
	}
	if (!is(ps, "{")) {
		const ctf_type *decl;

		if (!name)
			return fail(ps, "%s: neither a name nor a body", what), NULL;
		decl = g_hash_table_lookup(names, name);
		if (!decl)
			return fail(ps, "%s %s: not declared", what, name), NULL;
		if (!tag)
			return (ctf_type *)decl;
		t = new_type(ps, kind);	/* a declared variant given its tag here */
		*t = *decl;
		t->ref = tag;
		return t;
	}
	t = new_type(ps, kind);
	t->align = kind == CTF_STRUCT ? 1 : 1;
	t->ref = tag;
	if (parse_members(ps, t) < 0)
		return NULL;
	if (kind == CTF_STRUCT && is(ps, "align")) {
		value v;

		if (next(ps) < 0 || expect(ps, "(") < 0 || parse_value(ps, &v) < 0 ||
		    expect(ps, ")") < 0)
			return NULL;
		if (v.kind != T_NUM || !power_of_two(v.num) || v.num > 64 * 1024)
			return fail(ps, "struct: align(%" PRIu64 ") is not a power of two",
				    v.num), NULL;
		if (v.num > t->align)
			t->align = (unsigned)v.num;
	}
	if (name)
		g_hash_table_insert(names, name, t);
	return t;
}

/* A type specifier; with an alias name, its last word is left as the
 * declarator. */
static ctf_type *parse_type_spec(parser *ps, bool declarator_follows)
{
	ctf_type *t;

	if (++ps->depth > CTF_MAX_DEPTH) {
		fail(ps, "types nested deeper than %d", CTF_MAX_DEPTH);
		ps->depth--;
		return NULL;
	}
	if (is(ps, "integer"))
		t = parse_scalar(ps, false);
	else if (is(ps, "floating_point"))
		t = parse_scalar(ps, true);
	else if (is(ps, "string")) {
		t = new_type(ps, CTF_STRING);
		t->align = 8;
		if (next(ps) == 0 && is(ps, "{")) {
			/* string { encoding = ...; } */
			while (!ps->failed && !is(ps, "}") && ps->tok.kind != T_END)
				next(ps);
			if (!ps->failed)
				expect(ps, "}");
		}
		if (ps->failed)
			t = NULL;
	} else if (is(ps, "enum"))
		t = parse_enum(ps);
	else if (is(ps, "struct"))
		t = parse_compound(ps, CTF_STRUCT);
	else if (is(ps, "variant"))
		t = parse_compound(ps, CTF_VARIANT);
	else if (ps->tok.kind == T_ID)
		t = alias_type(ps, declarator_follows);
	else {
		fail(ps, "expected a type, found '%.*s'", (int)ps->tok.len,
		     ps->tok.kind == T_END ? "end of file" : ps->tok.p);
		t = NULL;
	}
	ps->depth--;
	return t;
}

static ctf_type *parse_type(parser *ps)
{
	return parse_type_spec(ps, false);
}

/* NAME[len][len]...: arrays and sequences around t, outermost first. */
static ctf_type *parse_declarator(parser *ps, ctf_type *t, char **name)
{
	GPtrArray *dims = g_ptr_array_new();
	GArray *lens = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	ctf_type *ret = NULL;

	if (ps->tok.kind != T_ID) {
		fail(ps, "expected a field name, found '%.*s'", (int)ps->tok.len, ps->tok.p);
		goto out;
	}
	*name = tok_str(ps);
	if (next(ps) < 0)
		goto out;
	while (is(ps, "[")) {
		value v;

		if (next(ps) < 0 || parse_value(ps, &v) < 0 || expect(ps, "]") < 0)
			goto out;
		if (v.kind == T_NUM && !v.negative) {
			g_ptr_array_add(dims, NULL);
			g_array_append_val(lens, v.num);
		} else if (v.kind == T_ID) {
			uint64_t zero = 0;

			g_ptr_array_add(dims, v.s);
			g_array_append_val(lens, zero);
		} else {
			fail(ps, "%s: an array length must be a number or a field's name", *name);
			goto out;
		}
		if (dims->len > CTF_MAX_DEPTH) {
			fail(ps, "%s: more than %d dimensions", *name, CTF_MAX_DEPTH);
			goto out;
		}
	}
	/* a[2][3] is an array of 2 arrays of 3: wrap from the last */
	ret = t;
	for (guint i = dims->len; i-- > 0;) {
		ctf_type *a = new_type(ps, dims->pdata[i] ? CTF_SEQUENCE : CTF_ARRAY);

		a->elem = ret;
		a->align = ret->align;
		a->ref = dims->pdata[i];
		a->length = g_array_index(lens, uint64_t, i);
		ret = a;
	}
out:
	g_ptr_array_free(dims, TRUE);
	g_array_free(lens, TRUE);
	return ret;
}

static int parse_typealias(parser *ps);

/* { type name; ... } of a struct or a variant */
static int parse_members(parser *ps, ctf_type *t)
{
	GArray *mem = g_array_new(FALSE, TRUE, sizeof(ctf_member));
	int ret = -1;

	if (expect(ps, "{") < 0)
		goto out;
	while (!is(ps, "}")) {
		ctf_type *spec;

		if (is(ps, "typealias")) {
			if (parse_typealias(ps) < 0)
				goto out;
			continue;
		}
		spec = parse_type_spec(ps, true);
		if (!spec)
			goto out;
		for (;;) {
			ctf_member m = { .slot = -1 };
			char *name;

			m.type = parse_declarator(ps, spec, &name);
			if (!m.type)
				goto out;
			/* LTTng writes _name for name (a C keyword could not
			 * be a field otherwise); babeltrace2 shows name */
			m.name = name[0] == '_' && name[1] ? name + 1 : name;
			for (guint k = 0; k < mem->len; k++)
				if (!strcmp(g_array_index(mem, ctf_member, k).name, m.name)) {
					fail(ps, "field '%s' declared twice", m.name);
					goto out;
				}
			if (t->kind == CTF_STRUCT && m.type->align > t->align)
				t->align = m.type->align;
			g_array_append_val(mem, m);
			if (!is(ps, ","))
				break;
			if (next(ps) < 0)
				goto out;
		}
		if (expect(ps, ";") < 0)
			goto out;
	}
	ret = next(ps);
out:
	t->num_members = mem->len;
	t->members = own(ps, g_array_free(mem, FALSE));
	return ret;
}

/* typealias TYPE := NAME; */
static int parse_typealias(parser *ps)
{
	GString *name;
	ctf_type *t;

	if (next(ps) < 0 || !(t = parse_type(ps)) || expect(ps, ":=") < 0)
		return -1;
	name = g_string_new(NULL);
	while (ps->tok.kind == T_ID) {
		if (name->len)
			g_string_append_c(name, ' ');
		g_string_append_len(name, ps->tok.p, (gssize)ps->tok.len);
		if (next(ps) < 0)
			break;
	}
	if (!name->len) {
		g_string_free(name, TRUE);
		return fail(ps, "typealias: no name after ':='");
	}
	g_hash_table_insert(ps->aliases, own(ps, g_string_free(name, FALSE)), t);
	return expect(ps, ";");
}

/* ---- the blocks ---- */

/* key[.key...] = value; or key[.key] := type; inside a block; *type set
 * for the second form. */
static int parse_assignment(parser *ps, char **key, value *v, ctf_type **type)
{
	GString *k = g_string_new(NULL);

	*type = NULL;
	while (ps->tok.kind == T_ID) {
		g_string_append_len(k, ps->tok.p, (gssize)ps->tok.len);
		if (next(ps) < 0 || !is(ps, "."))
			break;
		g_string_append_c(k, '.');
		if (next(ps) < 0)
			break;
	}
	*key = own(ps, g_string_free(k, FALSE));
	if (ps->failed)
		return -1;
	if (!**key)
		return fail(ps, "expected an attribute name, found '%.*s'", (int)ps->tok.len,
			    ps->tok.kind == T_END ? "end of file" : ps->tok.p);
	if (is(ps, ":=")) {
		if (next(ps) < 0 || !(*type = parse_type(ps)))
			return -1;
		if ((*type)->kind != CTF_STRUCT)
			return fail(ps, "%s: not a struct", *key);
	} else if (expect(ps, "=") < 0 || parse_value(ps, v) < 0) {
		return -1;
	}
	return expect(ps, ";");
}

/* The attributes a block reads by itself: a number or a struct stored at
 * an offset of the block's object, or a key it knows and ignores. */
typedef struct attr {
	const char *key;
	enum { A_NUM, A_TYPE, A_IGNORE } kind;
	size_t off;
} attr;

/* The other attributes, given to fn as they are read. */
typedef int (*attr_fn)(parser *ps, void *ctx, const char *key, const value *v);

/* BLOCK { key = value; key := type; ... }; into the object ctx: the name
 * (of a clock or an event) into *name when name is not NULL, the keys of
 * attrs as they say, the rest to fn (NULL: an unknown attribute). */
static int parse_block(parser *ps, const char *block, char **name, const attr *attrs,
		       attr_fn fn, void *ctx)
{
	if (next(ps) < 0 || expect(ps, "{") < 0)
		return -1;
	while (!is(ps, "}")) {
		const attr *a = attrs;
		char *key;
		value v;
		ctf_type *type;

		if (parse_assignment(ps, &key, &v, &type) < 0)
			return -1;
		while (a && a->key && strcmp(a->key, key))
			a++;
		if (name && !strcmp(key, "name")) {
			if (v.kind != T_STR && v.kind != T_ID)
				return fail(ps, "%s: name is not a name", block);
			*name = v.s;
		} else if (a && a->key && a->kind == A_NUM) {
			if (v.kind != T_NUM || v.negative)
				return fail(ps, "%s: %s is not a number", block, key);
			memcpy((char *)ctx + a->off, &v.num, sizeof(v.num));
		} else if (a && a->key && a->kind == A_TYPE) {
			if (!type)
				return fail(ps, "%s: %s is not given a struct (:=)", block, key);
			memcpy((char *)ctx + a->off, &type, sizeof(type));
		} else if (!(a && a->key) &&
			   (!fn || type || fn(ps, ctx, key, &v) < 0)) {
			return ps->failed ? -1 : fail(ps, "%s: unknown attribute '%s'", block, key);
		}
	}
	return next(ps) < 0 ? -1 : expect(ps, ";");
}

static int trace_attr(parser *ps, void *ctx, const char *key, const value *v)
{
	if (!strcmp(key, "byte_order"))
		return byte_order(ps, v, &ps->m->big_endian);
	if (strcmp(key, "major"))
		return -1;
	if (v->kind != T_NUM || v->num != 1)
		return fail(ps, "trace: CTF major version %" PRIu64 " (1.8 is read)", v->num);
	return 0;
}

/* Every attribute of env is allowed; the domain is kept. */
static int env_attr(parser *ps, void *ctx, const char *key, const value *v)
{
	if (!strcmp(key, "domain") && v->kind == T_STR)
		ps->m->domain = v->s;
	return 0;
}

static int clock_attr(parser *ps, void *ctx, const char *key, const value *v)
{
	ctf_clock *c = ctx;

	if (strcmp(key, "freq") && strcmp(key, "offset_s") && strcmp(key, "offset"))
		return -1;
	if (v->kind != T_NUM)
		return fail(ps, "clock: %s is not a number", key);
	if (!strcmp(key, "freq")) {
		if (v->negative || v->num == 0 || v->num > (1ULL << 44))
			return fail(ps, "clock: impossible frequency %" PRIu64, v->num);
		c->freq = v->num;
	} else if (!v->negative && v->num > (uint64_t)INT64_MAX) {
		return fail(ps, "clock: %s past the 64-bit range", key);
	} else if (!strcmp(key, "offset")) {
		c->offset = value_int(v);
	} else {
		c->offset_s = value_int(v);
	}
	return 0;
}

static int parse_trace(parser *ps)
{
	static const attr attrs[] = {
		{ "packet.header", A_TYPE, offsetof(ctf_meta, packet_header) },
		{ "minor", A_IGNORE, 0 }, { "uuid", A_IGNORE, 0 }, { NULL, A_IGNORE, 0 },
	};

	return parse_block(ps, "trace", NULL, attrs, trace_attr, ps->m);
}

static int parse_env(parser *ps)
{
	return parse_block(ps, "env", NULL, NULL, env_attr, NULL);
}

static int parse_clock(parser *ps)
{
	static const attr attrs[] = {
		{ "uuid", A_IGNORE, 0 }, { "description", A_IGNORE, 0 },
		{ "precision", A_IGNORE, 0 }, { "absolute", A_IGNORE, 0 },
		{ NULL, A_IGNORE, 0 },
	};
	ctf_clock *c = own(ps, g_new0(ctf_clock, 1));

	c->freq = 1000000000;
	if (ps->m->clock)
		return fail(ps, "clock: a second clock (one is read)");
	if (parse_block(ps, "clock", &c->name, attrs, clock_attr, c) < 0)
		return -1;
	if (!c->name)
		return fail(ps, "clock: no name");
	ps->m->clock = c;
	return 0;
}

static int parse_stream(parser *ps)
{
	static const attr attrs[] = {
		{ "id", A_NUM, offsetof(ctf_stream_class, id) },
		{ "event.header", A_TYPE, offsetof(ctf_stream_class, event_header) },
		{ "packet.context", A_TYPE, offsetof(ctf_stream_class, packet_context) },
		{ "event.context", A_TYPE, offsetof(ctf_stream_class, event_context) },
		{ NULL, A_IGNORE, 0 },
	};
	ctf_stream_class *s = own(ps, g_new0(ctf_stream_class, 1));

	if (parse_block(ps, "stream", NULL, attrs, NULL, s) < 0)
		return -1;
	if (ltt_ctf_meta_stream(ps->m, s->id))
		return fail(ps, "stream: id %" PRIu64 " declared twice", s->id);
	s->events = g_ptr_array_new();
	s->by_id = g_hash_table_new(g_int64_hash, g_int64_equal);
	g_ptr_array_add(ps->m->streams, s);
	return 0;
}

static int parse_event(parser *ps)
{
	static const attr attrs[] = {
		{ "id", A_NUM, offsetof(ctf_event_class, id) },
		{ "stream_id", A_NUM, offsetof(ctf_event_class, stream_id) },
		{ "fields", A_TYPE, offsetof(ctf_event_class, fields) },
		{ "context", A_TYPE, offsetof(ctf_event_class, context) },
		{ "loglevel", A_IGNORE, 0 }, { "model.emf.uri", A_IGNORE, 0 },
		{ NULL, A_IGNORE, 0 },
	};
	ctf_event_class *e = own(ps, g_new0(ctf_event_class, 1));

	if (parse_block(ps, "event", &e->name, attrs, NULL, e) < 0)
		return -1;
	if (!e->name)
		return fail(ps, "event: no name");
	g_ptr_array_add(ps->m->events, e);
	return 0;
}

/* callsite { ... }; (older LTTng-UST): nothing a reader needs */
static int skip_block(parser *ps)
{
	if (next(ps) < 0 || expect(ps, "{") < 0)
		return -1;
	while (!is(ps, "}")) {
		if (ps->tok.kind == T_END)
			return fail(ps, "block: no closing '}'");
		if (next(ps) < 0)
			return -1;
	}
	return next(ps) < 0 ? -1 : expect(ps, ";");
}

static int parse_top(parser *ps)
{
	while (ps->tok.kind != T_END) {
		int r;

		if (is(ps, "typealias"))
			r = parse_typealias(ps);
		else if (is(ps, "trace"))
			r = parse_trace(ps);
		else if (is(ps, "env"))
			r = parse_env(ps);
		else if (is(ps, "clock"))
			r = parse_clock(ps);
		else if (is(ps, "stream"))
			r = parse_stream(ps);
		else if (is(ps, "event"))
			r = parse_event(ps);
		else if (is(ps, "callsite"))
			r = skip_block(ps);
		else if (is(ps, "struct") || is(ps, "enum") || is(ps, "variant")) {
			/* a named declaration at the top: struct NAME { ... }; */
			r = parse_type(ps) ? expect(ps, ";") : -1;
		} else
			r = fail(ps, "unknown construct '%.*s' at the top level (CTF 1.8 as "
				 "LTTng 2.13 writes it is read)", (int)ps->tok.len,
				 ps->tok.p);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* ---- resolving field references: sequence lengths, variant tags ---- */

typedef struct scope {
	const ctf_type *st;		/* a struct being walked */
	unsigned upto;			/* members before this one are visible */
	const struct scope *up;
} scope;

/* The roots a path may start from, in decoding order; NULL if absent. */
typedef struct roots {
	const ctf_type *packet_header, *packet_context, *event_header,
		*stream_context, *event_context, *fields;
} roots;

static ctf_member *find_in(const ctf_type *st, const char *path, unsigned upto)
{
	const char *dot = strchr(path, '.');
	size_t n = dot ? (size_t)(dot - path) : strlen(path);

	for (unsigned i = 0; i < upto && i < st->num_members; i++) {
		ctf_member *m = &st->members[i];
		const char *raw = m->name;

		/* the name written may carry the '_' that the member lost */
		if (!((strlen(raw) == n && !memcmp(raw, path, n)) ||
		      (path[0] == '_' && strlen(raw) == n - 1 && !memcmp(raw, path + 1, n - 1))))
			continue;
		if (!dot)
			return m;
		return m->type->kind == CTF_STRUCT ? find_in(m->type, dot + 1, UINT_MAX) : NULL;
	}
	return NULL;
}

static ctf_member *resolve_path(const char *path, const scope *sc, const roots *r)
{
	static const struct { const char *prefix; size_t off; } abs[] = {
		{ "trace.packet.header.", offsetof(roots, packet_header) },
		{ "stream.packet.context.", offsetof(roots, packet_context) },
		{ "stream.event.header.", offsetof(roots, event_header) },
		{ "stream.event.context.", offsetof(roots, stream_context) },
		{ "event.context.", offsetof(roots, event_context) },
		{ "event.fields.", offsetof(roots, fields) },
	};

	for (unsigned k = 0; k < G_N_ELEMENTS(abs); k++)
		if (g_str_has_prefix(path, abs[k].prefix)) {
			const ctf_type *root = *(const ctf_type *const *)((const char *)r + abs[k].off);

			return root ? find_in(root, path + strlen(abs[k].prefix), UINT_MAX) : NULL;
		}
	for (; sc; sc = sc->up) {
		ctf_member *m = find_in(sc->st, path, sc->upto);

		if (m)
			return m;
	}
	return NULL;
}

static bool is_int_like(const ctf_type *t)
{
	return t->kind == CTF_INT || t->kind == CTF_ENUM;
}

/* Gives every referenced integer a slot and every reference its slot. */
static int resolve(ctf_meta *m, ctf_type *t, const scope *sc, const roots *r,
		   ltt_error **err, int depth)
{
	if (depth > CTF_MAX_DEPTH) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: types nested deeper than %d",
			      t->where, CTF_MAX_DEPTH);
		return -1;
	}
	/* a type shared by many fields is resolved once, where it is first
	 * met: a description of 2^64 values by sharing costs 64 steps */
	if (t->resolved)
		return 0;
	t->resolved = true;
	t->plain = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
		   (t->kind == CTF_INT || t->kind == CTF_ENUM) && !t->big_endian &&
		   !t->clock && (t->bits == 8 || t->bits == 16 || t->bits == 32 ||
				 t->bits == 64);
	if (t->kind == CTF_VARIANT && !t->ref) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: a variant without its tag "
			      "(variant NAME <tag>)", t->where);
		return -1;
	}
	if (t->kind == CTF_SEQUENCE || t->kind == CTF_VARIANT) {
		ctf_member *target = resolve_path(t->ref, sc, r);
		const char *what = t->kind == CTF_SEQUENCE ? "sequence length" : "variant tag";

		if (!target || !is_int_like(target->type) ||
		    (t->kind == CTF_VARIANT && target->type->kind != CTF_ENUM)) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: %s '%s': no %s field "
				      "of that name before it", t->where, what, t->ref,
				      t->kind == CTF_SEQUENCE ? "integer" : "enum");
			return -1;
		}
		if (target->slot < 0)
			target->slot = (int)m->num_slots++;
		if (t->ref_slot >= 0 && t->ref_slot != target->slot) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: %s '%s' names different "
				      "fields where the type is used", t->where, what, t->ref);
			return -1;
		}
		t->ref_slot = target->slot;
		if (t->kind == CTF_VARIANT) {
			/* the tag's labels choose the options by name */
			const ctf_type *tag = target->type;

			t->tag = tag;
			t->map_option = g_new(unsigned, tag->num_maps ? tag->num_maps : 1);
			g_ptr_array_add(m->owned, t->map_option);
			for (unsigned k = 0; k < tag->num_maps; k++)
				t->map_option[k] = UINT_MAX;
			for (unsigned i = 0; i < t->num_members; i++) {
				bool found = false;

				for (unsigned k = 0; k < tag->num_maps; k++)
					if (!strcmp(tag->maps[k].label, t->members[i].name) ||
					    (tag->maps[k].label[0] == '_' &&
					     !strcmp(tag->maps[k].label + 1, t->members[i].name))) {
						found = true;
						if (t->map_option[k] == UINT_MAX)
							t->map_option[k] = i;
					}
				if (!found) {
					ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: variant "
						      "option '%s' is no label of its tag '%s'",
						      t->where, t->members[i].name, t->ref);
					return -1;
				}
			}
		}
	}
	if (t->kind == CTF_ARRAY || t->kind == CTF_SEQUENCE)
		return resolve(m, t->elem, sc, r, err, depth + 1);
	if (t->kind == CTF_STRUCT || t->kind == CTF_VARIANT) {
		for (unsigned i = 0; i < t->num_members; i++) {
			scope inner = { t, i, sc };

			if (resolve(m, t->members[i].type, t->kind == CTF_STRUCT ? &inner : sc,
				    r, err, depth + 1) < 0)
				return -1;
		}
	}
	return 0;
}

/* Members named `name` directly in st, or in the structs and variant
 * options inside it (the event id of a compact header's extended
 * option), get the slot. */
static void give_role(ctf_type *st, const char *name, int slot, int depth)
{
	if (!st || depth > CTF_MAX_DEPTH)
		return;
	for (unsigned i = 0; i < st->num_members; i++) {
		ctf_member *m = &st->members[i];

		if (!strcmp(m->name, name) && is_int_like(m->type))
			m->slot = slot;
		else if (m->type->kind == CTF_STRUCT || m->type->kind == CTF_VARIANT)
			give_role(m->type, name, slot, depth + 1);
	}
}

/* Direct members only: a packet context's fields. */
static void give_top_role(ctf_type *st, const char *name, int slot)
{
	for (unsigned i = 0; st && i < st->num_members; i++)
		if (!strcmp(st->members[i].name, name) && is_int_like(st->members[i].type))
			st->members[i].slot = slot;
}

static int check_and_resolve(ctf_meta *m, ltt_error **err)
{
	m->num_slots = CTF_SLOT_FIRST_FREE;
	give_top_role(m->packet_header, "magic", CTF_SLOT_MAGIC);
	give_top_role(m->packet_header, "stream_id", CTF_SLOT_STREAM_ID);
	if (m->packet_header) {
		roots r = { .packet_header = m->packet_header };

		if (resolve(m, m->packet_header, NULL, &r, err, 0) < 0)
			return -1;
	}
	for (guint i = 0; i < m->streams->len; i++) {
		ctf_stream_class *s = m->streams->pdata[i];
		roots r = { m->packet_header, s->packet_context, s->event_header,
			    s->event_context, NULL, NULL };

		give_top_role(s->packet_context, "timestamp_begin", CTF_SLOT_TS_BEGIN);
		give_top_role(s->packet_context, "timestamp_end", CTF_SLOT_TS_END);
		give_top_role(s->packet_context, "content_size", CTF_SLOT_CONTENT_SIZE);
		give_top_role(s->packet_context, "packet_size", CTF_SLOT_PACKET_SIZE);
		give_top_role(s->packet_context, "events_discarded", CTF_SLOT_DISCARDED);
		give_top_role(s->packet_context, "packet_seq_num", CTF_SLOT_SEQ_NUM);
		give_top_role(s->packet_context, "cpu_id", CTF_SLOT_CPU_ID);
		give_role(s->event_header, "id", CTF_SLOT_EVENT_ID, 0);
		if ((s->packet_context && resolve(m, s->packet_context, NULL, &r, err, 0) < 0) ||
		    (s->event_header && resolve(m, s->event_header, NULL, &r, err, 0) < 0) ||
		    (s->event_context && resolve(m, s->event_context, NULL, &r, err, 0) < 0))
			return -1;
	}
	if (m->streams->len == 0) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: no stream declared", m->path);
		return -1;
	}
	for (guint i = 0; i < m->events->len; i++) {
		ctf_event_class *e = m->events->pdata[i];
		ctf_stream_class *s = ltt_ctf_meta_stream(m, e->stream_id);
		roots r;

		if (!s) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: event %s: stream_id %"
				      PRIu64 " is no stream declared", m->path, e->name,
				      e->stream_id);
			return -1;
		}
		r = (roots){ m->packet_header, s->packet_context, s->event_header,
			     s->event_context, e->context, e->fields };
		if ((e->context && resolve(m, e->context, NULL, &r, err, 0) < 0) ||
		    (e->fields && resolve(m, e->fields, NULL, &r, err, 0) < 0))
			return -1;
		if (g_hash_table_lookup(s->by_id, &e->id)) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: event %s: id %" PRIu64
				      " of stream %" PRIu64 " declared twice", m->path,
				      e->name, e->id, s->id);
			return -1;
		}
		g_hash_table_insert(s->by_id, &e->id, e);
		g_ptr_array_add(s->events, e);
	}
	for (guint i = 0; i < m->streams->len; i++) {
		ctf_stream_class *s = m->streams->pdata[i];

		if (!s->event_header && s->events->len > 1) {
			ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: stream %" PRIu64 " has "
				      "%u events and no event header to tell them apart",
				      m->path, s->id, s->events->len);
			return -1;
		}
		if (s->events->len == 1)
			s->single = s->events->pdata[0];
	}
	return 0;
}

ctf_stream_class *ltt_ctf_meta_stream(const ctf_meta *m, uint64_t id)
{
	for (guint i = 0; i < m->streams->len; i++) {
		ctf_stream_class *s = m->streams->pdata[i];

		if (s->id == id)
			return s;
	}
	return NULL;
}

void ltt_ctf_meta_free(ctf_meta *m)
{
	if (!m)
		return;
	for (guint i = 0; i < m->streams->len; i++) {
		ctf_stream_class *s = m->streams->pdata[i];

		if (s->events)
			g_ptr_array_free(s->events, TRUE);
		if (s->by_id)
			g_hash_table_destroy(s->by_id);
	}
	g_ptr_array_free(m->streams, TRUE);
	g_ptr_array_free(m->events, TRUE);
	g_ptr_array_free(m->owned, TRUE);
	g_ptr_array_free(m->where, TRUE);
	g_free(m->path);
	g_free(m);
}

ctf_meta *ltt_ctf_meta_parse(const uint8_t *data, size_t len, const char *origin,
			     ltt_error **err)
{
	ctf_meta *m = g_new0(ctf_meta, 1);
	parser ps = { .m = m, .line = 1, .err = err };
	char *text = NULL;
	size_t text_len = len;
	uint32_t magic = 0;

	m->path = g_strdup(origin);
	m->streams = g_ptr_array_new();
	m->events = g_ptr_array_new();
	m->owned = g_ptr_array_new_with_free_func(g_free);
	m->where = g_ptr_array_new_with_free_func(g_free);
	if (len > CTF_MAX_METADATA) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: %zu bytes of metadata (at most %u "
			      "are read)", origin, len, CTF_MAX_METADATA);
		goto fail;
	}
	if (len >= 4)
		memcpy(&magic, data, 4);
	if (magic == META_PACKET_MAGIC) {
		text = unpacketize(data, len, origin, &text_len, err);
		if (!text)
			goto fail;
	} else {
		text = g_strndup((const char *)data, len);
	}
	if (memchr(text, '\0', text_len)) {
		ltt_set_error(err, LTT_ERROR_DESCRIPTION, "%s: a NUL byte in the metadata "
			      "text (not TSDL)", origin);
		goto fail;
	}
	ps.text = ps.cur = text;
	ps.end = text + text_len;
	ps.aliases = g_hash_table_new(g_str_hash, g_str_equal);
	ps.structs = g_hash_table_new(g_str_hash, g_str_equal);
	ps.enums = g_hash_table_new(g_str_hash, g_str_equal);
	ps.variants = g_hash_table_new(g_str_hash, g_str_equal);
	ps.native = g_ptr_array_new();
	if (next(&ps) == 0)
		parse_top(&ps);
	for (guint i = 0; i < ps.native->len; i++)
		((ctf_type *)ps.native->pdata[i])->big_endian = m->big_endian;
	g_ptr_array_free(ps.native, TRUE);
	g_hash_table_destroy(ps.aliases);
	g_hash_table_destroy(ps.structs);
	g_hash_table_destroy(ps.enums);
	g_hash_table_destroy(ps.variants);
	if (ps.failed || check_and_resolve(m, err) < 0)
		goto fail;
	g_free(text);
	return m;
fail:
	g_free(text);
	ltt_ctf_meta_free(m);
	return NULL;
}

ctf_meta *ltt_ctf_meta_load(const char *path, ltt_error **err)
{
	GError *gerr = NULL;
	gchar *data;
	gsize len;
	ctf_meta *m;

	if (!g_file_get_contents(path, &data, &len, &gerr)) {
		ltt_set_error(err, LTT_ERROR_IO, "%s", gerr->message);
		g_error_free(gerr);
		return NULL;
	}
	m = ltt_ctf_meta_parse((const uint8_t *)data, len, path, err);
	g_free(data);
	return m;
}
