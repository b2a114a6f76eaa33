/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_genevent.c - the functions genevent generates, compiled in user
 * space against a test double of the kernel's payload helpers
 * (tests/genevent-shim), produce payloads that libltttrace decodes to the
 * values passed, routed to the channels the XML names; with no active
 * trace they record nothing.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ltt/ltt-facility-fs.h>
#include <linux/ltt/ltt-facility-kernel.h>
#include <linux/ltt/ltt-facility-kernel_arch.h>
#include <linux/ltt/ltt-facility-process.h>
#include <linux/ltt/ltt-facility-statedump.h>
#include <linux/ltt/ltt-facility-user_generic.h>

#include "ltt-writer.h"
#include "ltttrace.h"
#include "tap.h"

/* the generated loaders, compiled here */
#include "ltt-facility-loader-fs.c"
#include "ltt-facility-loader-kernel.c"
#include "ltt-facility-loader-kernel_arch.c"
#include "ltt-facility-loader-process.c"
#include "ltt-facility-loader-statedump.c"
#include "ltt-facility-loader-user_generic.c"

struct ltt_traces ltt_traces;

typedef struct logged {
	const struct ltt_trace *only;
	enum ltt_channels chan;
	u8 fac, ev;
	size_t len;
	char payload[1024];
} logged;

static logged events[64];
static unsigned nevents;
static struct ltt_facility *registered[16];
static unsigned nregistered;

void ltt_log_event(struct ltt_trace *only, enum ltt_channels chan, u8 fac,
		   u8 ev, const void *payload, size_t len)
{
	logged *l = &events[nevents++];

	l->only = only;
	l->chan = chan;
	l->fac = fac;
	l->ev = ev;
	l->len = len < sizeof(l->payload) ? len : sizeof(l->payload);
	if (len)
		memcpy(l->payload, payload, l->len);
}

int ltt_facility_register(struct ltt_facility *f)
{
	f->id = 2 + (int)nregistered;	/* 0: core, 1: channel */
	registered[nregistered++] = f;
	return f->id;
}

static const char *channel_file(enum ltt_channels c)
{
	switch (c) {
	case LTT_CHANNEL_INTERRUPTS: return "control/interrupts";
	case LTT_CHANNEL_PROCESSES: return "control/processes";
	case LTT_CHANNEL_FACILITIES: return "control/facilities";
	default: return "cpu";
	}
}

int main(void)
{
	char *dir = g_dir_make_tmp("ltt-genevent-XXXXXX", NULL);
	char *trace_dir = g_build_filename(dir, "t", NULL);
	lttw_config c;
	lttw_trace *w;
	lttw_file *fac, *files[LTT_CHANNEL_CPU + 1] = { 0 };
	ltt_trace *t;
	ltt_iter *it;
	const ltt_event *ev;
	ltt_error *err = NULL;
	unsigned seen = 0, right_file = 0;
	char buf[512];
	GString *all = g_string_new(NULL);

	shim_initcall_ltt_facility_fs_init();
	shim_initcall_ltt_facility_kernel_init();
	shim_initcall_ltt_facility_kernel_arch_init();
	shim_initcall_ltt_facility_process_init();
	shim_initcall_ltt_facility_statedump_init();
	shim_initcall_ltt_facility_user_generic_init();
	is_int(nregistered, 6, "every generated loader registers its facility");
	is_int(ltt_facility_process.checksum, 0x200AF68E, "process checksum from the XML");

	ltt_traces.num_active_traces = 0;
	trace_process_fork(1, 2, 3);
	is_int(nevents, 0, "no active trace: nothing is written");

	ltt_traces.num_active_traces = 1;
	trace_process_fork(100, 200, 200);
	trace_process_schedchange(200, 100, 1);
	trace_kernel_arch_syscall_entry(59, (const void *)0x401000);
	trace_kernel_arch_syscall_exit(-2);
	trace_kernel_irq_entry(14, 1);
	trace_kernel_irq_exit();
	trace_kernel_tasklet_entry((const void *)0xffffffff81000000, 42);
	trace_fs_exec(7, (const unsigned char *)"/bin/ls");
	trace_fs_read(3, 4096);
	trace_fs_open(4, 9, (const unsigned char *)"/etc/motd");
	trace_statedump_interrupt(1, "i8042");
	trace_user_generic_string("hello");
	is_int(nevents, 12, "each call writes one event");
	ok(events[0].only == NULL, "trace_F_E() writes into every active trace (NULL)");
	/* trace_F_E_to(): into the one trace given (the state dump at start) */
	trace_statedump_statedump_end_to((struct ltt_trace *)&c);
	ok(nevents == 13 && events[12].only == (const struct ltt_trace *)&c &&
	   events[12].chan == LTT_CHANNEL_PROCESSES,
	   "trace_F_E_to(trace) writes into that trace only, on the XML's channel");
	nevents--;	/* not part of the decoded trace below */

	/* write what was logged into a real trace and read it back */
	lttw_config_default(&c);
	w = lttw_trace_create(trace_dir, &c);
	fac = lttw_file_open(w, "control/facilities", 0, 0);
	lttw_facility_load(fac, c.start_tsc, "core", 0x1A8DE486, 0, 1);
	for (unsigned i = 0; i < nregistered; i++) {
		/* an architecture's facility: its file for the trace's
		 * architecture (the writer's default, x86_64) */
		char *xml = g_str_has_suffix(registered[i]->name, "_arch")
			? g_strdup_printf("facilities/%s_x86_64.xml", registered[i]->name)
			: g_strdup_printf("facilities/%s.xml", registered[i]->name);

		lttw_eventdef_copy(w, xml);
		lttw_facility_load(fac, c.start_tsc, registered[i]->name,
				   registered[i]->checksum, (unsigned)registered[i]->id, 1);
		g_free(xml);
	}
	for (unsigned i = 0; i < nevents; i++) {
		lttw_file **f = &files[events[i].chan];

		if (!*f)
			*f = events[i].chan == LTT_CHANNEL_FACILITIES ? fac
			     : lttw_file_open(w, channel_file(events[i].chan), 0, 0);
		lttw_event(*f, c.start_tsc + 10 + i, events[i].fac, events[i].ev,
			   events[i].payload, events[i].len);
	}
	ok(lttw_trace_close(w) == 0, "the payloads are written into a trace");

	t = ltt_trace_open(trace_dir, NULL, &err);
	ok(t != NULL, "the trace opens%s%s", err ? ": " : "", err ? ltt_error_message(err) : "");
	it = t ? ltt_iter_new(&t, 1, &err) : NULL;
	while (it && ltt_iter_next(it, &ev, &err) > 0) {
		const char *file = ltt_tracefile_name(ltt_event_tracefile(ev));

		if (strcmp(ltt_event_facility_name(ev), "core") == 0)
			continue;
		seen++;
		ltt_event_format_fields(ev, LTT_FORMAT_NAMES, buf, sizeof(buf));
		g_string_append_printf(all, "%s.%s@%s { %s }\n", ltt_event_facility_name(ev),
				       ltt_event_name(ev), file, buf);
		if ((strcmp(ltt_event_facility_name(ev), "process") == 0 &&
		     strcmp(file, "control/processes") == 0) ||
		    (strncmp(ltt_event_name(ev), "irq_", 4) == 0 &&
		     strcmp(file, "control/interrupts") == 0) ||
		    (strcmp(ltt_event_name(ev), "interrupt") == 0 &&
		     strcmp(file, "control/interrupts") == 0) ||
		    ((strcmp(ltt_event_facility_name(ev), "fs") == 0 ||
		      strcmp(ltt_event_facility_name(ev), "user_generic") == 0 ||
		      strncmp(ltt_event_name(ev), "sys", 3) == 0 ||
		      strncmp(ltt_event_name(ev), "tasklet", 7) == 0) &&
		     strcmp(file, "cpu") == 0))
			right_file++;
	}
	is_int(seen, 12, "all events decode");
	is_int(right_file, 12, "each event is in the channel its XML names");
#define HAS(s, what) ok(strstr(all->str, s) != NULL, what ": %s", s)
	HAS("process.fork@control/processes { parent_pid = 100, child_pid = 200, child_tgid = 200 }", "uint fields");
	HAS("process.schedchange@control/processes { out = 200, in = 100, out_state = INTERRUPTIBLE }", "enum by label");
	HAS("kernel_arch.syscall_entry@cpu { syscall_id = 59 [execve], address = 0x401000 }",
	    "an enum of int_size (a system call named by its label) then an aligned pointer");
	HAS("kernel_arch.syscall_exit@cpu { ret = -2 }", "signed long");
	HAS("kernel.irq_entry@control/interrupts { irq_id = 14, mode = kernel }", "an enum of int_size");
	HAS("kernel.tasklet_entry@cpu { func = 0xffffffff81000000, data = 42 }", "pointer and ulong");
	HAS("fs.exec@cpu { filename = \"/bin/ls\" }", "a sequence of uchar, printed as text");
	HAS("fs.read@cpu { fd = 3, count = 4096 }", "uint then size_t");
	HAS("fs.open@cpu { fd = 4, filename = \"/etc/motd\" }", "uint then a sequence of uchar, printed as text");
	HAS("statedump.interrupt@control/interrupts { irq_id = 1, action = \"i8042\" }", "event-level channel");
	HAS("user_generic.string@cpu { data = \"hello\" }", "user_generic");
	if (tap_failed)
		printf("# decoded:\n%s", all->str);
	ltt_iter_free(it);
	ltt_trace_close(t);
	ltt_error_free(err);
	g_string_free(all, TRUE);
	tap_remove_tree(dir);
	g_free(trace_dir);
	g_free(dir);
	return tap_done();
}
