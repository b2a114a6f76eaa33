/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stall-meter.c - how long the window's main loop goes without turning: a
 * timer every 2 ms notes the longest gap between two of its runs, in the
 * thread's CPU time (work the window does itself) and on the clock less
 * the time the thread was ready while another thread had the CPU (the
 * kernel's run-queue wait, /proc/thread-self/schedstat): work and waiting,
 * for a lock, a read, the X server, whatever else the machine runs. The
 * self-test's "meter" and the benchmark's window line (LTTV_GTK_BENCH) read
 * it, so a test can say that the window never froze and the benchmark by
 * how much it came close.
 */
#include <stdio.h>
#include <time.h>

#include "window.h"

#define TICK_MS 2

/* The time this thread waited, ready, for a CPU (us); -1 if unknown. */
static gint64 queued_us(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long run, wait;
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (gint64)(wait / 1000) : -1;
}

static gint64 thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static gboolean tick(gpointer data)
{
	lttv_stall_meter *m = data;
	gint64 wall = g_get_monotonic_time(), queued = queued_us(), cpu = thread_cpu_us();

	if (queued < 0) {
		m->no_schedstat = 1;
		queued = m->last_queued;
	}
	if (m->ticks++) {
		m->max_wall = MAX(m->max_wall, wall - m->last_wall);
		m->max_own = MAX(m->max_own, (wall - m->last_wall) - (queued - m->last_queued));
		m->max_cpu = MAX(m->max_cpu, cpu - m->last_cpu);
	}
	m->last_wall = wall;
	m->last_queued = queued;
	m->last_cpu = cpu;
	return G_SOURCE_CONTINUE;
}

void lttv_stall_meter_start(lttv_stall_meter *m)
{
	lttv_stall_meter_stop(m);
	*m = (lttv_stall_meter){ 0 };
	m->source = g_timeout_add_full(G_PRIORITY_DEFAULT, TICK_MS, tick, m, NULL);
}

void lttv_stall_meter_stop(lttv_stall_meter *m)
{
	if (m->source)
		g_source_remove(m->source);
	m->source = 0;
}
