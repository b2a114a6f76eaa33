/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-diff - what changed between two runs of the same workload, as a
 * regression gate:
 *
 *	lttv-diff [OPTION...] A B
 *
 * Both traces go through libltttrace's analyses (ltttrace-analysis.h);
 * each becomes a set of figures under keys that survive a rerun: system
 * calls, IRQ lines and softirq vectors by name, processes by name (every
 * process of a name pooled: pids change from run to run), files by path
 * (the descriptors whose path the trace does not say, pooled per process
 * name: descriptor numbers change too). Two kinds of figures:
 *
 *   latency KIND KEY     the durations of every occurrence (system calls,
 *                        waits for a CPU, IRQ and softirq handlers, file
 *                        reads and writes): compared as distributions by a
 *                        Mann-Whitney U test (ranks: one outlier moves
 *                        nothing, a consistent shift of all of them does);
 *                        changed when the test says so at --alpha, divided
 *                        by the number of distributions tested (Bonferroni),
 *                        and the median moved by --min-shift per cent or more;
 *   count, cpu           events of each type, CPU time per process name:
 *                        changed when moved by --threshold per cent and
 *                        more than the noise floor (--min-count, --min-ns),
 *                        and, for a count, by more than 5 standard
 *                        deviations of a Poisson count (sqrt(A + B)); a
 *                        CPU time only when it pools --min-count processes
 *                        or more on each side (one process in one run is
 *                        one sample: its CPU time varies by a quarter
 *                        between two runs of the same generator).
 *
 * A key on one side only is "gone" or "new" (changed when it has
 * --min-count occurrences or more), unless a key of the same shape is on
 * the other side only: names a run makes up (a pid in a name, a temporary
 * file's suffix) are pooled by their shape (pool_renamed()). Every figure
 * comes with its number of samples on each side. Changes are listed
 * latencies first, by how far the median moved, then the others by ratio. Names from the traces go into
 * the keys through the one rule (ltt_text_safe()), so what is printed
 * holds no control character.
 *
 * Exit status, for a CI job: 0 nothing changed, 1 some figures changed
 * (listed), 2 trouble (bad command line, a trace that cannot be read).
 */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltttrace.h"
#include "ltt/tool-memory.h"
#include "ltt/tool-stdout.h"

enum { FIG_LATENCY, FIG_COUNT, FIG_CPU };

typedef struct figure {
	int kind;			/* FIG_* */
	GArray *d[2];			/* FIG_LATENCY: durations (uint64_t) */
	uint64_t v[2];			/* FIG_COUNT, FIG_CPU: the value */
	uint64_t n[2];			/* samples: occurrences, processes */
	int seen[2];
} figure;

typedef struct run {
	GHashTable *figs;		/* key -> figure (both sides) */
	int side;
} run;

static void figure_free(gpointer p)
{
	figure *f = p;

	for (int s = 0; s < 2; s++)
		if (f->d[s])
			g_array_free(f->d[s], TRUE);
	g_free(f);
}

static figure *fig(run *r, const char *key, int kind)
{
	figure *f = g_hash_table_lookup(r->figs, key);

	if (!f) {
		f = g_new0(figure, 1);
		f->kind = kind;
		g_hash_table_insert(r->figs, g_strdup(key), f);
	}
	f->seen[r->side] = 1;
	return f;
}

static void put(run *r, const char *key, int kind, uint64_t v, uint64_t n)
{
	figure *f = fig(r, key, kind);

	f->v[r->side] += v;
	f->n[r->side] += n;
}

static void put_duration(run *r, const char *key, uint64_t ns)
{
	figure *f = fig(r, key, FIG_LATENCY);

	if (!f->d[r->side])
		f->d[r->side] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_array_append_val(f->d[r->side], ns);
	f->n[r->side]++;
}

/*
 * A key's shape: every run of digits as '#', every run of 6 or more
 * letters and digits that mixes upper and lower case (mkstemp's suffix)
 * as '*'. "kworker/1:0" and "kworker/0:0" have one shape, so have
 * "/tmp/ccCtzXrp.s" and "/tmp/cciJv9WF.s"; "python3" and "sqlite3" not.
 */
static char *key_shape(const char *key)
{
	GString *s = g_string_new(NULL);
	const char *p = key;

	while (*p) {
		const char *q = p;
		int upper = 0, lower = 0;

		if (!g_ascii_isalnum(*p)) {
			g_string_append_c(s, *p++);
			continue;
		}
		for (; g_ascii_isalnum(*q); q++) {
			upper |= g_ascii_isupper(*q);
			lower |= g_ascii_islower(*q);
		}
		if (q - p >= 6 && upper && lower) {
			g_string_append_c(s, '*');
			p = q;
			continue;
		}
		for (; p < q; p++)
			if (!g_ascii_isdigit(*p))
				g_string_append_c(s, *p);
			else if (p == key || !g_ascii_isdigit(p[-1]))
				g_string_append_c(s, '#');
	}
	return g_string_free(s, FALSE);
}

/* Every sample of figure b added to figure a. */
static void fig_merge(figure *a, const figure *b)
{
	for (int s = 0; s < 2; s++) {
		if (b->d[s]) {
			if (!a->d[s])
				a->d[s] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
			g_array_append_vals(a->d[s], b->d[s]->data, b->d[s]->len);
		}
		a->v[s] += b->v[s];
		a->n[s] += b->n[s];
		a->seen[s] |= b->seen[s];
	}
}

/*
 * Names a run makes up (a pid or a counter in a name, a temporary file's
 * random suffix) put the same figure under another key in each run, and
 * so one "gone" and one "new" on top of every list. The figures seen on
 * one side only are pooled by their key's shape (key_shape()) where that
 * shape has some from each side: "kworker/1:0" gone and "kworker/0:0" new
 * become one figure, "kworker/#:#", seen in both runs.
 */
static void pool_renamed(GHashTable *figs)
{
	GHashTable *by_shape = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						     (GDestroyNotify)g_ptr_array_unref);
	GHashTableIter hi;
	gpointer k, v;

	g_hash_table_iter_init(&hi, figs);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		const figure *f = v;
		GPtrArray *keys;
		char *shape;

		if (f->seen[0] && f->seen[1])
			continue;
		shape = key_shape(k);
		if (!strcmp(shape, k)) {
			g_free(shape);
			continue;
		}
		keys = g_hash_table_lookup(by_shape, shape);
		if (!keys) {
			keys = g_ptr_array_new_with_free_func(g_free);
			g_hash_table_insert(by_shape, g_strdup(shape), keys);
		}
		g_ptr_array_add(keys, g_strdup(k));
		g_free(shape);
	}
	g_hash_table_iter_init(&hi, by_shape);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		GPtrArray *keys = v;
		int sides = 0, kinds = 0;
		figure *pooled;

		for (guint i = 0; i < keys->len; i++) {
			const figure *f = g_hash_table_lookup(figs, keys->pdata[i]);

			sides |= f->seen[0] ? 1 : 2;
			kinds |= 1 << f->kind;
		}
		if (sides != 3 || (kinds & (kinds - 1)))
			continue;	/* one side only, or figures of two kinds */
		pooled = g_hash_table_lookup(figs, k);
		if (!pooled) {
			pooled = g_new0(figure, 1);
			pooled->kind = ((const figure *)g_hash_table_lookup(figs, keys->pdata[0]))->kind;
			g_hash_table_insert(figs, g_strdup(k), pooled);
		}
		for (guint i = 0; i < keys->len; i++) {
			fig_merge(pooled, g_hash_table_lookup(figs, keys->pdata[i]));
			g_hash_table_remove(figs, keys->pdata[i]);
		}
	}
	g_hash_table_destroy(by_shape);
}

/* A process by its name (a rerun gives it another pid). */
static const char *proc_name(const ltt_state *st, int i)
{
	ltt_state_process_info pi;

	if (i < 0 || ltt_state_process(st, (unsigned)i, &pi) < 0 || !*pi.name)
		return "?";
	return ltt_text_safe(pi.name);
}

/* A file by its path; a descriptor whose path the trace does not say
 * ("fd N of tgid P", the analyses' name) by the name of its process. */
static void file_key(const ltt_analysis *a, uint32_t id, char *key, size_t size)
{
	const ltt_state *st = ltt_analysis_state(a);
	const char *name = ltt_analysis_id_name(a, LTT_LATENCY_FILE, id);
	unsigned fd, tgid;
	int found = -1;

	if (sscanf(name, "fd %u of tgid %u", &fd, &tgid) != 2) {
		snprintf(key, size, "latency file %s", ltt_text_safe(name));
		return;
	}
	for (unsigned i = 0; i < ltt_state_num_processes(st); i++) {
		ltt_state_process_info pi;

		if (ltt_state_process(st, i, &pi) == 0 && pi.pid == tgid)
			found = (int)i;	/* the latest with that pid */
	}
	snprintf(key, size, "latency file (no path) of %s", proc_name(st, found));
}

typedef struct figures {
	run *r;
	const ltt_analysis *a;
	ltt_latency_kind k;
} figures;

/* One occurrence's duration into its figure (ltt_analysis_each). */
static int latency_figure(const ltt_latency *l, void *data)
{
	figures *f = data;
	const ltt_analysis *a = f->a;
	char key[512];

	if (f->k == LTT_LATENCY_FILE)
		file_key(a, l->id, key, sizeof(key));
	else if (f->k == LTT_LATENCY_SCHED)
		snprintf(key, sizeof(key), "latency sched %s",
			 proc_name(ltt_analysis_state(a), l->process));
	else
		snprintf(key, sizeof(key), "latency %s %s", ltt_latency_kind_name(f->k),
			 ltt_text_safe(ltt_analysis_id_name(a, f->k, l->id)));
	put_duration(f->r, key, l->duration_ns);
	return 0;
}

static void latency_figures(run *r, const ltt_analysis *a, ltt_latency_kind k)
{
	figures f = { r, a, k };

	ltt_analysis_each(a, k, INT64_MIN, INT64_MAX, latency_figure, &f);
}

/* Reads one trace into r's figures; 0, or -1 with a message. */
static int read_trace(run *r, const char *dir, const ltt_open_options *opt)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, opt, &err);
	ltt_iter *it = NULL;
	ltt_analysis *a = NULL;
	const ltt_event *ev;
	char key[512];
	int rc = -1, got;

	if (!t) {
		fprintf(stderr, "lttv-diff: %s\n", ltt_error_message(err));
		goto out;
	}
	for (unsigned i = 0; i < ltt_trace_num_warnings(t); i++)
		fprintf(stderr, "lttv-diff: warning: %s: %s\n", dir, ltt_trace_warning(t, i));
	it = ltt_iter_new(&t, 1, &err);
	if (!it) {
		fprintf(stderr, "lttv-diff: %s\n", ltt_error_message(err));
		goto out;
	}
	a = ltt_analysis_new();
	while ((got = ltt_iter_next(it, &ev, &err)) > 0) {
		ltt_analysis_process_event(a, ev);
		snprintf(key, sizeof(key), "count events %s.%s",
			 ltt_text_safe(ltt_event_facility_name(ev)), ltt_text_safe(ltt_event_name(ev)));
		put(r, key, FIG_COUNT, 1, 1);
	}
	if (got < 0) {
		fprintf(stderr, "lttv-diff: %s\n", ltt_error_message(err));
		goto out;
	}
	for (int k = 0; k < LTT_LATENCY_NUM_KINDS; k++)
		latency_figures(r, a, (ltt_latency_kind)k);
	{
		ltt_analysis_top_row *rows;
		unsigned n = ltt_analysis_cpu_top(a, INT64_MIN, INT64_MAX, &rows);

		for (unsigned i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "cpu %s",
				 proc_name(ltt_analysis_state(a), (int)rows[i].process));
			put(r, key, FIG_CPU, rows[i].ns, 1);
		}
		free(rows);
	}
	rc = 0;
out:
	ltt_analysis_free(a);
	ltt_iter_free(it);
	ltt_trace_close(t);
	ltt_error_free(err);
	return rc;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static uint64_t median(GArray *d)
{
	return d && d->len ? g_array_index(d, uint64_t, d->len / 2) : 0;
}

/*
 * Two-sided p-value of the Mann-Whitney U test of two sorted samples:
 * ranks with ties averaged, the normal approximation with the tie
 * correction and a continuity correction (the samples of a trace are
 * hundreds or more; below 5 a side the caller does not test).
 */
static double mann_whitney_p(const GArray *x, const GArray *y)
{
	double nx = x->len, ny = y->len, n = nx + ny, rank_x = 0, ties = 0, mean, var, u, z;
	guint i = 0, j = 0;
	double r = 1;

	while (i < x->len || j < y->len) {
		uint64_t v = i < x->len && (j >= y->len ||
					    g_array_index(x, uint64_t, i) <= g_array_index(y, uint64_t, j))
			     ? g_array_index(x, uint64_t, i) : g_array_index(y, uint64_t, j);
		guint cx = 0, cy = 0;
		double t;

		while (i < x->len && g_array_index(x, uint64_t, i) == v)
			i++, cx++;
		while (j < y->len && g_array_index(y, uint64_t, j) == v)
			j++, cy++;
		t = cx + cy;
		rank_x += cx * (r + (t - 1) / 2);	/* the tie's average rank */
		ties += t * t * t - t;
		r += t;
	}
	u = rank_x - nx * (nx + 1) / 2;
	mean = nx * ny / 2;
	var = nx * ny / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0)
		return 1;		/* all the same value */
	z = (fabs(u - mean) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / M_SQRT2);
}

typedef struct change {
	const char *key;
	const figure *f;
	int changed;
	const char *verdict;		/* slower, faster, more, fewer, gone, new, same */
	double p;			/* FIG_LATENCY: the test's p-value; else -1 */
	double score;			/* ranking: how far it moved */
} change;

typedef struct limits {
	double alpha, min_shift, threshold;
	long long min_ns, min_count;
	unsigned ntests;		/* distributions tested: Bonferroni */
} limits;

static void judge(change *c, const limits *lim)
{
	const figure *f = c->f;
	double a, b;

	c->p = -1;
	c->verdict = "same";
	if (!f->seen[0] || !f->seen[1]) {
		c->verdict = f->seen[0] ? "gone" : "new";
		c->changed = f->n[f->seen[0] ? 0 : 1] >= (uint64_t)lim->min_count;
		c->score = 1000 + log2(1.0 + (double)f->n[f->seen[0] ? 0 : 1]);
		return;
	}
	if (f->kind == FIG_LATENCY) {
		a = (double)median(f->d[0]);
		b = (double)median(f->d[1]);
		c->score = fabs(log2((b + 1) / (a + 1)));
		if (f->n[0] < (uint64_t)lim->min_count || f->n[1] < (uint64_t)lim->min_count)
			return;
		c->p = mann_whitney_p(f->d[0], f->d[1]);
		c->changed = c->p < lim->alpha / (lim->ntests ? lim->ntests : 1) &&
			     fabs(b - a) >= lim->min_shift / 100 * a;
		if (c->changed)
			c->verdict = b > a ? "slower" : "faster";
		return;
	}
	a = (double)f->v[0];
	b = (double)f->v[1];
	{
		double floor = f->kind == FIG_CPU ? (double)lim->min_ns : (double)lim->min_count;
		double moved = fabs(b - a);

		c->score = fabs(log2((b + floor + 1) / (a + floor + 1)));
		/* a count: more than 5 standard deviations of a Poisson count;
		 * a CPU time: of --min-count processes or more (one process's
		 * time in one run is one sample) */
		c->changed = moved > floor && 100.0 * moved / (a > 0 ? a : 1) >= lim->threshold &&
			     (f->kind == FIG_COUNT ? moved > 5 * sqrt(a + b)
						   : MIN(f->n[0], f->n[1]) >= (uint64_t)lim->min_count);
		if (c->changed)
			c->verdict = f->kind == FIG_CPU ? (b > a ? "slower" : "faster")
							: (b > a ? "more" : "fewer");
	}
}

/* Changed first; latencies first; then by how far they moved. */
static int by_rank(const void *x, const void *y)
{
	const change *a = x, *b = y;

	if (a->changed != b->changed)
		return b->changed - a->changed;
	if ((a->f->kind == FIG_LATENCY) != (b->f->kind == FIG_LATENCY))
		return a->f->kind == FIG_LATENCY ? -1 : 1;
	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return strcmp(a->key, b->key);
}

static void print_value(const figure *f, int side)
{
	if (!f->seen[side])
		printf(" %12s", "-");
	else if (f->kind == FIG_LATENCY)
		printf(" %12.3f", (double)median(f->d[side]) / 1000.0);
	else if (f->kind == FIG_CPU)
		printf(" %12.3f", (double)f->v[side] / 1000.0);
	else
		printf(" %12" PRIu64, f->v[side]);
}

static void print_change(const change *c)
{
	const figure *f = c->f;
	double a = f->kind == FIG_LATENCY ? (double)median(f->d[0]) : (double)f->v[0];
	double b = f->kind == FIG_LATENCY ? (double)median(f->d[1]) : (double)f->v[1];
	char p[32] = "-";

	printf("%-46s %9" PRIu64 " %9" PRIu64, c->key, f->n[0], f->n[1]);
	print_value(f, 0);
	print_value(f, 1);
	if (f->seen[0] && f->seen[1] && a > 0)
		printf(" %7.3f", b / a);
	else
		printf(" %7s", "-");
	if (c->p >= 0)
		snprintf(p, sizeof(p), c->p < 1e-99 ? "<1e-99" : "%.2g", c->p);
	printf(" %8s %s\n", p, c->verdict);
}

int main(int argc, const char **argv)
{
	limits lim = { .alpha = 0.001, .min_shift = 5.0, .threshold = 25.0,
		       .min_ns = 50000, .min_count = 5 };
	int top = 20, all = 0, version = 0, rc;
	char *arg_fac = NULL;
	GPtrArray *fac_dirs = g_ptr_array_new_with_free_func(free);
	struct poptOption table[] = {
		{ "alpha", 0, POPT_ARG_DOUBLE, &lim.alpha, 0,
		  "significance of the latencies' test, for all of them together (0.001)", "P" },
		{ "min-shift", 0, POPT_ARG_DOUBLE, &lim.min_shift, 0,
		  "per cent a latency's median must move, besides the test (5)", "PCT" },
		{ "threshold", 'p', POPT_ARG_DOUBLE, &lim.threshold, 0,
		  "per cent a count or a CPU time must move to count as changed (25)", "PCT" },
		{ "min-ns", 0, POPT_ARG_LONGLONG, &lim.min_ns, 0,
		  "noise floor of CPU times, ns (50000)", "NS" },
		{ "min-count", 0, POPT_ARG_LONGLONG, &lim.min_count, 0,
		  "noise floor of counts; fewer samples than this are not tested (5)", "N" },
		{ "top", 'n', POPT_ARG_INT, &top, 0, "list at most N figures (20; 0: all)", "N" },
		{ "all", 'a', POPT_ARG_NONE, &all, 0,
		  "list every figure, changed or not, ranked", NULL },
		{ "facilities", 'f', POPT_ARG_STRING, &arg_fac, 'f',
		  "also look for facility descriptions in DIR (repeatable)", "DIR" },
		{ "version", 0, POPT_ARG_NONE, &version, 0, "print the version and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("lttv-diff", argc, argv, table, 0);
	const char *dirs[2];
	run r = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, figure_free), 0 };
	ltt_open_options opt = { .size = sizeof(opt) };
	GArray *changes = g_array_new(FALSE, FALSE, sizeof(change));
	GHashTableIter hi;
	gpointer k, v;
	unsigned nchanged = 0, shown = 0;

	ltt_check_stdout_at_exit("lttv-diff");	/* --help, --version too */
	ltt_exit_on_out_of_memory("lttv-diff");
	poptSetOtherOptionHelp(ctx, "[OPTION...] TRACE_A TRACE_B");
	while ((rc = poptGetNextOpt(ctx)) > 0)
		if (rc == 'f')
			g_ptr_array_add(fac_dirs, arg_fac);
	if (rc < -1) {
		fprintf(stderr, "lttv-diff: %s: %s\n", poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
			poptStrerror(rc));
		rc = 2;
		goto done;
	}
	if (version) {
		printf("lttv-diff (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		rc = 0;
		goto done;
	}
	dirs[0] = poptGetArg(ctx);
	dirs[1] = poptGetArg(ctx);
	if (!dirs[0] || !dirs[1] || poptPeekArg(ctx)) {
		fprintf(stderr, "lttv-diff: want two traces: lttv-diff [OPTION...] A B "
			"(--help for the options)\n");
		rc = 2;
		goto done;
	}
	if (!(lim.threshold >= 0) || lim.min_ns < 0 || lim.min_count < 0 || top < 0 ||
	    !(lim.min_shift >= 0) || !(lim.alpha > 0 && lim.alpha < 1)) {
		fprintf(stderr, "lttv-diff: --threshold, --min-shift, --min-ns, --min-count and "
			"--top want numbers >= 0, --alpha one between 0 and 1\n");
		rc = 2;
		goto done;
	}
	g_ptr_array_add(fac_dirs, NULL);
	opt.facility_dirs = (const char *const *)fac_dirs->pdata;
	for (r.side = 0; r.side < 2; r.side++)
		if (read_trace(&r, dirs[r.side], &opt) < 0) {
			rc = 2;
			goto done;
		}

	pool_renamed(r.figs);
	g_hash_table_iter_init(&hi, r.figs);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		figure *f = v;
		change c = { k, f, 0, "same", -1, 0 };

		for (int s = 0; s < 2; s++)
			if (f->d[s])
				g_array_sort(f->d[s], cmp_u64);
		if (f->kind == FIG_LATENCY && f->seen[0] && f->seen[1] &&
		    f->n[0] >= (uint64_t)lim.min_count && f->n[1] >= (uint64_t)lim.min_count)
			lim.ntests++;
		g_array_append_val(changes, c);
	}
	for (guint i = 0; i < changes->len; i++) {
		change *c = &g_array_index(changes, change, i);

		judge(c, &lim);
		nchanged += c->changed;
	}
	g_array_sort(changes, by_rank);
	printf("%s: A = %s, B = %s\n", nchanged ? "changed" : "same", dirs[0], dirs[1]);
	for (guint i = 0; i < changes->len && (top == 0 || shown < (unsigned)top); i++) {
		const change *c = &g_array_index(changes, change, i);

		if (!c->changed && !all)
			break;
		if (!shown++)
			printf("%-46s %9s %9s %12s %12s %7s %8s %s\n",
			       "figure (latencies: medians, us; cpu: us)", "n A", "n B", "A", "B",
			       "B/A", "p", "verdict");
		print_change(c);
	}
	printf("%u of %u figures changed (latencies: Mann-Whitney U, alpha %g over %u tests, "
	       "median moved %g%% or more; counts and CPU times: %g%% and noise floors "
	       "%lld ns, %lld)\n", nchanged, g_hash_table_size(r.figs), lim.alpha, lim.ntests,
	       lim.min_shift, lim.threshold, lim.min_ns, lim.min_count);
	rc = nchanged ? 1 : 0;
done:
	if (fflush(stdout) != 0 && rc != 2) {
		perror("lttv-diff: write error");
		ltt_stdout_error_said();
		rc = 2;
	}
	poptFreeContext(ctx);
	g_ptr_array_free(fac_dirs, TRUE);
	g_array_free(changes, TRUE);
	g_hash_table_destroy(r.figs);
	return rc;
}
