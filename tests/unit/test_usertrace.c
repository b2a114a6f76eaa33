/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_usertrace.c - libltt-usertrace on the host: the description sent
 * to the kernel, the payload layout of the functions `genevent --user`
 * generates (captured, written into a trace with the test writer and
 * decoded by libltttrace to the values passed), and no system call on a
 * kernel without LTT.
 */
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* capture what the generated functions would hand to the kernel */
#define ltt_usertrace_write_payload capture_payload
#include "ltt-user-facility-usertrace_example.h"
#undef ltt_usertrace_write_payload

#include "ltt-writer.h"
#include "ltttrace.h"
#include "tap.h"

static struct {
	unsigned ev;
	size_t len;
	unsigned char data[2048];
} cap[8];
static unsigned ncap;

int capture_payload(struct ltt_usertrace_facility *f, unsigned int event,
		    const struct ltt_payload *p)
{
	if (p->overflow || ncap == G_N_ELEMENTS(cap) || p->len > sizeof(cap[0].data))
		return -EOVERFLOW;
	cap[ncap].ev = event;
	cap[ncap].len = p->len;
	memcpy(cap[ncap].data, p->data, p->len);
	ncap++;
	return 0;
}

static void test_info(void)
{
	struct ltt_usertrace_facility f = LTT_USERTRACE_FACILITY_INIT("abc", 0xDEADBEEF, 3);
	struct ltt_usertrace_facility lng = LTT_USERTRACE_FACILITY_INIT(
		"a_name_of_seventy_characters_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 1, 1);
	struct ltt_user_facility_info i;

	is_int(sizeof(i), 80, "struct ltt_user_facility_info is 80 bytes");
	memset(&i, 0x55, sizeof(i));
	ltt_usertrace_info(&f, &i);
	ok(strcmp(i.name, "abc") == 0 && i.checksum == 0xDEADBEEF && i.num_events == 3,
	   "info: name, checksum, number of events");
	ok(i.int_size == sizeof(int) && i.long_size == sizeof(long) &&
	   i.pointer_size == sizeof(void *) && i.size_t_size == sizeof(size_t) &&
	   i.alignment == sizeof(void *), "info: the program's type sizes and alignment");
	ok(!i.reserved[0] && !i.reserved[1] && !i.reserved[2] && !i.name[63],
	   "info: reserved bytes and the rest of the name are 0");
	ltt_usertrace_info(&lng, &i);
	ok(memchr(i.name, 0, sizeof(i.name)) == NULL,
	   "info: a name too long is sent unterminated (the kernel says ENAMETOOLONG)");
}

static void test_layout(void)
{
	unsigned char b[24];
	struct ltt_payload p = { .data = b, .cap = sizeof(b) };
	uint8_t c = 1;
	uint32_t u = 2;
	uint64_t q = 3;

	ltt_payload_put(&p, &c, 1, 1);
	ltt_payload_put(&p, &u, 4, 4);
	is_int(p.len, 8, "a u32 after a u8 is aligned to 4");
	ltt_payload_put(&p, &c, 1, 1);
	ltt_payload_put(&p, &q, 8, 8);
	is_int(p.len, sizeof(void *) == 8 ? 24 : 20, "a u64 is aligned to min(8, sizeof(void *))");
	ltt_payload_put(&p, &q, 8, 8);
	ok(p.overflow && p.len == (sizeof(void *) == 8 ? 24u : 20u),
	   "a field past the buffer sets overflow and writes nothing");
}

int main(void)
{
	char *dir = g_dir_make_tmp("ltt-usertrace-XXXXXX", NULL);
	char *trace_dir = g_build_filename(dir, "t", NULL);
	uint32_t values[3] = { 7, 8, 4000000000u };
	char longword[400];
	lttw_config c;
	lttw_trace *w;
	lttw_file *fac, *cpu;
	ltt_trace *t;
	ltt_iter *it;
	const ltt_event *ev;
	ltt_error *err = NULL;
	char buf[1024];
	GString *all = g_string_new(NULL);

	test_info();
	test_layout();

	ok(trace_usertrace_example_hello(1, -1000, -1, "hello 1", 3, values) == 0 &&
	   trace_usertrace_example_tick(42, "") == 0 &&
	   trace_usertrace_example_child(-7) == 0, "the generated functions lay their payloads out");
	memset(longword, 'w', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	ok(trace_usertrace_example_tick(43, longword) == 0, "a string longer than 256 is cut");
	is_int(ncap, 4, "one payload per call");
	is_int(cap[2].len, 4, "child: one int");

	lttw_config_default(&c);
	c.alignment = sizeof(void *);
	w = lttw_trace_create(trace_dir, &c);
	fac = lttw_file_open(w, "control/facilities", 0, 0);
	cpu = lttw_file_open(w, "cpu", 0, 0);
	lttw_facility_load(fac, c.start_tsc, "core", 0x1A8DE486, 0, 1);
	lttw_eventdef_copy(w, "libltt-usertrace/examples/usertrace_example.xml");
	lttw_facility_load(fac, c.start_tsc, "usertrace_example",
			   LTT_FACILITY_USERTRACE_EXAMPLE_CHECKSUM, 9, 0);
	for (unsigned i = 0; i < ncap; i++)
		lttw_event(cpu, c.start_tsc + 10 + i, 9, (uint8_t)cap[i].ev, cap[i].data, cap[i].len);
	ok(lttw_trace_close(w) == 0, "the payloads are written into a trace");

	t = ltt_trace_open(trace_dir, NULL, &err);
	ok(t != NULL, "the trace opens%s%s", err ? ": " : "", err ? ltt_error_message(err) : "");
	it = t ? ltt_iter_new(&t, 1, &err) : NULL;
	while (it && ltt_iter_next(it, &ev, &err) > 0) {
		if (strcmp(ltt_event_facility_name(ev), "core") == 0)
			continue;
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
		g_string_append_printf(all, "%s.%s { %s }\n", ltt_event_facility_name(ev),
				       ltt_event_name(ev), buf);
	}
	ok(err == NULL, "decoded without error%s%s", err ? ": " : "", err ? ltt_error_message(err) : "");
#define HAS(s, what) ok(strstr(all->str, s) != NULL, what ": %s", s)
	HAS("usertrace_example.hello { count = 1, delta = -1000, small = -1, word = \"hello 1\", "
	    "values = [ 7, 8, 4000000000 ] }", "uint, s64, short, string, sequence");
	HAS("usertrace_example.tick { seq = 42, pad = \"\" }", "empty string");
	HAS("usertrace_example.child { parent = -7 }", "int");
	ok(strstr(all->str, "usertrace_example.tick { seq = 43, pad = \"www") != NULL &&
	   strlen(strstr(all->str, "seq = 43")) > 256, "the cut string decodes");
	if (tap_failed)
		printf("# decoded:\n%s", all->str);

	if (ltt_usertrace_available()) {
		ok(1, "# SKIP the host kernel has LTT (relayfs): -ENOSYS not checked");
	} else {
		struct ltt_usertrace_facility f = LTT_USERTRACE_FACILITY_INIT("x", 1, 1);

		ok(ltt_usertrace_register(&f) == -ENOSYS && f.id == -1,
		   "no LTT in the running kernel: -ENOSYS, no system call made");
	}
	ltt_iter_free(it);
	ltt_trace_close(t);
	ltt_error_free(err);
	g_string_free(all, TRUE);
	tap_remove_tree(dir);
	g_free(trace_dir);
	g_free(dir);
	return tap_done();
}
