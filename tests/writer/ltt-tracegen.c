// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ltt-tracegen - write synthetic LTT traces: canned scenarios for the
 * viewers' tests and benchmarks, and deliberately broken traces.
 *
 *	ltt-tracegen --scenario sample -o out        a small kernel-like trace
 *	ltt-tracegen --scenario names -o out         the sample, hostile names
 *	ltt-tracegen --scenario types -o out         every field type
 *	ltt-tracegen --scenario wraps -o out         several 2^32 cycle wraps
 *	ltt-tracegen --scenario big --events N -o out
 *	ltt-tracegen --scenario busy --events N -o out   the same, state-consistent
 *		[--rate N] [--wall-start SECONDS]   N events a second, from a given time
 *	ltt-tracegen --scenario latency [--plant-us N] -o out   known answers
 *	ltt-tracegen --scenario chain -o out         a wakeup chain (critical path)
 *	ltt-tracegen --scenario fields --family F --events N -o out
 *		N events of one family of field types (fields.xml), or mixed
 *	ltt-tracegen --bad KIND -o out               see --list-bad
 *
 * Everything is deterministic for a given --seed.  Facility descriptions
 * are read from the source tree (facilities/, tests/facilities/), copied
 * into <out>/eventdefs/ and their checksums computed by libltttrace.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <popt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ltt-writer.h"
#include "ltt-writer-bad.h"
#include "lttw-event-ids.h"
#include "ltttrace.h"

#define MAX_CPUS 64
#define MAX_FACS 16
#define MAX_FAC_IDS 16
#define MAX_EVENTS 64
#define HEARTBEAT_FIRST_US	500
#define HEARTBEAT_PERIOD_US	100000
/* __FLOAT_WORD_ORDER of the machine that writes the floats */
#if defined(__FLOAT_WORD_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
	__FLOAT_WORD_ORDER__ == __ORDER_BIG_ENDIAN__
#define FLOAT_ORDER 4321
#else
#define FLOAT_ORDER 1234
#endif

/* Control channels that lttd mirrors, one file per CPU each. */
static const char *const control_channels[] = {
	LTT_CONTROL_ROOT "/" LTT_FACILITIES_CHANNEL,
	LTT_CONTROL_ROOT "/" LTT_INTERRUPTS_CHANNEL,
	LTT_CONTROL_ROOT "/" LTT_PROCESSES_CHANNEL,
	LTT_CONTROL_ROOT "/" LTT_MODULES_CHANNEL,
	LTT_CONTROL_ROOT "/" LTT_NETWORK_CHANNEL,
};
enum { CTL_FACILITIES, CTL_INTERRUPTS, CTL_PROCESSES, CTL_MODULES, CTL_NETWORK,
       CTL_COUNT };

/* Facility ids, in load order (core is always 0). */
enum { ID_CORE = 0, ID_CHANNEL, ID_KERNEL, ID_KERNEL_ARCH, ID_PROCESS, ID_FS,
       ID_STATEDUMP, ID_USER, ID_TYPES, ID_FIELDS, ID_HOSTILE, ID_GHOST };

struct gen {
	lttw_trace *t;
	lttw_config c;
	unsigned ncpus;
	lttw_file *cpu[MAX_CPUS];
	lttw_file *ctl[CTL_COUNT];	/* of CPU 0 (the state dump's) */
	lttw_file *ctlf[MAX_CPUS][CTL_COUNT];
	/* where each event goes: 0 cpu_N, else control channel k - 1, from
	 * the channel="..." of the XML, as the kernel routes them */
	unsigned char route[MAX_FAC_IDS][MAX_EVENTS];
	lttw_payload p;
	uint64_t rng;
	const char *facdir, *testfacdir;
	int flight;
	int user_tsc, user_freq;	/* --start-tsc, --freq-khz given */
	int lttd_sizes;			/* control channels' sub-buffers as lttctl's */
	uint32_t cpu_subbuf[MAX_CPUS];	/* 0: the trace's default */
	struct {
		char path[PATH_MAX];
		const char *name;
		unsigned id;
		uint32_t checksum;
	} facs[MAX_FACS];		/* use_facility(), by declaration */
	unsigned nfacs;
	int has_floats;			/* a <float> field in one of them */
	uint64_t load_tsc;		/* of the facility table; 0: start_tsc */
	unsigned slow_write_pct;	/* busy: every write takes this much longer */
	double gap_scale;		/* busy: the gaps between events times this */

	/* the sample scenario's machine */
	uint64_t now[MAX_CPUS];
	uint64_t next_tick[MAX_CPUS];
	unsigned ticks[MAX_CPUS];
	unsigned current[MAX_CPUS];	/* running pid */
	int in_irq[MAX_CPUS];
	int in_syscall[MAX_CPUS];
	uint64_t khz;
	int hostile;	/* the names scenario: the sample with hostile names */
	uint32_t float_order;	/* --float-word-order */
};

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("ltt-tracegen: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* xorshift64*: small, fast and the same everywhere. */
static uint64_t rnd(struct gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 2685821657736338717ull;
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_range(struct gen *g, uint64_t lo, uint64_t hi)
{
	return lo + rnd(g) % (hi - lo + 1);
}

static void check(struct gen *g, int ret)
{
	if (ret)
		die("%s", lttw_last_error());
}

/* The tracefile of cpu that event fac.ev goes to, as the kernel routes it. */
static lttw_file *out(const struct gen *g, unsigned cpu, unsigned fac, unsigned ev)
{
	unsigned k = fac < MAX_FAC_IDS && ev < MAX_EVENTS ? g->route[fac][ev] : 0;

	return k ? g->ctlf[cpu][k - 1] : g->cpu[cpu];
}

/* Microseconds to cycles at the trace's frequency. */
static uint64_t us(const struct gen *g, uint64_t n)
{
	return n * g->khz / 1000;
}

/* ---- Setup: files and facilities ------------------------------------------ */

/*
 * The trace directory and its tracefiles: cpu_N (flight-cpu_N in flight
 * mode, where only the last FLIGHT_KEEP sub-buffers survive, of every
 * channel but facilities) with g->cpu_subbuf[N] bytes of sub-buffer if
 * set, and every control channel.  Events go to the channel their XML
 * names (out()), as the kernel's generated writers send them.
 */
#define FLIGHT_KEEP 4
static void load_facilities(struct gen *g, uint64_t tsc);

static void open_files(struct gen *g, const char *dir)
{
	const char *cpu_channel = g->flight ? LTT_FLIGHT_PREFIX LTT_CPU_CHANNEL
					    : LTT_CPU_CHANNEL;

	g->khz = g->c.start_freq * g->c.freq_scale / 1000;
	/* the kernel's heartbeat timer: armed at the start, every HZ / 10 */
	g->c.heartbeat_first = us(g, HEARTBEAT_FIRST_US);
	g->c.heartbeat_period = us(g, HEARTBEAT_PERIOD_US);
	/* the kernel writes 0 (no floats); a writer of floats its order */
	g->c.float_word_order = g->has_floats ? g->float_order : 0;
	g->t = lttw_trace_create(dir, &g->c);
	if (!g->t)
		die("%s", lttw_last_error());
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++) {
		g->cpu[cpu] = lttw_file_open(g->t, cpu_channel, cpu,
					     g->cpu_subbuf[cpu]);
		if (!g->cpu[cpu])
			die("%s", lttw_last_error());
		if (g->flight)
			lttw_file_keep_last(g->cpu[cpu], FLIGHT_KEEP);
		for (unsigned i = 0; i < CTL_COUNT; i++) {
			/* --lttd-sizes: what lttctl asks the tracer for by
			 * default (processes medium rate, the others low),
			 * so that they fill as often as a real trace's */
			uint32_t size = !g->lttd_sizes ? 0 : i == CTL_PROCESSES ?
					LTT_DEFAULT_SUBBUF_SIZE_MED : LTT_DEFAULT_SUBBUF_SIZE_LOW;
			lttw_file *f = lttw_file_open(g->t, control_channels[i], cpu, size);

			if (!f)
				die("%s", lttw_last_error());
			/* flight: every channel but facilities overwrites (0003) */
			if (g->flight && i != CTL_FACILITIES)
				lttw_file_keep_last(f, FLIGHT_KEEP);
			g->ctlf[cpu][i] = f;
			if (cpu == 0)
				g->ctl[i] = f;
		}
	}
	lttw_payload_init(&g->p, g->t);
	load_facilities(g, g->load_tsc ? g->load_tsc : g->c.start_tsc);
}

/*
 * The facilities of a scenario, declared before open_files(): their
 * descriptions are read first (checksum, floats), since the block headers
 * say whether the trace has floats; open_files() then writes the facility
 * table as the kernel does when a trace starts (kernel patch 0003): a
 * core.facility_load of core (id 0), then a core.state_dump_facility_load
 * of every other facility, by id, all on control/facilities_0.
 */
static int type_has_float(const ltt_field_type *t)
{
	switch (ltt_field_type_kind(t)) {
	case LTT_KIND_FLOAT:
		return 1;
	case LTT_KIND_ARRAY:
	case LTT_KIND_SEQUENCE:
		return type_has_float(ltt_field_type_element(t));
	case LTT_KIND_STRUCT:
	case LTT_KIND_UNION:
		for (unsigned i = 0; i < ltt_field_type_num_members(t); i++)
			if (type_has_float(ltt_field_type_member(t, i)))
				return 1;
		return 0;
	default:
		return 0;
	}
}

static void use_facility(struct gen *g, const char *dir, const char *file,
			 const char *want_name, unsigned id)
{
	char path[PATH_MAX];
	ltt_error *err = NULL;
	ltt_description *d;

	if (g->nfacs == MAX_FACS)
		die("more than %d facilities", MAX_FACS);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	d = ltt_description_load(path, &err);
	if (!d)
		die("%s", ltt_error_message(err));
	if (strcmp(ltt_description_name(d), want_name))
		die("%s: facility \"%s\", expected \"%s\"", path,
		    ltt_description_name(d), want_name);
	if (id >= MAX_FAC_IDS || ltt_description_num_events(d) > MAX_EVENTS)
		die("%s: facility id %u or %u events: too many", path, id,
		    ltt_description_num_events(d));
	for (unsigned e = 0; e < ltt_description_num_events(d); e++) {
		const char *ch = ltt_description_event_channel(d, e);

		g->route[id][e] = 0;
		for (unsigned k = 0; ch && strcmp(ch, LTT_CPU_CHANNEL) && k < CTL_COUNT; k++)
			if (!strcmp(ch, control_channels[k] + strlen(LTT_CONTROL_ROOT "/")))
				g->route[id][e] = (unsigned char)(k + 1);
		if (ch && strcmp(ch, LTT_CPU_CHANNEL) && !g->route[id][e])
			die("%s: event %s: no channel \"%s\"", path,
			    ltt_description_event_name(d, e), ch);
		for (unsigned f = 0; f < ltt_description_num_fields(d, e); f++)
			if (type_has_float(ltt_description_field_type(d, e, f)))
				g->has_floats = 1;
	}
	snprintf(g->facs[g->nfacs].path, sizeof(g->facs[0].path), "%s", path);
	g->facs[g->nfacs].name = want_name;
	g->facs[g->nfacs].id = id;
	g->facs[g->nfacs].checksum = ltt_description_checksum(d);
	g->nfacs++;
	ltt_description_free(d);
	if (id == ID_CORE && g->facs[g->nfacs - 1].checksum != LTT_CORE_FACILITY_CHECKSUM)
		die("core.xml checksum 0x%08X, ltt-abi.h says 0x%08X",
		    g->facs[g->nfacs - 1].checksum, LTT_CORE_FACILITY_CHECKSUM);
}

/* The facility table at tsc, and the descriptions into eventdefs/. */
static void load_facilities(struct gen *g, uint64_t tsc)
{
	for (unsigned id = 0; id < 256; id++)
		for (unsigned i = 0; i < g->nfacs; i++)
			if (g->facs[i].id == id) {
				check(g, lttw_eventdef_copy(g->t, g->facs[i].path));
				check(g, lttw_facility_load(g->ctl[CTL_FACILITIES], tsc,
							    g->facs[i].name,
							    g->facs[i].checksum, id,
							    id != ID_CORE));
			}
}

/* core, channel, and the kernel's facilities. */
static void use_kernel_facilities(struct gen *g)
{
	use_facility(g, g->facdir, "core.xml", LTTW_CORE_NAME, ID_CORE);
	use_facility(g, g->facdir, "channel.xml", LTTW_CHANNEL_NAME, ID_CHANNEL);
	use_facility(g, g->facdir, "kernel.xml", LTTW_KERNEL_NAME, ID_KERNEL);
	use_facility(g, g->facdir, "kernel_arch_x86_64.xml", LTTW_KERNEL_ARCH_NAME, ID_KERNEL_ARCH);
	use_facility(g, g->facdir, "process.xml", LTTW_PROCESS_NAME, ID_PROCESS);
	use_facility(g, g->facdir, "fs.xml", LTTW_FS_NAME, ID_FS);
	use_facility(g, g->facdir, "statedump.xml", LTTW_STATEDUMP_NAME, ID_STATEDUMP);
	use_facility(g, g->facdir, "user_generic.xml", LTTW_USER_GENERIC_NAME, ID_USER);
}

static void finish(struct gen *g)
{
	lttw_payload_free(&g->p);
	if (lttw_trace_close(g->t))
		die("%s", lttw_last_error());
}

/* ---- The sample scenario: a small machine, two CPUs, a shell ---------------
 *
 * Each CPU has its own clock g->now[cpu]; every event advances it a little.
 * Timer interrupts (HZ=250) are slipped in before any event that comes after
 * the next tick, and fill idle periods (advance_to), so that each tracefile
 * is in time order and interrupts nest properly inside whatever runs.
 */

#define HZ_PERIOD_US	4000
#define SYS_READ	0
#define SYS_WRITE	1
#define SYS_OPEN	2
#define SYS_CLOSE	3
#define SYS_MMAP	9
#define SYS_BRK		12
#define SYS_NANOSLEEP	35
#define SYS_CLONE	56
#define SYS_EXECVE	59
#define SYS_WAIT4	61
#define SYS_EXIT_GROUP	231
#define TRAP_PAGE_FAULT	14
#define SOFTIRQ_TIMER	1
#define SOFTIRQ_NET_RX	3
#define SOFTIRQ_TASKLET	6	/* Linux 6.1 (facilities/kernel.xml softirq_nr) */
#define ST_RUNNING	0
#define ST_INTERRUPTIBLE 1
#define ST_ZOMBIE	16

struct proc {
	unsigned pid, ppid;
	const char *name;
	int kernel;
	const char *hostile;	/* its name in the names scenario, if other */
};

/*
 * The names scenario (issue 31): names whoever is traced can choose
 * (prctl(PR_SET_NAME), a file named so, a trace's own eventdefs), each
 * holding one kind of thing a tool must not print or draw raw: C0
 * controls (a terminal title and bell, a clear screen, backspace, CR),
 * C1 controls encoded in UTF-8 (CSI, OSC, NEL), bidi overrides and
 * isolates, a line separator, a zero width character, bytes that are
 * not UTF-8 (Latin-1). Quote and backslash too.
 */
#define H_TITLE		"\x1b]0;owned\x07"
#define H_CSI		"\xc2\x9b" "31m"
#define H_OSC		"\xc2\x9d" "0;t\xc2\x9c"
#define H_NEL		"\xc2\x85"
#define H_RLO		"\xe2\x80\xae"
#define H_LSEP		"\xe2\x80\xa8"

static const char *hostile_name(const struct gen *g, const char *plain,
				const char *hostile)
{
	return g->hostile && hostile ? hostile : plain;
}

static const struct proc procs[] = {
	{ 1, 0, "init", 0, NULL },
	{ 2, 1, "migration/0", 1, "mig" H_RLO "0/noitar" },
	{ 3, 1, "ksoftirqd/0", 1, "ksoft\x1b[2Jirqd" },
	{ 4, 1, "migration/1", 1, NULL },
	{ 5, 1, "ksoftirqd/1", 1, "k\bsoft\rirqd" },
	{ 6, 1, "events/0", 1, "ev" H_LSEP "ents" },
	{ 7, 1, "events/1", 1, "ev\xe2\x81\xa6" "ents\xe2\x80\x8b" },
	{ 8, 1, "khelper", 1, NULL },
	{ 9, 1, "kthread", 1, "kth\"re\\ad" },
	{ 112, 9, "kblockd/0", 1, NULL },
	{ 1710, 1, "syslogd", 0, "sys\xe9logd" },
	{ 1742, 1, "klogd", 0, "kl" H_CSI "ogd" },
	{ 2101, 1, "sshd", 0, "ss" H_OSC "hd" },
	{ 2399, 1, "login", 0, "log" H_NEL "in\x7f" },
	{ 2404, 2399, "bash", 0, "ba" H_TITLE "sh" },
};
#define PID_BASH	2404
#define PID_SYSLOGD	1710
#define PID_EVENTS0	6

static void P(struct gen *g)
{
	lttw_payload_reset(&g->p);
}

/* Emit the payload built in g->p on cpu at its clock, then move on. */
static void emit(struct gen *g, unsigned cpu, unsigned fac, unsigned ev);

static void tick(struct gen *g, unsigned cpu)
{
	g->in_irq[cpu] = 1;
	g->ticks[cpu]++;
	P(g);
	lttw_put_uint_n(&g->p, 0, 4);		/* irq 0: timer */
	lttw_put_uint(&g->p, g->current[cpu] == 0 || g->in_syscall[cpu]);	/* mode: an enum, int_size */
	emit(g, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
	P(g);
	emit(g, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
	P(g);
	lttw_put_uint_n(&g->p, SOFTIRQ_TIMER, 4);
	emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
	emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
	if (cpu == 0 && rnd(g) % 16 == 0) {	/* a packet arrives */
		uint64_t func = 0xffffffff80391230ull, data = 0xffff81001e6d4000ull;

		P(g);
		lttw_put_uint_n(&g->p, 11, 4);	/* eth0 */
		lttw_put_uint(&g->p, g->current[cpu] == 0 || g->in_syscall[cpu]);	/* mode: an enum, int_size */
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
		P(g);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
		P(g);
		lttw_put_uint_n(&g->p, SOFTIRQ_NET_RX, 4);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
		P(g);
		lttw_put_uint_n(&g->p, SOFTIRQ_TASKLET, 4);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
		P(g);
		lttw_put_pointer(&g->p, func);
		lttw_put_ulong(&g->p, data);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_TASKLET_ENTRY);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_TASKLET_EXIT);
		P(g);
		lttw_put_uint_n(&g->p, SOFTIRQ_TASKLET, 4);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
	}
	g->in_irq[cpu] = 0;
	g->next_tick[cpu] += us(g, HZ_PERIOD_US) + rnd_range(g, 0, us(g, 20)) - us(g, 10);
}

static void emit(struct gen *g, unsigned cpu, unsigned fac, unsigned ev)
{
	if (!g->in_irq[cpu] && g->now[cpu] >= g->next_tick[cpu]) {
		/* the tick comes first; keep the payload built for this event */
		lttw_payload saved = g->p;

		lttw_payload_init(&g->p, g->t);
		tick(g, cpu);
		lttw_payload_free(&g->p);
		g->p = saved;
	}
	check(g, lttw_event(out(g, cpu, fac, ev), g->now[cpu], fac, ev, g->p.buf, g->p.len));
	g->now[cpu] += rnd_range(g, us(g, 1) / 4, us(g, 2));
}

/* Let time pass on cpu until t: ticks happen meanwhile. */
static void advance_to(struct gen *g, unsigned cpu, uint64_t t)
{
	while (g->next_tick[cpu] <= t) {
		if (g->now[cpu] < g->next_tick[cpu])
			g->now[cpu] = g->next_tick[cpu];
		tick(g, cpu);
	}
	if (g->now[cpu] < t)
		g->now[cpu] = t;
}

static void syscall_entry(struct gen *g, unsigned cpu, unsigned nr)
{
	P(g);
	lttw_put_uint(&g->p, nr);	/* kernel_arch's syscall_name: an enum */
	lttw_put_pointer(&g->p, 0x00002aaaaabc0000ull + nr * 0x40);
	emit(g, cpu, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_ENTRY);
	g->in_syscall[cpu] = 1;
}

static void syscall_exit(struct gen *g, unsigned cpu, int64_t ret)
{
	P(g);
	lttw_put_long(&g->p, ret);
	emit(g, cpu, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_EXIT);
	g->in_syscall[cpu] = 0;
}

static void schedchange(struct gen *g, unsigned cpu, unsigned in, unsigned state)
{
	P(g);
	lttw_put_uint(&g->p, g->current[cpu]);
	lttw_put_uint(&g->p, in);
	lttw_put_uint_n(&g->p, state, 4);
	emit(g, cpu, ID_PROCESS, LTTW_PROCESS_SCHEDCHANGE);
	g->current[cpu] = in;
}

static void wakeup(struct gen *g, unsigned cpu, unsigned pid, unsigned state)
{
	P(g);
	lttw_put_uint(&g->p, pid);
	lttw_put_uint_n(&g->p, state, 4);
	emit(g, cpu, ID_PROCESS, LTTW_PROCESS_WAKEUP);
}

static void pid_event(struct gen *g, unsigned cpu, unsigned ev, unsigned pid)
{
	P(g);
	lttw_put_uint(&g->p, pid);
	emit(g, cpu, ID_PROCESS, ev);
}

static void fs_fd_count(struct gen *g, unsigned cpu, unsigned ev, unsigned fd,
			uint64_t count)
{
	P(g);
	lttw_put_uint_n(&g->p, fd, 4);
	lttw_put_size_t(&g->p, count);
	emit(g, cpu, ID_FS, ev);
}

/* A whole syscall that does not sleep: entry, fs event, exit. */
static void sys_rw(struct gen *g, unsigned cpu, unsigned nr, unsigned fd,
		   uint64_t count, int64_t ret)
{
	syscall_entry(g, cpu, nr);
	fs_fd_count(g, cpu, nr == SYS_READ ? LTTW_FS_READ : LTTW_FS_WRITE, fd, count);
	g->now[cpu] += rnd_range(g, us(g, 2), us(g, 30));
	syscall_exit(g, cpu, ret);
}

static void sys_open_close(struct gen *g, unsigned cpu, const char *file,
			   unsigned fd, uint64_t nread)
{
	syscall_entry(g, cpu, SYS_OPEN);
	P(g);
	lttw_put_uint_n(&g->p, fd, 4);
	lttw_put_text(&g->p, file);
	emit(g, cpu, ID_FS, LTTW_FS_OPEN);
	syscall_exit(g, cpu, fd);
	if (nread)
		sys_rw(g, cpu, SYS_READ, fd, nread, (int64_t)nread);
	syscall_entry(g, cpu, SYS_CLOSE);
	P(g);
	lttw_put_uint_n(&g->p, fd, 4);
	emit(g, cpu, ID_FS, LTTW_FS_CLOSE);
	syscall_exit(g, cpu, 0);
}

static void page_faults(struct gen *g, unsigned cpu, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t ip = 0x0000000000400000ull + rnd_range(g, 0, 0x3fff) * 16;

		P(g);
		lttw_put_uint_n(&g->p, TRAP_PAGE_FAULT, 2);
		lttw_put_pointer(&g->p, ip);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_TRAP_ENTRY);
		g->now[cpu] += rnd_range(g, us(g, 1), us(g, 4));
		P(g);
		lttw_put_uint_n(&g->p, TRAP_PAGE_FAULT, 2);
		emit(g, cpu, ID_KERNEL, LTTW_KERNEL_TRAP_EXIT);
	}
}

/* bash (CPU 0) waits on the terminal until t, then reads a command line. */
static void bash_reads_line(struct gen *g, uint64_t t, unsigned len)
{
	if (g->current[0] == PID_BASH) {	/* else: already waiting */
		syscall_entry(g, 0, SYS_READ);
		fs_fd_count(g, 0, LTTW_FS_READ, 0, 1024);
		schedchange(g, 0, 0, ST_INTERRUPTIBLE);
	}
	advance_to(g, 0, t);
	P(g);
	lttw_put_uint_n(&g->p, 1, 4);		/* keyboard */
	lttw_put_uint(&g->p, 1);	/* mode: an enum, int_size */
	emit(g, 0, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
	g->in_irq[0] = 1;
	wakeup(g, 0, PID_BASH, ST_INTERRUPTIBLE);
	P(g);
	emit(g, 0, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
	g->in_irq[0] = 0;
	schedchange(g, 0, PID_BASH, ST_RUNNING);
	syscall_exit(g, 0, len);
}

/*
 * bash forks a child that runs on CPU 1: exec, load libc, do its work,
 * exit; bash waits for it and reaps it.  sleep_us > 0: the child sleeps.
 */
static void run_command(struct gen *g, unsigned child, const char *path,
			const char *output_file, unsigned writes, uint64_t sleep_us)
{
	uint64_t t;

	syscall_entry(g, 0, SYS_CLONE);
	P(g);
	lttw_put_uint(&g->p, PID_BASH);
	lttw_put_uint(&g->p, child);
	lttw_put_uint(&g->p, child);
	emit(g, 0, ID_PROCESS, LTTW_PROCESS_FORK);
	g->now[0] += us(g, 40);
	syscall_exit(g, 0, child);
	t = g->now[0];
	syscall_entry(g, 0, SYS_WAIT4);
	pid_event(g, 0, LTTW_PROCESS_WAIT, child);
	schedchange(g, 0, 0, ST_INTERRUPTIBLE);

	/* the child starts on CPU 1 */
	advance_to(g, 1, t + us(g, 15));
	schedchange(g, 1, child, ST_RUNNING);
	syscall_exit(g, 1, 0);			/* the child's return from clone */
	syscall_entry(g, 1, SYS_EXECVE);
	P(g);
	lttw_put_text(&g->p, path);
	emit(g, 1, ID_FS, LTTW_FS_EXEC);
	g->now[1] += us(g, 120);
	syscall_exit(g, 1, 0);
	page_faults(g, 1, 3);
	syscall_entry(g, 1, SYS_BRK);
	syscall_exit(g, 1, 0x601000);
	sys_open_close(g, 1, "/etc/ld.so.cache", 3, 0);
	sys_open_close(g, 1, "/lib/libc.so.6", 3, 832);
	syscall_entry(g, 1, SYS_MMAP);
	syscall_exit(g, 1, (int64_t)0x2aaaaaad0000ll);
	page_faults(g, 1, 2);
	if (output_file)
		sys_open_close(g, 1, output_file, 3, rnd_range(g, 10, 4000));
	if (sleep_us) {
		syscall_entry(g, 1, SYS_NANOSLEEP);
		schedchange(g, 1, 0, ST_INTERRUPTIBLE);
		advance_to(g, 1, g->now[1] + us(g, sleep_us));
		/* the timer that ends the sleep */
		g->in_irq[1] = 1;
		P(g);
		lttw_put_uint_n(&g->p, 0, 4);
		lttw_put_uint(&g->p, 1);	/* mode: an enum, int_size */
		emit(g, 1, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
		P(g);
		emit(g, 1, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
		P(g);
		lttw_put_uint_n(&g->p, SOFTIRQ_TIMER, 4);
		emit(g, 1, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
		wakeup(g, 1, child, ST_INTERRUPTIBLE);
		P(g);
		lttw_put_uint_n(&g->p, SOFTIRQ_TIMER, 4);
		emit(g, 1, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
		g->in_irq[1] = 0;
		schedchange(g, 1, child, ST_RUNNING);
		syscall_exit(g, 1, 0);
	}
	for (unsigned i = 0; i < writes; i++) {
		uint64_t n = rnd_range(g, 20, 200);

		sys_rw(g, 1, SYS_WRITE, 1, n, (int64_t)n);
	}
	syscall_entry(g, 1, SYS_EXIT_GROUP);
	pid_event(g, 1, LTTW_PROCESS_EXIT, child);
	wakeup(g, 1, PID_BASH, ST_INTERRUPTIBLE);
	t = g->now[1];
	schedchange(g, 1, 0, ST_ZOMBIE);

	/* bash wakes up on CPU 0 and reaps the child */
	advance_to(g, 0, t + us(g, 10));
	schedchange(g, 0, PID_BASH, ST_RUNNING);
	pid_event(g, 0, LTTW_PROCESS_FREE, child);
	syscall_exit(g, 0, child);
}

/* syslogd (CPU 1) writes a line to its log. */
static void syslogd_writes(struct gen *g, uint64_t t)
{
	advance_to(g, 1, t);
	wakeup(g, 1, PID_SYSLOGD, ST_INTERRUPTIBLE);
	schedchange(g, 1, PID_SYSLOGD, ST_RUNNING);
	syscall_exit(g, 1, 64);			/* its select returns */
	sys_rw(g, 1, SYS_READ, 5, 1024, 64);
	sys_rw(g, 1, SYS_WRITE, 3, 64, 64);
	syscall_entry(g, 1, 23);		/* select */
	schedchange(g, 1, 0, ST_INTERRUPTIBLE);
}

/* events/0 (CPU 0) runs its work queue. */
static void events_thread(struct gen *g, uint64_t t)
{
	unsigned prev = g->current[0];

	advance_to(g, 0, t);
	wakeup(g, 0, PID_EVENTS0, ST_INTERRUPTIBLE);
	schedchange(g, 0, PID_EVENTS0, ST_RUNNING);	/* prev is preempted */
	g->now[0] += us(g, 25);
	schedchange(g, 0, prev, ST_INTERRUPTIBLE);
}

static void scenario_sample(struct gen *g, const char *dir)
{
	uint64_t t0 = g->c.start_tsc;
	unsigned cpu;
	lttw_file *ps, *irqs;
	static const struct { unsigned irq; const char *action, *hostile; } irq_list[] = {
		{ 0, "timer", NULL }, { 1, "i8042", "i80" H_CSI "42" },
		{ 8, "rtc", "r" H_RLO "tc" }, { 11, "eth0", H_TITLE "|eth0" },
		{ 12, "i8042", "i8042\xff" }, { 14, "ide0", "ide" H_LSEP "0" },
		{ 15, "ide1", NULL },
	};

	if (g->ncpus < 2)
		die("the sample scenario needs 2 CPUs or more");
	use_kernel_facilities(g);
	if (g->hostile) {	/* beside tests/facilities: outside the era's dialect */
		char hdir[PATH_MAX];

		snprintf(hdir, sizeof(hdir), "%s/../hostile-facilities", g->testfacdir);
		use_facility(g, hdir, "hostile.xml", "ho" H_TITLE "stile", ID_HOSTILE);
	}
	open_files(g, dir);
	if (g->hostile)	/* a facility without a description, named so */
		check(g, lttw_facility_load(g->ctl[CTL_FACILITIES], t0, "gh" H_CSI "o\x1b[2Jst",
					    0x0BAD0BAD, ID_GHOST, 1));

	/* the state dump, on the control channels */
	ps = g->ctl[CTL_PROCESSES];
	irqs = g->ctl[CTL_INTERRUPTS];
	for (unsigned i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		P(g);
		lttw_put_uint(&g->p, procs[i].pid);
		lttw_put_uint(&g->p, procs[i].ppid);
		lttw_put_string(&g->p, hostile_name(g, procs[i].name, procs[i].hostile));
		lttw_put_uint_n(&g->p, procs[i].kernel, 4);	/* type */
		lttw_put_uint_n(&g->p, 1, 4);			/* mode: SYSCALL */
		lttw_put_uint_n(&g->p, 0, 4);			/* submode: NONE */
		lttw_put_uint_n(&g->p, 5, 4);			/* status: WAIT */
		lttw_put_uint(&g->p, procs[i].pid);		/* tgid */
		check(g, lttw_event(ps, t0 + us(g, 5 + i), ID_STATEDUMP,
				    LTTW_STATEDUMP_ENUMERATE_PROCESS_STATE,
				    g->p.buf, g->p.len));
	}
	for (unsigned i = 0; i < sizeof(irq_list) / sizeof(irq_list[0]); i++) {
		P(g);
		lttw_put_uint_n(&g->p, irq_list[i].irq, 4);
		lttw_put_string(&g->p, hostile_name(g, irq_list[i].action, irq_list[i].hostile));
		check(g, lttw_event(irqs, t0 + us(g, 30 + i), ID_STATEDUMP,
				    LTTW_STATEDUMP_INTERRUPT, g->p.buf, g->p.len));
	}
	P(g);
	check(g, lttw_event(ps, t0 + us(g, 40), ID_STATEDUMP,
			    LTTW_STATEDUMP_STATEDUMP_END, NULL, 0));

	/* both CPUs idle in swapper; the first tick comes soon (the
	 * heartbeats are the writer's, as the kernel's timer writes them) */
	for (cpu = 0; cpu < g->ncpus; cpu++) {
		g->now[cpu] = t0 + us(g, 50 + 7 * cpu);
		g->next_tick[cpu] = t0 + us(g, 700 + 3300 * cpu);
		g->current[cpu] = 0;
	}

	/* a kernel thread appears */
	advance_to(g, 0, t0 + us(g, 30000));
	wakeup(g, 0, 9, ST_INTERRUPTIBLE);	/* kthread creates pdflush */
	schedchange(g, 0, 9, ST_RUNNING);
	/* the kernel's order: the fork, then what the child is (patch 0007) */
	P(g);
	lttw_put_uint(&g->p, 9);
	lttw_put_uint(&g->p, 150);
	lttw_put_uint(&g->p, 150);
	emit(g, 0, ID_PROCESS, LTTW_PROCESS_FORK);
	P(g);
	lttw_put_uint(&g->p, 150);
	lttw_put_pointer(&g->p, 0xffffffff80262f50ull);
	emit(g, 0, ID_PROCESS, LTTW_PROCESS_KERNEL_THREAD);
	schedchange(g, 0, 150, ST_INTERRUPTIBLE);
	g->now[0] += us(g, 12);
	schedchange(g, 0, 0, ST_INTERRUPTIBLE);
	events_thread(g, t0 + us(g, 60000));

	/* the user types commands */
	bash_reads_line(g, t0 + us(g, 150000), 3);
	run_command(g, 2471, hostile_name(g, "/bin/ls", "/bin/l\x1b[2Js"), NULL, 6, 0);
	syslogd_writes(g, t0 + us(g, 260000));
	bash_reads_line(g, t0 + us(g, 420000), 21);
	run_command(g, 2472, hostile_name(g, "/bin/cat", "/bin/caf\xe9"),
		    hostile_name(g, "/etc/hostname", "/etc/ho\x07st" H_RLO "eman"), 1, 0);
	P(g);
	lttw_put_string(&g->p, hostile_name(g, "bash: prompt", "bash: " H_TITLE H_OSC "\xfe"));
	emit(g, 0, ID_USER, LTTW_USER_GENERIC_STRING);
	if (g->hostile) {	/* hostile.xml's event: every name escaped */
		P(g);
		lttw_put_uint(&g->p, 1);
		lttw_put_string(&g->p, "te" H_CSI "xt");
		emit(g, 0, ID_HOSTILE, 0);
	}
	events_thread(g, t0 + us(g, 500000));
	bash_reads_line(g, t0 + us(g, 610000), 8);
	run_command(g, 2473, hostile_name(g, "/bin/sleep", "/bin/sl" H_LSEP "eep"), NULL, 0, 1000000);
	syslogd_writes(g, t0 + us(g, 1700000));
	bash_reads_line(g, t0 + us(g, 1780000), 6);
	run_command(g, 2474, hostile_name(g, "/bin/ls", "/bin/" H_RLO "sl"),
		    hostile_name(g, "/etc/passwd", "/etc/pa\xc0\xafsswd"), 12, 0);
	P(g);
	lttw_put_string(&g->p, "done: %d commands");
	lttw_put_pointer(&g->p, 0x7fffffffe3a0ull);
	emit(g, 0, ID_USER, LTTW_USER_GENERIC_STRING_POINTER);
	P(g);
	lttw_put_string(&g->p, "session ends after 4 commands");
	emit(g, 0, ID_USER, LTTW_USER_GENERIC_SLOW_PRINTF);
	bash_reads_line(g, t0 + us(g, 1990000), 0);
	for (cpu = 0; cpu < g->ncpus; cpu++)
		advance_to(g, cpu, t0 + us(g, 2000000));
	finish(g);
}

/* ---- types: every field type of tests/facilities/types.xml --------------- */

static void put_all_types(struct gen *g, int k, const char *str, unsigned seqlen,
			  unsigned nnames)
{
	lttw_payload *p = &g->p;
	static const char *const names[] = { "", "a", "bc", "def", "ghij" };

	P(g);
	lttw_put_int_n(p, -1 - k, 1);				/* c */
	lttw_put_uint_n(p, 0xBEEF + k, 2);			/* u16 */
	lttw_put_int_n(p, -128 + k, 1);				/* i8 */
	lttw_put_int(p, -2000000000 + k);			/* i32 */
	lttw_put_uint_n(p, 255 - k, 1);				/* u8 */
	lttw_put_int_n(p, INT64_MIN + k, 8);			/* i64 */
	lttw_put_int_n(p, -32768 + k, 2);			/* s16 */
	lttw_put_uint(p, 4000000000u + (unsigned)k);		/* u32: uint, int_size */
	lttw_put_uint_n(p, 0x80 + k, 1);			/* u8f */
	lttw_put_uint_n(p, UINT64_MAX - (unsigned)k, 8);	/* u64 */
	lttw_put_int_n(p, -300 - k, 2);				/* i16f */
	lttw_put_long(p, -123456789 - k);			/* l */
	lttw_put_ulong(p, 3000000000u + (unsigned)k);		/* ul */
	lttw_put_pointer(p, 0xffffffff80100000ull + (unsigned)k); /* ptr */
	lttw_put_size_t(p, 4096 + k);				/* sz */
	lttw_put_long(p, -4096 - k);				/* ssz */
	lttw_put_long(p, 1 << 20);				/* off */
	lttw_put_float(p, 1.5 + k, 4);				/* f32 */
	lttw_put_float(p, -2.25e-3 * (k + 1), 8);		/* f64 */
	lttw_put_string(p, str);				/* str */
	lttw_put_uint(p, (unsigned)k % 2 ? 7 : 8);		/* col: BLUE, ALPHA (enum: int_size) */
	lttw_align(p, 2);					/* arr */
	for (unsigned i = 0; i < 3; i++)
		lttw_put_uint_n(p, 100 * (i + 1) + k, 2);
	lttw_put_seq_len(p, seqlen, 1, 4);			/* seq */
	for (unsigned i = 0; i < seqlen; i++)
		lttw_put_int_n(p, -(int)i * 1000 - k, 4);
	lttw_seq_end(p);
	lttw_align(p, 8);					/* pts */
	for (unsigned i = 0; i < 2; i++) {
		lttw_align(p, 8);
		lttw_put_int_n(p, (int)i - 5 + k, 2);
		lttw_put_int_n(p, ((int64_t)1 << 40) * (i + 1) + k, 8);
	}
	lttw_align(p, 8);					/* nested */
	lttw_put_uint_n(p, 'T', 1);				/* .tag */
	lttw_align(p, 8);					/* .val */
	lttw_put_uint_n(p, 0x0102030405060708ull + (unsigned)k, 8);
	lttw_put_seq_len(p, nnames, 2, 1);			/* .names */
	for (unsigned i = 0; i < nnames; i++)
		lttw_put_string(p, names[i % 5]);
	lttw_seq_end(p);
	lttw_put_int_n(p, 'z', 1);				/* .last */
	lttw_put_string(p, k % 2 ? "tail" : "");		/* tail */
}

static void scenario_types(struct gen *g, const char *dir)
{
	uint64_t t = g->c.start_tsc;
	static const char *const strs[] = {
		"", "x", "hello, world", "tab\there \"quoted\" back\\slash",
		"caf\xc3\xa9 \xe2\x82\xac", "a fairly long string that is meant to "
		"take a good part of a line of text, to see wrapping",
	};
	char text[600];
	uint32_t big_subbuf = 131072;

	g->c.channel_facility_id = ID_CHANNEL;
	if (g->ncpus < 2)
		g->ncpus = 2;
	/* cpu_1 holds the event of 65535 bytes: it needs bigger sub-buffers */
	g->cpu_subbuf[1] = big_subbuf > g->c.subbuf_size ? big_subbuf
							  : g->c.subbuf_size;
	use_facility(g, g->facdir, "core.xml", LTTW_CORE_NAME, ID_CORE);
	use_facility(g, g->facdir, "channel.xml", LTTW_CHANNEL_NAME, ID_CHANNEL);
	use_facility(g, g->testfacdir, "types.xml", LTTW_TYPES_NAME, ID_TYPES);
	open_files(g, dir);

	/* every type, with strings and sequences of several lengths */
	for (int k = 0; k < 12; k++) {
		put_all_types(g, k, strs[k % 6], (unsigned)k % 5, (unsigned)k % 4);
		t += us(g, 10);
		check(g, lttw_event(g->cpu[0], t, ID_TYPES, LTTW_TYPES_ALL_TYPES,
				    g->p.buf, g->p.len));
	}
	/*
	 * text events of growing length: their ends move one byte at a time
	 * along the sub-buffers, leaving all sorts of lost_size
	 */
	for (unsigned n = 0; n < 200; n++) {
		unsigned len = n;

		memset(text, 'a' + n % 26, len);
		text[len] = '\0';
		P(g);
		lttw_put_uint_n(&g->p, n, 4);
		lttw_put_string(&g->p, text);
		t += us(g, 3);
		if (n == 60)		/* losses: the next sub-buffer says so */
			lttw_file_add_losses(g->cpu[0], 3, 0);
		if (n == 150)
			lttw_file_add_losses(g->cpu[0], 2, 1);
		check(g, lttw_event(g->cpu[0], t, ID_TYPES, LTTW_TYPES_TEXT,
				    g->p.buf, g->p.len));
	}
	/*
	 * Strings and sequences that end exactly k bytes before the end of a
	 * sub-buffer, k = 0..7: lost_size is k, and for k = 0 the string's
	 * NUL or the sequence's last byte is the sub-buffer's last byte.
	 */
	for (unsigned k = 0; k < 16; k++) {
		unsigned kk = k % 8;
		int seq = k >= 8;
		size_t room, fixed;

		/* the fixed part of the payload: n, and the sequence's length */
		P(g);
		lttw_put_uint_n(&g->p, 1000 + k, seq ? 1 : 4);
		if (seq) {
			lttw_put_seq_len(&g->p, 0, 4, 1);
			lttw_seq_end(&g->p);
		} else
			lttw_put_string(&g->p, "");
		fixed = g->p.len;
		room = lttw_file_room(g->cpu[0]);
		if (room < fixed + kk + 1) {
			check(g, lttw_file_switch(g->cpu[0]));
			room = lttw_file_room(g->cpu[0]);
			if (room < fixed + kk + 1)
				continue;	/* tiny sub-buffers */
		}
		while (room > fixed + kk + 500) {	/* fill most of it */
			memset(text, 'f', 400);
			text[400] = '\0';
			P(g);
			lttw_put_uint_n(&g->p, 2000 + k, 4);
			lttw_put_string(&g->p, text);
			t += us(g, 3);
			check(g, lttw_event(g->cpu[0], t, ID_TYPES, LTTW_TYPES_TEXT,
					    g->p.buf, g->p.len));
			room = lttw_file_room(g->cpu[0]);
		}
		memset(text, seq ? 'S' : 'A' + (char)kk, sizeof(text));
		/* the longest string or sequence whose payload, realignment
		 * included, leaves kk bytes or a few more (the realignment
		 * rounds the end up to the pointer size, docs/format.md) */
		for (size_t n = room - kk - fixed + 1; n-- > 0;) {
			P(g);
			if (seq) {
				lttw_put_uint_n(&g->p, 1000 + k, 1);
				lttw_put_seq_len(&g->p, n, 4, 1);
				lttw_put_raw(&g->p, text, n);
				lttw_seq_end(&g->p);
			} else {
				memset(text, 'A' + (char)kk, sizeof(text));
				text[n] = '\0';
				lttw_put_uint_n(&g->p, 1000 + k, 4);
				lttw_put_string(&g->p, text);
			}
			if (g->p.len <= room - kk)
				break;
		}
		t += us(g, 3);
		check(g, lttw_event(g->cpu[0], t, ID_TYPES,
				    seq ? LTTW_TYPES_BYTES : LTTW_TYPES_TEXT,
				    g->p.buf, g->p.len));
		check(g, lttw_file_switch(g->cpu[0]));	/* lost_size = kk */
	}
	/* all_types events again, near the ends of the sub-buffers */
	for (int k = 0; k < 40; k++) {
		put_all_types(g, k, strs[(k * 7) % 6], (unsigned)(k * 3) % 17,
			      (unsigned)k % 6);
		t += us(g, 5);
		check(g, lttw_event(g->cpu[0], t, ID_TYPES, LTTW_TYPES_ALL_TYPES,
				    g->p.buf, g->p.len));
	}
	/* cpu_1: sequences of bytes, one of exactly 65535 bytes of payload */
	{
		static const unsigned lens[] = { 0, 1, 7, 8, 300 };
		unsigned char *data = malloc(70000);
		size_t fixed;

		if (!data)
			die("out of memory");
		for (unsigned i = 0; i < 70000; i++)
			data[i] = (unsigned char)(i * 7 + i / 256);
		for (unsigned i = 0; i < 5; i++) {
			P(g);
			lttw_put_uint_n(&g->p, i, 1);
			lttw_put_seq_len(&g->p, lens[i], 4, 1);
			lttw_put_raw(&g->p, data, lens[i]);
			lttw_seq_end(&g->p);
			t += us(g, 7);
			check(g, lttw_event(g->cpu[1], t, ID_TYPES, LTTW_TYPES_BYTES,
					    g->p.buf, g->p.len));
		}
		/* n, pad, length: the rest makes 65535 bytes, 65536 with the
		 * realignment (event_size 0xFFFF: 65535 bytes or more) */
		P(g);
		lttw_put_uint_n(&g->p, 5, 1);
		lttw_put_seq_len(&g->p, 0, 4, 1);
		fixed = g->p.len;
		P(g);
		lttw_put_uint_n(&g->p, 5, 1);
		lttw_put_seq_len(&g->p, 65535 - fixed, 4, 1);
		lttw_put_raw(&g->p, data, 65535 - fixed);
		lttw_seq_end(&g->p);
		t += us(g, 7);
		check(g, lttw_event(g->cpu[1], t, ID_TYPES, LTTW_TYPES_BYTES,
				    g->p.buf, g->p.len));
		free(data);
	}
	finish(g);
}

/* ---- wraps: several 2^32 wraps of the cycle counter ----------------------- */

static void scenario_wraps(struct gen *g, const char *dir)
{
	uint64_t t[MAX_CPUS];
	const uint64_t wrap = 1ull << 32;

	/* unless told: 1000 cycles before a wrap, at 1 GHz (a wrap every 4.3 s) */
	if (!g->user_tsc)
		g->c.start_tsc = 3 * wrap - 1000;
	if (!g->user_freq)
		g->c.start_freq = 1000000;
	/* CPU 1's counter lags (below): its first events come before start_tsc,
	 * the facility table before them */
	if (g->ncpus > 1 && g->c.start_tsc > 5000)
		g->load_tsc = g->c.start_tsc - 5000;
	use_kernel_facilities(g);
	open_files(g, dir);
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++) {
		/* CPU 1's counter lags: its first events come before start_tsc */
		t[cpu] = cpu == 1 && g->c.start_tsc > 5000 ? g->c.start_tsc - 5000
							  : g->c.start_tsc + 10 * cpu;
		for (unsigned i = 0; i < 400; i++) {
			/* mostly small steps, some big (up to 1.9 * 2^32) */
			uint64_t step;

			switch (rnd(g) % 8) {
			case 0: step = rnd_range(g, wrap / 2, wrap * 19 / 10); break;
			case 1: step = rnd_range(g, wrap / 8, wrap / 2); break;
			default: step = rnd_range(g, 100, 200000); break;
			}
			if (i == 0)	/* the first event at the CPU's start */
				step = 0;
			if (i == 100)	/* land on an exact multiple of 2^32 */
				step = wrap - t[cpu] % wrap;
			if (i == 101)	/* then just before the next one */
				step = wrap - 1;
			t[cpu] += step;
			P(g);
			lttw_put_uint(&g->p, i % 300);
			lttw_put_pointer(&g->p, 0x400000 + i);
			check(g, lttw_event(g->cpu[cpu], t[cpu], ID_KERNEL_ARCH,
					    LTTW_KERNEL_ARCH_SYSCALL_ENTRY, g->p.buf, g->p.len));
			t[cpu] += rnd_range(g, 50, 5000);
			P(g);
			lttw_put_long(&g->p, (int64_t)i - 5);
			check(g, lttw_event(g->cpu[cpu], t[cpu], ID_KERNEL_ARCH,
					    LTTW_KERNEL_ARCH_SYSCALL_EXIT, g->p.buf, g->p.len));
		}
	}
	finish(g);
}

/* ---- big: N events, a kernel-like mix, written as fast as possible -------- */

struct tmpl {
	unsigned fac, ev;
	unsigned char buf[32];
	size_t len;
};

static void scenario_big(struct gen *g, const char *dir, uint64_t n)
{
	/*
	 * one cycle of a busy kernel: syscalls, irqs, scheduling; each CPU
	 * has its own pair of tasks (a shell and a daemon), so that no task
	 * runs on two CPUs at once
	 */
	static struct tmpl tms[MAX_CPUS][16];
	unsigned nt = 0;
	uint64_t t[MAX_CPUS];

#define TM(f, e) do { tm[nt].fac = (f); tm[nt].ev = (e); \
		memcpy(tm[nt].buf, g->p.buf, g->p.len); tm[nt].len = g->p.len; nt++; } while (0)

	use_kernel_facilities(g);
	open_files(g, dir);
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++) {
		struct tmpl *tm = tms[cpu];
		unsigned shell = 2404 + 10 * cpu, daemon = 1710 + 10 * cpu;

		nt = 0;
		P(g); lttw_put_uint(&g->p, SYS_READ); lttw_put_pointer(&g->p, 0x4005d0);
		TM(ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_ENTRY);
		P(g); lttw_put_uint_n(&g->p, 3, 4); lttw_put_size_t(&g->p, 4096);
		TM(ID_FS, LTTW_FS_READ);
		P(g); lttw_put_long(&g->p, 4096);
		TM(ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_EXIT);
		P(g); lttw_put_uint_n(&g->p, 0, 4); lttw_put_uint(&g->p, 0);
		TM(ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
		P(g);
		TM(ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
		P(g); lttw_put_uint_n(&g->p, SOFTIRQ_TIMER, 4);
		TM(ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
		TM(ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
		P(g); lttw_put_uint(&g->p, daemon); lttw_put_uint_n(&g->p, ST_INTERRUPTIBLE, 4);
		TM(ID_PROCESS, LTTW_PROCESS_WAKEUP);
		P(g); lttw_put_uint(&g->p, shell); lttw_put_uint(&g->p, daemon);
		lttw_put_uint_n(&g->p, ST_RUNNING, 4);
		TM(ID_PROCESS, LTTW_PROCESS_SCHEDCHANGE);
		P(g); lttw_put_uint(&g->p, SYS_WRITE); lttw_put_pointer(&g->p, 0x4005e0);
		TM(ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_ENTRY);
		P(g); lttw_put_uint_n(&g->p, 1, 4); lttw_put_size_t(&g->p, 80);
		TM(ID_FS, LTTW_FS_WRITE);
		P(g); lttw_put_long(&g->p, 80);
		TM(ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_EXIT);
		P(g); lttw_put_uint(&g->p, daemon); lttw_put_uint(&g->p, shell);
		lttw_put_uint_n(&g->p, ST_INTERRUPTIBLE, 4);
		TM(ID_PROCESS, LTTW_PROCESS_SCHEDCHANGE);
	}
#undef TM
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++)
		t[cpu] = g->c.start_tsc + 100;
	for (uint64_t i = 0; i < n; i++) {
		unsigned cpu = (unsigned)(i % g->ncpus);
		const struct tmpl *e = &tms[cpu][(i / g->ncpus) % nt];

		t[cpu] += 200 + (rnd(g) & 1023);
		if (lttw_event(out(g, cpu, e->fac, e->ev), t[cpu], e->fac, e->ev,
			       e->buf, e->len))
			die("%s", lttw_last_error());
	}
	finish(g);
}

/* ---- busy: N events of a busy machine, consistent for the state engine ---
 *
 * What the viewer's benchmark indexes and draws (bench/viewer.py): unlike
 * big, whose CPUs each loop over two tasks of their own, every schedchange
 * here switches out the task its CPU runs, a task runs on one CPU at a
 * time, and every task that gets a CPU returns from the system call it
 * left it in. BUSY_TASKS long-lived tasks (from the state dump) read,
 * write, fault, block and get woken by interrupts; one of them forks a
 * short-lived child every BUSY_FORK_EVERY events or so, which execs,
 * works for a while and exits, so that processes come and go as on a
 * build machine. One clock for the whole machine, so that the CPUs'
 * events interleave in a consistent order.
 */

#define BUSY_TASKS		64
#define BUSY_FORK_EVERY		3000
#define BUSY_CHILD_ACTIONS	40
#define BUSY_FIRST_CHILD	10000
#define SYS_SCHED_YIELD		24
#define BUSY_RATE		1777778	/* events a second: gaps of 1/8..1 us */

enum { B_RUNNABLE, B_BLOCKED, B_RUNNING, B_GONE };

struct btask {
	unsigned pid;
	int state;		/* B_* */
	int child;		/* short-lived: exits after `left` actions */
	int fresh;		/* forked, not yet run: returns from clone */
	unsigned left;
};

struct busy {
	struct gen *g;
	uint64_t now, count, n;
	struct btask *tasks;
	unsigned ntasks, cap;
	unsigned *runq, nrunq;		/* task indexes */
	unsigned *blocked, nblocked;
	int cur[MAX_CPUS];		/* task index, -1: idle */
	unsigned next_pid;
	uint64_t next_fork;
};

/* One event on cpu at the machine's clock; nothing past the N-th. */
static void bev(struct busy *b, unsigned cpu, unsigned fac, unsigned ev)
{
	struct gen *g = b->g;

	if (b->count >= b->n)
		return;
	check(g, lttw_event(out(g, cpu, fac, ev), b->now, fac, ev, g->p.buf, g->p.len));
	b->count++;
	b->now += (uint64_t)((double)rnd_range(g, us(g, 1) / 8, us(g, 1)) * g->gap_scale);
}

static unsigned pid_of(const struct busy *b, int t)
{
	return t < 0 ? 0 : b->tasks[t].pid;
}

static void take(unsigned *arr, unsigned *n, unsigned i)
{
	arr[i] = arr[--*n];
}

static void b_syscall(struct busy *b, unsigned cpu, unsigned nr)
{
	P(b->g);
	lttw_put_uint(&b->g->p, nr);
	lttw_put_pointer(&b->g->p, 0x00002aaaaabc0000ull + nr * 0x40);
	bev(b, cpu, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_ENTRY);
}

static void b_sysexit(struct busy *b, unsigned cpu, int64_t ret)
{
	P(b->g);
	lttw_put_long(&b->g->p, ret);
	bev(b, cpu, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_EXIT);
}

/* cpu's task leaves it in `state` (it is inside a system call, or
 * exiting); the next runnable task, or the idle task, gets it and
 * returns from the call it was left in (a fresh child from clone, then
 * it execs). */
static void b_switch(struct busy *b, unsigned cpu, unsigned state)
{
	struct gen *g = b->g;
	int in = -1;

	if (b->nrunq) {
		unsigned k = (unsigned)rnd_range(g, 0, b->nrunq - 1);

		in = (int)b->runq[k];
		take(b->runq, &b->nrunq, k);
	}
	P(g);
	lttw_put_uint(&g->p, pid_of(b, b->cur[cpu]));
	lttw_put_uint(&g->p, pid_of(b, in));
	lttw_put_uint_n(&g->p, state, 4);
	bev(b, cpu, ID_PROCESS, LTTW_PROCESS_SCHEDCHANGE);
	b->cur[cpu] = in;
	if (in < 0)
		return;
	b->tasks[in].state = B_RUNNING;
	if (b->tasks[in].fresh) {
		static const char *const progs[] = { "/usr/bin/cc1", "/bin/sh",
			"/usr/bin/as", "/usr/bin/ld", "/bin/sed", "/usr/bin/make" };

		b->tasks[in].fresh = 0;
		b_sysexit(b, cpu, 0);		/* from clone, in the child */
		b_syscall(b, cpu, SYS_EXECVE);
		P(g);
		lttw_put_text(&g->p, progs[b->tasks[in].pid % 6]);
		bev(b, cpu, ID_FS, LTTW_FS_EXEC);
		b_sysexit(b, cpu, 0);
	} else {
		b_sysexit(b, cpu, (int64_t)rnd_range(g, 0, 4096));
	}
}

/* An interrupt on cpu (the timer, or the disk that wakes a task). */
static void b_irq(struct busy *b, unsigned cpu)
{
	struct gen *g = b->g;
	unsigned irq = rnd(g) % 4 ? 0 : 14;

	P(g);
	lttw_put_uint_n(&g->p, irq, 4);
	lttw_put_uint(&g->p, b->cur[cpu] < 0);	/* mode: an enum, int_size */
	bev(b, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
	if (b->nblocked) {
		unsigned k = (unsigned)rnd_range(g, 0, b->nblocked - 1);
		unsigned t = b->blocked[k];

		P(g);
		lttw_put_uint(&g->p, b->tasks[t].pid);
		lttw_put_uint_n(&g->p, ST_INTERRUPTIBLE, 4);
		bev(b, cpu, ID_PROCESS, LTTW_PROCESS_WAKEUP);
		take(b->blocked, &b->nblocked, k);
		b->tasks[t].state = B_RUNNABLE;
		b->runq[b->nrunq++] = t;
	}
	P(g);
	bev(b, cpu, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
	P(g);
	lttw_put_uint_n(&g->p, irq ? 4 : SOFTIRQ_TIMER, 4);	/* BLOCK, TIMER */
	bev(b, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
	bev(b, cpu, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
}

static unsigned b_new_task(struct busy *b, unsigned pid, int child)
{
	if (b->ntasks == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->tasks = realloc(b->tasks, b->cap * sizeof(*b->tasks));
		b->runq = realloc(b->runq, b->cap * sizeof(*b->runq));
		b->blocked = realloc(b->blocked, b->cap * sizeof(*b->blocked));
		if (!b->tasks || !b->runq || !b->blocked)
			die("out of memory");
	}
	b->tasks[b->ntasks] = (struct btask){ pid, B_RUNNABLE, child, child,
					      BUSY_CHILD_ACTIONS };
	return b->ntasks++;
}

/* What the task on cpu does next. */
static void b_action(struct busy *b, unsigned cpu)
{
	struct gen *g = b->g;
	int cur = b->cur[cpu];
	unsigned r = (unsigned)(rnd(g) % 100);

	if (cur < 0) {			/* idle: run someone, or an interrupt */
		if (b->nrunq)
			b_switch(b, cpu, ST_RUNNING);
		else
			b_irq(b, cpu);
		return;
	}
	if (b->tasks[cur].child && --b->tasks[cur].left == 0) {
		unsigned pid = b->tasks[cur].pid;

		b_syscall(b, cpu, SYS_EXIT_GROUP);
		P(g);
		lttw_put_uint(&g->p, pid);
		bev(b, cpu, ID_PROCESS, LTTW_PROCESS_EXIT);
		b->tasks[cur].state = B_GONE;
		b_switch(b, cpu, ST_ZOMBIE);
		P(g);				/* reaped at once */
		lttw_put_uint(&g->p, pid);
		bev(b, cpu, ID_PROCESS, LTTW_PROCESS_FREE);
		return;
	}
	if (!b->tasks[cur].child && b->count >= b->next_fork) {
		unsigned child = b->next_pid++;

		b->next_fork = b->count + rnd_range(g, BUSY_FORK_EVERY / 2,
						    3 * BUSY_FORK_EVERY / 2);
		b_syscall(b, cpu, SYS_CLONE);
		P(g);
		lttw_put_uint(&g->p, b->tasks[cur].pid);
		lttw_put_uint(&g->p, child);
		lttw_put_uint(&g->p, child);
		bev(b, cpu, ID_PROCESS, LTTW_PROCESS_FORK);
		{
			/* b_new_task() may move b->runq: not in one expression */
			unsigned t = b_new_task(b, child, 1);

			b->runq[b->nrunq++] = t;
		}
		b_sysexit(b, cpu, child);
	} else if (r < 45 || (r >= 92 && !b->nrunq)) {	/* a read or a write */
		uint64_t entry = b->now;

		b_syscall(b, cpu, r % 2 ? SYS_WRITE : SYS_READ);
		P(g);
		lttw_put_uint_n(&g->p, 3 + r % 5, 4);
		lttw_put_size_t(&g->p, 512u << (r % 4));
		bev(b, cpu, ID_FS, r % 2 ? LTTW_FS_WRITE : LTTW_FS_READ);
		if (r % 2)	/* --slow-write-pct: a slower write (lttv-diff's test) */
			b->now += (b->now - entry) * g->slow_write_pct / 100;
		b_sysexit(b, cpu, 512 << (r % 4));
	} else if (r < 55) {
		P(g);
		lttw_put_uint_n(&g->p, TRAP_PAGE_FAULT, 2);
		lttw_put_pointer(&g->p, 0x400000ull + (rnd(g) & 0x3fff) * 16);
		bev(b, cpu, ID_KERNEL, LTTW_KERNEL_TRAP_ENTRY);
		P(g);
		lttw_put_uint_n(&g->p, TRAP_PAGE_FAULT, 2);
		bev(b, cpu, ID_KERNEL, LTTW_KERNEL_TRAP_EXIT);
	} else if (r < 75) {
		b_irq(b, cpu);
	} else if (r < 92) {		/* blocks in a read */
		b_syscall(b, cpu, SYS_READ);
		P(g);
		lttw_put_uint_n(&g->p, 0, 4);
		lttw_put_size_t(&g->p, 4096);
		bev(b, cpu, ID_FS, LTTW_FS_READ);
		b->tasks[cur].state = B_BLOCKED;
		b->blocked[b->nblocked++] = (unsigned)cur;
		b_switch(b, cpu, ST_INTERRUPTIBLE);
	} else {			/* yields to a runnable task */
		b_syscall(b, cpu, SYS_SCHED_YIELD);
		b_switch(b, cpu, ST_RUNNING);
		b->tasks[cur].state = B_RUNNABLE;
		b->runq[b->nrunq++] = (unsigned)cur;
	}
}

static void scenario_busy(struct gen *g, const char *dir, uint64_t n)
{
	static const char *const names[] = { "httpd", "postgres", "java", "bash",
		"make", "sshd", "cron", "python3" };
	struct busy b = { .g = g, .n = n, .next_pid = BUSY_FIRST_CHILD,
			  .next_fork = BUSY_FORK_EVERY };
	uint64_t t0 = g->c.start_tsc;
	char name[32];

	use_kernel_facilities(g);
	open_files(g, dir);
	for (unsigned i = 0; i < BUSY_TASKS; i++) {
		unsigned pid = 1000 + i, t = b_new_task(&b, pid, 0);

		snprintf(name, sizeof(name), "%s-%u", names[i % 8], i / 8);
		P(g);
		lttw_put_uint(&g->p, pid);
		lttw_put_uint(&g->p, 1);
		lttw_put_string(&g->p, name);
		lttw_put_uint_n(&g->p, 0, 4);	/* type: user */
		lttw_put_uint_n(&g->p, 1, 4);	/* mode: SYSCALL */
		lttw_put_uint_n(&g->p, 0, 4);	/* submode: NONE */
		lttw_put_uint_n(&g->p, 5, 4);	/* status: WAIT */
		lttw_put_uint(&g->p, pid);
		check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 5) + i,
				    ID_STATEDUMP, LTTW_STATEDUMP_ENUMERATE_PROCESS_STATE,
				    g->p.buf, g->p.len));
		/* all of them blocked at the start, woken by interrupts */
		b.tasks[t].state = B_BLOCKED;
		b.blocked[b.nblocked++] = t;
	}
	P(g);
	check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 40), ID_STATEDUMP,
			    LTTW_STATEDUMP_STATEDUMP_END, NULL, 0));
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++)
		b.cur[cpu] = -1;
	b.now = t0 + us(g, 50);
	while (b.count < n)
		b_action(&b, (unsigned)(rnd(g) % g->ncpus));
	free(b.tasks);
	free(b.runq);
	free(b.blocked);
	finish(g);
}


/* ---- latency: answers known by construction ---------------------------------
 *
 * Every time is set here, in microseconds from the trace start, so that
 * the analyses' answers can be written down in advance
 * (tests/t51-analyses.sh states them). Two CPUs; the state dump gives
 * server (100), client (101) and hog (103) blocked in user mode, and names
 * IRQ 10 "nic", 11 "disk" and 0 "timer".
 *
 *   CPU 0  server from 1000 us to the end (200001 us): open("/data/in") =
 *          3 (2 us); 100 reads of fd 3, the k-th taking 10k us and
 *          returning 4096, 5 us apart (the 50th takes plant_us more, for
 *          lttv-diff's test);
 *          open("/data/out") = 4 at 59000; from 60000, every 2000 us, a
 *          write of 512 bytes to fd 4 lasting 50 us that wakes client 10 us
 *          in (the 5th wakes it again 30 us in, which changes nothing); 5 timer IRQs of 7 us, each followed by a TIMER softirq of
 *          3 us, at 150000 + 4000 m, the last with a disk IRQ (11) of 2 us
 *          nested 2 us in; sched_yield at 200000 (1 us).
 *   CPU 1  client switched in j * 100 us after the j-th wakeup (j = 1..10),
 *          runs 30 us, blocks; 20 nic IRQs at 90000 + 1000 i lasting
 *          2 (i + 1) us, each followed by a NET_RX softirq of 15 us, on the
 *          idle CPU; the last one wakes hog 1 us in; hog runs from 120000
 *          to 160000.
 */
/* pids, moved by --pid-offset (another run of the same workload) */
static unsigned l_pid_offset;

/*
 * (In cpu_N, whatever the XML's channel: these answers are built on events
 * of one CPU at the same microsecond, which readers order by tracefile;
 * the kernel's clock never gives two events of a CPU the same time.)
 */
static void at(struct gen *g, unsigned cpu, uint64_t t_us, unsigned fac, unsigned ev)
{
	check(g, lttw_event(g->cpu[cpu], g->c.start_tsc + us(g, t_us), fac, ev,
			    g->p.buf, g->p.len));
}

static void l_sched(struct gen *g, unsigned cpu, uint64_t t, unsigned out, unsigned in,
		    unsigned state)
{
	P(g);
	lttw_put_uint(&g->p, out);
	lttw_put_uint(&g->p, in);
	lttw_put_uint_n(&g->p, state, 4);
	at(g, cpu, t, ID_PROCESS, LTTW_PROCESS_SCHEDCHANGE);
}

static void l_wakeup(struct gen *g, unsigned cpu, uint64_t t, unsigned pid)
{
	P(g);
	lttw_put_uint(&g->p, pid);
	lttw_put_uint_n(&g->p, ST_INTERRUPTIBLE, 4);
	at(g, cpu, t, ID_PROCESS, LTTW_PROCESS_WAKEUP);
}

/* The entry of system call nr at t (l_sysexit ends it). */
static void l_syscall(struct gen *g, unsigned cpu, uint64_t t, unsigned nr)
{
	P(g);
	lttw_put_uint(&g->p, nr);
	/* user addresses move with the pids: another run, another layout */
	lttw_put_pointer(&g->p, 0x00007f0000001000ull + nr * 0x10 +
				((uint64_t)l_pid_offset << 12));
	at(g, cpu, t, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_ENTRY);
}

static void l_sysexit(struct gen *g, unsigned cpu, uint64_t t, int64_t ret)
{
	P(g);
	lttw_put_long(&g->p, ret);
	at(g, cpu, t, ID_KERNEL_ARCH, LTTW_KERNEL_ARCH_SYSCALL_EXIT);
}

static void l_fs(struct gen *g, unsigned cpu, uint64_t t, unsigned ev, unsigned fd,
		 uint64_t count)
{
	P(g);
	lttw_put_uint_n(&g->p, fd, 4);
	lttw_put_size_t(&g->p, count);
	at(g, cpu, t, ID_FS, ev);
}

static void l_open(struct gen *g, uint64_t t, const char *path, unsigned fd)
{
	l_syscall(g, 0, t, SYS_OPEN);
	P(g);
	lttw_put_uint_n(&g->p, fd, 4);
	lttw_put_text(&g->p, path);
	at(g, 0, t + 2, ID_FS, LTTW_FS_OPEN);
	l_sysexit(g, 0, t + 2, fd);
}

/* An interrupt on cpu at t lasting dur, then its softirq lasting sdur.
 * wake_pid > 0: it wakes that task 1 us in; nest: another interrupt
 * (line 11) from 2 to 4 us in. */
static void l_irq(struct gen *g, unsigned cpu, uint64_t t, unsigned irq, uint64_t dur,
		  unsigned softirq, uint64_t sdur, int wake_pid, int nest)
{
	P(g);
	lttw_put_uint_n(&g->p, irq, 4);
	lttw_put_uint(&g->p, 1);	/* mode: an enum, int_size */
	at(g, cpu, t, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
	if (wake_pid > 0)
		l_wakeup(g, cpu, t + 1, (unsigned)wake_pid);
	if (nest) {
		P(g);
		lttw_put_uint_n(&g->p, 11, 4);
		lttw_put_uint(&g->p, 1);	/* mode: an enum, int_size */
		at(g, cpu, t + 2, ID_KERNEL, LTTW_KERNEL_IRQ_ENTRY);
		P(g);
		at(g, cpu, t + 4, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
	}
	P(g);
	at(g, cpu, t + dur, ID_KERNEL, LTTW_KERNEL_IRQ_EXIT);
	P(g);
	lttw_put_uint_n(&g->p, softirq, 4);
	at(g, cpu, t + dur, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_ENTRY);
	at(g, cpu, t + dur + sdur, ID_KERNEL, LTTW_KERNEL_SOFT_IRQ_EXIT);
}

#define L_SERVER (100 + l_pid_offset)
#define L_CLIENT (101 + l_pid_offset)
#define L_HOG (103 + l_pid_offset)
#define SYS_SCHED_YIELD 24

static void scenario_latency(struct gen *g, const char *dir, uint64_t plant_us)
{
	const struct { unsigned pid; const char *name; } lp[] = {
		{ 1, "init" }, { L_SERVER, "server" }, { L_CLIENT, "client" }, { L_HOG, "hog" },
	};
	static const struct { unsigned irq; const char *action; } li[] = {
		{ 0, "timer" }, { 10, "nic" }, { 11, "disk" },
	};
	uint64_t t0 = g->c.start_tsc, t;

	if (g->ncpus != 2)
		die("the latency scenario has 2 CPUs");
	if (plant_us >= 7000)
		die("--plant-us %" PRIu64 ": less than 7000", plant_us);
	use_kernel_facilities(g);
	open_files(g, dir);
	for (unsigned i = 0; i < sizeof(lp) / sizeof(lp[0]); i++) {
		P(g);
		lttw_put_uint(&g->p, lp[i].pid);
		lttw_put_uint(&g->p, 1);
		lttw_put_string(&g->p, lp[i].name);
		lttw_put_uint_n(&g->p, 0, 4);	/* type: user */
		lttw_put_uint_n(&g->p, 0, 4);	/* mode: USER_MODE */
		lttw_put_uint_n(&g->p, 0, 4);	/* submode: NONE */
		lttw_put_uint_n(&g->p, 5, 4);	/* status: WAIT */
		lttw_put_uint(&g->p, lp[i].pid);
		check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 5 + i), ID_STATEDUMP,
				    LTTW_STATEDUMP_ENUMERATE_PROCESS_STATE, g->p.buf, g->p.len));
	}
	for (unsigned i = 0; i < sizeof(li) / sizeof(li[0]); i++) {
		P(g);
		lttw_put_uint_n(&g->p, li[i].irq, 4);
		lttw_put_string(&g->p, li[i].action);
		check(g, lttw_event(g->ctl[CTL_INTERRUPTS], t0 + us(g, 30 + i), ID_STATEDUMP,
				    LTTW_STATEDUMP_INTERRUPT, g->p.buf, g->p.len));
	}
	P(g);
	check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 40), ID_STATEDUMP,
			    LTTW_STATEDUMP_STATEDUMP_END, NULL, 0));
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		P(g);
		at(g, cpu, 50 + 7 * cpu, ID_CORE, LTTW_CORE_TIME_HEARTBEAT);
	}

	/* CPU 0: the server */
	l_sched(g, 0, 1000, 0, L_SERVER, ST_RUNNING);
	l_open(g, 1000, "/data/in", 3);
	t = 1002 + 5;
	for (uint64_t k = 1; k <= 100; k++) {
		uint64_t d = 10 * k + (k == 50 ? plant_us : 0);

		l_syscall(g, 0, t, SYS_READ);
		l_fs(g, 0, t, LTTW_FS_READ, 3, 4096);
		l_sysexit(g, 0, t + d, 4096);
		t += d + 5;
	}
	l_open(g, 59000, "/data/out", 4);
	for (uint64_t j = 1; j <= 10; j++) {
		uint64_t w = 60000 + (j - 1) * 2000, in = w + 10 + 100 * j;

		l_syscall(g, 0, w, SYS_WRITE);
		l_fs(g, 0, w, LTTW_FS_WRITE, 4, 512);
		l_wakeup(g, 0, w + 10, L_CLIENT);
		if (j == 5)	/* woken again while it waits: the wait goes on */
			l_wakeup(g, 0, w + 30, L_CLIENT);
		l_sysexit(g, 0, w + 50, 512);
		/* CPU 1: the client gets a CPU j * 100 us later, runs 30 us */
		l_sched(g, 1, in, 0, L_CLIENT, ST_RUNNING);
		l_sched(g, 1, in + 30, L_CLIENT, 0, ST_INTERRUPTIBLE);
	}
	/* CPU 1: network interrupts on the idle CPU; the last wakes hog */
	for (unsigned i = 0; i < 20; i++)
		l_irq(g, 1, 90000 + 1000 * i, 10, 2 * (i + 1), SOFTIRQ_NET_RX, 15,
		      i == 19 ? L_HOG : 0, 0);
	l_sched(g, 1, 120000, 0, L_HOG, ST_RUNNING);
	l_sched(g, 1, 160000, L_HOG, 0, ST_INTERRUPTIBLE);
	/* CPU 0: timer interrupts while the server runs in user mode */
	for (unsigned m = 0; m < 5; m++)
		l_irq(g, 0, 150000 + 4000 * m, 0, 7, SOFTIRQ_TIMER, 3, 0, m == 4);
	l_syscall(g, 0, 200000, SYS_SCHED_YIELD);
	l_sysexit(g, 0, 200001, 0);
	finish(g);
}

/* ---- chain: a planted wakeup chain, for the critical path ---------------------
 *
 * Times in microseconds from the trace start, all on CPU 1 (CPU 0 idles).
 * The state dump gives a (110), b (111) and c (112), blocked in user mode,
 * and IRQ 11 "disk".
 *
 *   1000  a runs, 1100 it blocks           1200  disk IRQ wakes c (1201),
 *   1220  c runs, wakes b at 1500          1600  c blocks, b runs,
 *   2000  b wakes a, 2100 b blocks, a runs 2500  a blocks
 *   then on CPU 0: b woken at 2590, runs from 2600; at 2700 a disk IRQ
 *   that interrupts b wakes a, which runs on CPU 1 from 2750 to 2900;
 *   b blocks at 2900; 3000 the end. (An IRQ's wakeup comes 1 us in.)
 *
 * So a's critical path over [1000, 2500]: c blocked on the disk (1000 to
 * 1201), c waits for the CPU (to 1220), c runs (to 1500), b waits (to
 * 1600), b runs (to 2000), a waits (to 2100), a runs (to 2500); over
 * [2500, 2900]: a blocked on the disk (to 2701: the IRQ interrupted b,
 * which did not wake a), a waits (to 2750), a runs (to 2900).
 */
static void scenario_chain(struct gen *g, const char *dir)
{
	static const struct { unsigned pid; const char *name; } cp[] = {
		{ 110, "a" }, { 111, "b" }, { 112, "c" },
	};
	uint64_t t0 = g->c.start_tsc;

	if (g->ncpus != 2)
		die("the chain scenario has 2 CPUs");
	use_kernel_facilities(g);
	open_files(g, dir);
	for (unsigned i = 0; i < sizeof(cp) / sizeof(cp[0]); i++) {
		P(g);
		lttw_put_uint(&g->p, cp[i].pid);
		lttw_put_uint(&g->p, 1);
		lttw_put_string(&g->p, cp[i].name);
		lttw_put_uint_n(&g->p, 0, 4);	/* type: user */
		lttw_put_uint_n(&g->p, 0, 4);	/* mode: USER_MODE */
		lttw_put_uint_n(&g->p, 0, 4);	/* submode: NONE */
		lttw_put_uint_n(&g->p, 5, 4);	/* status: WAIT */
		lttw_put_uint(&g->p, cp[i].pid);
		check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 5 + i), ID_STATEDUMP,
				    LTTW_STATEDUMP_ENUMERATE_PROCESS_STATE, g->p.buf, g->p.len));
	}
	P(g);
	lttw_put_uint_n(&g->p, 11, 4);
	lttw_put_string(&g->p, "disk");
	check(g, lttw_event(g->ctl[CTL_INTERRUPTS], t0 + us(g, 30), ID_STATEDUMP,
			    LTTW_STATEDUMP_INTERRUPT, g->p.buf, g->p.len));
	P(g);
	check(g, lttw_event(g->ctl[CTL_PROCESSES], t0 + us(g, 40), ID_STATEDUMP,
			    LTTW_STATEDUMP_STATEDUMP_END, NULL, 0));
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		P(g);
		at(g, cpu, 50 + 7 * cpu, ID_CORE, LTTW_CORE_TIME_HEARTBEAT);
	}
	l_sched(g, 1, 1000, 0, 110, ST_RUNNING);
	l_sched(g, 1, 1100, 110, 0, ST_INTERRUPTIBLE);
	l_irq(g, 1, 1200, 11, 10, SOFTIRQ_TIMER, 5, 112, 0);
	l_sched(g, 1, 1220, 0, 112, ST_RUNNING);
	l_wakeup(g, 1, 1500, 111);
	l_sched(g, 1, 1600, 112, 111, ST_INTERRUPTIBLE);
	l_wakeup(g, 1, 2000, 110);
	l_sched(g, 1, 2100, 111, 110, ST_INTERRUPTIBLE);
	l_sched(g, 1, 2500, 110, 0, ST_INTERRUPTIBLE);
	/* CPU 0: b runs; a disk IRQ that interrupts it wakes a */
	l_wakeup(g, 0, 2590, 111);
	l_sched(g, 0, 2600, 0, 111, ST_RUNNING);
	l_irq(g, 0, 2700, 11, 10, SOFTIRQ_TIMER, 5, 110, 0);
	l_sched(g, 1, 2750, 0, 110, ST_RUNNING);
	l_sched(g, 1, 2900, 110, 0, ST_INTERRUPTIBLE);
	l_sched(g, 0, 2900, 111, 0, ST_INTERRUPTIBLE);
	P(g);
	at(g, 0, 3000, ID_CORE, LTTW_CORE_TIME_HEARTBEAT);
	at(g, 1, 3000, ID_CORE, LTTW_CORE_TIME_HEARTBEAT);
	finish(g);
}

/* ---- fields: N events of one family of field types ------------------------
 *
 * What bench/decode.py times family by family against babeltrace2: one
 * event of tests/facilities/fields.xml per family (small and 64-bit
 * integers, pointers, longs, floats, strings, sequences, arrays, enums,
 * structs and unions, six scalars of different kinds), or all of them in
 * turn (mixed), on 2 CPUs, with values of the sizes a kernel writes.
 */

static const char *const field_families[] = {
	"ints", "int64s", "pointers", "longs", "floats", "strings", "sequences",
	"arrays", "enums", "compounds", "scalars",
};
#define NUM_FIELD_FAMILIES (sizeof(field_families) / sizeof(field_families[0]))

/* A kernel address, a user one: 16 and 12 hex digits. */
static uint64_t kaddr(struct gen *g)
{
	return 0xffff888000000000ull + (rnd(g) & 0x3ffffffff8ull);
}

static uint64_t uaddr(struct gen *g)
{
	return 0x7f0000000000ull + (rnd(g) & 0xffffffffff0ull);
}

/* The payload of event `ev` (LTTW_FIELDS_*) in g->p. */
static void put_family(struct gen *g, unsigned ev)
{
	static const char *const comms[] = { "bash", "systemd-journal", "kworker/1:2",
		"postgres", "cc1", "sshd", "Xorg", "python3", "rcu_sched", "ld" };
	static const char *const dirs[] = { "/usr/lib/x86_64-linux-gnu/", "/etc/",
		"/home/user/src/linux/drivers/net/ethernet/", "/tmp/", "/proc/self/",
		"/var/log/" };
	static const char *const files[] = { "libc.so.6", "passwd", "e1000e_main.c",
		"cc8xQ2a.s", "status", "syslog.1", "ld.so.cache", "Makefile" };
	static const unsigned states[] = { 0, 1, 2, 4, 8, 16, 32, 64 };
	lttw_payload *p = &g->p;
	char path[128];
	unsigned n;

	P(g);
	switch (ev) {
	case LTTW_FIELDS_INTS:
		lttw_put_uint(p, rnd_range(g, 1, 32768));		/* pid */
		lttw_put_int(p, rnd(g) % 8 ? (int64_t)rnd_range(g, 0, 1023)
					  : -(int64_t)rnd_range(g, 1, 22));	/* fd */
		lttw_put_uint_n(p, rnd(g) & 0xffff, 2);			/* flags */
		lttw_put_int_n(p, (int64_t)rnd_range(g, 0, 39) - 20, 1);	/* prio */
		lttw_put_uint_n(p, rnd(g) % 8, 1);			/* cpu */
		break;
	case LTTW_FIELDS_INT64S:
		lttw_put_uint_n(p, rnd(g) >> 24, 8);			/* ino */
		lttw_put_int_n(p, (int64_t)(rnd(g) >> 30), 8);		/* offset */
		lttw_put_uint_n(p, rnd(g), 8);				/* ns */
		break;
	case LTTW_FIELDS_POINTERS:
		lttw_put_pointer(p, 0xffffffff81000000ull + (rnd(g) & 0xffffff));
		lttw_put_pointer(p, uaddr(g));
		lttw_put_pointer(p, kaddr(g));
		break;
	case LTTW_FIELDS_LONGS:
		lttw_put_long(p, rnd(g) % 4 ? (int64_t)rnd_range(g, 0, 65536)
					   : -(int64_t)rnd_range(g, 1, 4095));	/* ret */
		lttw_put_ulong(p, rnd(g) % 2 ? uaddr(g) : rnd(g) % 4096);	/* arg */
		lttw_put_size_t(p, rnd_range(g, 1, 1 << 20));		/* count */
		lttw_put_long(p, (int64_t)rnd_range(g, 0, 1 << 20));	/* done */
		lttw_put_long(p, (int64_t)(rnd(g) >> 28));		/* pos */
		break;
	case LTTW_FIELDS_FLOATS:
		lttw_put_float(p, (double)(rnd(g) % 80000) / 10000.0, 4);
		lttw_put_float(p, (double)(rnd(g) >> 11) / 9007199254740992.0, 8);
		break;
	case LTTW_FIELDS_STRINGS:
		lttw_put_string(p, comms[rnd(g) % 10]);
		snprintf(path, sizeof(path), "%s%s", dirs[rnd(g) % 6], files[rnd(g) % 8]);
		lttw_put_string(p, path);
		break;
	case LTTW_FIELDS_SEQUENCES:
		n = (unsigned)(rnd(g) % 7);
		lttw_put_seq_len(p, n, 1, p->long_size);
		for (unsigned i = 0; i < n; i++)
			lttw_put_ulong(p, i % 2 ? uaddr(g) : rnd(g) % 4096);
		lttw_seq_end(p);
		n = (unsigned)(rnd(g) % 5);
		lttw_put_seq_len(p, n, 1, 2);
		for (unsigned i = 0; i < n; i++)
			lttw_put_uint_n(p, rnd(g) % 64, 2);
		lttw_seq_end(p);
		break;
	case LTTW_FIELDS_ARRAYS:
		lttw_align(p, p->long_size);
		for (unsigned i = 0; i < 6; i++)
			lttw_put_ulong(p, i % 3 ? rnd(g) % 100000 : kaddr(g));
		lttw_align(p, p->int_size);
		for (unsigned i = 0; i < 4; i++)
			lttw_put_uint(p, rnd_range(g, 1, 32768));
		break;
	case LTTW_FIELDS_ENUMS:
		lttw_put_uint(p, states[rnd(g) % 8]);	/* enums: int_size */
		lttw_put_uint(p, rnd(g) % 4);
		break;
	case LTTW_FIELDS_COMPOUNDS:
		lttw_align(p, p->int_size);				/* where */
		lttw_put_int(p, (int64_t)rnd_range(g, 0, 3839) - 1920);
		lttw_put_int(p, (int64_t)rnd_range(g, 0, 2159) - 1080);
		lttw_put_uint_n(p, rnd(g) & 0xffff, 2);
		lttw_align(p, 8);					/* val */
		lttw_put_uint_n(p, rnd(g) % 2 ? kaddr(g) : rnd(g) % 1000000, 8);
		break;
	case LTTW_FIELDS_SCALARS:
		lttw_put_int(p, (int64_t)rnd_range(g, 0, 200000) - 100000);
		lttw_put_uint(p, rnd_range(g, 1, 4000000000u));
		lttw_put_long(p, (int64_t)(rnd(g) >> 20) - (1ll << 43));
		lttw_put_pointer(p, kaddr(g));
		lttw_put_uint_n(p, rnd(g) & 0xff, 1);
		lttw_put_uint_n(p, rnd(g) >> 8, 8);
		break;
	default:
		die("no such event in fields.xml: %u", ev);
	}
}

/*
 * --losses N: every (N + cpu)-th event of a CPU, it loses one event (every
 * fourth time also a corrupted sub-buffer): the writer says so in a
 * buffer_stats at the start of the next sub-buffer.  At the end, one more
 * loss per CPU told as the kernel's stop does: a buffer_stats after the
 * last events of the last sub-buffer.
 */
static void fields_losses(struct gen *g, unsigned cpu, uint64_t i, uint64_t every)
{
	uint64_t k = i / g->ncpus, e = every + cpu;	/* CPUs differ */

	if (every && k % e == e - 1)
		lttw_file_add_losses(g->cpu[cpu], 1, k / e % 4 == 3);
}

static void fields_final_stats(struct gen *g, uint64_t *t)
{
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++) {
		uint32_t pl[2];

		lttw_file_add_losses(g->cpu[cpu], 1, 0);
		pl[0] = lttw_file_events_lost(g->cpu[cpu]);
		pl[1] = lttw_file_corrupted(g->cpu[cpu]);
		if (lttw_event(g->cpu[cpu], t[cpu] + 100, ID_CHANNEL, 0, pl, sizeof(pl)))
			die("%s", lttw_last_error());
	}
}

static void scenario_fields(struct gen *g, const char *dir, const char *family,
			    uint64_t n, uint64_t losses)
{
	unsigned which = NUM_FIELD_FAMILIES;	/* mixed: all in turn */
	uint64_t t[MAX_CPUS];

	if (strcmp(family, "mixed")) {
		for (which = 0; which < NUM_FIELD_FAMILIES; which++)
			if (!strcmp(family, field_families[which]))
				break;
		if (which == NUM_FIELD_FAMILIES)
			die("unknown --family %s (mixed, ints, int64s, pointers, longs, "
			    "floats, strings, sequences, arrays, enums, compounds, "
			    "scalars)", family);
	}
	if (LTTW_FIELDS_NUM_EVENTS != NUM_FIELD_FAMILIES)
		die("fields.xml has %d events, ltt-tracegen knows %zu",
		    LTTW_FIELDS_NUM_EVENTS, NUM_FIELD_FAMILIES);
	use_kernel_facilities(g);
	use_facility(g, g->testfacdir, "fields.xml", LTTW_FIELDS_NAME, ID_FIELDS);
	open_files(g, dir);
	for (unsigned cpu = 0; cpu < g->ncpus; cpu++)
		t[cpu] = g->c.start_tsc + 100;
	for (uint64_t i = 0; i < n; i++) {
		unsigned cpu = (unsigned)(i % g->ncpus);
		unsigned ev = which < NUM_FIELD_FAMILIES ? which
				: (unsigned)((i / g->ncpus) % NUM_FIELD_FAMILIES);

		/* each family's events in file order: ids are the order */
		put_family(g, ev);
		t[cpu] += 200 + (rnd(g) & 1023);
		if (lttw_event(out(g, cpu, ID_FIELDS, ev), t[cpu], ID_FIELDS, ev,
			       g->p.buf, g->p.len))
			die("%s", lttw_last_error());
		fields_losses(g, cpu, i, losses);
	}
	if (losses)
		fields_final_stats(g, t);
	finish(g);
}

/* ---- main ----------------------------------------------------------------- */

/* <dir of the executable>/../../<rel>, else <rel> (in the source tree). */
static const char *source_dir(const char *rel)
{
	static char buf[2][PATH_MAX + 64];
	static int which;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *b = buf[which++ % 2];

	if (n > 0) {
		exe[n] = '\0';
		for (int up = 0; up < 3; up++) {
			char *s = strrchr(exe, '/');

			if (s)
				*s = '\0';
		}
		if (snprintf(b, sizeof(buf[0]), "%s/%s", exe, rel) < (int)sizeof(buf[0]) &&
		    access(b, R_OK) == 0)
			return b;
	}
	snprintf(b, sizeof(buf[0]), "%s", rel);
	return b;
}

/* The strings popt allocated for the options. */
static void free_strings(char *a, char *b, char *c, char *d, char *e)
{
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
}

/* Refuse to write over something: stale files would mix with the trace. */
static void check_output(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		if (errno != ENOENT)
			die("%s: %s", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			closedir(d);
			die("%s exists and is not empty: remove it first", dir);
		}
	closedir(d);
}

int main(int argc, const char **argv)
{
	struct gen g;
	char *scenario = NULL, *out = NULL, *bad = NULL, *facdir = NULL,
	     *testfacdir = NULL, *family = NULL;
	int cpus = 2, subbuf = 0, alignment = 8, arch_size = 8, heartbeat = 1,
	    flight = 0, list_bad = 0, seed = 1;
	long long events = 1000000, start_tsc = -1, freq_khz = 0, plant_us = 0;
	int pid_offset = 0, float_order = FLOAT_ORDER;
	long long losses = 0;
	int slow_write_pct = 0;
	long long rate = 0;
	int lttd_sizes = 0;
	double wall_start = 0;
	struct poptOption opts[] = {
		{ "scenario", 's', POPT_ARG_STRING, &scenario, 0,
		  "sample, names (the sample with hostile names), types, wraps, big, "
		  "busy, latency, chain or fields", "NAME" },
		{ "family", 0, POPT_ARG_STRING, &family, 0,
		  "--scenario fields: mixed, or one family of field types (ints, "
		  "int64s, pointers, longs, floats, strings, sequences, arrays, "
		  "enums, compounds, scalars) (mixed)", "F" },
		{ "output", 'o', POPT_ARG_STRING, &out, 0,
		  "trace directory to write", "DIR" },
		{ "bad", 0, POPT_ARG_STRING, &bad, 0,
		  "write a broken trace of this kind (see --list-bad)", "KIND" },
		{ "list-bad", 0, POPT_ARG_NONE, &list_bad, 0,
		  "list the kinds of broken traces: name, fail|raw|ok, what", NULL },
		{ "seed", 0, POPT_ARG_INT, &seed, 0, "random seed (1)", "N" },
		{ "cpus", 'c', POPT_ARG_INT, &cpus, 0, "number of CPUs (2)", "N" },
		{ "subbuf-size", 'b', POPT_ARG_INT, &subbuf, 0,
		  "sub-buffer size, a power of two (scenario's default)", "BYTES" },
		{ "alignment", 'a', POPT_ARG_INT, &alignment, 0,
		  "has_alignment: 0, 4 or 8 (8)", "N" },
		{ "arch-size", 0, POPT_ARG_INT, &arch_size, 0,
		  "sizeof(void *) of the traced machine: 4 or 8 (8)", "N" },
		{ "float-word-order", 0, POPT_ARG_INT, &float_order, 0,
		  "float_word_order of a trace with floats: 1234, 4321 (ARM's FPA: "
		  "a double's high word first) or any other, to test a reader "
		  "(the machine's)", "N" },
		{ "heartbeat", 0, POPT_ARG_INT, &heartbeat, 0,
		  "1: 32-bit timestamps and heartbeats; 0: 64-bit (1)", "0|1" },
		{ "flight", 0, POPT_ARG_NONE, &flight, 0,
		  "flight recorder mode: flight-cpu_N files, last 4 sub-buffers kept",
		  NULL },
		{ "events", 'n', POPT_ARG_LONGLONG, &events, 0,
		  "number of events of --scenario big, busy or fields (1000000)", "N" },
		{ "losses", 0, POPT_ARG_LONGLONG, &losses, 0,
		  "--scenario fields: CPU c loses an event every N + c of its "
		  "events, and one at the end told after its last events (0)", "N" },
		{ "plant-us", 0, POPT_ARG_LONGLONG, &plant_us, 0,
		  "--scenario latency: the 50th read takes N us more (0)", "N" },
		{ "slow-write-pct", 0, POPT_ARG_INT, &slow_write_pct, 0,
		  "--scenario busy: every write system call takes N per cent longer (0)",
		  "N" },
		{ "rate", 0, POPT_ARG_LONGLONG, &rate, 0,
		  "--scenario busy: about N events a second of trace time, the gaps "
		  "between events stretched (0: as busy as it gets, about 1.8 M)", "N" },
		{ "lttd-sizes", 0, POPT_ARG_NONE, &lttd_sizes, 0,
		  "the control channels' sub-buffers of lttctl's default sizes "
		  "(processes 256 KiB, the others 64 KiB) rather than the trace's", NULL },
		{ "wall-start", 0, POPT_ARG_DOUBLE, &wall_start, 0,
		  "the trace's start time, seconds since the epoch (bench/live.py: "
		  "the host's clock now) (0: 2006-09-23 08:26:40.25 UTC)", "SECONDS" },
		{ "pid-offset", 0, POPT_ARG_INT, &pid_offset, 0,
		  "--scenario latency: pids (but init's) N higher, user addresses moved (0)",
		  "N" },
		{ "start-tsc", 0, POPT_ARG_LONGLONG, &start_tsc, 0,
		  "cycle count at trace start", "CYCLES" },
		{ "freq-khz", 0, POPT_ARG_LONGLONG, &freq_khz, 0,
		  "cycle counter frequency, kHz (2000000; wraps: 1000000)", "KHZ" },
		{ "facilities", 0, POPT_ARG_STRING, &facdir, 0,
		  "folder of the facility XML (the source tree's)", "DIR" },
		{ "test-facilities", 0, POPT_ARG_STRING, &testfacdir, 0,
		  "folder of the test facility XML (tests/facilities)", "DIR" },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext pc = poptGetContext("ltt-tracegen", argc, argv, opts, 0);
	int rc = poptGetNextOpt(pc);

	if (rc < -1)
		die("%s: %s", poptBadOption(pc, POPT_BADOPTION_NOALIAS),
		    poptStrerror(rc));
	if (poptPeekArg(pc))
		die("unexpected argument: %s", poptPeekArg(pc));
	poptFreeContext(pc);
	if (list_bad) {
		for (const lttw_bad_kind *k = lttw_bad_kinds(); k->name; k++)
			printf("%s %s %s\n", k->name, k->expect, k->what);
		free_strings(scenario, out, bad, facdir, testfacdir);
		free(family);
		return 0;
	}
	if (!out)
		die("no output directory (-o DIR)");
	if (!scenario && !bad)
		die("no --scenario and no --bad: nothing to write");
	if (cpus < 1 || cpus > MAX_CPUS)
		die("--cpus %d: from 1 to %d", cpus, MAX_CPUS);
	if (subbuf && (subbuf < 128 || (subbuf & (subbuf - 1))))
		die("--subbuf-size %d: a power of two, 128 or more", subbuf);

	check_output(out);
	memset(&g, 0, sizeof(g));
	lttw_config_default(&g.c);
	g.c.arch_size = (unsigned)arch_size;
	g.float_order = (uint32_t)float_order;
	g.c.alignment = (unsigned)alignment;
	g.c.has_heartbeat = heartbeat != 0;
	g.c.channel_facility_id = ID_CHANNEL;
	g.c.start_time_sec = 1159000000;	/* 2006-09-23 08:26:40 UTC */
	g.c.start_time_usec = 250000;
	if (wall_start < 0 || wall_start >= 4e9)
		die("--wall-start %f: seconds since the epoch", wall_start);
	if (wall_start > 0) {
		g.c.start_time_sec = (uint64_t)wall_start;
		g.c.start_time_usec = (uint64_t)((wall_start - (double)g.c.start_time_sec) * 1e6);
	}
	if (start_tsc >= 0) {
		g.c.start_tsc = (uint64_t)start_tsc;
		g.user_tsc = 1;
	}
	if (freq_khz < 0 || (freq_khz > 0 && freq_khz < 1000))
		die("--freq-khz %lld: 1000 (1 MHz) or more", freq_khz);
	if (freq_khz) {
		g.c.start_freq = (uint64_t)freq_khz;
		g.user_freq = 1;
	}
	if (flight) {
		g.c.mode = LTT_TRACE_MODE_FLIGHT;
		g.flight = 1;
	}
	g.ncpus = (unsigned)cpus;
	g.lttd_sizes = lttd_sizes;
	g.rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)(unsigned)seed * 0x100000001B3ull;
	if (g.rng == 0)
		g.rng = 1;
	g.facdir = facdir ? facdir : source_dir("facilities");
	g.testfacdir = testfacdir ? testfacdir : source_dir("tests/facilities");

	if (bad) {
		/* a small valid trace, then one defect */
		const lttw_bad_kind *k;

		for (k = lttw_bad_kinds(); k->name && strcmp(k->name, bad); k++)
			;
		if (!k->name)
			die("unknown kind of bad trace: %s (see --list-bad)", bad);
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 1024;
		scenario_wraps(&g, out);
		if (lttw_bad_apply(out, bad))
			die("%s", lttw_bad_error());
		free_strings(scenario, out, bad, facdir, testfacdir);
		free(family);
		return 0;
	}
	if (!strcmp(scenario, "sample") || !strcmp(scenario, "names")) {
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 8192;
		g.hostile = !strcmp(scenario, "names");
		scenario_sample(&g, out);
	} else if (!strcmp(scenario, "types")) {
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 4096;
		scenario_types(&g, out);
	} else if (!strcmp(scenario, "wraps")) {
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 4096;
		scenario_wraps(&g, out);
	} else if (!strcmp(scenario, "big")) {
		if (events < 0)
			die("--events %lld", events);
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 1048576;
		scenario_big(&g, out, (uint64_t)events);
	} else if (!strcmp(scenario, "busy")) {
		if (events < 0)
			die("--events %lld", events);
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 1048576;
		if (slow_write_pct < 0 || slow_write_pct > 1000)
			die("--slow-write-pct %d: 0..1000", slow_write_pct);
		g.slow_write_pct = (unsigned)slow_write_pct;
		/* the gaps' mean is 9/16 us: 1.78 M events a second */
		if (rate < 0 || rate > BUSY_RATE)
			die("--rate %lld: 1..%d (0: %d)", rate, BUSY_RATE, BUSY_RATE);
		g.gap_scale = rate ? (double)BUSY_RATE / (double)rate : 1.0;
		scenario_busy(&g, out, (uint64_t)events);
	} else if (!strcmp(scenario, "latency")) {
		if (plant_us < 0)
			die("--plant-us %lld", plant_us);
		if (pid_offset < 0 || pid_offset > 100000)
			die("--pid-offset %d: 0..100000", pid_offset);
		l_pid_offset = (unsigned)pid_offset;
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 4096;
		scenario_latency(&g, out, (uint64_t)plant_us);
	} else if (!strcmp(scenario, "chain")) {
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 4096;
		scenario_chain(&g, out);
	} else if (!strcmp(scenario, "fields")) {
		if (events < 0)
			die("--events %lld", events);
		g.c.subbuf_size = subbuf ? (uint32_t)subbuf : 1048576;
		if (losses < 0)
			die("--losses %lld", losses);
		scenario_fields(&g, out, family ? family : "mixed", (uint64_t)events,
				(uint64_t)losses);
	} else {
		die("unknown scenario: %s (sample, types, wraps, big, busy, latency, chain, fields)",
		    scenario);
	}
	free(family);
	free_strings(scenario, out, bad, facdir, testfacdir);
	return 0;
}
