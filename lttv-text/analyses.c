/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analyses.c - the answers of libltttrace's analyses (ltttrace-analysis.h)
 * as tables, for people and scripts, after the events:
 *
 *   --syscalls   system-call latency per name       (--by process|cpu|...)
 *   --schedlat   wakeup to switch-in, per process
 *   --irqs       IRQ handlers per line, softirqs per vector
 *   --file-io    reads and writes per file and per process
 *   --cpu-top    CPU time per process and CPU, and busy CPUs over time
 *   --critical-path PID   what that process waited on, and who woke it
 *
 * Durations in microseconds with three decimals (exact nanoseconds),
 * times as the dump prints them. --histogram adds each group's base-2
 * histogram, --worst N the N longest occurrences with their times.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-text.h"

#define out_of(o) ((o)->out)
/* a process label: a pid and a name of LTT_STATE_NAME_MAX bytes, each
 * byte shown as up to 4 characters (\xHH) */
#define LABEL_MAX (32 + 4 * LTT_STATE_NAME_MAX)

/* "12.345": exact ns as us */
static const char *us(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	return buf;
}

static void print_time(FILE *out, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	fprintf(out, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", a / 1000000000,
		a % 1000000000);
}

/* Names from the trace (files, IRQ handlers, system calls from its
 * eventdefs), shown safely. */
static const char *id_name(const ltt_analysis *a, ltt_latency_kind k, uint32_t id)
{
	return ltt_text_safe(ltt_analysis_id_name(a, k, id));
}

/* "2404 bash" (the pid renumbered with --stable; the name shown safely) */
static const char *proc_label(const lttv_options *o, const ltt_analysis *a, int i,
			      char *buf, size_t size)
{
	ltt_state_process_info pi;

	if (i < 0 || ltt_state_process(ltt_analysis_state(a), (unsigned)i, &pi) < 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	snprintf(buf, size, "%u %s", lttv_pid_shown(o, pi.pid), *pi.name ? ltt_text_safe(pi.name) : "-");
	return buf;
}

static const char *group_label(const lttv_options *o, const ltt_analysis *a,
			       ltt_latency_kind k, ltt_group_by by,
			       const ltt_latency_group *g, char *buf, size_t size)
{
	char p[LABEL_MAX];

	switch (by) {
	case LTT_GROUP_ID:
		snprintf(buf, size, "%s", id_name(a, k, g->id));
		break;
	case LTT_GROUP_PROCESS:
		proc_label(o, a, g->process, buf, size);
		break;
	case LTT_GROUP_CPU:
		snprintf(buf, size, "cpu %d", g->cpu);
		break;
	case LTT_GROUP_PROCESS_ID:
		snprintf(buf, size, "%s %s", proc_label(o, a, g->process, p, sizeof(p)),
			 id_name(a, k, g->id));
		break;
	default:
		snprintf(buf, size, "all");
	}
	return buf;
}

static const char *by_name(ltt_group_by by, ltt_latency_kind k)
{
	switch (by) {
	case LTT_GROUP_ID:
		return k == LTT_LATENCY_SYSCALL ? "name" : k == LTT_LATENCY_FILE ? "file"
		       : k == LTT_LATENCY_IRQ ? "line" : "vector";
	case LTT_GROUP_PROCESS: return "process";
	case LTT_GROUP_CPU: return "cpu";
	case LTT_GROUP_PROCESS_ID: return "process and name";
	default: return "all";
	}
}

static void print_histogram(FILE *out, const char *label, const ltt_latency_stats *s)
{
	unsigned lo = LTT_LATENCY_HIST_BUCKETS, hi = 0;
	uint64_t most = 0;

	for (unsigned b = 0; b < LTT_LATENCY_HIST_BUCKETS; b++)
		if (s->hist[b]) {
			if (lo == LTT_LATENCY_HIST_BUCKETS)
				lo = b;
			hi = b;
			if (s->hist[b] > most)
				most = s->hist[b];
		}
	if (!most)
		return;
	fprintf(out, "-- histogram of %s (ns, base-2 buckets) --\n", label);
	for (unsigned b = lo; b <= hi; b++) {
		uint64_t from = b ? (uint64_t)1 << b : 0, to = (uint64_t)1 << (b + 1);
		unsigned bar = (unsigned)((s->hist[b] * 40 + most - 1) / most);

		fprintf(out, "[%12" PRIu64 ", %12" PRIu64 ") %8" PRIu64 " ", from, to, s->hist[b]);
		for (unsigned i = 0; i < bar; i++)
			fputc('#', out);
		fputc('\n', out);
	}
}

static void print_worst(const lttv_options *o, const ltt_analysis *a, ltt_latency_kind k,
			const char *what, int64_t t0, int64_t t1, int64_t origin)
{
	ltt_latency *w;
	size_t n = ltt_analysis_longest(a, k, t0, t1, (size_t)o->worst, &w);
	char b1[32], b2[LABEL_MAX];

	if (n) {
		fprintf(out_of(o), "-- the %zu longest %s --\n", n, what);
		fprintf(out_of(o), "%20s %14s %4s  %-24s %s\n", "start", "duration(us)",
			"cpu", "process", "what");
	}
	for (size_t i = 0; i < n; i++) {
		const ltt_latency *l = &w[i];
		FILE *out = out_of(o);

		fputs("  ", out);
		print_time(out, l->start_ns - origin);
		fprintf(out, " %14s %4u  %-24s ", us(b1, sizeof(b1), l->duration_ns), l->cpu,
			proc_label(o, a, l->process, b2, sizeof(b2)));
		switch (k) {
		case LTT_LATENCY_SCHED:
			fprintf(out, "woken by %s in %s on cpu %u",
				proc_label(o, a, l->waker, b2, sizeof(b2)),
				ltt_state_kind_name((ltt_state_kind)l->waker_kind), l->waker_cpu);
			break;
		case LTT_LATENCY_FILE:
			fprintf(out, "%s %s ret %" PRId64, l->write ? "write" : "read",
				id_name(a, k, l->id), l->ret);
			break;
		case LTT_LATENCY_SYSCALL:
			fprintf(out, "%s ret %" PRId64, id_name(a, k, l->id), l->ret);
			break;
		default:
			fprintf(out, "%s", id_name(a, k, l->id));
		}
		fputc('\n', out);
	}
	free(w);
}

/* One table of latency statistics, its histograms and longest ones. */
static void print_latency(const lttv_options *o, const ltt_analysis *a, ltt_latency_kind k,
			  ltt_group_by by, const char *title, const char *what,
			  int64_t t0, int64_t t1, int64_t origin)
{
	FILE *out = out_of(o);
	ltt_latency_group *g;
	unsigned n = ltt_analysis_groups(a, k, by, t0, t1, &g);
	char lb[2 * LABEL_MAX], b[7][32];
	int file = k == LTT_LATENCY_FILE;

	fprintf(out, "\n== %s by %s (us) ==\n", title, by_name(by, k));
	fprintf(out, "%-28s %8s %12s %12s %12s %12s %12s %12s %14s", by_name(by, k), "count",
		"min", "mean", "p50", "p90", "p99", "max", "total");
	if (file)
		fprintf(out, " %8s %12s %8s %12s", "reads", "bytes_read", "writes",
			"bytes_written");
	fputc('\n', out);
	for (unsigned i = 0; i < n; i++) {
		const ltt_latency_stats *s = g[i].stats;

		/* the label may hold spaces ("2404 bash"): scripts read the
		 * numbers from the right */
		group_label(o, a, k, by, &g[i], lb, sizeof(lb));
		fprintf(out, "%-28s %8" PRIu64 " %12s %12s %12s %12s %12s %12s %14s", lb,
			s->count, us(b[0], 32, s->min), us(b[1], 32, s->mean),
			us(b[2], 32, s->p50), us(b[3], 32, s->p90), us(b[4], 32, s->p99),
			us(b[5], 32, s->max), us(b[6], 32, s->total));
		if (file)
			fprintf(out, " %8" PRIu64 " %12" PRIu64 " %8" PRIu64 " %12" PRIu64,
				g[i].reads, g[i].bytes_read, g[i].writes, g[i].bytes_written);
		fputc('\n', out);
	}
	if (o->histogram)
		for (unsigned i = 0; i < n; i++)
			print_histogram(out, group_label(o, a, k, by, &g[i], lb, sizeof(lb)),
					g[i].stats);
	free(g);
	if (o->worst > 0)
		print_worst(o, a, k, what, t0, t1, origin);
	if (ltt_analysis_unpaired(a, k))
		fprintf(out, "(%" PRIu64 " not paired: begun before the trace or never ended)\n",
			ltt_analysis_unpaired(a, k));
}

static void print_cpu_top(const lttv_options *o, const ltt_analysis *a, int64_t t0,
			  int64_t t1, int64_t origin)
{
	FILE *out = out_of(o);
	const ltt_state *st = ltt_analysis_state(a);
	ltt_analysis_top_row *rows;
	unsigned n, ncpus = ltt_state_num_cpus(st), slices = o->buckets > 0 ? (unsigned)o->buckets : 10;
	char b[32], lb[LABEL_MAX];
	uint64_t span;

	if (t0 < ltt_analysis_first_ns(a))
		t0 = ltt_analysis_first_ns(a);
	if (t1 > ltt_analysis_last_ns(a))
		t1 = ltt_analysis_last_ns(a);
	if (t1 <= t0) {
		fprintf(out, "\n== CPU usage ==\n(no time in the range)\n");
		return;
	}
	span = (uint64_t)(t1 - t0);
	fprintf(out, "\n== CPU usage from ");
	print_time(out, t0 - origin);
	fprintf(out, " to ");
	print_time(out, t1 - origin);
	fprintf(out, " (%s us) ==\n", us(b, sizeof(b), span));
	fprintf(out, "%-8s %14s %7s\n", "cpu", "busy(us)", "%");
	for (unsigned c = 0; c < ncpus; c++) {
		uint64_t busy = ltt_analysis_cpu_busy_ns(a, c, t0, t1);

		fprintf(out, "cpu %-4u %14s %7.2f\n", c, us(b, sizeof(b), busy),
			100.0 * (double)busy / (double)span);
	}
	n = ltt_analysis_cpu_top(a, t0, t1, &rows);
	fprintf(out, "%-28s %14s %7s\n", "process", "cpu(us)", "%");
	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%-28s %14s %7.2f\n",
			proc_label(o, a, (int)rows[i].process, lb, sizeof(lb)),
			us(b, sizeof(b), rows[i].ns), 100.0 * (double)rows[i].ns / (double)span);
	free(rows);
	fprintf(out, "-- %% busy per CPU over time, %u slices --\n%20s", slices, "start");
	for (unsigned c = 0; c < ncpus; c++)
		fprintf(out, "   cpu%-3u", c);
	fputc('\n', out);
	for (unsigned s = 0; s < slices; s++) {
		int64_t a0 = t0 + (int64_t)(span * s / slices);
		int64_t a1 = t0 + (int64_t)(span * (s + 1) / slices);

		fputs("  ", out);
		print_time(out, a0 - origin);
		for (unsigned c = 0; c < ncpus; c++)
			fprintf(out, " %8.2f", a1 > a0 ? 100.0 * (double)ltt_analysis_cpu_busy_ns(a, c, a0, a1) / (double)(a1 - a0) : 0.0);
		fputc('\n', out);
	}
}

/* The IRQ or softirq that woke a blocked task, by name, or NULL. */
static const char *waker_name(const ltt_analysis *a, const ltt_path_segment *sg)
{
	if (sg->waker_id == LTT_WAKER_ID_NONE)
		return NULL;
	if (sg->waker_kind == LTT_STATE_KIND_IRQ)
		return ltt_text_safe(ltt_analysis_id_name(a, LTT_LATENCY_IRQ, sg->waker_id));
	if (sg->waker_kind == LTT_STATE_KIND_SOFTIRQ)
		return ltt_text_safe(ltt_analysis_id_name(a, LTT_LATENCY_SOFTIRQ, sg->waker_id));
	return NULL;
}

void lttv_critical_path_print(const lttv_options *o, const ltt_analysis *a, int64_t t0,
			      int64_t t1, int64_t origin)
{
	FILE *out = out_of(o);
	const ltt_state *st = ltt_analysis_state(a);
	ltt_path_segment *segs;
	int found = -1;
	size_t n;
	char b[32], lb[LABEL_MAX];

	/* the last process with that pid (a reused pid: the latest) */
	for (unsigned i = 0; i < ltt_state_num_processes(st); i++) {
		ltt_state_process_info pi;

		if (ltt_state_process(st, i, &pi) == 0 && pi.pid == (unsigned)o->critical_pid)
			found = (int)i;
	}
	fprintf(out, "\n== critical path of pid %d ==\n", o->critical_pid);
	if (found < 0) {
		fprintf(out, "(no process with pid %d in the trace)\n", o->critical_pid);
		return;
	}
	n = ltt_analysis_critical_path(a, (unsigned)found, t0, t1, &segs);
	fprintf(out, "%20s %20s %14s  %-24s %s\n", "start", "end", "duration(us)", "process",
		"state");
	for (size_t i = 0; i < n; i++) {
		fputs("  ", out);
		print_time(out, segs[i].start_ns - origin);
		fputs("  ", out);
		print_time(out, segs[i].end_ns - origin);
		fprintf(out, " %14s  %-24s %s", us(b, sizeof(b), (uint64_t)(segs[i].end_ns - segs[i].start_ns)),
			proc_label(o, a, segs[i].process, lb, sizeof(lb)),
			ltt_path_kind_name((ltt_path_kind)segs[i].kind));
		if (segs[i].kind == LTT_PATH_BLOCKED_DEVICE || segs[i].kind == LTT_PATH_BLOCKED_TIMER)
			fprintf(out, " (woken in %s%s%s on cpu %u)",
				ltt_state_kind_name((ltt_state_kind)segs[i].waker_kind),
				waker_name(a, &segs[i]) ? " " : "",
				waker_name(a, &segs[i]) ? waker_name(a, &segs[i]) : "", segs[i].cpu);
		if (segs[i].via)	/* a task the path came to: whom it woke */
			fprintf(out, " (it woke %s, %s)",
				proc_label(o, a, segs[i].woke, lb, sizeof(lb)),
				ltt_path_kind_name((ltt_path_kind)segs[i].via));
		fputc('\n', out);
	}
	free(segs);
}

int lttv_parse_group_by(const char *s, int *by)
{
	static const struct { const char *name; ltt_group_by by; } names[] = {
		{ "name", LTT_GROUP_ID }, { "process", LTT_GROUP_PROCESS },
		{ "cpu", LTT_GROUP_CPU }, { "process-name", LTT_GROUP_PROCESS_ID },
		{ "all", LTT_GROUP_ALL },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(s, names[i].name)) {
			*by = (int)names[i].by;
			return 0;
		}
	return -1;
}

void lttv_analyses_print(const lttv_options *o, const ltt_analysis *a, int64_t t0,
			 int64_t t1, int64_t origin)
{
	ltt_group_by by = (ltt_group_by)o->group_by;

	if (o->syscalls)
		print_latency(o, a, LTT_LATENCY_SYSCALL, o->has_group_by ? by : LTT_GROUP_ID,
			      "system call latency", "system calls", t0, t1, origin);
	if (o->schedlat)
		print_latency(o, a, LTT_LATENCY_SCHED, o->has_group_by ? by : LTT_GROUP_PROCESS,
			      "scheduling latency (wakeup to switch-in)", "waits for a CPU",
			      t0, t1, origin);
	if (o->irqs) {
		print_latency(o, a, LTT_LATENCY_IRQ, o->has_group_by ? by : LTT_GROUP_ID,
			      "IRQ handler time", "IRQ handlers", t0, t1, origin);
		print_latency(o, a, LTT_LATENCY_SOFTIRQ, o->has_group_by ? by : LTT_GROUP_ID,
			      "softirq handler time", "softirq handlers", t0, t1, origin);
	}
	if (o->file_io) {
		if (o->has_group_by) {
			print_latency(o, a, LTT_LATENCY_FILE, by, "file I/O", "reads and writes",
				      t0, t1, origin);
		} else {
			print_latency(o, a, LTT_LATENCY_FILE, LTT_GROUP_ID, "file I/O",
				      "reads and writes", t0, t1, origin);
			print_latency(o, a, LTT_LATENCY_FILE, LTT_GROUP_PROCESS, "file I/O",
				      "reads and writes", t0, t1, origin);
		}
	}
	if (o->cpu_top)
		print_cpu_top(o, a, t0, t1, origin);
}
