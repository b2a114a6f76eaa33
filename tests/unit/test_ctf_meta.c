/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ctf_meta.c - the TSDL parser of LTTng traces (libltttrace/src/
 * ctf-meta.c) and the decoder (ctf-decode.c) on values written here by
 * hand: what each construct becomes, and each refusal with its line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#include "ctf.h"

#define HEAD "typealias integer { size = 8; align = 8; signed = false; } := u8;\n" \
	     "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"

static ctf_meta *parse(const char *text, ltt_error **err)
{
	*err = NULL;
	return ltt_ctf_meta_parse((const uint8_t *)text, strlen(text), "t.tsdl", err);
}

/* the error of text, NULL if it parses */
static char *refusal(const char *text)
{
	ltt_error *err;
	ctf_meta *m = parse(text, &err);
	char *msg = err ? g_strdup(ltt_error_message(err)) : NULL;

	ltt_ctf_meta_free(m);
	ltt_error_free(err);
	return msg;
}

static void refused(const char *what, const char *text, const char *want)
{
	char *msg = refusal(text);

	if (!ok(msg && strstr(msg, want), "refused: %s", what))
		printf("#   got \"%s\"\n#  want \"...%s...\"\n", msg ? msg : "(parsed)", want);
	g_free(msg);
}

static const ctf_member *member(const ctf_type *st, const char *name)
{
	for (unsigned i = 0; st && i < st->num_members; i++)
		if (!strcmp(st->members[i].name, name))
			return &st->members[i];
	return NULL;
}

static void types(void)
{
	ltt_error *err;
	ctf_meta *m = parse(
		HEAD
		"typealias integer { size = 13; align = 1; signed = true; base = x; } := s13;\n"
		"trace { major = 1; minor = 8; byte_order = be; };\n"
		"clock { name = c; freq = 500000000; offset_s = -3; offset = 7; };\n"
		"typealias integer { size = 27; map = clock.c.value; } := ts27;\n"
		"stream { id = 0; event.header := struct { u8 id; ts27 timestamp; }; };\n"
		"event { name = \"p:e\"; id = 3; fields := struct {\n"
		"  s13 _a; u8 _n; u32 _seq[_n]; integer { size = 8; encoding = UTF8; } _txt[4];\n"
		"  enum : u8 { A, B = 5 ... 9, C } _tag;\n"
		"  variant <_tag> { u8 A; string B; struct { } C; } _v;\n"
		"  floating_point { exp_dig = 11; mant_dig = 53; byte_order = le; } _d;\n"
		"}; };\n", &err);
	const ctf_event_class *e;
	const ctf_member *a, *seq, *tag, *v, *d;

	ok(m != NULL, "the subset parses (%s)", err ? ltt_error_message(err) : "");
	if (!m) {
		ltt_error_free(err);
		return;
	}
	e = m->events->pdata[0];
	is_str(e->name, "p:e", "the event's name");
	is_int(e->id, 3, "its id");
	is_int(m->clock->freq, 500000000, "the clock's frequency");
	is_int(m->clock->offset_s, -3, "a negative offset_s");
	a = member(e->fields, "a");
	ok(a != NULL, "one leading '_' of a field's name goes");
	if (a) {
		is_int(a->type->bits, 13, "13 bits");
		is_int(a->type->align, 1, "align 1");
		ok(a->type->is_signed && a->type->base == 16, "signed, base 16");
		ok(a->type->big_endian, "declared before the trace block: the trace's byte order");
	}
	seq = member(e->fields, "seq");
	ok(seq && seq->type->kind == CTF_SEQUENCE && seq->type->ref_slot >= 0 &&
	   member(e->fields, "n")->slot == seq->type->ref_slot,
	   "a sequence's length resolved to its field's slot");
	ok(member(e->fields, "txt") && ltt_ctf_is_text(member(e->fields, "txt")->type),
	   "an array of UTF8 bytes is text");
	tag = member(e->fields, "tag");
	ok(tag && tag->type->num_maps == 3 && tag->type->maps[1].lo == 5 &&
	   tag->type->maps[1].hi == 9 && tag->type->maps[2].lo == 10,
	   "enum values, a range, and the value after a range");
	v = member(e->fields, "v");
	ok(v && v->type->kind == CTF_VARIANT && v->type->map_option[1] == 1 &&
	   v->type->ref_slot == tag->slot, "a variant's options by its tag's labels");
	d = member(e->fields, "d");
	ok(d && d->type->bits == 64 && !d->type->big_endian, "a double, little-endian as said");
	ok(member(ltt_ctf_meta_stream(m, 0)->event_header, "timestamp")->type->clock,
	   "an integer mapped to the clock");
	ltt_ctf_meta_free(m);
}

/* The decoder on bytes written here: bit fields across bytes in both
 * orders, and the clock's wrap. */
static void decode(void)
{
	ltt_error *err;
	ctf_meta *m = parse(HEAD
		"clock { name = c; };\n"
		"typealias integer { size = 27; align = 1; map = clock.c.value; } := ts27;\n"
		"stream { id = 0; event.header := struct { integer { size = 5; align = 1; } id; ts27 t; }; };\n"
		"event { name = e; fields := struct {\n"
		"  integer { size = 3; align = 1; signed = 1; } _a;\n"
		"  integer { size = 13; align = 1; } _b;\n"
		"  integer { size = 12; align = 1; byte_order = be; } _c; }; };\n", &err);
	ctf_decoder d = { 0 };
	uint8_t buf[16] = { 0 };
	uint64_t slots[CTF_SLOT_FIRST_FREE + 4] = { 0 };
	const ctf_stream_class *sc;
	const ctf_event_class *e;
	int32_t a;
	uint16_t b;
	uint16_t c;

	if (!ok(m != NULL, "the decoder's metadata parses")) {
		ltt_error_free(err);
		return;
	}
	sc = ltt_ctf_meta_stream(m, 0);
	e = m->events->pdata[0];
	/* header: id 5 bits = 3, t 27 bits = 0x10 (LE: from bit 0 up) */
	{
		uint32_t h = 3u | (0x10u << 5);

		memcpy(buf, &h, 4);
	}
	/* payload from bit 32: a = -2 (3 bits, 110), b = 0x1ABC (13 bits) */
	{
		uint32_t w = 6u | (0x1ABCu << 3);

		memcpy(buf + 4, &w, 4);
	}
	/* c: 12 bits big-endian from bit 48: 0xABC -> bytes 0xAB, 0xC0 */
	buf[6] = 0xAB;
	buf[7] = 0xC0;
	d.buf = buf;
	d.end = 64;
	d.slots = slots;
	d.budget = 1000;
	d.clock = ((uint64_t)1 << 27) | 0x7FFFFF0;	/* the previous event, before a wrap */
	d.clock_update = true;
	ok(ltt_ctf_decode(&d, sc->event_header, false) == 0, "the header decodes");
	is_int(slots[CTF_SLOT_EVENT_ID], 3, "its 5-bit id");
	is_int(d.clock, ((uint64_t)2 << 27) | 0x10, "its 27-bit timestamp carried over the wrap");
	d.clock_update = false;
	ok(ltt_ctf_out_reserve(&d, 64) != NULL, "output");
	d.event_start = d.out;
	ok(ltt_ctf_decode(&d, e->fields, true) == 0, "the fields decode");
	is_int(d.out - d.event_start, 1 + 2 + 2, "written as 1, 2 and 2 bytes");
	memcpy(&a, d.event_start, 1);
	is_int((int8_t)d.event_start[0], -2, "a signed 3-bit field, sign-extended");
	memcpy(&b, d.event_start + 1, 2);
	is_int(b, 0x1ABC, "a 13-bit field across three bytes");
	memcpy(&c, d.event_start + 3, 2);
	is_int(c, 0xABC, "a 12-bit big-endian field");
	is_int(d.pos, 60, "the position after them");
	d.end = 58;
	d.pos = 48;
	ok(ltt_ctf_decode(&d, member(e->fields, "c")->type, false) < 0 && d.fail &&
	   strstr(d.fail, "past the end"), "a field past the content is refused: %s",
	   d.fail ? d.fail : "");
	(void)a;
	ltt_ctf_decoder_fini(&d);
	ltt_ctf_meta_free(m);
}

int main(void)
{
	types();
	decode();
	refused("not TSDL", "hello", "t.tsdl:1: unknown construct 'hello'");
	refused("an unknown type", HEAD "stream { id = 0; };\n"
		"event { name = e; fields := struct { bogus _x; }; };", "t.tsdl:4: unknown type 'bogus'");
	refused("an unknown attribute", "typealias integer { size = 8; colour = 1; } := x;",
		"t.tsdl:1: integer: unknown attribute 'colour'");
	refused("a stream attribute unknown", "stream { id = 0; weight = 3; };",
		"stream: unknown attribute 'weight'");
	refused("a number where a struct goes", "stream { event.header = 3; };",
		"stream: event.header is not given a struct (:=)");
	refused("a 65-bit integer", "typealias integer { size = 65; } := x;", "size 65");
	refused("an alignment not a power of two",
		"typealias integer { size = 8; align = 3; } := x;", "align 3");
	refused("half floats", "typealias floating_point { exp_dig = 5; mant_dig = 11; } := h;",
		"exp_dig 5, mant_dig 11");
	refused("a clock mapped before it is declared",
		"typealias integer { size = 8; map = clock.c.value; } := x;", "not declared before");
	refused("CTF 2", "trace { major = 2; };", "CTF major version 2");
	refused("a sequence of a field that does not exist", HEAD "stream { id = 0; };\n"
		"event { name = e; fields := struct { u8 _a[_n]; }; };", "sequence length '_n'");
	refused("a variant option no label names", HEAD "stream { id = 0; };\n"
		"event { name = e; fields := struct { enum : u8 { A } _t; variant <_t> { u8 B; } _v; }; };",
		"option 'B' is no label");
	refused("an event of an undeclared stream", HEAD "stream { id = 0; };\n"
		"event { name = e; stream_id = 4; };", "stream_id 4");
	refused("two events of one id", HEAD "stream { id = 0; event.header := struct { u8 id; }; };\n"
		"event { name = a; }; event { name = b; };", "id 0 of stream 0 declared twice");
	refused("an unclosed comment", "/* x", "comment: no end");
	refused("no stream", HEAD, "no stream declared");
	refused("packetized metadata cut short",
		"\x57\x1d\xd1\x75" "0123456789abcdef", "truncated header");
	{
		GString *deep = g_string_new(HEAD "stream { id = 0; };\nevent { name = e; fields := ");

		for (int i = 0; i < 70; i++)
			g_string_append(deep, "struct { ");
		g_string_append(deep, "u8 x; ");
		for (int i = 0; i < 70; i++)
			g_string_append(deep, "} y; ");
		refused("70 nested structs", deep->str, "nested deeper than 64");
		g_string_free(deep, TRUE);
	}
	return tap_done();
}
