/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * analysis-path.c - the critical path of a process (ltttrace-analysis.h),
 * from what the pass recorded: each process's on/off-CPU samples and the
 * waits for a CPU with who woke the task. Walking back from the process's
 * exit (or the end of the trace) to its birth (or the start):
 *
 *   on a CPU since s            the process ran: [s, t]
 *   off since s, and the switch-in that ends it follows a wakeup at w
 *       t > w                   waiting for a CPU: [w, t]
 *       blocked before w        woken by a task: go on with that task at w
 *                               (its segments say via: lock if the woken
 *                               one was in futex, else task); by an IRQ, a
 *                               softirq or the idle task: blocked on a
 *                               timer (its name says "timer") or a device
 *   off since s, no wakeup      preempted: waiting for a CPU, [s, t]; left
 *                               blocked: unknown (nothing says what ends it)
 *
 * Each step moves back in time or to the waker at the same time; a waker
 * that is itself off the CPU at that time (the trace disagrees with
 * itself) ends the walk with what the woken one was blocked on rather
 * than loop. The walk does not depend on the range asked: the range picks
 * the segments, so that a zoom never changes the path.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis-internal.h"

const char *ltt_path_kind_name(ltt_path_kind k)
{
	static const char *const n[] = { "running", "wait_cpu", "blocked_device", "unknown",
					 "blocked_timer", "blocked_lock", "blocked_task" };

	return (unsigned)k < LTT_PATH_NUM_KINDS ? n[k] : "?";
}

static void push(GArray *segs, int32_t p, int64_t s, int64_t e, ltt_path_kind k,
		 uint32_t cpu, uint8_t waker_kind, ltt_path_kind via, int32_t woke)
{
	ltt_path_segment seg = { s, e, p, (uint8_t)k, cpu, waker_kind, (uint8_t)via, woke,
				 LTT_WAKER_ID_NONE };

	if (e > s)
		g_array_append_val(segs, seg);
}

static int is_idle_task(const ltt_analysis *a, int32_t i)
{
	ltt_state_process_info pi;

	return ltt_state_process(a->st, (unsigned)i, &pi) < 0 || pi.pid == 0;
}

/* Whether the IRQ line or softirq vector that woke a task is a timer's. */
static int timer_wakeup(const ltt_analysis *a, const ltt_latency *w)
{
	ltt_latency_kind k = w->waker_kind == LTT_STATE_KIND_IRQ ? LTT_LATENCY_IRQ
			     : LTT_LATENCY_SOFTIRQ;
	const char *name;

	if (w->waker_id == LTT_WAKER_ID_NONE || (w->waker_kind != LTT_STATE_KIND_IRQ &&
						  w->waker_kind != LTT_STATE_KIND_SOFTIRQ))
		return 0;
	name = ltt_analysis_id_name(a, k, w->waker_id);
	return name && strcasestr(name, "timer") != NULL;
}

/* What a task that blocked in system call sys (+ 1, 0: none) and was
 * woken by another task waited on. */
static ltt_path_kind task_wait(const ltt_analysis *a, uint16_t sys)
{
	const char *name = sys ? ltt_analysis_id_name(a, LTT_LATENCY_SYSCALL, sys - 1u) : NULL;

	return name && strstr(name, "futex") ? LTT_PATH_BLOCKED_LOCK : LTT_PATH_BLOCKED_TASK;
}

/* The span of process p's life in the trace: [*lo, *hi]. */
static void life(const ltt_analysis *a, unsigned p, int64_t *lo, int64_t *hi)
{
	ltt_state_process_info pi;
	const an_log *l = p < a->nprocs ? &a->procs[p].cpu_log : NULL;

	*lo = a->first_ns;
	*hi = a->last_ns;
	if (ltt_state_process(a->st, p, &pi) == 0 && !pi.before_trace && pi.birth_ns > *lo)
		*lo = pi.birth_ns;
	if (l && l->n && !l->last.on && l->last.blocked == AN_EXITED && l->last.t < *hi)
		*hi = l->last.t;
	if (*hi < *lo)
		*hi = *lo;
}

static GArray *walk(const ltt_analysis *a, unsigned p)
{
	GArray *segs = g_array_new(FALSE, FALSE, sizeof(ltt_path_segment));
	const an_store *waits = ltt_analysis__store(a, LTT_LATENCY_SCHED);
	int32_t cur = (int32_t)p, woke = -1;
	ltt_path_kind via = 0;
	int64_t t, t0, hop_at = INT64_MIN;

	life(a, p, &t0, &t);
	while (t > t0 && cur >= 0 && (unsigned)cur < ltt_state_num_processes(a->st)) {
		const an_log *l = (unsigned)cur < a->nprocs ? &a->procs[cur].cpu_log : NULL;
		static const an_log empty;
		long i;
		int64_t off, on, s;
		an_sample si, next;
		ltt_latency wait;
		const ltt_latency *w;
		ltt_path_kind k;

		if (!l)
			l = &empty;
		/* the last sample before t, and the one after it */
		i = an_log_find(l, t, 1, &si, &next);
		if (i >= 0 && si.on) {
			s = si.t > t0 ? si.t : t0;
			push(segs, cur, s, t, LTT_PATH_RUNNING, 0, 0, via, woke);
			t = s;
			continue;
		}
		off = i >= 0 ? si.t : a->first_ns;
		on = next.t;
		/* the wait for a CPU of cur that ended (switch-in) at on */
		w = on != INT64_MAX && an_store_find_end(waits, cur, on, &wait) == 0 ? &wait : NULL;
		if (!w || w->start_ns < off) {
			/* preempted; or blocked, or never ran, and nothing says
			 * what ended it */
			s = off > t0 ? off : t0;
			push(segs, cur, s, t, i >= 0 && si.blocked == AN_PREEMPTED ?
				LTT_PATH_WAIT_CPU : LTT_PATH_UNKNOWN, 0, 0, via, woke);
			t = s;
			continue;
		}
		if (t > w->start_ns) {
			s = w->start_ns > t0 ? w->start_ns : t0;
			push(segs, cur, s, t, LTT_PATH_WAIT_CPU, 0, 0, via, woke);
			t = s;
			if (t <= t0)
				break;
		}
		if (w->start_ns > t) {
			/* still blocked at t; what ends it comes later */
			s = off > t0 ? off : t0;
			push(segs, cur, s, t, LTT_PATH_UNKNOWN, 0, 0, via, woke);
			t = s;
			continue;
		}
		s = off > t0 ? off : t0;
		if (w->waker >= 0 && !is_idle_task(a, w->waker) &&
		    w->waker_kind != LTT_STATE_KIND_IRQ && w->waker_kind != LTT_STATE_KIND_SOFTIRQ) {
			k = task_wait(a, i >= 0 ? si.sys : 0);
			if (w->waker != cur && hop_at != t) {
				hop_at = t;
				via = k;
				woke = cur;
				cur = w->waker;
				continue;
			}
			/* woken by itself, or a second hop without going
			 * back: the wait is the path */
			push(segs, cur, s, t, k, 0, 0, via, woke);
			t = s;
			continue;
		}
		k = timer_wakeup(a, w) ? LTT_PATH_BLOCKED_TIMER : LTT_PATH_BLOCKED_DEVICE;
		push(segs, cur, s, t, k, w->waker_cpu, w->waker_kind, via, woke);
		((ltt_path_segment *)(void *)segs->data)[segs->len - 1].waker_id = w->waker_id;
		t = s;
	}
	return segs;
}

size_t ltt_analysis_critical_path_sized(const ltt_analysis *a, unsigned p, int64_t t0,
					int64_t t1, ltt_path_segment **out, size_t seg_size)
{
	GArray *segs = walk(a, p);
	size_t n = 0;

	/* walked backwards: the segments that overlap [t0, t1], in time order */
	*out = malloc((segs->len + 1) * sizeof(**out));
	if (!*out)
		g_error("out of memory");
	for (guint k = segs->len; k-- > 0;) {
		const ltt_path_segment *sg = &g_array_index(segs, ltt_path_segment, k);

		if (sg->end_ns > t0 && sg->start_ns < t1)
			(*out)[n++] = *sg;
	}
	g_array_free(segs, TRUE);
	/* segments of the caller's size (ltttrace.h, "Sized structs") */
	*out = ltt_sized_rows(*out, n, sizeof(**out), seg_size, AN_SEGMENT_MIN);
	return *out ? n : 0;
}
