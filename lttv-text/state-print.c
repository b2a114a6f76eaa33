/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state-print.c - what -s and --process-stats add, from libltttrace's
 * state engine (ltttrace-state.h):
 *
 *   -s                 after "cpu N", the task running on that CPU once the
 *                      event is applied:  pid 2404 tgid 2404 "bash" SYSCALL
 *   --process-stats    after the events, CPU time per process and mode
 */
#include <inttypes.h>
#include <stdlib.h>

#include "lttv-text.h"

void lttv_state_print_line(const lttv_options *o, const ltt_state *st, const ltt_event *ev)
{
	FILE *out = o->out;
	int i = ltt_state_cpu_process(st, ltt_event_cpu(ev));
	ltt_state_process_info pi;

	if (i < 0 || ltt_state_process(st, (unsigned)i, &pi) < 0) {
		fputs(" pid ? tgid ? \"\" MODE_UNKNOWN", out);
		return;
	}
	fprintf(out, " pid %u tgid %u \"%s\" %s", lttv_pid_shown(o, pi.pid),
		lttv_pid_shown(o, pi.tgid), ltt_text_safe(pi.name),
		ltt_state_mode_name(pi.mode));
}

static void print_s(FILE *out, uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, ns / 1000000000,
		 ns % 1000000000 / 1000);
	fprintf(out, " %13s", buf);
}

void lttv_state_print_process_stats(const lttv_options *o, const ltt_state *from,
				    int64_t t0, const ltt_state *to, int64_t t1)
{
	FILE *out = o->out;
	ltt_state_cpu_time *rows;
	unsigned n = ltt_state_cpu_times(from, t0, to, t1, &rows);
	uint64_t sum[LTT_STATE_NUM_MODES] = { 0 }, all = 0, idle = 0;

	fprintf(out, "\nCPU time per process (seconds; an idle task's idle loop is idle, "
		"not in its total):\n");
	fprintf(out, "%7s %7s %-16s %13s %13s %13s %13s %13s %13s %13s %13s\n", "pid", "tgid",
		"name", "user", "syscall", "trap", "irq", "softirq", "unknown", "idle", "total");
	for (unsigned r = 0; r < n; r++) {
		fprintf(out, "%7u %7u %-16s", lttv_pid_shown(o, rows[r].pid),
			lttv_pid_shown(o, rows[r].tgid),
			*rows[r].name ? ltt_text_safe(rows[r].name) : "-");
		for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++) {
			print_s(out, rows[r].ns[m]);
			sum[m] += rows[r].ns[m];
		}
		print_s(out, rows[r].idle);
		print_s(out, rows[r].total);
		fputc('\n', out);
		all += rows[r].total;
		idle += rows[r].idle;
	}
	fprintf(out, "%7s %7s %-16s", "", "", "all");
	for (unsigned m = 0; m < LTT_STATE_NUM_MODES; m++)
		print_s(out, sum[m]);
	print_s(out, idle);
	print_s(out, all);
	fputc('\n', out);
	free(rows);
}
