// SPDX-License-Identifier: GPL-2.0
/*
 * test_lttd_copy.c - lttd's copy loop against fake channels, no kernel.
 *
 * A fake channel is a ring of n sub-buffers in memory with the relayfs
 * contract: get hands out the oldest complete sub-buffer (its free-running
 * offset), -EAGAIN when none is complete, -ENODATA once finalized and
 * empty; put gives it back, or says -EIO when told to (the writer pushed the
 * reader).  Its poll "produces" sub-buffers from a script, one step per
 * call, and reports one of POLLPRI (the ring is full), POLLIN (a sub-buffer
 * is ready) and POLLHUP (the script is over and the ring empty), as the
 * kernel does.  Sub-buffer number k is filled with a pattern of k, so a
 * tracefile can be checked sub-buffer by sub-buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/ltt-abi.h>

#include "../../lttd/lttd.h"
#include "tap.h"

#define SB	4096U

struct fake {
	unsigned char *ring;
	uint32_t n;
	uint32_t produced, consumed;	/* sub-buffers, since the start */
	int pending;			/* written once there is room */
	const int *script;		/* sub-buffers produced per poll */
	int nscript, step;
	int finalized;
	uint64_t eio_mask;		/* put of sub-buffer k fails if bit k */
	int stop_at_get;		/* raise SIGTERM at this get (1-based) */
	int produce_on_put;		/* a writer that never rests */
	int gets, puts, polls;
	int bad_offset;
	const unsigned char *content;	/* sub-buffer k = content + k * SB */
	char id;			/* for the order log */
};

/* order in which channels were served, e.g. "AABA" */
static char order[256];
static int norder;
static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;

static void fill(struct fake *f, uint32_t k)
{
	unsigned char *p = f->ring + (size_t)(k % f->n) * SB;

	if (f->content) {
		memcpy(p, f->content + (size_t)k * SB, SB);
		return;
	}
	memset(p, (int)(k * 7 + 1) & 0xff, SB);
	memcpy(p, &k, sizeof(k));
}

/* The writer: count more sub-buffers, as soon as the ring has room. */
static void produce(struct fake *f, int count)
{
	f->pending += count;
	while (f->pending > 0 && f->produced - f->consumed < f->n) {
		fill(f, f->produced++);
		f->pending--;
	}
}

static int fake_get(struct lttd_channel *ch, uint32_t *off)
{
	struct fake *f = ch->priv;

	f->gets++;
	if (f->stop_at_get && f->gets == f->stop_at_get)
		raise(SIGTERM);
	if (f->produced == f->consumed)
		return f->finalized ? -ENODATA : -EAGAIN;
	*off = f->consumed * SB + (f->bad_offset ? 12 : 0);
	pthread_mutex_lock(&order_lock);
	if (norder < (int)sizeof(order) - 1)
		order[norder++] = f->id;
	pthread_mutex_unlock(&order_lock);
	return 0;
}

static int fake_put(struct lttd_channel *ch, uint32_t off)
{
	struct fake *f = ch->priv;
	uint32_t k = f->consumed;

	f->puts++;
	if (off != k * SB + (f->bad_offset ? 12 : 0))
		return -EINVAL;
	f->consumed++;
	if (f->produce_on_put)
		produce(f, 1);
	if (k < 64 && (f->eio_mask >> k) & 1)
		return -EIO;
	return 0;
}

static int fake_poll(struct lttd_worker *w, struct pollfd *fds, nfds_t nfds,
		     int timeout)
{
	int ready = 0, wanted = 0;

	for (size_t i = 0; i < w->n; i++) {
		struct fake *f = w->chans[i]->priv;
		short re = 0;

		if (fds[i].fd < 0)
			continue;
		f->polls++;
		if (f->step < f->nscript)
			produce(f, f->script[f->step++]);
		else
			produce(f, 0);
		if (f->step == f->nscript && f->pending == 0)
			f->finalized = 1;
		/* one of them, as the kernel says it */
		if (f->produced - f->consumed == f->n && !w->chans[i]->flight)
			re = POLLPRI;
		else if (f->produced != f->consumed)
			re = POLLIN;
		else if (f->finalized)
			re = POLLHUP;	/* finalized and empty */
		re &= fds[i].events | POLLHUP;
		fds[i].revents = re;
		ready += re != 0;
		wanted |= fds[i].events;
	}
	/*
	 * The rest (the stop and end-of-trace pipes) is real; block on it
	 * only when the worker waits for nothing but them (its flight
	 * channels' end), else the script goes on at the next call.
	 */
	if (nfds > w->n) {
		int r = poll(fds + w->n, nfds - w->n,
			     ready || wanted ? 0 : timeout);

		if (r > 0)
			ready += r;
	}
	return ready;
}

static const struct lttd_chan_ops fake_ops = {
	.get_subbuf = fake_get,
	.put_subbuf = fake_put,
	.poll = fake_poll,
};

static size_t put_header(unsigned char *sb, int hb, int align);

static char tmpdir[] = "/tmp/test_lttd_copy.XXXXXX";

static void setup(struct lttd_channel *ch, struct fake *f, char id,
		  uint32_t n, const char *file, int append)
{
	char path[256];

	memset(ch, 0, sizeof(*ch));
	memset(f, 0, sizeof(*f));
	f->n = n;
	f->id = id;
	f->ring = calloc(n, SB);
	ch->path = strdup(file);
	ch->fd = 100 + id;	/* never polled for real */
	ch->out_fd = -1;
	ch->map = (const char *)f->ring;
	ch->n_subbufs = n;
	ch->subbuf_size = SB;
	ch->buf_size = (size_t)n * SB;
	ch->priv = f;
	if (file[0]) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, file);
		if (lttd_open_output(ch, path, append) < 0)
			printf("# cannot open %s\n", path);
	}
}

static void teardown(struct lttd_channel *ch, struct fake *f)
{
	if (ch->out_fd >= 0)
		close(ch->out_fd);
	free(ch->path);
	free(ch->bstats);
	free(f->ring);
}

static void reset(void)
{
	lttd_stop_reset();
	lttd_stats_reset();
	norder = 0;
	memset(order, 0, sizeof(order));
}

/* Checks that file holds the sub-buffers numbered in want[] in order. */
static int file_holds(const char *file, const uint32_t *want, int nwant)
{
	char path[256];
	unsigned char buf[SB], exp[SB];
	int fd, ok_ = 1;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	if (st.st_size != (off_t)nwant * SB) {
		printf("# %s: %lld bytes, want %d sub-buffers\n", file,
		       (long long)st.st_size, nwant);
		ok_ = 0;
	}
	for (int i = 0; ok_ && i < nwant; i++) {
		if (read(fd, buf, SB) != SB) {
			ok_ = 0;
			break;
		}
		memset(exp, (int)(want[i] * 7 + 1) & 0xff, SB);
		memcpy(exp, &want[i], sizeof(want[i]));
		if (memcmp(buf, exp, SB)) {
			uint32_t got;

			memcpy(&got, buf, 4);
			printf("# %s: sub-buffer %d is #%u, want #%u\n", file,
			       i, got, want[i]);
			ok_ = 0;
		}
	}
	close(fd);
	return ok_;
}

static int seq_holds(const char *file, uint32_t from, int count)
{
	uint32_t want[256];

	for (int i = 0; i < count; i++)
		want[i] = from + (uint32_t)i;
	return file_holds(file, want, count);
}

/* Runs f with stderr captured into buf. */
static void capture_stderr(char *buf, size_t len, int (*f)(void *), void *arg,
			   int *ret)
{
	char path[256];
	int saved = dup(2), fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", tmpdir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fflush(stderr);
	dup2(fd, 2);
	*ret = f(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

static int run_worker(void *arg)
{
	return lttd_worker_run(arg);
}

struct open_args {
	struct lttd_channel *ch;
	const char *path;
	int append;
};

static int do_open(void *arg)
{
	struct open_args *a = arg;

	return lttd_open_output(a->ch, a->path, a->append);
}

static int open_quiet(struct lttd_channel *ch, const char *path, int append,
		      char *err, size_t len)
{
	struct open_args a = { ch, path, append };
	int r;

	capture_stderr(err, len, do_open, &a, &r);
	return r;
}

/* ---- the cases ----------------------------------------------------------- */

static void test_normal_drain(void)
{
	static const int script[] = { 2, 3, 0, 1, 4, 0 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };

	reset();
	setup(&ch, &f, 'A', 4, "normal_0", 0);
	f.script = script;
	f.nscript = 6;
	is_int(lttd_worker_run(&w), 0, "normal: the worker ends cleanly");
	is_int(f.produced, 10, "normal: the fake produced 10 sub-buffers");
	is_int(ch.written, 10, "normal: 10 sub-buffers written");
	is_int(ch.pushed, 0, "normal: none lost");
	is_int(f.puts, 10, "normal: every sub-buffer given back");
	ok(ch.done && !ch.failed, "normal: the channel is finalized");
	ok(seq_holds("normal_0", 0, 10), "normal: the file holds #0..#9 in order");
	teardown(&ch, &f);
}

static void test_priority(void)
{
	/* B fills its ring at once (POLLPRI); A only trickles */
	static const int sa[] = { 1, 1, 1 }, sb[] = { 4, 0, 0 };
	struct lttd_channel a, b;
	struct fake fa, fb;
	struct lttd_channel *v[] = { &a, &b };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 2 };

	reset();
	setup(&a, &fa, 'A', 4, "prio_0", 0);
	setup(&b, &fb, 'B', 4, "prio_1", 0);
	fa.script = sa;
	fa.nscript = 3;
	fb.script = sb;
	fb.nscript = 3;
	is_int(lttd_worker_run(&w), 0, "priority: the worker ends cleanly");
	ok(order[0] == 'B', "priority: the full buffer is served first "
	   "(order %s)", order);
	is_int(a.written + b.written, 7, "priority: all 7 sub-buffers written");
	ok(seq_holds("prio_0", 0, 3) && seq_holds("prio_1", 0, 4),
	   "priority: both files complete and in order");
	teardown(&a, &fa);
	teardown(&b, &fb);
}

static void test_eio(void)
{
	static const int script[] = { 3, 3 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	static const uint32_t want[] = { 0, 1, 3, 5 };

	reset();
	setup(&ch, &f, 'A', 4, "flight-eio_0", 0);
	f.script = script;
	f.nscript = 2;
	f.eio_mask = (1u << 2) | (1u << 4);	/* #2 and #4 overwritten */
	is_int(lttd_worker_run(&w), 0, "EIO: not an error for the run");
	is_int(ch.pushed, 2, "EIO: two sub-buffers counted as lost");
	is_int(ch.written, 4, "EIO: the four others written");
	ok(!ch.failed, "EIO: the channel goes on");
	ok(file_holds("flight-eio_0", want, 4),
	   "EIO: the pushed copies are cut off the file (#0 #1 #3 #5)");
	teardown(&ch, &f);
}

static void test_append(void)
{
	static const int script[] = { 2 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	char path[256];
	int fd, r;

	reset();
	/* a first run leaves #0 #1 */
	setup(&ch, &f, 'A', 4, "append_0", 0);
	f.script = script;
	f.nscript = 1;
	lttd_worker_run(&w);
	teardown(&ch, &f);

	/* without -a the file is refused */
	{
		struct lttd_channel c2;
		struct fake f2;
		char err[512];

		setup(&c2, &f2, 'A', 4, "", 0);
		snprintf(path, sizeof(path), "%s/append_0", tmpdir);
		r = open_quiet(&c2, path, 0, err, sizeof(err));
		is_int(r, -1, "append: an existing file is refused without -a");
		ok(strstr(err, "use -a") != NULL, "append: the message says "
		   "to use -a: %s", err);
		teardown(&c2, &f2);
	}

	/* with -a, a second run continues the file: #0 #1 #0 #1 #2 */
	static const int script2[] = { 3 };
	static const uint32_t want[] = { 0, 1, 0, 1, 2 };

	reset();
	setup(&ch, &f, 'A', 4, "append_0", 1);
	is_int(ch.out_size, 2 * SB, "append: starts after the 2 sub-buffers");
	f.script = script2;
	f.nscript = 1;
	is_int(lttd_worker_run(&w), 0, "append: the run ends cleanly");
	ok(file_holds("append_0", want, 5), "append: old data kept, new "
	   "appended");
	teardown(&ch, &f);

	/* a file of another sub-buffer size is not appended to */
	{
		struct lttd_channel c4;
		struct fake f4;
		unsigned char sb[2 * SB];
		char err[512];

		memset(sb, 0, sizeof(sb));
		put_header(sb, 1, 8);
		uint32_t big = 2 * SB;

		memcpy(sb + offsetof(struct ltt_block_start_header, buf_size),
		       &big, 4);
		snprintf(path, sizeof(path), "%s/append_8k", tmpdir);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		r = write(fd, sb, sizeof(sb)) == (ssize_t)sizeof(sb);
		close(fd);
		setup(&c4, &f4, 'A', 4, "", 0);
		r = open_quiet(&c4, path, 1, err, sizeof(err));
		is_int(r, -1, "append: a file of 8k sub-buffers is refused for "
		       "a 4k channel");
		ok(strstr(err, "holds 8192-byte sub-buffers, this channel has "
			  "4096") != NULL, "append: said why: %s", err);
		teardown(&c4, &f4);
	}

	/* a file cut inside a sub-buffer is not appended to */
	snprintf(path, sizeof(path), "%s/append_0", tmpdir);
	fd = open(path, O_WRONLY | O_APPEND);
	r = write(fd, "xyz", 3) == 3;
	close(fd);
	{
		struct lttd_channel c3;
		struct fake f3;
		char err[512];

		setup(&c3, &f3, 'A', 4, "", 0);
		r = open_quiet(&c3, path, 1, err, sizeof(err));
		is_int(r, -1, "append: a file of partial sub-buffers is refused");
		ok(strstr(err, "not a whole number") != NULL, "append: said "
		   "why: %s", err);
		teardown(&c3, &f3);
	}
}

static void test_write_error(void)
{
	static const int script[] = { 2, 2 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	char err[1024];
	int r;

	reset();
	setup(&ch, &f, 'A', 4, "", 0);
	free(ch.path);
	ch.path = strdup("full_0");
	ch.out_fd = open("/dev/full", O_WRONLY);
	if (ch.out_fd < 0) {
		ok(1, "write error # SKIP no /dev/full");
		teardown(&ch, &f);
		return;
	}
	f.script = script;
	f.nscript = 2;
	capture_stderr(err, sizeof(err), run_worker, &w, &r);
	is_int(r, -1, "write error: the worker reports failure");
	ok(w.fatal && ch.failed, "write error: fatal, and the channel failed");
	ok(strstr(err, "No space left on device") != NULL,
	   "write error: a clear message: %s", err);
	is_int(f.gets, f.puts, "write error: the sub-buffer was given back");
	ok(lttd_stop_requested(), "write error: the other workers are told "
	   "to stop");
	teardown(&ch, &f);
}

static void on_term(int sig)
{
	lttd_request_stop();
}

static void test_sigterm(void)
{
	/* 3 ready, SIGTERM arrives during the first get; more would come */
	static const int script[] = { 3, 4, 4, 4 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	struct sigaction sa = { .sa_handler = on_term }, old;

	reset();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &old);
	setup(&ch, &f, 'A', 4, "term_0", 0);
	f.script = script;
	f.nscript = 4;
	f.stop_at_get = 1;
	is_int(lttd_worker_run(&w), 0, "SIGTERM: the worker ends cleanly");
	ok(lttd_stop_requested(), "SIGTERM: the stop was seen");
	is_int(ch.written, 3, "SIGTERM: the 3 ready sub-buffers are written");
	is_int(f.polls, 1, "SIGTERM: no more waiting for new data");
	ok(seq_holds("term_0", 0, 3), "SIGTERM: the file holds #0..#2");
	teardown(&ch, &f);

	/* a writer that never rests cannot keep the drain going */
	reset();
	setup(&ch, &f, 'A', 4, "term_1", 0);
	f.script = script;
	f.nscript = 4;
	f.stop_at_get = 1;
	f.produce_on_put = 1;
	lttd_worker_run(&w);
	ok(ch.written <= 4 + 1, "SIGTERM: a busy writer: the drain stops "
	   "after one buffer's worth (%llu)", (unsigned long long)ch.written);
	teardown(&ch, &f);
	sigaction(SIGTERM, &old, NULL);
}

static void test_flight(void)
{
	static const int sn[] = { 1, 1, 1 }, sf[] = { 4 };
	struct lttd_channel a, b;
	struct fake fa, fb;
	struct lttd_channel *v[] = { &a, &b };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 2 };

	reset();
	setup(&a, &fa, 'N', 4, "cpu_0", 0);
	setup(&b, &fb, 'F', 4, "flight-cpu_0", 0);
	b.flight = 1;
	fa.script = sn;
	fa.nscript = 3;
	fb.script = sf;
	fb.nscript = 1;
	is_int(lttd_worker_run(&w), 0, "flight: the worker ends cleanly");
	is_str(order, "NNNFFFF", "flight: dumped once, after the normal "
	       "channel ended");
	ok(seq_holds("flight-cpu_0", 0, 4), "flight: the dump is complete");
	teardown(&a, &fa);
	teardown(&b, &fb);

	/* -f: no polling at all, a dump of what is there now */
	reset();
	setup(&b, &fb, 'F', 4, "flight-cpu_1", 0);
	b.flight = 1;
	produce(&fb, 3);
	w.chans = v + 1;
	w.n = 1;
	w.flight_only = 1;
	is_int(lttd_worker_run(&w), 0, "flight only: ends cleanly");
	is_int(fb.polls, 0, "flight only: nothing polled");
	is_int(b.written, 3, "flight only: the 3 sub-buffers dumped");
	teardown(&b, &fb);
}

struct waiter {
	struct lttd_worker *w;
	int r;
	atomic_int finished;
};

static void *wait_worker(void *arg)
{
	struct waiter *x = arg;

	x->r = lttd_worker_run(x->w);
	atomic_store(&x->finished, 1);
	return NULL;
}

/*
 * A worker left with flight channels only: they never hang up (nothing
 * reads them, so they are never empty); it waits, without spinning, until
 * another worker sees a channel of the trace hang up.
 */
static void test_flight_waits_for_end(void)
{
	static const int sf[] = { 4 };
	struct lttd_channel b;
	struct fake fb;
	struct lttd_channel *v[] = { &b };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	struct waiter x = { .w = &w };
	pthread_t t;

	reset();
	setup(&b, &fb, 'F', 4, "flight-cpu_2", 0);
	b.flight = 1;
	fb.script = sf;
	fb.nscript = 1;
	if (pthread_create(&t, NULL, wait_worker, &x)) {
		ok(0, "flight end: cannot start a thread");
		teardown(&b, &fb);
		return;
	}
	usleep(300 * 1000);
	ok(!atomic_load(&x.finished), "flight end: a flight channel alone "
	   "does not end the worker");
	ok(fb.polls <= 3, "flight end: the worker waits in poll, it does not "
	   "spin (%d polls)", fb.polls);
	is_int(b.written, 0, "flight end: nothing dumped while the trace runs");
	lttd_note_trace_end();
	pthread_join(t, NULL);
	is_int(x.r, 0, "flight end: the worker ends cleanly");
	is_int(b.written, 4, "flight end: then the flight channel is dumped");
	ok(seq_holds("flight-cpu_2", 0, 4), "flight end: the dump is complete");
	teardown(&b, &fb);
}

static void *thread_main(void *arg)
{
	lttd_worker_run(arg);
	return NULL;
}

static void test_threads(void)
{
	static const int script[] = { 1, 2, 3, 4, 1, 0, 2 };
	struct lttd_channel ch[4];
	struct fake f[4];
	struct lttd_channel *v0[] = { &ch[0], &ch[2] }, *v1[] = { &ch[1], &ch[3] };
	struct lttd_worker w[2] = {
		{ .ops = &fake_ops, .chans = v0, .n = 2 },
		{ .ops = &fake_ops, .chans = v1, .n = 2 },
	};
	pthread_t t[2];
	int all = 1;

	reset();
	for (int i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "thr_%d", i);
		setup(&ch[i], &f[i], (char)('0' + i), 4, name, 0);
		f[i].script = script;
		f[i].nscript = 7;
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_main, &w[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 4; i++) {
		char name[32];

		snprintf(name, sizeof(name), "thr_%d", i);
		all &= ch[i].written == f[i].produced && f[i].produced >= 12 &&
		       seq_holds(name, 0, (int)f[i].produced);
		teardown(&ch[i], &f[i]);
	}
	ok(all, "threads: 2 workers copy 4 channels completely");
}

static void test_bad_offset(void)
{
	static const int script[] = { 1 };
	struct lttd_channel ch;
	struct fake f;
	struct lttd_channel *v[] = { &ch };
	struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
	char err[1024];
	int r;

	reset();
	setup(&ch, &f, 'A', 4, "bad_0", 0);
	f.script = script;
	f.nscript = 1;
	f.bad_offset = 1;
	capture_stderr(err, sizeof(err), run_worker, &w, &r);
	ok(ch.failed && ch.written == 0, "bad offset: refused, nothing written");
	ok(strstr(err, "not at a sub-buffer boundary") != NULL,
	   "bad offset: said so: %s", err);
	teardown(&ch, &f);
}

/* ---- channel.buffer_stats ------------------------------------------------ */

static size_t put_header(unsigned char *sb, int hb, int align)
{
	struct ltt_block_start_header h;

	memset(&h, 0, sizeof(h));
	h.buf_size = SB;
	h.trace.magic_number = LTT_TRACER_MAGIC_NUMBER;
	h.trace.major_version = LTT_TRACER_VERSION_MAJOR;
	h.trace.minor_version = LTT_TRACER_VERSION_MINOR;
	h.trace.arch_size = 8;
	h.trace.has_heartbeat = (uint8_t)hb;
	h.trace.has_alignment = (uint8_t)align;
	memcpy(sb, &h, sizeof(h));
	return sizeof(h);
}

static size_t align_to(size_t o, size_t n, size_t a)
{
	if (!a)
		return o;
	if (n > a)
		n = a;
	return (o + n - 1) / n * n;
}

/* Appends an event (hb header) at o; returns the end offset. */
static size_t put_event(unsigned char *sb, size_t o, int align, uint8_t fac,
			uint8_t ev, const void *payload, uint16_t size)
{
	struct ltt_event_header_hb eh = { 0, fac, ev, size };

	o = align_to(o, 8, (size_t)align);
	memcpy(sb + o, &eh, sizeof(eh));
	o = align_to(o + sizeof(eh), (size_t)align, (size_t)align);
	memcpy(sb + o, payload, size);
	return o + size;
}

static void finish(unsigned char *sb, size_t end)
{
	uint32_t lost = SB - (uint32_t)end;

	memcpy(sb + offsetof(struct ltt_block_start_header, lost_size), &lost, 4);
}

static void scan(struct lttd_channel *ch, const unsigned char *sb)
{
	struct lttd_stats_hit hit;

	lttd_stats_scan(ch, sb, SB, &hit);
	lttd_stats_commit(ch, &hit);
}

static void test_buffer_stats(void)
{
	static unsigned char fac[SB], cpu[SB], other[SB];
	struct lttd_channel cf, cc;
	struct fake ff, fc;

	for (int align = 0; align <= 8; align += 4) {
		reset();
		/* facilities: core loads "kernel" as 3, "channel" as 5 */
		memset(fac, 0, SB);
		size_t o = put_header(fac, 1, align);
		unsigned char pl[64];
		size_t p;
		uint32_t v;

		memset(pl, 0, sizeof(pl));
		memcpy(pl, "kernel", 7);
		p = align_to(7, 4, (size_t)align);
		v = 0x1234;
		memcpy(pl + p, &v, 4);
		p = align_to(p + 4, 4, (size_t)align);
		v = 3;
		memcpy(pl + p, &v, 4);
		o = put_event(fac, o, align, 0, LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD,
			      pl, (uint16_t)(p + 4 + 20));
		memset(pl, 0, sizeof(pl));
		memcpy(pl, "channel", 8);
		p = align_to(8, 4, (size_t)align);
		v = 0x5678;
		memcpy(pl + p, &v, 4);
		p = align_to(p + 4, 4, (size_t)align);
		v = 5;
		memcpy(pl + p, &v, 4);
		o = put_event(fac, o, align, 0, LTT_EVENT_CORE_FACILITY_LOAD,
			      pl, (uint16_t)(p + 4 + 20));
		finish(fac, o);

		/* cpu: buffer_stats first: 7 events lost, 1 corrupted */
		memset(cpu, 0, SB);
		o = put_header(cpu, 1, align);
		uint32_t st[2] = { 7, 1 };

		o = put_event(cpu, o, align, 5, 0, st, 8);
		o = put_event(cpu, o, align, 3, 0, st, 4);
		finish(cpu, o);
		/* an older one, and a later sub-buffer without stats */
		memset(other, 0, SB);
		o = put_header(other, 1, align);
		st[0] = 2;
		o = put_event(other, o, align, 5, 0, st, 8);
		finish(other, o);

		setup(&cf, &ff, 'f', 4, "", 0);
		cf.facilities = 1;
		setup(&cc, &fc, 'c', 4, "", 0);
		scan(&cc, cpu);
		scan(&cc, other);
		is_int(lttd_stats_channel_facility(), -1,
		       "stats (align %d): channel facility unknown before the "
		       "facilities channel", align);
		scan(&cf, fac);
		is_int(lttd_stats_channel_facility(), 5,
		       "stats (align %d): channel facility is id 5", align);
		ok(cc.bstats && cc.bstats[5].seen &&
		   cc.bstats[5].events_lost == 7 && cc.bstats[5].corrupted == 1,
		   "stats (align %d): 7 events lost, 1 corrupted (largest seen)",
		   align);
		/* the stop's last buffer_stats: after other events */
		memset(other, 0, SB);
		o = put_header(other, 1, align);
		st[0] = 1;
		o = put_event(other, o, align, 3, 1, st, 4);
		o = put_event(other, o, align, 3, 1, st, 4);
		st[0] = 9;
		st[1] = 2;
		o = put_event(other, o, align, 5, 0, st, 8);
		finish(other, o);
		scan(&cc, other);
		ok(cc.bstats && cc.bstats[5].events_lost == 9 &&
		   cc.bstats[5].corrupted == 2,
		   "stats (align %d): a buffer_stats after other events counts "
		   "too (9 lost, 2 corrupted)", align);
		teardown(&cf, &ff);
		teardown(&cc, &fc);
	}

	/* the counters of a pushed (EIO) sub-buffer are not used */
	{
		static unsigned char two[2 * SB];
		static const int script[] = { 2 };
		struct lttd_channel *v[] = { &cc };
		struct lttd_worker w = { .ops = &fake_ops, .chans = v, .n = 1 };
		uint32_t st[2] = { 3, 0 };
		size_t o;

		reset();
		memset(two, 0, sizeof(two));
		for (int k = 0; k < 2; k++) {
			o = put_header(two + k * SB, 1, 8);
			o = put_event(two + k * SB, o, 8, 5, 0, st, 8);
			finish(two + k * SB, o);
			st[0] = 9;
		}
		setup(&cc, &fc, 'c', 4, "stats_eio_0", 0);
		fc.content = two;
		fc.script = script;
		fc.nscript = 1;
		fc.eio_mask = 1u << 1;
		lttd_worker_run(&w);
		ok(cc.pushed == 1 && cc.bstats && cc.bstats[5].events_lost == 3,
		   "stats: a pushed sub-buffer's 9 lost events are not counted "
		   "(got %u)", cc.bstats ? cc.bstats[5].events_lost : 0);
		teardown(&cc, &fc);
	}

	/* garbage is not read */
	reset();
	setup(&cc, &fc, 'c', 4, "", 0);
	memset(cpu, 0xff, SB);
	scan(&cc, cpu);
	ok(cc.bstats == NULL, "stats: a sub-buffer without the magic is "
	   "ignored");
	teardown(&cc, &fc);
}

static void test_write_full(void)
{
	int p[2];
	char big[200000], back[200000];
	int r;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 13);
	if (pipe(p) < 0) {
		ok(0, "write_full: pipe");
		return;
	}
	/* a pipe takes 64k at a time: the rest needs more writes */
	pid_t pid = fork();

	if (pid == 0) {
		size_t got = 0;

		close(p[1]);
		while (got < sizeof(back)) {
			ssize_t n = read(p[0], back + got, sizeof(back) - got);

			if (n <= 0)
				_exit(2);
			got += (size_t)n;
		}
		_exit(memcmp(big, back, sizeof(big)) ? 1 : 0);
	}
	close(p[0]);
	r = lttd_write_full(p[1], big, sizeof(big));
	close(p[1]);
	int status;

	waitpid(pid, &status, 0);
	ok(r == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "write_full: 200000 bytes through a pipe, in order");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	if (lttd_stop_init() < 0) {
		perror("pipe");
		return 1;
	}
	test_normal_drain();
	test_priority();
	test_eio();
	test_append();
	test_write_error();
	test_sigterm();
	test_flight();
	test_flight_waits_for_end();
	test_threads();
	test_bad_offset();
	test_buffer_stats();
	test_write_full();

	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return tap_done();
}
