/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_facility.c - facility descriptions: the genevent checksum, every
 * type of the language, and clear errors for malformed XML.
 */
#include <stdlib.h>
#include <string.h>

#include "ltttrace.h"
#include "tap.h"

static ltt_description *parse(const char *xml, ltt_error **err)
{
	return ltt_description_parse(xml, strlen(xml), "test.xml", err);
}

static uint32_t checksum_of(const char *xml)
{
	ltt_description *d = parse(xml, NULL);
	uint32_t c = d ? ltt_description_checksum(d) : 0;

	ltt_description_free(d);
	return c;
}

/* Each malformed description must be refused with a message containing
 * `want` (and, for syntax errors, a line number). */
static void refused(const char *xml, const char *want, const char *what)
{
	ltt_error *err = NULL;
	ltt_description *d = parse(xml, &err);

	ok(d == NULL && err != NULL, "refused: %s", what);
	if (err) {
		ok(strstr(ltt_error_message(err), want) != NULL,
		   "error for %s says \"%s\"", what, want);
		if (!strstr(ltt_error_message(err), want))
			printf("#   message: %s\n", ltt_error_message(err));
		ok(strncmp(ltt_error_message(err), "test.xml: ", 10) == 0,
		   "error for %s names the file", what);
	} else {
		ok(0, "error for %s says \"%s\"", what, want);
		ok(0, "error for %s names the file", what);
	}
	ltt_error_free(err);
	ltt_description_free(d);
}

static void test_core(void)
{
	ltt_error *err = NULL;
	ltt_description *d = ltt_description_load("facilities/core.xml", &err);

	ok(d != NULL, "facilities/core.xml parses%s%s", err ? ": " : "",
	   err ? ltt_error_message(err) : "");
	if (!d)
		return;
	is_int(ltt_description_checksum(d), 0x1A8DE486, "core checksum is the seeds' 0x1A8DE486");
	is_str(ltt_description_name(d), "core", "facility name");
	is_int(ltt_description_num_events(d), 4, "core has 4 events");
	is_str(ltt_description_event_name(d, 0), "facility_load", "event 0");
	is_str(ltt_description_event_name(d, 1), "facility_unload", "event 1");
	is_str(ltt_description_event_name(d, 2), "time_heartbeat", "event 2");
	is_str(ltt_description_event_name(d, 3), "state_dump_facility_load", "event 3");
	ok(ltt_description_event_name(d, 4) == NULL, "no event 4");
	ltt_description_free(d);
}

static const char every_type[] =
	"<facility name=\"t\">\n"
	" <description>all types</description>\n"
	" <type name=\"pair\"><struct>\n"
	"  <field name=\"a\"><int_fixed size=\"2\"/></field>\n"
	"  <field name=\"b\"><uint_fixed size=\"8\"/></field>\n"
	" </struct></type>\n"
	" <event name=\"e\">\n"
	"  <field name=\"i\"><int/></field>\n"
	"  <field name=\"u\"><uint size=\"2\"/></field>\n"
	"  <field name=\"c\"><char/></field><field name=\"uc\"><uchar/></field>\n"
	"  <field name=\"s\"><short/></field><field name=\"us\"><ushort/></field>\n"
	"  <field name=\"l\"><long/></field><field name=\"ul\"><ulong/></field>\n"
	"  <field name=\"p\"><pointer/></field><field name=\"z\"><size_t/></field>\n"
	"  <field name=\"sz\"><ssize_t/></field><field name=\"o\"><off_t/></field>\n"
	"  <field name=\"f\"><float size=\"4\"/></field><field name=\"d\"><float size=\"8\"/></field>\n"
	"  <field name=\"str\"><string/></field>\n"
	"  <field name=\"en\"><enum><label name=\"A\"/><label name=\"B\" value=\"5\"/><label name=\"C\"/></enum></field>\n"
	"  <field name=\"arr\"><array size=\"3\"><uint_fixed size=\"4\"/></array></field>\n"
	"  <field name=\"seq\"><sequence><uint_fixed size=\"1\"/><string/></sequence></field>\n"
	"  <field name=\"un\"><union><field name=\"x\"><uint_fixed size=\"4\"/></field>"
	"<field name=\"y\"><uint_fixed size=\"2\"/></field></union></field>\n"
	"  <field name=\"ref\"><typeref name=\"pair\"/></field>\n"
	" </event>\n"
	"</facility>\n";

static void test_every_type(void)
{
	ltt_error *err = NULL;
	ltt_description *d = parse(every_type, &err);

	ok(d != NULL, "a description with every type parses%s%s", err ? ": " : "",
	   err ? ltt_error_message(err) : "");
	ltt_error_free(err);
	if (d)
		is_int(ltt_description_num_events(d), 1, "one event");
	ltt_description_free(d);
}

static void test_checksum_inputs(void)
{
	const char *base = "<facility name=\"f\"><event name=\"e\"><field name=\"x\"><uint/></field></event></facility>";
	uint32_t c = checksum_of(base);

	ok(c != 0, "checksum of a small facility");
	ok(checksum_of("<facility name=\"g\"><event name=\"e\"><field name=\"x\"><uint/></field></event></facility>") != c,
	   "the facility name is in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"d\"><field name=\"x\"><uint/></field></event></facility>") != c,
	   "event names are in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"y\"><uint/></field></event></facility>") != c,
	   "field names are in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><int/></field></event></facility>") != c,
	   "types are in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><uint format=\"%x\"/></field></event></facility>") != c,
	   "formats are in the checksum");
	is_int(checksum_of("<facility name=\"f\"><description>other words</description><event name=\"e\">"
			   "<description>x</description><field name=\"x\"><description>y</description><uint/></field></event></facility>"), c,
	       "descriptions are not in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><enum><label name=\"A\"/></enum></field></event></facility>") !=
	   checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><enum><label name=\"B\"/></enum></field></event></facility>"),
	   "enum labels are in the checksum");
	ok(checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><array size=\"2\"><uint/></array></field></event></facility>") !=
	   checksum_of("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><array size=\"3\"><uint/></array></field></event></facility>"),
	   "array lengths are in the checksum");
	is_int(checksum_of("<facility name=\"f\"><type name=\"T\"><uint/></type><event name=\"e\"><field name=\"x\"><typeref name=\"T\"/></field></event></facility>"),
	       c, "a typeref sums as the type it names");
}

static void test_malformed(void)
{
	refused("<facility name=\"f\"><event name=\"e\">", "line", "unclosed elements");
	refused("<facility name=\"f\"><bogus/></facility>", "unknown element <bogus>", "an unknown element");
	refused("<facility><event name=\"e\"/></facility>", "no name", "a facility without name");
	refused("<facility name=\"f\"><event/></facility>", "no name", "an event without name");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"></field></event></facility>",
		"has no type", "a field without type");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><int_fixed size=\"3\"/></field></event></facility>",
		"size 1, 2, 4 or 8", "int_fixed of size 3");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><typeref name=\"nope\"/></field></event></facility>",
		"not defined", "an undefined typeref");
	refused("<facility name=\"f\"><type name=\"A\"><typeref name=\"B\"/></type><type name=\"B\"><typeref name=\"A\"/></type>"
		"<event name=\"e\"><field name=\"x\"><typeref name=\"A\"/></field></event></facility>",
		"too deep", "a typeref cycle");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><array><uint/></array></field></event></facility>",
		"needs a size", "an array without size");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><sequence><uint/></sequence></field></event></facility>",
		"needs a length type and an element type", "a sequence with one type");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><uint size=\"abc\"/></field></event></facility>",
		"bad size", "a non-numeric size");
	refused("", "empty", "an empty file");
	refused("<facility name=\"f\"/><facility name=\"g\"/>", "line", "two root elements");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><uint/><int/></field></event></facility>",
		"more than one type", "a field with two types");
	refused("<facility name=\"f\"><event name=\"e\"><field name=\"x\"><struct><uint/></struct></field></event></facility>",
		"need a <field>", "a struct member without field");
}

static void test_load_missing(void)
{
	ltt_error *err = NULL;

	ok(ltt_description_load("/nonexistent/x.xml", &err) == NULL && err,
	   "a missing file is an error");
	ok(err && strstr(ltt_error_message(err), "/nonexistent/x.xml"),
	   "the error names the file");
	ltt_error_free(err);
}

int main(void)
{
	test_core();
	test_every_type();
	test_checksum_inputs();
	test_malformed();
	test_load_missing();
	return tap_done();
}
