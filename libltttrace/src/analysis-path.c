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

static int by_process_end(const void *x, const void *y)
{
	const ltt_latency *a = *(const ltt_latency *const *)x;
	const ltt_latency *b = *(const ltt_latency *const *)y;
	int64_t ea = a->start_ns + (int64_t)a->duration_ns;
	int64_t eb = b->start_ns + (int64_t)b->duration_ns;

	if (a->process != b->process)
		return a->process < b->process ? -1 : 1;
	return ea < eb ? -1 : ea > eb;
}

/* The wait for a CPU of process p that ended (switch-in) at t, or NULL. */
static const ltt_latency *wait_ending(const ltt_latency **sorted, size_t n, int32_t p,
				      int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const ltt_latency *m = sorted[mid];
		int64_t e = m->start_ns + (int64_t)m->duration_ns;

		if (m->process < p || (m->process == p && e < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && sorted[lo]->process == p &&
	    sorted[lo]->start_ns + (int64_t)sorted[lo]->duration_ns == t)
		return sorted[lo];
	return NULL;
}

/* Index of the last sample of l before t (strictly), or -1. */
static long sample_before(const an_log *l, int64_t t)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->s[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
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
	if (l && l->n && !l->s[l->n - 1].on && l->s[l->n - 1].blocked == AN_EXITED &&
	    l->s[l->n - 1].t < *hi)
		*hi = l->s[l->n - 1].t;
	if (*hi < *lo)
		*hi = *lo;
}

static GArray *walk(const ltt_analysis *a, unsigned p)
{
	GArray *segs = g_array_new(FALSE, FALSE, sizeof(ltt_path_segment));
	size_t nw;
	const ltt_latency *waits = ltt_analysis_latencies(a, LTT_LATENCY_SCHED, &nw);
	const ltt_latency **sorted = g_new(const ltt_latency *, nw + 1);
	int32_t cur = (int32_t)p, woke = -1;
	ltt_path_kind via = 0;
	int64_t t, t0, hop_at = INT64_MIN;

	for (size_t i = 0; i < nw; i++)
		sorted[i] = &waits[i];
	qsort(sorted, nw, sizeof(*sorted), by_process_end);
	life(a, p, &t0, &t);
	while (t > t0 && cur >= 0 && (unsigned)cur < ltt_state_num_processes(a->st)) {
		const an_log *l = (unsigned)cur < a->nprocs ? &a->procs[cur].cpu_log : NULL;
		static const an_log empty;
		long i;
		int64_t off, on, s;
		const ltt_latency *w;
		ltt_path_kind k;

		if (!l)
			l = &empty;
		i = sample_before(l, t);
		if (i >= 0 && l->s[i].on) {
			s = l->s[i].t > t0 ? l->s[i].t : t0;
			push(segs, cur, s, t, LTT_PATH_RUNNING, 0, 0, via, woke);
			t = s;
			continue;
		}
		off = i >= 0 ? l->s[i].t : a->first_ns;
		on = (size_t)(i + 1) < l->n ? l->s[i + 1].t : INT64_MAX;
		w = on != INT64_MAX ? wait_ending(sorted, nw, cur, on) : NULL;
		if (!w || w->start_ns < off) {
			/* preempted; or blocked, or never ran, and nothing says
			 * what ended it */
			s = off > t0 ? off : t0;
			push(segs, cur, s, t, i >= 0 && l->s[i].blocked == AN_PREEMPTED ?
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
			k = task_wait(a, i >= 0 ? l->s[i].sys : 0);
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
	g_free(sorted);
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
