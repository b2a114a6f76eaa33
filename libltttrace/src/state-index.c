/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * state-index.c - one pass over a trace that keeps what a viewer needs to
 * show any part of it quickly:
 *
 *   checkpoints   a copy of the model every N events, taken just before an
 *                 event whose time is later than the previous one, so that
 *                 "the model after every event with time < c.t" is exactly
 *                 what ltt_iter_seek_time(c.t) continues from;
 *
 *   row logs      for each process, CPU and IRQ, the times at which what it
 *                 shows (an ltt_state_kind) changed, compressed in chunks
 *                 of up to 128 changes by models that the rows of a type
 *                 share (state-rows.h: about 1.8 bytes a change where a
 *                 plain int64 time and a kind byte took 9), with the time
 *                 spent so far in each kind at every chunk:
 *
 *      row log   t: t0      t1        t2   t3          indexed_ns
 *                k: WAIT    SYSCALL   USER WAIT_CPU   (open end)
 *                   [t0,t1) [t1,t2)   ...
 *                S(j)[kind] = time in kind over [t0, t_j), known at the
 *                start of every chunk and kept up to date by a cursor
 *                that walks the changes
 *
 * Drawing a row over [a, b) at r ns per pixel seeks a cursor to the change
 * before a (a bisection of the chunks' first times, then a walk of at most
 * one chunk). An interval at least r long is one call. Where changes are
 * denser than r, the walk goes a pixel at a time: the time spent in each
 * kind in that pixel (the difference of S at its two ends: the cursor
 * walks to its end change by change when that is within the next chunk,
 * else seeks) is added to a balance owed to each kind, and the pixel
 * shows the kind owed most (each balance raised by a draw of the row and
 * the pixel: no pattern shared by the rows, no regular comb), which then
 * owes one pixel less (error diffusion, as a halftone printer spreads
 * grey). So the share of a row drawn in a kind is the share of time spent
 * in it, to within five pixels per kind, at any zoom: a task that ran 4 % of the time in short bursts is
 * 4 % green, not green wherever it ran at all. The work is O(pixels *
 * (log changes + chunk)), whatever the zoom and the size of the trace.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"
#include "prefault.h"
#include "state-internal.h"
#include "state-rows.h"

#define NKINDS LTT_STATE_NUM_KINDS

/*
 * A process that is dead (freed: out of the pid table) and runs on no CPU
 * can never change again: no event can reach it. A checkpoint keeps only
 * the other processes (live ones, and dead ones still on a CPU), with their
 * indexes; a restore takes the frozen ones from the indexing model, whose
 * copies are final. So checkpoints cost what is alive, not everything that
 * ever lived (a build server forks thousands of short processes).
 */
typedef struct checkpoint {
	int64_t t;			/* the model holds every event with time < t */
	int64_t now;
	uint64_t events;
	uint64_t ignored;		/* the model's count of ignored events */
	char ignored_why[sizeof(((ltt_state *)0)->ignored_why)];
	st_proc *procs;			/* the non-frozen processes ... */
	unsigned *proc_index;		/* ... and their indexes */
	st_cpu *cpus;
	st_irq *irqs;
	st_softirqs sq;
	unsigned nprocs;		/* processes in the model then */
	unsigned nkept, ncpus, nirqs;
} checkpoint;

/*
 * What an index shares with its snapshots: the arrays that the indexing
 * replaced while a snapshot may still read them (a row log that grew, the
 * checkpoint table, everything when the index is freed first), each kept
 * until no snapshot older than its replacement is left.
 *
 *   index   gen 0 ... take snapshot (gen 1) ... grow t[] (old t[] retired
 *           with gen 1) ... take snapshot (gen 2) ...
 *   free the gen-1 snapshot: the old t[] goes (no live snapshot <= 1)
 */
typedef struct retired {
	unsigned gen;			/* snapshots up to this one may read it */
	void *p;
} retired;

typedef struct ix_store {
	gint refs;			/* the index and its snapshots */
	GMutex lock;			/* around what follows */
	unsigned gen;			/* snapshots taken of the index */
	GArray *live;			/* unsigned: gen of each live snapshot */
	GArray *retired;
} ix_store;

struct ltt_state_index {
	ix_store *store;
	int is_snapshot;
	unsigned gen;			/* a snapshot's: the index's gen when taken */
	/* the index's last snapshot was taken at this time: the changes up
	 * to it are read by snapshots and never rewritten */
	int64_t sealed_ns;
	ltt_trace **traces;
	size_t ntraces;
	ltt_iter *it;			/* the indexing pass */
	ltt_iter *seek_it;		/* replays after a restore */
	ltt_state *st;
	row_log *rows[4];		/* by ltt_state_row_type */
	unsigned nrows[4];
	row_bank *banks[4];		/* the models of each type's rows (the
					 * index's; a snapshot reaches them
					 * through its rows, and counts none) */
	checkpoint *cps;
	unsigned ncps, cap_cps;
	unsigned *kept, cap_kept;	/* take_checkpoint()'s scratch */
	uint64_t every, since_cp, changes;
	int64_t start_ns, end_ns, indexed_ns;
	int done;
	/* options.live: events at or after horizon wait (INT64_MAX: none
	 * does); every event before frontier is indexed, none at or after it
	 * (INT64_MIN: none yet); reposition: the iterator is to be made
	 * again at frontier (it read an event it did not index, or the
	 * traces were replaced) */
	int live, reposition;
	int64_t horizon, frontier;
	int64_t last_ns;		/* the latest event indexed */
	unsigned threads;		/* 1, or 2: a pipeline (below) */
	struct pipe *pipe;		/* 2: started at the first run */
};

/*
 * The pipeline (threads = 2). The thread that calls ltt_state_index_run()
 * reads and merges the events and runs the state engine; what it would
 * record (a row, a time, a kind) goes into batches, and a second thread
 * records and codes them, in the same order, so that the rows are the
 * same bytes as with one thread:
 *
 *   caller   read, merge, state engine, checkpoints -> batch | batch | ...
 *   coder                        row_log_record(), encode(): batch | ...
 *
 * The batches are a ring of NBATCH; the caller waits when all are full,
 * the coder when all are empty (a mutex and two conditions, taken once a
 * batch, not once a change). ltt_state_index_run() returns without
 * waiting for the coder, which goes on with what was handed over: the
 * window indexes in slices of 50 000 events, and waiting at the end of
 * each (the caller idle while the coder caught up, then the coder idle
 * until the next batch came) cost 8 % of the index's time. What reads
 * what the coder writes waits for it first (settle(): the batch being
 * filled handed over, every batch done): a snapshot, the rows' queries,
 * the counts of changes and memory, the digest, and
 * ltt_state_index_free(), which stops the coder. Those calls come from
 * the thread that runs the index, so nothing is handed over meanwhile.
 * The two threads share nothing else but retire(), which locks: the
 * caller owns the iterator, the model and the checkpoints; the coder the
 * rows, their banks and idx->changes; the coder reads sealed_ns and
 * store->gen, which change only in a snapshot, after it settled.
 *
 * The caller drops a change of a row to the kind that row last got: the
 * coder would (row_log_record() returns 0 at once when the tail's last
 * kind is the new one, and the tail's last kind is always the one last
 * recorded), so the coder sees about half the calls.
 */
#define BATCH	4096		/* changes in a batch */
/* batches in the ring: 4 MB, more than a core's cache, so that the caller
 * refills lines the coder read long ago, no longer in the coder's cache
 * (with 8, 512 KB, each refill took the lines back from the other core:
 * 10 M events indexed in 1.10 s; 0.92 s with 64, 0.95 with 256, 1.09
 * with 1024, 1.38 with 2) */
#define NBATCH	64

typedef struct change {
	int64_t t;
	unsigned i;
	uint8_t type, kind;
} change;

typedef struct batch {
	unsigned n;
	change c[BATCH];
} batch;

typedef struct pipe {
	GThread *thread;
	GMutex lock;
	GCond filled, emptied;
	unsigned put, got;		/* batches handed over, coded */
	int quit;
	int finish;			/* with quit: the coder finishes the rows
					 * of processes on its way out */
	batch *ring;			/* NBATCH */
	batch *cur;			/* the caller's: ring[put % NBATCH] */
	uint8_t *last[4];		/* the caller's: each row's last kind sent, */
	unsigned nlast[4];		/* 0xff: none */
} pipe_t;

static int record_now(ltt_state_index *idx, ltt_state_row_type type, unsigned i,
		      int64_t t, ltt_state_kind kind);
static void finish_rows(ltt_state_index *idx, ltt_state_row_type type);

static gpointer coder_thread(gpointer data)
{
	ltt_state_index *idx = data;
	pipe_t *p = idx->pipe;
	unsigned changes;

	g_mutex_lock(&p->lock);
	for (;;) {
		batch *b;

		while (p->got == p->put && !p->quit)
			g_cond_wait(&p->filled, &p->lock);
		if (p->got == p->put)
			break;
		b = &p->ring[p->got % NBATCH];
		g_mutex_unlock(&p->lock);
		/* counted here, added once a batch: idx->changes shares a
		 * cache line with what the caller reads at every event */
		changes = 0;
		for (unsigned j = 0; j < b->n; j++)
			changes += (unsigned)record_now(idx, b->c[j].type, b->c[j].i,
							b->c[j].t, b->c[j].kind);
		idx->changes += changes;
		g_mutex_lock(&p->lock);
		p->got++;
		g_cond_signal(&p->emptied);
	}
	g_mutex_unlock(&p->lock);
	if (p->finish)
		finish_rows(idx, LTT_STATE_ROW_PROCESS);
	return NULL;
}

static void pipe_start(ltt_state_index *idx)
{
	pipe_t *p = g_new0(pipe_t, 1);

	g_mutex_init(&p->lock);
	g_cond_init(&p->filled);
	g_cond_init(&p->emptied);
	p->ring = g_new(batch, NBATCH);
	p->cur = &p->ring[0];
	p->cur->n = 0;
	idx->pipe = p;
	p->thread = g_thread_try_new("ltt-index-coder", coder_thread, idx, NULL);
	if (!p->thread) {
		/* no room for a thread (its stack, out of memory): the
		 * caller codes the rows itself, as with one thread */
		g_mutex_clear(&p->lock);
		g_cond_clear(&p->filled);
		g_cond_clear(&p->emptied);
		g_free(p->ring);
		g_free(p);
		idx->pipe = NULL;
		idx->threads = 1;
	}
}

/* Hand the batch being filled over, if it holds anything; wait for a free one. */
static void pipe_hand_over(pipe_t *p)
{
	if (!p->cur->n)
		return;
	g_mutex_lock(&p->lock);
	p->put++;
	g_cond_signal(&p->filled);
	while (p->put - p->got >= NBATCH)
		g_cond_wait(&p->emptied, &p->lock);
	g_mutex_unlock(&p->lock);
	p->cur = &p->ring[p->put % NBATCH];
	p->cur->n = 0;
}

/* Everything handed over, and coded: the coder is idle. */
static void pipe_drain(pipe_t *p)
{
	if (!p)
		return;
	pipe_hand_over(p);
	g_mutex_lock(&p->lock);
	while (p->got != p->put)
		g_cond_wait(&p->emptied, &p->lock);
	g_mutex_unlock(&p->lock);
}

/* The coder done with everything read so far: the rows whole (a no-op
 * without a pipeline, and for a snapshot). */
static void settle(const ltt_state_index *idx)
{
	pipe_drain(idx->pipe);
}

/*
 * Stop the coder. finish: the trace is indexed; the coder finishes the
 * rows of processes (their tails coded, their arrays fitted) while the
 * caller finishes the others, before the join: the types' banks are
 * apart, and each type's rows still go in their order.
 */
static void pipe_stop(ltt_state_index *idx, int finish)
{
	pipe_t *p = idx->pipe;

	if (!p)
		return;
	pipe_drain(p);
	g_mutex_lock(&p->lock);
	p->quit = 1;
	p->finish = finish;
	g_cond_signal(&p->filled);
	g_mutex_unlock(&p->lock);
	if (finish)
		for (unsigned type = LTT_STATE_ROW_CPU; type < 4; type++)
			finish_rows(idx, (ltt_state_row_type)type);
	g_thread_join(p->thread);
	g_mutex_clear(&p->lock);
	g_cond_clear(&p->filled);
	g_cond_clear(&p->emptied);
	for (unsigned type = 0; type < 4; type++)
		g_free(p->last[type]);
	g_free(p->ring);
	g_free(p);
	idx->pipe = NULL;
}

/* The caller's side of ltt_state__record() with a pipeline. */
static void pipe_record(pipe_t *p, ltt_state_row_type type, unsigned i, int64_t t,
			ltt_state_kind kind)
{
	change *c;

	if (i >= p->nlast[type]) {
		unsigned n = MAX(i + 1, 2 * p->nlast[type]);

		p->last[type] = g_renew(uint8_t, p->last[type], n);
		memset(p->last[type] + p->nlast[type], 0xff, n - p->nlast[type]);
		p->nlast[type] = n;
	} else if (p->last[type][i] == (uint8_t)kind) {
		return;
	}
	p->last[type][i] = (uint8_t)kind;
	if (p->cur->n == BATCH)
		pipe_hand_over(p);
	c = &p->cur->c[p->cur->n++];
	c->t = t;
	c->i = i;
	c->type = (uint8_t)type;
	c->kind = (uint8_t)kind;
}

static int frozen(const ltt_state *st, unsigned i)
{
	if (st->procs[i].alive)
		return 0;
	for (unsigned c = 0; c < st->ncpus; c++)
		if (st->cpus[c].cur == (int)i)
			return 0;
	return 1;
}

/* The index replaced p: free it, or keep it while a snapshot may read it. */
static void retire(ltt_state_index *idx, void *p)
{
	ix_store *s = idx->store;
	int keep;

	if (!p)
		return;
	g_mutex_lock(&s->lock);
	keep = s->live->len > 0;
	if (keep) {
		retired r = { s->gen, p };

		g_array_append_val(s->retired, r);
	}
	g_mutex_unlock(&s->lock);
	if (!keep)
		g_free(p);
}

/* retire() as the row logs call it */
static void retire_cb(void *ctx, void *p)
{
	retire(ctx, p);
}

/* g_renew() for the arrays snapshots read: a new copy, the old retired. */
static void *grow(ltt_state_index *idx, void *p, size_t old_size, size_t new_size)
{
	void *n = g_malloc(new_size);

	if (old_size)
		memcpy(n, p, old_size);
	retire(idx, p);
	return n;
}

/* Free what no live snapshot can read any more (with s->lock held). */
static void release_retired(ix_store *s)
{
	unsigned min = UINT_MAX;
	guint k = 0;

	for (guint i = 0; i < s->live->len; i++)
		min = MIN(min, g_array_index(s->live, unsigned, i));
	for (guint i = 0; i < s->retired->len; i++) {
		retired *r = &g_array_index(s->retired, retired, i);

		if (r->gen < min)
			g_free(r->p);
		else
			g_array_index(s->retired, retired, k++) = *r;
	}
	g_array_set_size(s->retired, k);
}

static void store_unref(ix_store *s)
{
	if (!g_atomic_int_dec_and_test(&s->refs))
		return;
	for (guint i = 0; i < s->retired->len; i++)
		g_free(g_array_index(s->retired, retired, i).p);
	g_array_free(s->retired, TRUE);
	g_array_free(s->live, TRUE);
	g_mutex_clear(&s->lock);
	g_free(s);
}

static void take_checkpoint(ltt_state_index *idx, int64_t t)
{
	const ltt_state *st = idx->st;
	checkpoint *c;

	if (idx->ncps == idx->cap_cps) {
		unsigned cap = idx->cap_cps ? 2 * idx->cap_cps : 16;

		idx->cps = grow(idx, idx->cps, sizeof(checkpoint) * idx->cap_cps,
				sizeof(checkpoint) * cap);
		idx->cap_cps = cap;
	}
	c = &idx->cps[idx->ncps++];
	c->t = t;
	c->now = st->now;
	c->events = st->events;
	c->ignored = st->ignored;
	memcpy(c->ignored_why, st->ignored_why, sizeof(c->ignored_why));
	c->nprocs = st->nprocs;
	c->ncpus = st->ncpus;
	c->nirqs = st->nirqs;
	/* one pass over the processes (33 000 at the end of the bench's 100 M
	 * events, at each of 1001 checkpoints) into a scratch list of the
	 * kept ones; their copy in pages brought in at once (prefault.h) */
	if (idx->cap_kept < st->nprocs) {
		idx->cap_kept = st->nprocs + st->nprocs / 2;
		idx->kept = g_renew(unsigned, idx->kept, idx->cap_kept);
	}
	c->nkept = 0;
	for (unsigned i = 0; i < st->nprocs; i++)
		if (!frozen(st, i))
			idx->kept[c->nkept++] = i;
	c->procs = ltt_malloc_prefaulted(sizeof(st_proc) * (c->nkept ? c->nkept : 1));
	c->proc_index = g_memdup2(idx->kept, sizeof(unsigned) * (c->nkept ? c->nkept : 1));
	for (unsigned k = 0; k < c->nkept; k++)
		c->procs[k] = st->procs[idx->kept[k]];
	c->cpus = g_memdup2(st->cpus, sizeof(st_cpu) * st->ncpus);
	c->irqs = g_memdup2(st->irqs, sizeof(st_irq) * st->nirqs);
	c->sq = st->sq;
}

static void restore(ltt_state *out, const checkpoint *c, const ltt_state *final)
{
	ltt_state__share_first_tasks(out, final);
	out->now = c->now;
	out->events = c->events;
	out->ignored = c->ignored;
	memcpy(out->ignored_why, c->ignored_why, sizeof(out->ignored_why));
	if (out->cap_procs < c->nprocs) {
		out->cap_procs = c->nprocs;
		out->procs = g_renew(st_proc, out->procs, out->cap_procs);
	}
	/* the frozen ones as they are for good, then those that were not */
	if (c->nprocs)
		memcpy(out->procs, final->procs, sizeof(st_proc) * c->nprocs);
	for (unsigned k = 0; k < c->nkept; k++)
		out->procs[c->proc_index[k]] = c->procs[k];
	out->nprocs = c->nprocs;
	out->cpus = g_renew(st_cpu, out->cpus, c->ncpus);
	if (c->ncpus)
		memcpy(out->cpus, c->cpus, sizeof(st_cpu) * c->ncpus);
	out->ncpus = c->ncpus;
	if (out->cap_irqs < c->nirqs) {
		out->cap_irqs = c->nirqs;
		out->irqs = g_renew(st_irq, out->irqs, out->cap_irqs);
	}
	if (c->nirqs)
		memcpy(out->irqs, c->irqs, sizeof(st_irq) * c->nirqs);
	out->nirqs = c->nirqs;
	out->sq = c->sq;
	ltt_state__rebuild_pids(out);
}

/* start_ns and end_ns from what the headers of idx->traces say */
static void trace_span(ltt_state_index *idx)
{
	idx->start_ns = INT64_MAX;
	idx->end_ns = INT64_MIN;
	for (size_t i = 0; i < idx->ntraces; i++) {
		const ltt_trace_info *info = ltt_trace_get_info(idx->traces[i]);

		if (info->first_event_ns < idx->start_ns)
			idx->start_ns = info->first_event_ns;
		if (info->last_event_ns > idx->end_ns)
			idx->end_ns = info->last_event_ns;
	}
	if (idx->ntraces == 0)
		idx->start_ns = idx->end_ns = 0;
}

/* ---- live: an index carried on as its traces grow ----------------------- */

/* A file this far behind the others is quiet (a control channel that
 * fills once in a while): the others do not wait for it. */
#define LIVE_QUIET_NS 2000000000

static int64_t block_ns(const ltt_tracefile *tf, unsigned b, int end)
{
	return ltt_cycles_to_ns_inline(tf->trace, end ? tf->blocks[b].end_cycles
						      : tf->blocks[b].begin_cycles);
}

/*
 * The horizon of traces being written: every sub-buffer still to come in
 * a tracefile starts at or after the end of its last one, so no event
 * before the earliest such end can still come, but in a file that has
 * none yet, the facility table (its events change no state) or a quiet
 * one (LIVE_QUIET_NS): ltt_state_index_extend() sees whether what they
 * bring is before what was indexed. A CTF trace: no horizon (never extended).
 */
static int64_t live_horizon(ltt_trace *const *traces, size_t n)
{
	int64_t latest = INT64_MIN, h = INT64_MAX;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			if (traces[i]->ctf)
				return INT64_MAX;
			for (guint f = 0; f < traces[i]->tracefiles->len; f++) {
				const ltt_tracefile *tf = traces[i]->tracefiles->pdata[f];
				int64_t e;

				if (tf->is_facilities || !tf->num_blocks)
					continue;
				e = block_ns(tf, tf->num_blocks - 1, 1);
				if (pass == 0)
					latest = MAX(latest, e);
				else if (e >= latest - LIVE_QUIET_NS)
					h = MIN(h, e);
			}
		}
	return latest == INT64_MIN ? INT64_MIN : h;
}

/* The iterator again, over idx->traces, at the frontier. */
static int reposition(ltt_state_index *idx, ltt_error **err)
{
	ltt_iter_free(idx->it);
	idx->it = ltt_iter_new(idx->traces, idx->ntraces, err);
	if (!idx->it)
		return -1;
	if (idx->frontier != INT64_MIN && ltt_iter_seek_time(idx->it, idx->frontier, err) < 0)
		return -1;
	idx->reposition = 0;
	return 0;
}

static const ltt_tracefile *tracefile_named(const ltt_trace *t, const char *relpath)
{
	for (guint f = 0; f < t->tracefiles->len; f++) {
		const ltt_tracefile *tf = t->tracefiles->pdata[f];

		if (!strcmp(tf->relpath, relpath))
			return tf;
	}
	return NULL;
}

/* Why trace nt cannot carry on from ot, indexed before frontier; NULL: it can. */
static char *not_grown(const ltt_trace *ot, const ltt_trace *nt, int64_t frontier)
{
	const ltt_trace_info *a = &ot->info, *b = &nt->info;

	if (ot->ctf || nt->ctf)
		return g_strdup("a CTF trace is indexed from its start");
	if (a->start_tsc != b->start_tsc || a->start_freq != b->start_freq ||
	    a->freq_scale != b->freq_scale || a->start_time_ns != b->start_time_ns)
		return g_strdup("its start changed (another recording)");
	for (guint f = 0; f < ot->tracefiles->len; f++) {
		const ltt_tracefile *o = ot->tracefiles->pdata[f];
		const ltt_tracefile *m = tracefile_named(nt, o->relpath);

		if (!m)
			return g_strdup_printf("%s is gone", o->relpath);
		if (m->dev != o->dev || m->ino != o->ino)
			return g_strdup_printf("%s was replaced", o->relpath);
		if (m->num_blocks < o->num_blocks || m->subbuf_size != o->subbuf_size)
			return g_strdup_printf("%s shrank", o->relpath);
		for (unsigned k = 0; k < o->num_blocks; k++)
			if (m->blocks[k].begin_cycles != o->blocks[k].begin_cycles ||
			    m->blocks[k].end_cycles != o->blocks[k].end_cycles ||
			    m->blocks[k].data_end != o->blocks[k].data_end)
				return g_strdup_printf("%s: sub-buffer %u was rewritten",
						       o->relpath, k);
		if (o->is_facilities && m->num_blocks != o->num_blocks)
			return g_strdup_printf("%s grew (events may decode otherwise)",
					       o->relpath);
	}
	for (guint f = 0; f < nt->tracefiles->len; f++) {
		const ltt_tracefile *m = nt->tracefiles->pdata[f];
		const ltt_tracefile *o = tracefile_named(ot, m->relpath);
		unsigned from = o ? o->num_blocks : 0;

		if (!o && m->is_facilities && m->num_blocks)
			return g_strdup_printf("%s is new", m->relpath);
		if (from < m->num_blocks && frontier != INT64_MIN &&
		    block_ns(m, from, 0) < frontier)
			return g_strdup_printf("%s%s: sub-buffer %u starts before what is "
					       "indexed", m->relpath, o ? "" : " (new)", from);
	}
	return NULL;
}

/* The task each CPU starts with in nt (*ft, *nf), as st's table of ot
 * says for every CPU already running; else why not (and nothing set). */
static char *first_tasks_kept(const ltt_state *st, const ltt_trace *ot, const ltt_trace *nt,
			      ltt_state_first_task **ft, unsigned *nf)
{
	*ft = ltt_state__first_tasks(nt, nf);
	for (unsigned i = 0; i < st->ncaches; i++) {
		const st_type_cache *c = &st->caches[i];

		if (c->trace != ot)
			continue;
		for (unsigned cpu = 0; cpu < st->ncpus; cpu++) {
			ltt_state_first_task none = { -1, LTT_STATE_MODE_UNKNOWN };
			const ltt_state_first_task *x = cpu < c->nfirst ? &c->first_task[cpu] : &none;
			const ltt_state_first_task *y = cpu < *nf ? &(*ft)[cpu] : &none;

			if (st->cpus[cpu].cur >= 0 && (x->pid != y->pid || x->mode != y->mode)) {
				g_free(*ft);
				*ft = NULL;
				return g_strdup_printf("the task CPU %u started with is known "
						       "now", cpu);
			}
		}
	}
	return NULL;
}

/* st's tables of ot are nt's now: its first tasks ft, its event types
 * resolved again (from nt's facilities) as they come. */
static void move_cache(ltt_state *st, const ltt_trace *ot, const ltt_trace *nt,
		       ltt_state_first_task *ft, unsigned nf)
{
	for (unsigned i = 0; i < st->ncaches; i++) {
		st_type_cache *c = &st->caches[i];

		if (c->trace != ot)
			continue;
		g_free(c->first_task);
		c->first_task = ft;
		c->nfirst = nf;
		for (unsigned f = 0; f < G_N_ELEMENTS(c->fac); f++) {
			g_free(c->fac[f]);
			c->fac[f] = NULL;
		}
		c->trace = nt;
		return;
	}
	g_free(ft);	/* no event of ot yet: nt's found when one comes */
}

int ltt_state_index_extend(ltt_state_index *idx, ltt_trace *const *traces, size_t n,
			   char **why, ltt_error **err)
{
	ltt_state_first_task **ft;
	unsigned *nf;

	*why = NULL;
	if (idx->is_snapshot || !idx->live || idx->pipe) {
		ltt_set_error(err, LTT_ERROR_INVALID, "only a live index, settled, is extended");
		return -1;
	}
	if (n != idx->ntraces) {
		*why = g_strdup("another number of traces");
		return 1;
	}
	for (size_t i = 0; i < n && !*why; i++)
		*why = not_grown(idx->traces[i], traces[i], idx->frontier);
	if (*why)
		return 1;
	ft = g_new0(ltt_state_first_task *, n);
	nf = g_new0(unsigned, n);
	for (size_t i = 0; i < n && !*why; i++)
		*why = first_tasks_kept(idx->st, idx->traces[i], traces[i], &ft[i], &nf[i]);
	for (size_t i = 0; i < n; i++)
		if (*why)
			g_free(ft[i]);
		else
			move_cache(idx->st, idx->traces[i], traces[i], ft[i], nf[i]);
	g_free(ft);
	g_free(nf);
	if (*why)
		return 1;
	memcpy(idx->traces, traces, sizeof(*traces) * n);
	/* the iterators read the old ones, which may be closed on return */
	ltt_iter_free(idx->it);
	idx->it = NULL;
	ltt_iter_free(idx->seek_it);
	idx->seek_it = NULL;
	trace_span(idx);
	idx->horizon = live_horizon(traces, n);
	idx->done = 0;
	idx->reposition = 1;
	return 0;
}

void ltt_state_index_to_end(ltt_state_index *idx)
{
	if (!idx->live || idx->is_snapshot || idx->horizon == INT64_MAX)
		return;
	idx->horizon = INT64_MAX;
	idx->done = 0;
	idx->reposition = 1;
}

int64_t ltt_state_index_horizon_ns(const ltt_state_index *idx) { return idx->horizon; }

ltt_state_index *ltt_state_index_new(ltt_trace *const *traces, size_t n,
				     const ltt_state_index_options *opt,
				     ltt_error **err)
{
	ltt_state_index_options o;
	ltt_state_index *idx;

	if (ltt_sized_in(&o, sizeof(o), opt,
			 LTT_END_OF(ltt_state_index_options, checkpoint_events),
			 "ltt_state_index_options", err) < 0)
		return NULL;
	idx = g_new0(ltt_state_index, 1);
	idx->store = g_new0(ix_store, 1);
	idx->store->refs = 1;
	g_mutex_init(&idx->store->lock);
	idx->store->live = g_array_new(FALSE, FALSE, sizeof(unsigned));
	idx->store->retired = g_array_new(FALSE, FALSE, sizeof(retired));
	idx->sealed_ns = INT64_MIN;
	idx->traces = g_memdup2(traces, sizeof(*traces) * n);
	idx->ntraces = n;
	idx->every = o.checkpoint_events ? o.checkpoint_events : 100000;
	idx->threads = o.threads == 1 ? 1 : o.threads >= 2 ? 2 :
		       g_get_num_processors() >= 2 ? 2 : 1;
	idx->it = ltt_iter_new(idx->traces, n, err);
	if (!idx->it) {
		ltt_state_index_free(idx);
		return NULL;
	}
	trace_span(idx);
	idx->indexed_ns = idx->start_ns;
	idx->live = o.live != 0;
	idx->horizon = idx->live ? live_horizon(traces, n) : INT64_MAX;
	idx->frontier = idx->last_ns = INT64_MIN;
	idx->st = ltt_state_new();
	idx->st->rec = idx;
	for (unsigned type = 0; type < 4; type++)
		idx->banks[type] = row_bank_new();
	take_checkpoint(idx, INT64_MIN);
	return idx;
}

void ltt_state_index_free(ltt_state_index *idx)
{
	if (!idx)
		return;
	pipe_stop(idx, 0);
	if (idx->is_snapshot) {
		/* its own: the row headers, the model; the rest is the index's */
		ix_store *s = idx->store;

		g_mutex_lock(&s->lock);
		for (guint i = 0; i < s->live->len; i++)
			if (g_array_index(s->live, unsigned, i) == idx->gen) {
				g_array_remove_index_fast(s->live, i);
				break;
			}
		release_retired(s);
		g_mutex_unlock(&s->lock);
		for (unsigned type = 0; type < 4; type++)
			g_free(idx->rows[type]);
	} else if (idx->store) {
		/* what snapshots may read goes when they are gone */
		for (unsigned i = 0; i < idx->ncps; i++) {
			retire(idx, idx->cps[i].procs);
			retire(idx, idx->cps[i].proc_index);
			retire(idx, idx->cps[i].cpus);
			retire(idx, idx->cps[i].irqs);
		}
		retire(idx, idx->cps);
		for (unsigned type = 0; type < 4; type++) {
			for (unsigned i = 0; i < idx->nrows[type]; i++)
				row_log_release(&idx->rows[type][i], retire_cb, idx);
			g_free(idx->rows[type]);
			row_bank_release(idx->banks[type], retire_cb, idx);
		}
	}
	ltt_state_free(idx->st);
	ltt_iter_free(idx->it);
	ltt_iter_free(idx->seek_it);
	g_free(idx->kept);
	g_free(idx->traces);
	if (idx->store)
		store_unref(idx->store);
	g_free(idx);
}

ltt_state_index *ltt_state_index_snapshot(ltt_state_index *idx, ltt_trace *const *traces,
					  size_t n)
{
	ltt_state_index *c = g_new0(ltt_state_index, 1);
	ix_store *s = idx->store;

	settle(idx);
	/* the scalars, the checkpoint table (shared), then copies of the row
	 * headers and of the model: nothing that reading idx changes (its
	 * seek iterator), so that another thread may copy a snapshot in use */
	c->store = s;
	c->is_snapshot = 1;
	c->gen = idx->gen;
	c->sealed_ns = idx->sealed_ns;
	c->cps = idx->cps;
	c->ncps = c->cap_cps = idx->ncps;
	c->every = idx->every;
	c->changes = idx->changes;
	c->start_ns = idx->start_ns;
	c->end_ns = idx->end_ns;
	c->indexed_ns = idx->indexed_ns;
	c->done = idx->done;
	c->horizon = idx->horizon;
	memcpy(c->nrows, idx->nrows, sizeof(c->nrows));
	if (traces)
		c->traces = g_memdup2(traces, sizeof(*traces) * n), c->ntraces = n;
	else
		c->traces = g_memdup2(idx->traces, sizeof(*traces) * idx->ntraces),
		c->ntraces = idx->ntraces;
	for (unsigned type = 0; type < 4; type++) {
		size_t bytes = sizeof(row_log) * idx->nrows[type];

		/* (33 000 processes: 6 MB, in fresh pages at every snapshot) */
		c->rows[type] = bytes ? ltt_malloc_prefaulted(bytes) : NULL;
		if (bytes)
			memcpy(c->rows[type], idx->rows[type], bytes);
	}
	c->st = ltt_state_new();
	ltt_state_copy(c->st, idx->st);
	c->st->rec = NULL;
	g_atomic_int_inc(&s->refs);
	g_mutex_lock(&s->lock);
	if (!idx->is_snapshot) {
		/* what this snapshot sees is not rewritten from now on */
		idx->sealed_ns = idx->indexed_ns;
		c->gen = ++s->gen;
	}
	g_array_append_val(s->live, c->gen);
	g_mutex_unlock(&s->lock);
	return c;
}

/* The row's change, recorded and coded (in the coder's thread with a
 * pipeline): 1, or 0 when the row already showed that kind. */
static int record_now(ltt_state_index *idx, ltt_state_row_type type, unsigned i,
		      int64_t t, ltt_state_kind kind)
{
	if (i >= idx->nrows[type]) {
		unsigned n = MAX(i + 1, 2 * idx->nrows[type]);

		idx->rows[type] = g_renew(row_log, idx->rows[type], n);
		memset(idx->rows[type] + idx->nrows[type], 0,
		       sizeof(row_log) * (n - idx->nrows[type]));
		idx->nrows[type] = n;
	}
	/* store->gen changes only in ltt_state_index_snapshot() of idx,
	 * after its settle(): the coder idle */
	return row_log_record(&idx->rows[type][i], idx->banks[type], t, (int)kind,
			      idx->sealed_ns, idx->store->gen, retire_cb, idx);
}

void ltt_state__record(ltt_state_index *idx, ltt_state_row_type type,
		       unsigned i, int64_t t, ltt_state_kind kind)
{
	if (idx->pipe)
		pipe_record(idx->pipe, type, i, t, kind);
	else
		idx->changes += (uint64_t)record_now(idx, type, i, t, kind);
}

/* No more changes for the rows of a type: their tails coded, arrays fitted. */
static void finish_rows(ltt_state_index *idx, ltt_state_row_type type)
{
	for (unsigned j = 0; j < idx->nrows[type]; j++)
		row_log_finish(&idx->rows[type][j], retire_cb, idx);
	row_bank_done(idx->banks[type]);
}

/*
 * The runs' loop: up to max_events events through the model. The counts
 * it bumps at every event live in locals until it returns: with a
 * pipeline, the index's fields share cache lines with those the coder
 * reads and writes, and a store there at every event moved the line
 * between the cores each time (the caller's loop ran twice as slow).
 */
static int run_events(ltt_state_index *idx, uint64_t max_events, ltt_error **err)
{
	const ltt_event *ev;
	uint64_t since_cp = idx->since_cp;
	int64_t indexed_ns = idx->indexed_ns, horizon = idx->horizon, last = idx->last_ns;
	int r = 1;

	for (uint64_t n = 0; n < max_events; n++) {
		int64_t t;

		r = ltt_iter_next(idx->it, &ev, err);
		if (r <= 0)
			break;
		t = ltt_event_time_ns(ev);
		if (t >= horizon) {	/* live: it waits; read again later */
			idx->reposition = 1;
			r = 0;
			break;
		}
		if (since_cp >= idx->every && t > idx->st->now) {
			take_checkpoint(idx, t);
			since_cp = 0;
		}
		ltt_state_process_event(idx->st, ev);
		since_cp++;
		if (t > indexed_ns)
			indexed_ns = t;
		last = t;	/* (the iterator's order is by time) */
	}
	idx->last_ns = last;
	idx->since_cp = since_cp;
	idx->indexed_ns = indexed_ns;
	return r;
}

int ltt_state_index_run(ltt_state_index *idx, uint64_t max_events, ltt_error **err)
{
	int r;

	if (idx->is_snapshot) {
		ltt_set_error(err, LTT_ERROR_INVALID, "a snapshot of a state index does not index");
		return -1;
	}
	if (idx->done)
		return 0;
	if (idx->reposition && reposition(idx, err) < 0)
		return -1;
	if (idx->threads > 1 && !idx->pipe)
		pipe_start(idx);
	r = run_events(idx, max_events, err);
	/* the coder goes on while the caller does something else (settle()
	 * waits for it where the rows are read) */
	if (r == 0 && idx->live) {
		/* caught up: the rows stay open for what comes next (the
		 * coder stopped: nothing runs while the traces are read
		 * again); known up to the horizon, where nothing waits */
		pipe_stop(idx, 0);
		idx->done = 1;
		if (idx->horizon != INT64_MAX) {
			idx->frontier = idx->horizon;
			if (idx->horizon > idx->indexed_ns)
				idx->indexed_ns = MIN(idx->horizon, MAX(idx->end_ns,
									idx->indexed_ns));
		} else {
			/* at the end, as an index that is not live */
			idx->frontier = idx->st->events ? idx->last_ns + 1 : INT64_MIN;
			if (idx->end_ns > idx->indexed_ns)
				idx->indexed_ns = idx->end_ns;
		}
	} else if (r == 0) {
		/* nothing more is recorded: the rows' tails are encoded
		 * and their arrays fitted to what they hold (by both
		 * threads with a pipeline) */
		if (idx->pipe)
			pipe_stop(idx, 1);
		else
			for (unsigned type = 0; type < 4; type++)
				finish_rows(idx, (ltt_state_row_type)type);
		idx->done = 1;
		if (idx->end_ns > idx->indexed_ns)
			idx->indexed_ns = idx->end_ns;
	}
	return r;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

uint64_t ltt_state__index_digest(const ltt_state_index *idx)
{
	uint64_t h = 0xcbf29ce484222325ull;

	settle(idx);
	h = fnv(h, &idx->changes, sizeof(idx->changes));
	h = fnv(h, &idx->ncps, sizeof(idx->ncps));
	for (unsigned i = 0; i < idx->ncps; i++) {
		const checkpoint *c = &idx->cps[i];

		h = fnv(h, &c->t, sizeof(c->t));
		h = fnv(h, &c->events, sizeof(c->events));
		h = fnv(h, &c->nprocs, sizeof(c->nprocs));
		h = fnv(h, &c->nkept, sizeof(c->nkept));
		h = fnv(h, c->proc_index, sizeof(unsigned) * c->nkept);
	}
	for (unsigned type = 0; type < 4; type++) {
		const row_bank *b = idx->banks[type];

		h = fnv(h, &idx->nrows[type], sizeof(idx->nrows[type]));
		for (unsigned i = 0; i < idx->nrows[type]; i++) {
			const row_log *r = &idx->rows[type][i];
			size_t ng;

			h = fnv(h, &r->n, sizeof(r->n));
			h = fnv(h, &r->nbytes, sizeof(r->nbytes));
			h = fnv(h, r->bits, r->nbytes);
			h = fnv(h, &r->nchunks, sizeof(r->nchunks));
			h = fnv(h, r->ct, sizeof(int64_t) * r->nchunks);
			h = fnv(h, r->coff, sizeof(uint16_t) * r->nchunks);
			ng = (r->nchunks + ROW_SUPER - 1) / ROW_SUPER;
			h = fnv(h, r->gbase, sizeof(uint64_t) * ng);
			h = fnv(h, r->goff, sizeof(uint32_t) * ng);
			h = fnv(h, &r->gsum_bytes, sizeof(r->gsum_bytes));
			h = fnv(h, r->gsum, r->gsum_bytes);
			h = fnv(h, &r->ntail, sizeof(r->ntail));
			h = fnv(h, r->tt, sizeof(int64_t) * r->ntail);
			h = fnv(h, r->tk, r->ntail);
		}
		if (!b)
			continue;
		h = fnv(h, &b->cur, sizeof(b->cur));
		h = fnv(h, &b->models_bytes, sizeof(b->models_bytes));
		for (unsigned m = 0; m < ROW_MODELS; m++)
			if (b->models[m])
				h = fnv(h, b->models[m]->info, sizeof(b->models[m]->info));
	}
	return h;
}

double ltt_state_index_progress(const ltt_state_index *idx)
{
	double f;

	if (idx->done)
		return 1.0;
	if (idx->end_ns <= idx->start_ns)
		return 0.0;
	f = (double)(idx->indexed_ns - idx->start_ns) / (double)(idx->end_ns - idx->start_ns);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

int ltt_state_index_done(const ltt_state_index *idx) { return idx->done; }
int64_t ltt_state_index_start_ns(const ltt_state_index *idx) { return idx->start_ns; }
int64_t ltt_state_index_end_ns(const ltt_state_index *idx) { return idx->end_ns; }
int64_t ltt_state_index_indexed_ns(const ltt_state_index *idx) { return idx->indexed_ns; }
uint64_t ltt_state_index_num_events(const ltt_state_index *idx) { return idx->st->events; }
unsigned ltt_state_index_num_checkpoints(const ltt_state_index *idx) { return idx->ncps; }
uint64_t ltt_state_index_num_changes(const ltt_state_index *idx)
{
	settle(idx);
	return idx->changes;
}
const ltt_state *ltt_state_index_state(const ltt_state_index *idx) { return idx->st; }

size_t ltt_state_index_memory(const ltt_state_index *idx)
{
	const ltt_state *st = idx->st;
	size_t n = sizeof(*idx) + sizeof(*st) + idx->cap_cps * sizeof(checkpoint) +
		   idx->cap_kept * sizeof(unsigned);

	settle(idx);
	for (unsigned i = 0; i < idx->ncps; i++) {
		const checkpoint *c = &idx->cps[i];

		n += (c->nkept ? c->nkept : 1) * (sizeof(st_proc) + sizeof(unsigned)) +
		     c->ncpus * sizeof(st_cpu) + c->nirqs * sizeof(st_irq);
	}
	for (unsigned type = 0; type < 4; type++) {
		n += idx->nrows[type] * sizeof(row_log);
		if (idx->banks[type])
			n += row_bank_memory(idx->banks[type]);
		for (unsigned i = 0; i < idx->nrows[type]; i++)
			n += row_log_memory(&idx->rows[type][i]);
	}
	n += st->cap_procs * sizeof(st_proc) + st->ncpus * sizeof(st_cpu) +
	     st->cap_irqs * sizeof(st_irq);
	return n;
}

int ltt_state_index_seek(ltt_state_index *idx, int64_t t, ltt_state *out,
			 ltt_error **err)
{
	unsigned lo = 0, hi = idx->ncps;	/* cps[0].t is INT64_MIN */
	const checkpoint *c;
	const ltt_event *ev;
	int r;

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (idx->cps[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	c = &idx->cps[lo];
	restore(out, c, idx->st);
	out->rec = NULL;
	if (lo == 0 || !idx->seek_it) {
		ltt_iter_free(idx->seek_it);
		idx->seek_it = ltt_iter_new(idx->traces, idx->ntraces, err);
		if (!idx->seek_it)
			return -1;
	}
	if (lo > 0 && ltt_iter_seek_time(idx->seek_it, c->t, err) < 0)
		return -1;
	while ((r = ltt_iter_next(idx->seek_it, &ev, err)) > 0) {
		if (ltt_event_time_ns(ev) >= t)
			break;
		ltt_state_process_event(out, ev);
	}
	if (r < 0)
		return -1;
	/* the model at t: running time is counted up to t */
	if (t > out->now && t <= idx->end_ns)
		out->now = t;
	return 0;
}

/* The row, its end (what is indexed) and [*t0, *t1) clipped to what it
 * knows; NULL if there is nothing to show. *exists: the row exists. */
static const row_log *row_range(const ltt_state_index *idx, ltt_state_row_type type,
				unsigned i, int64_t *t0, int64_t *t1, int *exists)
{
	const row_log *r;

	settle(idx);
	*exists = 0;
	if ((unsigned)type > LTT_STATE_ROW_SOFTIRQ)
		return NULL;
	if (i >= idx->nrows[type]) {
		unsigned have = type == LTT_STATE_ROW_PROCESS ? idx->st->nprocs :
				type == LTT_STATE_ROW_CPU ? idx->st->ncpus :
				type == LTT_STATE_ROW_IRQ ? idx->st->nirqs : idx->st->sq.n;

		*exists = i < have;
		return NULL;
	}
	*exists = 1;
	r = &idx->rows[type][i];
	if (*t1 > idx->indexed_ns)
		*t1 = idx->indexed_ns;
	if (row_log_count(r) == 0 || *t0 >= *t1 || row_log_first(r) >= *t1)
		return NULL;
	if (*t0 < row_log_first(r))
		*t0 = row_log_first(r);
	return r;
}

int ltt_state_index_durations(const ltt_state_index *idx, ltt_state_row_type type,
			      unsigned i, int64_t t0, int64_t t1,
			      int64_t dur[LTT_STATE_NUM_KINDS])
{
	int exists;
	const row_log *r = row_range(idx, type, i, &t0, &t1, &exists);

	memset(dur, 0, sizeof(int64_t) * NKINDS);
	if (r) {
		row_cur cu;
		int64_t sa[NKINDS], sb[NKINDS];

		row_cur_seek(&cu, r, idx->indexed_ns, t0);
		row_cur_sum_at(&cu, t0, sa);
		row_cur_advance(&cu, t1);
		row_cur_sum_at(&cu, t1, sb);
		for (int k = 0; k < NKINDS; k++)
			dur[k] = sb[k] - sa[k];
	}
	return exists ? 0 : -1;
}

typedef struct emitter {
	ltt_state_interval_fn fn;
	void *user;
	int64_t s, e;
	int k;				/* -1: nothing pending */
	long calls;
} emitter;

static void emit(emitter *em, int64_t s, int64_t e, int k)
{
	if (e <= s && k >= 0)	/* two changes at one instant */
		return;
	if (em->k == k && em->e == s) {
		em->e = e;
		return;
	}
	if (em->k >= 0) {
		em->fn(em->user, em->s, em->e, (ltt_state_kind)em->k);
		em->calls++;
	}
	em->s = s;
	em->e = e;
	em->k = k;
}

/* The draw that raises a kind's balance: up to PIXEL_NOISE pixels. A
 * kind owed little catches up with the main one at about a tenth of a
 * pixel per pixel, so a draw of 1 moved a tick of a 2 % kind by some 8
 * pixels in 50 (still a comb); 4 moves it by about 30, and a kind drawn
 * stays within 4 pixels of its time. */
#define PIXEL_NOISE 4.0
/* ... in a pixel of more than PIXEL_FEW changes, all of it from
 * PIXEL_FEW + PIXEL_CROWD on */
#define PIXEL_FEW 4
#define PIXEL_CROWD 16

/* A number in [0, 1) from a 64-bit key (splitmix64's finaliser). */
static double noise01(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (double)(x >> 11) / 9007199254740992.0;	/* 2^53 */
}

/*
 * The kind a pixel of several shows: of the kinds spent in it (dur), the
 * one owed most (the balance of time spent minus pixels drawn, in pixels),
 * each balance raised by a number in [0, noise) drawn from the row, the
 * pixel's place on a grid of the whole trace and the kind (noise: up to
 * PIXEL_NOISE, by how crowded the pixel is); ties to the longest here. It then owes a pixel. The balances keep the share drawn
 * within PIXEL_NOISE + 1 pixels of the time spent; the noise keeps the pattern from being
 * the same on every row at the same x (rows of one mixture showed the
 * same kinds at the same places: machine-wide simultaneous events that
 * never were) and from being a regular comb (a 5 % wait, one tick every
 * 20 pixels, exactly). The same pixel gets the same draw at every redraw
 * and pan.
 */
static int pixel_kind(double *owed, const int64_t *dur, int64_t span, uint64_t where,
		      double noise)
{
	int best = -1;
	double best_v = 0;

	for (int k = 0; k < NKINDS; k++) {
		double v;

		if (!dur[k])
			continue;
		owed[k] += (double)dur[k] / (double)span;
		v = owed[k] + noise * noise01(where * NKINDS + (uint64_t)k);
		if (best < 0 || v > best_v || (v == best_v && dur[k] > dur[best])) {
			best = k;
			best_v = v;
		}
	}
	if (best < 0)
		return 0;
	owed[best] -= 1.0;
	return best;
}

long ltt_state_index_intervals(const ltt_state_index *idx,
			       ltt_state_row_type type, unsigned i,
			       int64_t t0, int64_t t1, int64_t ns_per_pixel,
			       ltt_state_interval_fn fn, void *user)
{
	emitter em = { fn, user, 0, 0, -1, 0 };
	double owed[NKINDS] = { 0 };
	/* the row's draws: another sequence for every row */
	uint64_t row_seed = ((uint64_t)type << 56 | (uint64_t)i << 24) * 0x9e3779b97f4a7c15ULL;
	int exists;
	const row_log *r = row_range(idx, type, i, &t0, &t1, &exists);
	row_cur cu;
	int64_t pos;

	if (!r)
		return exists ? 0 : -1;
	pos = t0;
	row_cur_seek(&cu, r, idx->indexed_ns, pos);
	while (pos < t1) {
		int64_t next = cu.tn < t1 ? cu.tn : t1;
		int64_t be, sa[NKINDS], sb[NKINDS], dur[NKINDS];
		size_t before;
		double crowd;

		if (ns_per_pixel <= 0 || next - pos >= ns_per_pixel) {
			emit(&em, pos, next, cu.k);
			pos = next;
			if (cu.kn >= 0 && pos < t1)
				row_cur_next(&cu);
			continue;
		}
		/* several changes in this pixel: the time in each kind is the
		 * difference of the sums before its two ends */
		be = pos + ns_per_pixel < t1 ? pos + ns_per_pixel : t1;
		row_cur_sum_at(&cu, pos, sa);
		before = cu.c * ROW_CHUNK + cu.i;
		row_cur_advance(&cu, be);
		row_cur_sum_at(&cu, be, sb);
		for (int k = 0; k < NKINDS; k++)
			dur[k] = sb[k] - sa[k];
		/* the draw grows with the changes in the pixel (chunks count as
		 * full, near enough): none for a few, where placing each one
		 * exactly reads best; all of it for a crowd */
		crowd = ((double)(cu.c * ROW_CHUNK + cu.i) - (double)before - PIXEL_FEW) /
			PIXEL_CROWD;
		emit(&em, pos, be, pixel_kind(owed, dur, be - pos,
					      row_seed ^ (uint64_t)(pos / ns_per_pixel),
					      crowd < 0 ? 0 : crowd > 1 ? PIXEL_NOISE
									: crowd * PIXEL_NOISE));
		pos = be;
	}
	emit(&em, 0, 0, -2);	/* flush */
	return em.calls;
}
