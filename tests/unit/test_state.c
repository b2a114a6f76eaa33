/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state.c - the state engine (ltttrace-state.h) on a trace written by
 * the independent writer with a known schedule on two CPUs: statuses,
 * names, modes, CPU times, row intervals (exact and merged at a
 * resolution), and seeking from checkpoints equal to replaying everything.
 *
 * Times: 1 GHz, so one cycle is one nanosecond; x below is the cycle count
 * after start_tsc and the wall time is 100 s + x ns.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-writer.h"
#include "ltttrace.h"
#include "tap.h"
/* ltt_state__index_digest(): the index's bytes, for test_threads() */
#include "../../libltttrace/src/state-internal.h"

#define START_TSC 1000000ull
#define T(x) (INT64_C(100000000000) + (int64_t)(x))

enum { F_CORE, F_KERNEL, F_KERNEL_ARCH, F_PROCESS, F_FS, F_STATEDUMP, F_CHANNEL, NFAC };

static lttw_trace *w;
static lttw_file *cpu[2], *ps, *irqs;
static ltt_description *descs[NFAC];
static const char *const fac_names[NFAC] = { "core", "kernel", "kernel_arch", "process", "fs",
					     "statedump", "channel" };
/* kernel_arch's file is that of the trace's architecture (the writer's: x86_64) */
static const char *const fac_files[NFAC] = { "core", "kernel", "kernel_arch_x86_64", "process",
					     "fs", "statedump", "channel" };

static unsigned eid(unsigned fac, const char *name)
{
	for (unsigned i = 0; i < ltt_description_num_events(descs[fac]); i++)
		if (!strcmp(ltt_description_event_name(descs[fac], i), name))
			return i;
	printf("# no event %s.%s\n", fac_names[fac], name);
	exit(1);
}

static void put(lttw_file *f, uint64_t x, unsigned fac, const char *ev, lttw_payload *p)
{
	if (lttw_event(f, START_TSC + x, fac, eid(fac, ev), p ? p->buf : NULL,
		       p ? p->len : 0))
		printf("# writer: %s\n", lttw_last_error());
	if (p)
		lttw_payload_reset(p);
}

static void enumerate(lttw_payload *p, uint64_t x, unsigned pid, unsigned ppid,
		      const char *name, unsigned kernel, unsigned mode, unsigned status)
{
	lttw_put_uint(p, pid);
	lttw_put_uint(p, ppid);
	lttw_put_string(p, name);
	lttw_put_uint_n(p, kernel, 4);
	lttw_put_uint_n(p, mode, 4);
	lttw_put_uint_n(p, 0, 4);
	lttw_put_uint_n(p, status, 4);
	lttw_put_uint(p, pid);
	put(ps, x, F_STATEDUMP, "enumerate_process_state", p);
}

static void sched(lttw_payload *p, unsigned c, uint64_t x, unsigned out, unsigned in,
		  unsigned state)
{
	lttw_put_uint(p, out);
	lttw_put_uint(p, in);
	lttw_put_uint_n(p, state, 4);
	put(cpu[c], x, F_PROCESS, "schedchange", p);
}

static void sys_entry(lttw_payload *p, unsigned c, uint64_t x, unsigned nr)
{
	lttw_put_uint(p, nr);			/* syscall_name: an enum, int_size */
	lttw_put_pointer(p, 0x400000);
	put(cpu[c], x, F_KERNEL_ARCH, "syscall_entry", p);
}

static void sys_exit(lttw_payload *p, unsigned c, uint64_t x)
{
	lttw_put_long(p, 0);
	put(cpu[c], x, F_KERNEL_ARCH, "syscall_exit", p);
}

static void pid_ev(lttw_payload *p, unsigned c, uint64_t x, const char *ev, unsigned pid)
{
	lttw_put_uint(p, pid);
	put(cpu[c], x, F_PROCESS, ev, p);
}

static void irq_entry(lttw_payload *p, unsigned c, uint64_t x, unsigned irq)
{
	lttw_put_uint_n(p, irq, 4);
	lttw_put_uint(p, 0);			/* mode: an enum, int_size */
	put(cpu[c], x, F_KERNEL, "irq_entry", p);
}

/* The trace, its files and facility loads; descs[] loaded. 0 or -1. */
static int begin_trace(const char *dir, unsigned lost, unsigned ncpus, lttw_payload *p)
{
	lttw_config c;
	lttw_file *facs;

	lttw_config_default(&c);
	c.start_freq = 1000000;		/* kHz: 1 GHz */
	c.freq_scale = 1000;
	c.start_tsc = START_TSC;
	c.start_time_sec = 100;
	c.start_time_usec = 0;
	if (lost)
		c.channel_facility_id = F_CHANNEL;
	w = lttw_trace_create(dir, &c);
	if (!w)
		return -1;
	facs = lttw_file_open(w, "control/facilities", 0, 0);
	ps = lttw_file_open(w, "control/processes", 0, 0);
	irqs = lttw_file_open(w, "control/interrupts", 0, 0);
	cpu[0] = lttw_file_open(w, "cpu", 0, 0);
	cpu[1] = lttw_file_open(w, "cpu", ncpus > 1 ? ncpus - 1 : 1, 0);
	for (unsigned f = 0; f < (lost ? NFAC : F_CHANNEL); f++) {
		char path[64];
		ltt_error *err = NULL;

		snprintf(path, sizeof(path), "facilities/%s.xml", fac_files[f]);
		ltt_description_free(descs[f]);
		descs[f] = ltt_description_load(path, &err);
		if (!descs[f]) {
			printf("# %s\n", ltt_error_message(err));
			return -1;
		}
		lttw_eventdef_copy(w, path);
		lttw_facility_load(facs, START_TSC, fac_names[f],
				   ltt_description_checksum(descs[f]), f, 1);
	}
	lttw_payload_init(p, w);
	return 0;
}

/* lost > 0: CPU 1's buffer says it lost that many events (channel.buffer_stats) */
static int write_trace(const char *dir, unsigned lost)
{
	lttw_payload p;

	if (begin_trace(dir, lost, 2, &p))
		return -1;

	/* the state dump: init, bash (user, in a syscall, waiting), a kernel thread */
	enumerate(&p, 10, 1, 0, "init", 0, 1, 5);
	enumerate(&p, 11, 100, 1, "bash", 0, 1, 5);
	enumerate(&p, 12, 7, 1, "kworker", 1, 1, 5);
	lttw_put_uint_n(&p, 0, 4);
	lttw_put_string(&p, "timer");
	put(irqs, 13, F_STATEDUMP, "interrupt", &p);

	/* CPU 0: bash forks a child, waits for it, is woken, reaps it */
	sched(&p, 0, 1000, 0, 100, 0);
	sys_exit(&p, 0, 1100);
	sys_entry(&p, 0, 2000, 56);
	lttw_put_uint(&p, 100);
	lttw_put_uint(&p, 200);
	lttw_put_uint(&p, 200);
	put(cpu[0], 2100, F_PROCESS, "fork", &p);
	sys_exit(&p, 0, 2200);
	irq_entry(&p, 0, 3000, 0);
	put(cpu[0], 3050, F_KERNEL, "irq_exit", NULL);
	sys_entry(&p, 0, 4000, 61);
	sched(&p, 0, 4100, 100, 0, 1);
	irq_entry(&p, 0, 9000, 0);
	lttw_put_uint(&p, 100);
	lttw_put_uint_n(&p, 1, 4);
	put(cpu[0], 9010, F_PROCESS, "wakeup", &p);
	put(cpu[0], 9020, F_KERNEL, "irq_exit", NULL);
	sched(&p, 0, 9100, 0, 100, 0);
	pid_ev(&p, 0, 9200, "free", 200);
	sys_exit(&p, 0, 9300);

	/* CPU 1: the child runs, execs ls, faults, exits; the kernel thread runs */
	if (lost)
		lttw_file_add_losses(cpu[1], lost, 0);
	sched(&p, 1, 2500, 0, 200, 0);
	sys_exit(&p, 1, 2600);
	sys_entry(&p, 1, 2700, 59);
	lttw_put_text(&p, "/bin/ls");
	put(cpu[1], 2800, F_FS, "exec", &p);
	sys_exit(&p, 1, 2900);
	lttw_put_uint_n(&p, 14, 2);
	lttw_put_pointer(&p, 0x400123);
	put(cpu[1], 3500, F_KERNEL, "trap_entry", &p);
	lttw_put_uint_n(&p, 14, 2);
	put(cpu[1], 3600, F_KERNEL, "trap_exit", &p);
	sys_entry(&p, 1, 5000, 231);
	pid_ev(&p, 1, 5100, "exit", 200);
	sched(&p, 1, 5200, 200, 7, 16);
	lttw_put_uint_n(&p, 1, 4);
	put(cpu[1], 6000, F_KERNEL, "soft_irq_entry", &p);
	lttw_put_uint_n(&p, 1, 4);
	put(cpu[1], 6100, F_KERNEL, "soft_irq_exit", &p);
	sched(&p, 1, 7000, 7, 0, 1);
	irq_entry(&p, 1, 9990, 0);
	put(cpu[1], 10000, F_KERNEL, "irq_exit", NULL);

	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

/*
 * CPU 1 makes system calls for task 300 before its first schedchange
 * says "out 300": that time is 300's, not the idle task's, and the idle
 * task is never drawn in a system call. CPU 0 never switches: its idle
 * task. (The case of the first recording of qemu-usertrace: lttd on CPU 1
 * before any switch.)
 */
static int write_first_task_trace(const char *dir)
{
	lttw_payload p;

	if (begin_trace(dir, 0, 2, &p))
		return -1;
	/* 300 is not in a state dump: its mode comes from its first call event */
	irq_entry(&p, 0, 500, 0);
	put(cpu[0], 550, F_KERNEL, "irq_exit", NULL);
	irq_entry(&p, 1, 800, 0);		/* interrupts a call begun before */
	put(cpu[1], 900, F_KERNEL, "irq_exit", NULL);
	sys_exit(&p, 1, 1000);
	sys_entry(&p, 1, 2000, 14);
	sys_exit(&p, 1, 2300);
	sys_entry(&p, 1, 3000, 202);
	sched(&p, 1, 4000, 300, 0, 1);		/* 300 waits in futex */
	irq_entry(&p, 1, 5000, 0);
	put(cpu[1], 5100, F_KERNEL, "irq_exit", NULL);
	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

/*
 * A trace of random, often inconsistent, events (exits without entries,
 * frees of running tasks, unknown pids, irq and softirq ids out of range,
 * nesting deeper than the model keeps, state dumps in the middle): the
 * model must survive it and keep its promises (seek = replay, intervals
 * tile their rows).
 */
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned)((rng * 2685821657736338717ull) >> 33) % n;
}

static int write_random_trace(const char *dir, unsigned nevents)
{
	lttw_config c;
	lttw_file *facs;
	lttw_payload p;
	uint64_t now[2] = { 100, 100 };
	static const char *const names[] = {
		"/bin/a", "b", "/usr/bin/cccccccccccccccccccccccccccccccccccccccccccccccccccccc", "", "/",
	};

	lttw_config_default(&c);
	c.start_freq = 1000000;
	c.freq_scale = 1000;
	c.start_tsc = START_TSC;
	c.start_time_sec = 100;
	w = lttw_trace_create(dir, &c);
	if (!w)
		return -1;
	facs = lttw_file_open(w, "control/facilities", 0, 0);
	ps = lttw_file_open(w, "control/processes", 0, 0);
	irqs = lttw_file_open(w, "control/interrupts", 0, 0);
	cpu[0] = lttw_file_open(w, "cpu", 0, 0);
	cpu[1] = lttw_file_open(w, "cpu", 1, 0);
	for (unsigned f = 0; f < F_CHANNEL; f++) {
		char path[64];

		snprintf(path, sizeof(path), "facilities/%s.xml", fac_files[f]);
		if (!descs[f] && !(descs[f] = ltt_description_load(path, NULL)))
			return -1;
		lttw_eventdef_copy(w, path);
		lttw_facility_load(facs, START_TSC, fac_names[f],
				   ltt_description_checksum(descs[f]), f, 1);
	}
	lttw_payload_init(&p, w);
	for (unsigned i = 0; i < nevents; i++) {
		unsigned k = rnd(2), pid = rnd(12), x = rnd(17);

		now[k] += 1 + rnd(60);
		switch (x) {
		case 0: sched(&p, k, now[k], rnd(12), pid, rnd(3) ? rnd(3) : 16u << rnd(2)); break;
		case 1:
			lttw_put_uint(&p, rnd(12));
			lttw_put_uint(&p, pid);
			lttw_put_uint(&p, rnd(2) ? pid : 0);
			put(cpu[k], now[k], F_PROCESS, "fork", &p);
			break;
		case 2: pid_ev(&p, k, now[k], "exit", pid); break;
		case 3: pid_ev(&p, k, now[k], "free", pid); break;
		case 4:
			lttw_put_uint(&p, pid);
			lttw_put_uint_n(&p, rnd(2), 4);
			put(cpu[k], now[k], F_PROCESS, "wakeup", &p);
			break;
		case 5: case 6: sys_entry(&p, k, now[k], rnd(300)); break;
		case 7: sys_exit(&p, k, now[k]); break;
		case 8:
			/* trap_exit has no ip (kernel.xml) */
			lttw_put_uint_n(&p, 14, 2);
			if (rnd(2)) {
				lttw_put_pointer(&p, 0);
				put(cpu[k], now[k], F_KERNEL, "trap_entry", &p);
			} else {
				put(cpu[k], now[k], F_KERNEL, "trap_exit", &p);
			}
			break;
		case 9: irq_entry(&p, k, now[k], rnd(4) ? rnd(5) : 0xFFFFFFF0u + rnd(8)); break;
		case 10: put(cpu[k], now[k], F_KERNEL, "irq_exit", NULL); break;
		case 11:
			lttw_put_uint_n(&p, rnd(40), 4);
			put(cpu[k], now[k], F_KERNEL, rnd(2) ? "soft_irq_entry" : "soft_irq_exit", &p);
			break;
		case 12:
			lttw_put_text(&p, names[rnd(5)]);
			put(cpu[k], now[k], F_FS, "exec", &p);
			break;
		case 13:
			lttw_put_uint(&p, pid);
			lttw_put_pointer(&p, 0);
			put(cpu[k], now[k], F_PROCESS, "kernel_thread", &p);
			break;
		case 14:
			/* a state dump line in the middle, with odd values */
			lttw_put_uint(&p, pid);
			lttw_put_uint(&p, rnd(12));
			lttw_put_string(&p, names[rnd(5)]);
			lttw_put_uint_n(&p, rnd(3), 4);
			lttw_put_uint_n(&p, rnd(8), 4);
			lttw_put_uint_n(&p, 0, 4);
			lttw_put_uint_n(&p, rnd(10), 4);
			lttw_put_uint(&p, rnd(2) ? pid : 0);
			put(cpu[k], now[k], F_STATEDUMP, "enumerate_process_state", &p);
			break;
		default:
			/* nest deeper than the model keeps */
			for (unsigned d = 0; d < 20; d++) {
				now[k] += 1;
				irq_entry(&p, k, now[k], d);
			}
			for (unsigned d = 0; d < 20; d++) {
				now[k] += 1;
				put(cpu[k], now[k], F_KERNEL, "irq_exit", NULL);
			}
			break;
		}
	}
	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

/* ---- interval collection ---- */

typedef struct ival {
	int64_t s, e;
	ltt_state_kind k;
} ival;

typedef struct ivals {
	ival v[256];
	unsigned n;
} ivals;

static void collect(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	ivals *iv = user;

	if (iv->n < 256)
		iv->v[iv->n++] = (ival){ s, e, k };
}

static void check_intervals(ltt_state_index *idx, ltt_state_row_type type, unsigned row,
			    int64_t res, const ival *want, unsigned nwant, const char *what)
{
	ivals got = { .n = 0 };
	long calls = ltt_state_index_intervals(idx, type, row, T(0), T(20000), res,
					       collect, &got);
	int64_t end = ltt_state_index_indexed_ns(idx);
	unsigned bad = 0;

	is_int(calls, nwant, "%s: %u intervals", what, nwant);
	for (unsigned i = 0; i < got.n && i < nwant; i++) {
		int64_t we = want[i].e < 0 ? end : T(want[i].e);

		if (got.v[i].s != T(want[i].s) || got.v[i].e != we || got.v[i].k != want[i].k) {
			if (!bad++)
				printf("#   interval %u: [%" PRId64 ", %" PRId64 ") %s, want "
				       "[%" PRId64 ", %" PRId64 ") %s\n", i,
				       got.v[i].s - T(0), got.v[i].e - T(0),
				       ltt_state_kind_name(got.v[i].k), want[i].s,
				       we - T(0), ltt_state_kind_name(want[i].k));
		}
	}
	ok(bad == 0, "%s: starts, ends and kinds", what);
}

static int find_pid(const ltt_state *st, unsigned pid)
{
	ltt_state_process_info pi;

	for (unsigned i = 0; i < ltt_state_num_processes(st); i++)
		if (ltt_state_process(st, i, &pi) == 0 && pi.pid == pid)
			return (int)i;
	return -1;
}

/* ---- comparing two models ---- */

static int same_state(const ltt_state *a, const ltt_state *b, int64_t t, char *why,
		      size_t whylen)
{
	if (ltt_state_num_processes(a) != ltt_state_num_processes(b)) {
		snprintf(why, whylen, "%u processes vs %u", ltt_state_num_processes(a),
			 ltt_state_num_processes(b));
		return 0;
	}
	for (unsigned i = 0; i < ltt_state_num_processes(a); i++) {
		ltt_state_process_info x, y;
		char nx[LTT_STATE_NAME_MAX];

		ltt_state_process(a, i, &x);
		g_strlcpy(nx, x.name, sizeof(nx));
		ltt_state_process(b, i, &y);
		/* b is a full replay: its clock is at its last event, a's at t */
		{
			if (y.cpu >= 0 && ltt_state_cpu_process(b, (unsigned)y.cpu) == (int)i &&
			    t != INT64_MIN && ltt_state_time(b) != INT64_MIN && t > ltt_state_time(b))
				y.cpu_ns[y.mode] += (uint64_t)(t - ltt_state_time(b));
		}
		if (x.pid != y.pid || x.tgid != y.tgid || x.ppid != y.ppid ||
		    strcmp(nx, y.name) || x.status != y.status || x.mode != y.mode ||
		    x.mode_depth != y.mode_depth || x.cpu != y.cpu ||
		    x.birth_ns != y.birth_ns || x.death_ns != y.death_ns ||
		    x.before_trace != y.before_trace ||
		    memcmp(x.cpu_ns, y.cpu_ns, sizeof(x.cpu_ns))) {
			snprintf(why, whylen, "process %u (pid %u %s): status %s/%s mode %s/%s "
				 "depth %u/%u cpu %d/%d birth %" PRId64 "/%" PRId64 " death %" PRId64
				 "/%" PRId64 " user %" PRIu64 "/%" PRIu64 " sys %" PRIu64 "/%" PRIu64,
				 i, y.pid, y.name,
				 ltt_state_status_name(x.status), ltt_state_status_name(y.status),
				 ltt_state_mode_name(x.mode), ltt_state_mode_name(y.mode),
				 x.mode_depth, y.mode_depth, x.cpu, y.cpu, x.birth_ns, y.birth_ns,
				 x.death_ns, y.death_ns, x.cpu_ns[0], y.cpu_ns[0], x.cpu_ns[1],
				 y.cpu_ns[1]);
			return 0;
		}
	}
	if (ltt_state_num_cpus(a) != ltt_state_num_cpus(b)) {
		snprintf(why, whylen, "cpus %u vs %u", ltt_state_num_cpus(a),
			 ltt_state_num_cpus(b));
		return 0;
	}
	for (unsigned c = 0; c < ltt_state_num_cpus(a); c++)
		if (ltt_state_cpu_process(a, c) != ltt_state_cpu_process(b, c) ||
		    ltt_state_cpu_kind(a, c) != ltt_state_cpu_kind(b, c)) {
			snprintf(why, whylen, "cpu %u", c);
			return 0;
		}
	if (ltt_state_num_softirqs(a) != ltt_state_num_softirqs(b)) {
		snprintf(why, whylen, "softirqs");
		return 0;
	}
	for (unsigned i = 0; i < ltt_state_num_softirqs(a); i++) {
		ltt_state_softirq_info x, y;

		ltt_state_softirq(a, i, &x);
		ltt_state_softirq(b, i, &y);
		if (x.id != y.id || x.running != y.running || x.count != y.count ||
		    strcmp(x.name, y.name)) {
			snprintf(why, whylen, "softirq %u", i);
			return 0;
		}
	}
	if (ltt_state_num_irqs(a) != ltt_state_num_irqs(b)) {
		snprintf(why, whylen, "irqs");
		return 0;
	}
	for (unsigned i = 0; i < ltt_state_num_irqs(a); i++) {
		ltt_state_irq_info x, y;

		ltt_state_irq(a, i, &x);
		ltt_state_irq(b, i, &y);
		if (x.id != y.id || x.cpu != y.cpu || x.count != y.count || strcmp(x.name, y.name)) {
			snprintf(why, whylen, "irq %u", i);
			return 0;
		}
	}
	return 1;
}

/*
 * Seek at times from `to` down to `from` (backwards too) by `step` ns, each
 * compared with a replay of everything before that time.
 */
static void test_checkpoints(ltt_trace *t, uint64_t every, int64_t from, int64_t to,
			     int64_t step, unsigned min_cps, const char *what)
{
	ltt_state_index_options o = { .size = sizeof(o), .checkpoint_events = every };
	ltt_error *err = NULL;
	ltt_state_index *idx = ltt_state_index_new(&t, 1, &o, &err);
	ltt_state *seeked = ltt_state_new();
	unsigned bad = 0, n = 0;
	char why[256] = "";

	while (ltt_state_index_run(idx, 5, &err) > 0)
		;
	ok(ltt_state_index_num_checkpoints(idx) >= min_cps, "%s: checkpoints every %" PRIu64
	   " events: %u", what, every, ltt_state_index_num_checkpoints(idx));
	for (int64_t tx = to; tx >= from; tx -= step) {
		ltt_state *full = ltt_state_new();
		ltt_iter *it = ltt_iter_new(&t, 1, &err);
		const ltt_event *ev;

		while (ltt_iter_next(it, &ev, &err) > 0 && ltt_event_time_ns(ev) < tx)
			ltt_state_process_event(full, ev);
		/* after the end, a seek's clock stays at the last event */
		int64_t at = tx <= ltt_state_index_end_ns(idx) ? tx : INT64_MIN;
		int64_t x = tx - from;

		if (ltt_state_index_seek(idx, tx, seeked, &err) < 0) {
			bad++;
			snprintf(why, sizeof(why), "seek: %s", ltt_error_message(err));
		} else if (!same_state(seeked, full, at, why, sizeof(why))) {
			if (!bad++)
				printf("#   at x=%" PRId64 ": %s\n", x, why);
		}
		n++;
		ltt_iter_free(it);
		ltt_state_free(full);
	}
	ok(bad == 0, "%s: seek = restore checkpoint + replay equals a full replay at %u times",
	   what, n);
	ltt_state_free(seeked);
	ltt_state_index_free(idx);
}

/* ---- snapshots: frozen copies read while the index goes on ---- */

typedef struct digest {
	uint64_t h;
	long n;
} digest;

static void digest_cb(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	digest *d = user;
	uint64_t v[3] = { (uint64_t)s, (uint64_t)e, (uint64_t)k };

	for (int i = 0; i < 3; i++)
		d->h = (d->h ^ v[i]) * 0x100000001b3ull;
	d->n++;
}

/* Every row of every type of idx over [start, t1) at three resolutions,
 * hashed; and the model seeked at the middle of that range. */
static uint64_t index_digest(ltt_state_index *idx, int64_t t1, uint64_t *seek_events)
{
	const ltt_state *st = ltt_state_index_state(idx);
	int64_t t0 = ltt_state_index_start_ns(idx);
	unsigned n[4] = { ltt_state_num_processes(st), ltt_state_num_cpus(st),
			  ltt_state_num_irqs(st), ltt_state_num_softirqs(st) };
	digest d = { 0xcbf29ce484222325ull, 0 };
	ltt_state *at = ltt_state_new();

	for (int64_t res = 0; res <= (t1 - t0) / 100; res += (t1 - t0) / 300 + 1)
		for (unsigned type = 0; type < 4; type++)
			for (unsigned i = 0; i < n[type]; i++)
				ltt_state_index_intervals(idx, (ltt_state_row_type)type, i, t0, t1,
							  res, digest_cb, &d);
	*seek_events = ltt_state_index_seek(idx, t0 + (t1 - t0) / 2, at, NULL) == 0 ?
		       ltt_state_num_events(at) : UINT64_MAX;
	ltt_state_free(at);
	return d.h ^ (uint64_t)d.n;
}

typedef struct published {
	ltt_state_index *snap;
	int64_t t;			/* what it had indexed */
	uint64_t h, seek_events;	/* its digest, taken in the reading thread */
} published;

typedef struct worker_ctx {
	ltt_state_index *idx;
	uint64_t slice;			/* events between two snapshots */
	GAsyncQueue *q;			/* published *, then NULL at the end */
} worker_ctx;

/* The viewer's worker: index in slices, publish a snapshot after each. */
static gpointer index_worker(gpointer data)
{
	worker_ctx *wc = data;
	ltt_error *err = NULL;
	int r;

	do {
		published *p = g_new0(published, 1);

		r = ltt_state_index_run(wc->idx, wc->slice, &err);
		p->snap = ltt_state_index_snapshot(wc->idx, NULL, 0);
		p->t = ltt_state_index_indexed_ns(p->snap);
		g_async_queue_push(wc->q, p);
	} while (r > 0);
	g_async_queue_push(wc->q, g_new0(published, 1));	/* the end */
	ltt_error_free(err);
	return NULL;
}

/*
 * The viewer's way: a worker indexes and publishes snapshots; this thread
 * draws every row of each (intervals at three resolutions, a seek) while
 * the worker goes on, with no lock. Then each snapshot must agree with the
 * whole index over the range it had: what a snapshot saw never changes.
 * The seeks of this thread read the trace opened a second time (two
 * threads must not read one ltt_trace).
 */
static void test_snapshots(const char *dir, uint64_t slice, const char *what)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, NULL, &err), *mine = ltt_trace_open(dir, NULL, &err);
	worker_ctx wk = { NULL, slice, g_async_queue_new() };
	GPtrArray *got = g_ptr_array_new();
	GThread *th;
	published *p;
	unsigned bad = 0, bad_seek = 0, frozen_bad = 0;

	if (!t || !mine) {
		ok(0, "%s: snapshots: trace opens (%s)", what, ltt_error_message(err));
		ltt_error_free(err);
		return;
	}
	wk.idx = ltt_state_index_new(&t, 1, NULL, &err);
	th = g_thread_new("index", index_worker, &wk);
	while ((p = g_async_queue_pop(wk.q))->snap) {
		/* read in this thread, with its own trace, while indexing goes on */
		ltt_state_index *mine_snap = ltt_state_index_snapshot(p->snap, &mine, 1);

		ltt_state_index_free(p->snap);	/* the reader keeps its copy */
		p->snap = mine_snap;
		p->h = index_digest(p->snap, p->t, &p->seek_events);
		/* a few are kept to outlive the index; the others go, as in
		 * the viewer, where each replaces the one before */
		if (got->len % 64) {
			ltt_state_index_free(p->snap);
			p->snap = NULL;
		}
		g_ptr_array_add(got, p);
	}
	g_free(p);
	g_thread_join(th);
	/* then each agrees with the whole index over what it had */
	for (guint i = 0; i < got->len; i++) {
		uint64_t se, h;

		p = got->pdata[i];
		h = index_digest(wk.idx, p->t, &se);
		if (h != p->h && !bad++)
			printf("#   snapshot %u (up to %" PRId64 "): intervals differ\n", i, p->t);
		if (se != p->seek_events)
			bad_seek++;
	}
	ok(got->len > 5 && bad == 0, "%s: %u snapshots read while indexing = the whole index "
	   "up to where each was taken", what, got->len);
	ok(bad_seek == 0, "%s: a snapshot's seek = the index's seek", what);
	/* the index freed first: its snapshots still read what they saw */
	ltt_state_index_free(wk.idx);
	for (guint i = 0; i < got->len; i++) {
		uint64_t se;

		p = got->pdata[i];
		if (p->snap && (index_digest(p->snap, p->t, &se) != p->h || se != p->seek_events))
			frozen_bad++;
		ltt_state_index_free(p->snap);
		g_free(p);
	}
	ok(frozen_bad == 0, "%s: snapshots outlive their index", what);
	{
		ltt_state_index *snap = NULL;
		ltt_state_index *idx = ltt_state_index_new(&t, 1, NULL, &err);

		snap = ltt_state_index_snapshot(idx, NULL, 0);
		is_int(ltt_state_index_run(snap, 10, &err), -1, "%s: a snapshot does not index",
		       what);
		ltt_error_free(err);
		err = NULL;
		ltt_state_index_free(snap);
		ltt_state_index_free(idx);
	}
	g_ptr_array_free(got, TRUE);
	g_async_queue_unref(wk.q);
	ltt_trace_close(mine);
	ltt_trace_close(t);
}

typedef struct cover {
	int64_t first, last_e;
	long n, gaps;
	int64_t dur[LTT_STATE_NUM_KINDS];	/* time drawn in each kind */
} cover;

static void cover_cb(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	cover *c = user;

	c->dur[k] += e - s;

	if (c->n++ == 0)
		c->first = s;
	else if (s != c->last_e)
		c->gaps++;
	if (e <= s)
		c->gaps++;
	c->last_e = e;
}

/*
 * Drawing costs O(pixels): at any resolution, every row of a real trace
 * gives at most 2 intervals per pixel, and they tile the row without gap
 * or overlap up to the end of what is indexed.
 */
static void test_resolutions(ltt_trace *t, const char *what)
{
	ltt_error *err = NULL;
	ltt_state_index *idx = ltt_state_index_new(&t, 1, NULL, &err);
	const ltt_state *st;
	int64_t t0, t1;
	unsigned bad_bound = 0, bad_tiling = 0, bad_share = 0, bad_dur = 0, rows = 0;
	double worst_px = 0;

	while (ltt_state_index_run(idx, 100000, &err) > 0)
		;
	st = ltt_state_index_state(idx);
	t0 = ltt_state_index_start_ns(idx);
	t1 = ltt_state_index_indexed_ns(idx);
	for (int64_t res = 1000; res <= 100000000; res *= 10) {
		long pixels = (long)((t1 - t0) / res) + 1;

		for (unsigned type = 0; type < 2; type++) {
			unsigned n = type ? ltt_state_num_cpus(st) : ltt_state_num_processes(st);

			for (unsigned i = 0; i < n; i++) {
				cover c = { 0 }, exact = { 0 };
				int64_t dur[LTT_STATE_NUM_KINDS];
				long calls = ltt_state_index_intervals(idx, (ltt_state_row_type)type, i,
								       t0, t1, res, cover_cb, &c);

				rows++;
				if (calls > 2 * pixels + 2)
					bad_bound++;
				if (c.n && (c.gaps || c.last_e != t1))
					bad_tiling++;
				/* the time drawn in each kind is the time spent in
				 * it (every interval, summed) to within a few pixels;
				 * the durations say the same */
				ltt_state_index_intervals(idx, (ltt_state_row_type)type, i, t0, t1,
							  0, cover_cb, &exact);
				ltt_state_index_durations(idx, (ltt_state_row_type)type, i, t0, t1,
							  dur);
				for (int k = 0; k < LTT_STATE_NUM_KINDS; k++) {
					double px = (double)llabs(c.dur[k] - exact.dur[k]) / (double)res;

					if (px > worst_px)
						worst_px = px;
					/* the balances' draw in a crowded pixel:
					 * up to 4 pixels (state-index.c) */
					if (px > 5)
						bad_share++;
					if (dur[k] != exact.dur[k])
						bad_dur++;
				}
			}
		}
	}
	ok(bad_bound == 0, "%s: at most 2 intervals per pixel at 1 us .. 100 ms per pixel "
	   "(%u rows)", what, rows);
	ok(bad_tiling == 0, "%s: intervals tile each row to the end, no gap or overlap", what);
	ok(bad_share == 0, "%s: time drawn in each kind = time spent, within 5 pixels "
	   "(worst %.2f)", what, worst_px);
	ok(bad_dur == 0, "%s: durations = the sum of the exact intervals", what);
	ltt_state_index_free(idx);
}

static void test_first_task(const char *tmp)
{
	char *dir = g_build_filename(tmp, "first", NULL);
	ltt_trace *t;
	ltt_state_index *idx;
	const ltt_state *st;
	ltt_state_process_info pi;
	ltt_error *err = NULL;
	int i, sw1;
	ivals c;

	ok(write_first_task_trace(dir) == 0, "writer: CPU 1 busy before its first schedchange");
	t = ltt_trace_open(dir, NULL, &err);
	ok(t != NULL, "first-task trace opens");
	if (!t)
		goto out;
	idx = ltt_state_index_new(&t, 1, NULL, &err);
	while (ltt_state_index_run(idx, 1000, &err) > 0)
		;
	st = ltt_state_index_state(idx);
	i = ltt_state_find_process(st, 300, 1);
	sw1 = ltt_state_find_process(st, 0, 1);
	ok(i >= 0 && sw1 >= 0, "task 300 and swapper/1 known");
	if (i >= 0 && sw1 >= 0) {
		ltt_state_process(st, (unsigned)i, &pi);
		is_int(pi.cpu_ns[LTT_STATE_SYSCALL], 100 + 300 + 1000,
		       "300: the calls before the switch are its own (in a call at the first event)");
		is_int(pi.cpu_ns[LTT_STATE_IRQ], 100, "300: the interrupt of its call");
		is_int(pi.cpu_ns[LTT_STATE_USER_MODE], 1000 + 700, "300: and so is the user time between them");
		is_int(pi.status, LTT_STATE_WAIT, "300: waits after the switch");
		ltt_state_process(st, (unsigned)sw1, &pi);
		is_int(pi.cpu_ns[LTT_STATE_SYSCALL], 0, "swapper/1: no system call time");
		is_int(pi.cpu_ns[LTT_STATE_USER_MODE], 1000, "swapper/1: idle from the switch on");
		is_int(pi.cpu_ns[LTT_STATE_IRQ], 100, "swapper/1: the interrupt while idle");
		c.n = 0;
		ltt_state_index_intervals(idx, LTT_STATE_ROW_CPU, 1, T(0), T(6000), 0, collect, &c);
		ok(c.n >= 3 && c.v[0].s == T(800) && c.v[0].k == LTT_STATE_KIND_IRQ &&
		   c.v[1].k == LTT_STATE_KIND_SYSCALL && c.v[2].k == LTT_STATE_KIND_USER,
		   "CPU 1 row: 300's interrupt, call and user mode from its first event "
		   "(got %s at %" PRId64 ")",
		   c.n ? ltt_state_kind_name(c.v[0].k) : "nothing", c.n ? c.v[0].s - T(0) : 0);
		c.n = 0;
		ltt_state_index_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)sw1, T(0), T(6000),
					  0, collect, &c);
		{
			int busy = 0;

			for (unsigned k = 0; k < c.n; k++)
				busy |= c.v[k].k == LTT_STATE_KIND_SYSCALL;
			ok(!busy, "swapper/1 row: never in a system call");
		}
	}
	i = ltt_state_find_process(st, 0, 0);
	if (i >= 0) {
		ltt_state_process(st, (unsigned)i, &pi);
		is_int(pi.cpu_ns[LTT_STATE_IRQ], 50, "CPU 0, which never switches: its idle task");
	}
	ltt_state_index_free(idx);
	ltt_trace_close(t);
out:
	ltt_error_free(err);
	g_free(dir);
}

/*
 * The model's limits are reported, not silent: events of a CPU above 4095
 * are counted as ignored with the reason; softirqs on CPUs >= 64 are
 * followed like any other.
 */
/* Events on CPU 70 (a softirq) and CPU 4100 (a system call). */
static int write_limits_trace(const char *dir)
{
	lttw_payload p;
	lttw_file *h;

	/* cpu[0] is CPU 0, cpu[1] is CPU 4100; a third file for CPU 70 */
	if (begin_trace(dir, 0, 4101, &p))
		return -1;
	h = lttw_file_open(w, "cpu", 70, 0);
	lttw_put_uint_n(&p, 1, 4);
	put(h, 100, F_KERNEL, "soft_irq_entry", &p);
	lttw_put_uint_n(&p, 1, 4);
	put(h, 300, F_KERNEL, "soft_irq_exit", &p);
	sys_entry(&p, 1, 200, 0);
	sys_exit(&p, 1, 250);
	lttw_payload_free(&p);
	return lttw_trace_close(w);
}

static void test_limits(const char *tmp)
{
	char *dir = g_build_filename(tmp, "limits", NULL);
	ltt_trace *t;
	ltt_state *st;
	ltt_iter *it;
	const ltt_event *ev;
	ltt_error *err = NULL;
	ltt_state_softirq_info si;

	ok(write_limits_trace(dir) == 0, "writer: events on CPUs 70 and 4100");
	t = ltt_trace_open(dir, NULL, &err);
	ok(t != NULL, "limits trace opens");
	if (!t)
		goto out;
	st = ltt_state_new();
	it = ltt_iter_new(&t, 1, &err);
	while (ltt_iter_next(it, &ev, &err) > 0)
		ltt_state_process_event(st, ev);
	is_int(ltt_state_num_ignored(st), 2, "the 2 events of CPU 4100 counted as ignored");
	ok(ltt_state_ignored_reason(st) && strstr(ltt_state_ignored_reason(st), "cpu 4100"),
	   "and the reason says which CPU: %s", ltt_state_ignored_reason(st));
	ok(ltt_state_num_softirqs(st) == 1 && ltt_state_softirq(st, 0, &si) == 0 &&
	   si.count == 1 && si.busy_ns == 200, "softirq on CPU 70 followed (busy 200 ns)");
	ltt_iter_free(it);
	ltt_state_free(st);
	ltt_trace_close(t);
out:
	ltt_error_free(err);
	g_free(dir);
}

/*
 * test_state --write-trace DIR [--lost N] writes the trace and exits: the
 * export test (tests/t40-export.sh) draws this same known schedule; --lost
 * makes CPU 1's buffer report N lost events. --write-random DIR writes the
 * random events of the first sequence; --write-limits DIR the trace of
 * test_limits() (events on CPUs 70 and 4100).
 */
/* ---- one thread or two: the same index, byte for byte ---- */

/*
 * The trace in dir indexed by one thread and by the pipeline of two, in
 * lockstep slices of `slice` events, a snapshot of each taken and kept
 * every third slice as the viewer does (what a snapshot saw is sealed:
 * the coder's rule for changes at one instant depends on it): after every
 * `check`-th slice and at the end, the two indexes' bytes must be the
 * same, and their counts, and the runs' results (an error: the same
 * message, at the same place).
 */
static void test_threads(const char *dir, uint64_t slice, unsigned check, const char *what)
{
	ltt_error *err = NULL;
	ltt_trace *tr[2] = { ltt_trace_open(dir, NULL, &err), NULL };
	ltt_state_index *idx[2] = { NULL, NULL }, *snap[2] = { NULL, NULL };
	unsigned runs = 0, compared = 0, bad = 0;
	char why[256] = "";
	int r[2] = { 1, 1 };

	if (tr[0])
		tr[1] = ltt_trace_open(dir, NULL, &err);
	for (int k = 0; k < 2 && tr[k]; k++) {
		ltt_state_index_options o = { .size = sizeof(o), .threads = (unsigned)k + 1 };

		idx[k] = ltt_state_index_new(&tr[k], 1, &o, &err);
	}
	if (!idx[0] || !idx[1]) {
		ok(0, "%s: one thread or two: cannot open: %s", what, ltt_error_message(err));
		goto out;
	}
	while (r[0] > 0 && r[1] > 0) {
		char *msg[2] = { NULL, NULL };

		for (int k = 0; k < 2; k++) {
			ltt_error *e = NULL;

			r[k] = ltt_state_index_run(idx[k], slice, &e);
			if (r[k] < 0)
				msg[k] = g_strdup(ltt_error_message(e));
			ltt_error_free(e);
		}
		runs++;
		if (r[0] != r[1] || (msg[0] && strcmp(msg[0], msg[1]))) {
			snprintf(why, sizeof(why), "run %u: %d (%s) against %d (%s)", runs, r[0],
				 msg[0] ? msg[0] : "", r[1], msg[1] ? msg[1] : "");
			bad++;
		}
		g_free(msg[0]);
		g_free(msg[1]);
		if (bad)
			break;
		if (runs % check == 0 || r[0] <= 0) {
			compared++;
			if (ltt_state__index_digest(idx[0]) != ltt_state__index_digest(idx[1]) ||
			    ltt_state_index_num_changes(idx[0]) != ltt_state_index_num_changes(idx[1]) ||
			    ltt_state_index_num_checkpoints(idx[0]) !=
				    ltt_state_index_num_checkpoints(idx[1]) ||
			    ltt_state_index_memory(idx[0]) != ltt_state_index_memory(idx[1])) {
				snprintf(why, sizeof(why), "after run %u (%" PRIu64 " events): the "
					 "indexes differ (%" PRIu64 " against %" PRIu64 " changes)",
					 runs, ltt_state_index_num_events(idx[0]),
					 ltt_state_index_num_changes(idx[0]),
					 ltt_state_index_num_changes(idx[1]));
				bad++;
				break;
			}
		}
		if (runs % 3 == 0)
			for (int k = 0; k < 2; k++) {
				ltt_state_index_free(snap[k]);
				snap[k] = ltt_state_index_snapshot(idx[k], NULL, 0);
			}
	}
	if (bad)
		printf("#   %s\n", why);
	ok(bad == 0 && compared > 0, "%s: one thread or two, slices of %" PRIu64 " events: the "
	   "same index, byte for byte (%u runs, %u compared, %" PRIu64 " changes%s)", what, slice,
	   runs, compared, ltt_state_index_num_changes(idx[0]),
	   r[0] < 0 ? ", stopped by a read error" : "");
out:
	for (int k = 0; k < 2; k++) {
		ltt_state_index_free(snap[k]);
		ltt_state_index_free(idx[k]);
		if (tr[k])
			ltt_trace_close(tr[k]);
	}
	ltt_error_free(err);
}

/* ltt-tracegen's trace into tmp/name (extra: its arguments), or NULL. */
static char *tracegen(const char *tmp, const char *name, const char *const *extra)
{
	const char *b = getenv("BUILD");
	char *gen = g_strdup_printf("%s/bin/ltt-tracegen", b ? b : "build");
	char *out = g_build_filename(tmp, name, NULL);
	GPtrArray *av = g_ptr_array_new();
	int status = -1;

	g_ptr_array_add(av, gen);
	for (unsigned i = 0; extra[i]; i++)
		g_ptr_array_add(av, (char *)extra[i]);
	g_ptr_array_add(av, "-o");
	g_ptr_array_add(av, out);
	g_ptr_array_add(av, NULL);
	if (!g_file_test(gen, G_FILE_TEST_IS_EXECUTABLE) ||
	    !g_spawn_sync(NULL, (char **)av->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
			  NULL, NULL, &status, NULL) || status != 0) {
		g_free(out);
		out = NULL;
	}
	g_ptr_array_free(av, TRUE);
	g_free(gen);
	return out;
}

/* The pipeline against one thread on traces of every kind. */
static void test_threads_all(const char *tmp, const char *known)
{
	static const char *const busy[] = { "--scenario", "busy", "--events", "300000", NULL };
	static const char *const sample[] = { "--scenario", "sample", NULL };
	static const char *const late[] = { "--bad", "event-past-subbuf-late", NULL };
	char *d;

	test_threads(known, 1, 1, "known schedule");
	test_threads(known, 7, 1, "known schedule");
	if (g_file_test("traces/qemu-busybox", G_FILE_TEST_IS_DIR)) {
		test_threads("traces/qemu-busybox", 13, 1, "qemu-busybox");
		test_threads("traces/qemu-busybox", 50000, 1, "qemu-busybox");
	} else {
		for (int k = 0; k < 2; k++)
			ok(1, "qemu-busybox: one thread or two # SKIP not run from the top folder");
	}
	if ((d = tracegen(tmp, "threads-sample", sample)))
		test_threads(d, 29, 1, "generated sample");
	else
		ok(1, "generated sample: one thread or two # SKIP no ltt-tracegen");
	g_free(d);
	if ((d = tracegen(tmp, "threads-busy", busy))) {
		test_threads(d, 997, 16, "busy, 300000 events");
		test_threads(d, 50000, 1, "busy, 300000 events");
	} else {
		for (int k = 0; k < 2; k++)
			ok(1, "busy: one thread or two # SKIP no ltt-tracegen");
	}
	g_free(d);
	if ((d = tracegen(tmp, "threads-late", late)))
		test_threads(d, 101, 1, "a trace whose reading stops in the middle");
	else
		ok(1, "reading stops: one thread or two # SKIP no ltt-tracegen");
	g_free(d);
}

int main(int argc, char **argv)
{
	char *tmp = g_dir_make_tmp("ltt-state-XXXXXX", NULL);
	char *dir = g_build_filename(tmp, "t", NULL);
	ltt_error *err = NULL;
	ltt_trace *t;
	ltt_state_index *idx;
	const ltt_state *st;
	ltt_state_process_info pi;
	int bash, child, kw, sw0;
	int r, runs = 0;

	if (argc == 3 && !strcmp(argv[1], "--write-random")) {
		g_free(dir);
		g_free(tmp);
		r = write_random_trace(argv[2], 4000);
		for (unsigned f = 0; f < NFAC; f++)
			ltt_description_free(descs[f]);
		return r ? 1 : 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--write-limits")) {
		g_free(dir);
		g_free(tmp);
		r = write_limits_trace(argv[2]);
		for (unsigned f = 0; f < NFAC; f++)
			ltt_description_free(descs[f]);
		return r ? 1 : 0;
	}
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "--write-trace")) {
		g_free(dir);
		g_free(tmp);
		r = write_trace(argv[2], argc == 5 && !strcmp(argv[3], "--lost") ?
					 (unsigned)atoi(argv[4]) : 0);
		for (unsigned f = 0; f < NFAC; f++)
			ltt_description_free(descs[f]);
		return r ? 1 : 0;
	}
	ok(write_trace(dir, 0) == 0, "writer: trace with a known schedule");
	t = ltt_trace_open(dir, NULL, &err);
	ok(t != NULL, "trace opens%s%s", t ? "" : ": ", t ? "" : ltt_error_message(err));
	if (!t)
		return tap_done();

	idx = ltt_state_index_new(&t, 1, NULL, &err);
	ok(idx != NULL, "index created");
	while ((r = ltt_state_index_run(idx, 7, &err)) > 0)
		runs++;
	is_int(r, 0, "indexing reaches the end");
	ok(runs > 3, "indexing ran in %d slices", runs + 1);
	ok(ltt_state_index_done(idx) && ltt_state_index_progress(idx) == 1.0, "done, progress 1");
	/* the writer's layouts are the descriptions' (t40, t42, t55 draw
	 * this trace): a malformed event would only be a warning */
	is_int(ltt_trace_num_warnings(t), 0, "the known schedule decodes without a warning%s%s",
	       ltt_trace_num_warnings(t) ? ": " : "",
	       ltt_trace_num_warnings(t) ? ltt_trace_warning(t, 0) : "");
	st = ltt_state_index_state(idx);

	bash = ltt_state_find_process(st, 100, 0);
	child = find_pid(st, 200);
	kw = ltt_state_find_process(st, 7, 0);
	sw0 = ltt_state_find_process(st, 0, 0);
	ok(bash >= 0 && child >= 0 && kw >= 0 && sw0 >= 0, "processes found");
	is_int(ltt_state_find_process(st, 200, 0), -1, "freed pid 200 is no longer live");
	is_int(ltt_state_num_processes(st), 6, "init, bash, kworker, child, 2 idle tasks");
	is_int(ltt_state_num_cpus(st), 2, "2 CPUs");

	ltt_state_process(st, (unsigned)bash, &pi);
	is_str(pi.name, "bash", "bash: name from the state dump");
	is_int(pi.ppid, 1, "bash: ppid");
	is_int(pi.status, LTT_STATE_RUN, "bash: running at the end");
	is_int(pi.mode, LTT_STATE_USER_MODE, "bash: user mode");
	is_int(pi.mode_depth, 1, "bash: stack depth 1");
	is_int(pi.cpu, 0, "bash: on CPU 0");
	is_int(pi.cpu_ns[LTT_STATE_USER_MODE], 900 + 800 + 950 + 700, "bash: user time");
	is_int(pi.cpu_ns[LTT_STATE_SYSCALL], 100 + 200 + 100 + 200, "bash: syscall time");
	is_int(pi.cpu_ns[LTT_STATE_IRQ], 50, "bash: irq time");
	ok(pi.before_trace, "bash: born before the trace (state dump)");

	ltt_state_process(st, (unsigned)child, &pi);
	is_str(pi.name, "ls", "child: named by exec (base name)");
	is_int(pi.ppid, 100, "child: ppid from fork");
	is_int(pi.tgid, 200, "child: tgid from fork");
	is_int(pi.status, LTT_STATE_DEAD, "child: dead after free");
	is_int(pi.birth_ns, T(2100), "child: born at fork");
	ok(!pi.before_trace, "child: born during the trace");
	is_int(pi.death_ns, T(9200), "child: died at free");
	is_int(pi.cpu, 1, "child: last CPU 1");
	is_int(pi.cpu_ns[LTT_STATE_USER_MODE], 100 + 600 + 1400, "child: user time");
	is_int(pi.cpu_ns[LTT_STATE_SYSCALL], 100 + 200 + 200, "child: syscall time (exit included)");
	is_int(pi.cpu_ns[LTT_STATE_TRAP], 100, "child: trap time");

	{	/* what a mode is about, by name: the model at a time */
		ltt_state *at = ltt_state_new();

		ltt_state_index_seek(idx, T(2050), at, &err);
		ltt_state_process(at, (unsigned)bash, &pi);
		is_str(pi.mode_name ? pi.mode_name : "(none)", "clone",
		       "bash at 2050: in system call 56, named clone");
		ltt_state_index_seek(idx, T(3550), at, &err);
		ltt_state_process(at, (unsigned)child, &pi);
		is_str(pi.mode_name ? pi.mode_name : "(none)", "page_fault",
		       "ls at 3550: in trap 14, named page_fault");
		ltt_state_index_seek(idx, T(3700), at, &err);
		ltt_state_process(at, (unsigned)child, &pi);
		ok(pi.mode_name == NULL, "ls at 3700: in user mode, no name");
		ltt_state_free(at);
	}

	ltt_state_process(st, (unsigned)kw, &pi);
	ok(pi.kernel_thread, "kworker: kernel thread");
	is_int(pi.status, LTT_STATE_WAIT, "kworker: waiting");
	is_int(pi.mode, LTT_STATE_SYSCALL, "kworker: kernel mode");
	is_int(pi.cpu_ns[LTT_STATE_SOFTIRQ], 100, "kworker: softirq time");
	is_int(pi.cpu_ns[LTT_STATE_SYSCALL], 800 + 900, "kworker: kernel time");

	ltt_state_process(st, (unsigned)sw0, &pi);
	is_str(pi.name, "swapper/0", "idle task named per CPU");
	is_int(ltt_state_cpu_process(st, 1), ltt_state_find_process(st, 0, 1),
	       "CPU 1 runs its idle task at the end");
	is_int(ltt_state_cpu_kind(st, 1), LTT_STATE_KIND_IDLE, "CPU 1 idle");
	is_int(ltt_state_num_irqs(st), 1, "one IRQ line");
	{
		ltt_state_irq_info qi;

		ltt_state_irq(st, 0, &qi);
		is_str(qi.name, "timer", "IRQ 0 named by the state dump");
		is_int(qi.count, 3, "IRQ 0 entered 3 times");
		is_int(qi.busy_ns, 50 + 20 + 10, "IRQ 0 busy time");
	}

	is_int(ltt_state_num_softirqs(st), 1, "one softirq seen");
	{
		ltt_state_softirq_info si;

		ltt_state_softirq(st, 0, &si);
		is_int(si.id, 1, "softirq 1");
		is_str(si.name, "TIMER", "named by its enum label");
		is_int(si.count, 1, "entered once");
		is_int(si.busy_ns, 100, "busy 100 ns");
		is_int(si.running, 0, "not running at the end");
	}
	{
		const ival want_bash[] = {
			{ 11, 1000, LTT_STATE_KIND_WAIT },
			{ 1000, 1100, LTT_STATE_KIND_SYSCALL },
			{ 1100, 2000, LTT_STATE_KIND_USER },
			{ 2000, 2200, LTT_STATE_KIND_SYSCALL },
			{ 2200, 3000, LTT_STATE_KIND_USER },
			{ 3000, 3050, LTT_STATE_KIND_IRQ },
			{ 3050, 4000, LTT_STATE_KIND_USER },
			{ 4000, 4100, LTT_STATE_KIND_SYSCALL },
			{ 4100, 9010, LTT_STATE_KIND_WAIT },
			{ 9010, 9100, LTT_STATE_KIND_WAIT_CPU },
			{ 9100, 9300, LTT_STATE_KIND_SYSCALL },
			{ 9300, -1, LTT_STATE_KIND_USER },
		};
		const ival want_child[] = {
			{ 2100, 2500, LTT_STATE_KIND_WAIT_FORK },
			{ 2500, 2600, LTT_STATE_KIND_SYSCALL },
			{ 2600, 2700, LTT_STATE_KIND_USER },
			{ 2700, 2900, LTT_STATE_KIND_SYSCALL },
			{ 2900, 3500, LTT_STATE_KIND_USER },
			{ 3500, 3600, LTT_STATE_KIND_TRAP },
			{ 3600, 5000, LTT_STATE_KIND_USER },
			{ 5000, 5100, LTT_STATE_KIND_SYSCALL },
			{ 5100, 5200, LTT_STATE_KIND_EXIT },
			{ 5200, 9200, LTT_STATE_KIND_ZOMBIE },
			{ 9200, -1, LTT_STATE_KIND_DEAD },
		};
		const ival want_cpu1[] = {
			{ 2500, 2600, LTT_STATE_KIND_SYSCALL },
			{ 2600, 2700, LTT_STATE_KIND_USER },
			{ 2700, 2900, LTT_STATE_KIND_SYSCALL },
			{ 2900, 3500, LTT_STATE_KIND_USER },
			{ 3500, 3600, LTT_STATE_KIND_TRAP },
			{ 3600, 5000, LTT_STATE_KIND_USER },
			{ 5000, 6000, LTT_STATE_KIND_SYSCALL },
			{ 6000, 6100, LTT_STATE_KIND_SOFTIRQ },
			{ 6100, 7000, LTT_STATE_KIND_SYSCALL },
			{ 7000, 9990, LTT_STATE_KIND_IDLE },
			{ 9990, -1, LTT_STATE_KIND_IRQ },
		};
		/* at 500 ns per pixel, a pixel with several states shows one of
		 * them, the one owed most (time spent minus time drawn), so
		 * that the time drawn in each follows the time spent:
		 * [1000, 1500) is 100 ns of system call, 400 of user mode:
		 * user; [2000, 2500) 200 and 300, but user was drawn 100 ns
		 * more than spent: system call; [3000, 3500) 450 ns of user
		 * mode (owed 1.3 pixels) beats the 50 ns interrupt, which
		 * never adds up to a pixel; [4000, 4500) waiting (400) beats
		 * the system call (100, overdrawn); [9010, 9510) 90 ns waiting
		 * for the CPU, 200 system call, 210 user mode, which is owed
		 * the most (0.72 pixels) */
		const ival want_bash_500[] = {
			{ 11, 1000, LTT_STATE_KIND_WAIT },
			{ 1000, 2000, LTT_STATE_KIND_USER },
			{ 2000, 2500, LTT_STATE_KIND_SYSCALL },
			{ 2500, 4000, LTT_STATE_KIND_USER },
			{ 4000, 9010, LTT_STATE_KIND_WAIT },
			{ 9010, -1, LTT_STATE_KIND_USER },
		};
		const ival want_irq[] = {
			{ 13, 3000, LTT_STATE_KIND_IDLE },
			{ 3000, 3050, LTT_STATE_KIND_IRQ },
			{ 3050, 9000, LTT_STATE_KIND_IDLE },
			{ 9000, 9020, LTT_STATE_KIND_IRQ },
			{ 9020, 9990, LTT_STATE_KIND_IDLE },
			{ 9990, -1, LTT_STATE_KIND_IRQ },
		};
		ivals got = { .n = 0 };

		check_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)bash, 0, want_bash, 12, "bash");
		check_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)child, 0, want_child, 11,
				"child");
		/* the trace ends with the last event: nothing after it is drawn */
		is_int(ltt_state_index_indexed_ns(idx), T(10000), "indexed up to the last event");
		check_intervals(idx, LTT_STATE_ROW_CPU, 1, 0, want_cpu1, 11, "CPU 1");
		check_intervals(idx, LTT_STATE_ROW_IRQ, 0, 0, want_irq, 6, "IRQ 0");
		{
			const ival want_sirq[] = {
				{ 6000, 6100, LTT_STATE_KIND_SOFTIRQ },
				{ 6100, -1, LTT_STATE_KIND_IDLE },
			};

			check_intervals(idx, LTT_STATE_ROW_SOFTIRQ, 0, 0, want_sirq, 2,
					"softirq TIMER");
		}
		check_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)bash, 500, want_bash_500, 6,
				"bash at 500 ns/pixel");
		ltt_state_index_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)bash,
					  T(2050), T(3020), 0, collect, &got);
		ok(got.n == 3 && got.v[0].s == T(2050) && got.v[0].k == LTT_STATE_KIND_SYSCALL &&
		   got.v[2].e == T(3020) && got.v[2].k == LTT_STATE_KIND_IRQ,
		   "intervals are clipped to the range asked");
		got.n = 0;
		ok(ltt_state_index_intervals(idx, LTT_STATE_ROW_PROCESS, (unsigned)bash,
					     T(0), T(10000), 1000, collect, &got) <= 2 * 10 + 2,
		   "at 1000 ns/pixel, at most 2 calls per pixel");
		is_int(ltt_state_index_intervals(idx, LTT_STATE_ROW_PROCESS, 99, T(0), T(1), 0,
						 collect, &got), -1, "no such row: -1");
	}

	/* a plain replay without the index gives the same final model */
	{
		ltt_state *full = ltt_state_new();
		ltt_iter *it = ltt_iter_new(&t, 1, &err);
		const ltt_event *ev;
		char why[256] = "";
		int changed = 0;

		while (ltt_iter_next(it, &ev, &err) > 0)
			changed += ltt_state_process_event(full, ev);
		ok(changed > 30 && (uint64_t)changed < ltt_state_num_events(full) + 1,
		   "process_event says which events changed the model (%d)", changed);
		ok(same_state(full, st, ltt_state_time(st), why, sizeof(why)),
		   "index model equals a plain replay%s%s", *why ? ": " : "", why);
		ltt_iter_free(it);
		ltt_state_free(full);
	}
	ltt_state_index_free(idx);

	/* every 25 ns from before the trace to after it */
	test_checkpoints(t, 3, T(-100), T(10200), 25, 8, "known schedule");

	/* the generator's sample (four commands forked, exec'd, exited, freed)
	 * at 150 times over its 2 s */
	{
		const char *b = getenv("BUILD");
		char *gen = g_strdup_printf("%s/bin/ltt-tracegen", b ? b : "build");
		char *sdir = g_build_filename(tmp, "sample", NULL);
		char *argv2[] = { gen, "--scenario", "sample", "-o", sdir, NULL };
		int status = -1;
		ltt_trace *s2;

		if (g_file_test(gen, G_FILE_TEST_IS_EXECUTABLE) &&
		    g_spawn_sync(NULL, argv2, NULL, 0, NULL, NULL, NULL, NULL,
				 &status, NULL) && status == 0 &&
		    (s2 = ltt_trace_open(sdir, NULL, NULL))) {
			const ltt_trace_info *in = ltt_trace_get_info(s2);
			int64_t span = in->last_event_ns - in->first_event_ns;

			test_checkpoints(s2, 40, in->first_event_ns - 1000,
					 in->last_event_ns + 1000, span / 150 + 1, 20,
					 "generated sample");
			test_resolutions(s2, "generated sample");
			ltt_trace_close(s2);
			test_snapshots(sdir, 300, "generated sample");
		} else {
			ok(1, "generated sample # SKIP no %s to write it", gen);
			ok(1, "generated sample: resolutions # SKIP no %s to write it", gen);
			ok(1, "generated sample: tiling # SKIP no %s to write it", gen);
			ok(1, "generated sample: shares # SKIP no %s to write it", gen);
			ok(1, "generated sample: durations # SKIP no %s to write it", gen);
			for (int k = 0; k < 4; k++)
				ok(1, "generated sample: snapshots # SKIP no %s to write it", gen);
		}
		g_free(gen);
		g_free(sdir);
	}

	/* random, inconsistent events: three sequences (seed 9 once crashed
	 * the model: an exit of pid 0 before any event of its CPU);
	 * LTT_STATE_SEED=N tries another one */
	{
		const char *env = getenv("LTT_STATE_SEED");
		uint64_t seeds[] = { 0, 9, 31 };
		unsigned nseeds = env ? 1 : 3;

		if (env)
			seeds[0] = strtoull(env, NULL, 0);
		for (unsigned k = 0; k < nseeds; k++) {
			char name[32], *rdir;
			ltt_trace *rt;

			snprintf(name, sizeof(name), "random%u", k);
			rdir = g_build_filename(tmp, name, NULL);
			rng = 0x9E3779B97F4A7C15ull ^ (seeds[k] * 0x100000001b3ull);
			ok(write_random_trace(rdir, 4000) == 0, "writer: 4000 random events "
			   "(seed %" PRIu64 ")", seeds[k]);
			rt = ltt_trace_open(rdir, NULL, &err);
			ok(rt != NULL, "random trace opens");
			if (rt) {
				const ltt_trace_info *in = ltt_trace_get_info(rt);
				int64_t span = in->last_event_ns - in->first_event_ns;

				snprintf(name, sizeof(name), "random seed %" PRIu64, seeds[k]);
				test_checkpoints(rt, 7, in->first_event_ns - 10,
						 in->last_event_ns + 10, span / 200 + 1, 50, name);
				test_resolutions(rt, name);
				ltt_trace_close(rt);
				test_snapshots(rdir, 50, name);
			}
			g_free(rdir);
		}
	}

	ltt_trace_close(t);
	test_threads_all(tmp, dir);
	test_first_task(tmp);
	test_limits(tmp);
	for (unsigned f = 0; f < NFAC; f++)
		ltt_description_free(descs[f]);
	tap_remove_tree(tmp);
	g_free(dir);
	g_free(tmp);
	ltt_error_free(err);
	return tap_done();
}
