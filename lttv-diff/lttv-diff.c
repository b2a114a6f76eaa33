/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lttv-diff - what changed between two runs of the same workload:
 *
 *	lttv-diff [OPTION...] A B
 *
 * Both traces go through libltttrace's analyses (ltttrace-analysis.h);
 * each becomes a set of named figures, compared one by one:
 *
 *   events F.E count              events of each type
 *   syscall NAME count|p50|p99|max|total
 *   sched PROC count|p50|p99|max  waits for a CPU, per process
 *   cpu PROC                      CPU time, per process
 *   irq LINE / softirq VEC count|total|max
 *   file PATH count|bytes|p99|max
 *
 * Names from the traces go into the figures' names through the one rule
 * (ltt_text_safe()), so what is printed holds no control character.
 * A process is named by its name and its rank among the processes of that
 * name in order of appearance ("sh#2"), so that two runs match whatever
 * their pids. A figure has changed when it moved by --threshold per cent
 * or more AND by more than the noise floor (--min-ns for times, --min-count
 * for counts). Changes are ranked by the size of the ratio, each side
 * floored at the noise floor: |log2((b + floor) / (a + floor))|.
 *
 * Exit status, as diff(1): 0 nothing changed beyond the thresholds, 1 some
 * figures changed (listed, largest first), 2 trouble (bad command line, a
 * trace that cannot be read).
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

typedef struct figure {
	uint64_t v[2];			/* A, B */
	int is_time;			/* ns, else a count */
	int seen[2];
} figure;

typedef struct run {
	GHashTable *figs;		/* name -> figure (shared by both sides) */
	int side;
} run;

static void put(run *r, const char *name, uint64_t v, int is_time)
{
	figure *f = g_hash_table_lookup(r->figs, name);

	if (!f) {
		f = g_new0(figure, 1);
		f->is_time = is_time;
		g_hash_table_insert(r->figs, g_strdup(name), f);
	}
	f->v[r->side] += v;
	f->seen[r->side] = 1;
}

/* "name#k": the k-th process of that name, in order of first appearance. */
static char **process_names(const ltt_state *st)
{
	unsigned n = ltt_state_num_processes(st);
	char **names = g_new0(char *, n + 1);
	GHashTable *rank = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (unsigned i = 0; i < n; i++) {
		ltt_state_process_info pi;
		const char *base;
		unsigned k;

		ltt_state_process(st, i, &pi);
		base = *pi.name ? ltt_text_safe(pi.name) : "?";
		k = GPOINTER_TO_UINT(g_hash_table_lookup(rank, base)) + 1;
		g_hash_table_replace(rank, g_strdup(base), GUINT_TO_POINTER(k));
		names[i] = g_strdup_printf("%s#%u", base, k);
	}
	g_hash_table_destroy(rank);
	return names;
}

static void latency_figures(run *r, const ltt_analysis *a, ltt_latency_kind k,
			    ltt_group_by by, char **pnames)
{
	ltt_latency_group *g;
	unsigned n = ltt_analysis_groups(a, k, by, INT64_MIN, INT64_MAX, &g);
	char key[512];

	for (unsigned i = 0; i < n; i++) {
		const ltt_latency_stats *s = g[i].stats;
		const char *what = by == LTT_GROUP_PROCESS
				   ? (g[i].process >= 0 ? pnames[g[i].process] : "?")
				   : ltt_text_safe(ltt_analysis_id_name(a, k, g[i].id));
		const char *kind = ltt_latency_kind_name(k);

#define PUT(field, value, t) do { \
		snprintf(key, sizeof(key), "%s %s %s", kind, what, field); \
		put(r, key, value, t); } while (0)
		PUT("count", s->count, 0);
		PUT("max", s->max, 1);
		if (k == LTT_LATENCY_FILE) {
			PUT("bytes", g[i].bytes_read + g[i].bytes_written, 0);
			PUT("p99", s->p99, 1);
		} else if (k == LTT_LATENCY_IRQ || k == LTT_LATENCY_SOFTIRQ) {
			PUT("total", s->total, 1);
		} else {
			PUT("p50", s->p50, 1);
			PUT("p99", s->p99, 1);
			if (k == LTT_LATENCY_SYSCALL)
				PUT("total", s->total, 1);
		}
#undef PUT
	}
	free(g);
}

/* Reads one trace into r's figures; 0, or -1 with a message. */
static int read_trace(run *r, const char *dir, const ltt_open_options *opt)
{
	ltt_error *err = NULL;
	ltt_trace *t = ltt_trace_open(dir, opt, &err);
	ltt_iter *it = NULL;
	ltt_analysis *a = NULL;
	const ltt_event *ev;
	char **pnames = NULL, key[512];
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
		snprintf(key, sizeof(key), "events %s.%s count",
			 ltt_text_safe(ltt_event_facility_name(ev)), ltt_text_safe(ltt_event_name(ev)));
		put(r, key, 1, 0);
	}
	if (got < 0) {
		fprintf(stderr, "lttv-diff: %s\n", ltt_error_message(err));
		goto out;
	}
	pnames = process_names(ltt_analysis_state(a));
	latency_figures(r, a, LTT_LATENCY_SYSCALL, LTT_GROUP_ID, pnames);
	latency_figures(r, a, LTT_LATENCY_SCHED, LTT_GROUP_PROCESS, pnames);
	latency_figures(r, a, LTT_LATENCY_IRQ, LTT_GROUP_ID, pnames);
	latency_figures(r, a, LTT_LATENCY_SOFTIRQ, LTT_GROUP_ID, pnames);
	latency_figures(r, a, LTT_LATENCY_FILE, LTT_GROUP_ID, pnames);
	{
		ltt_analysis_top_row *rows;
		unsigned n = ltt_analysis_cpu_top(a, INT64_MIN, INT64_MAX, &rows);

		for (unsigned i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "cpu %s", pnames[rows[i].process]);
			put(r, key, rows[i].ns, 1);
		}
		free(rows);
	}
	rc = 0;
out:
	if (pnames)
		g_strfreev(pnames);
	ltt_analysis_free(a);
	ltt_iter_free(it);
	ltt_trace_close(t);
	ltt_error_free(err);
	return rc;
}

typedef struct change {
	const char *name;
	const figure *f;
	double score;
} change;

static int by_score(const void *x, const void *y)
{
	const change *a = x, *b = y;

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void print_value(uint64_t v, int is_time, int seen)
{
	if (!seen)
		printf(" %14s", "-");
	else if (is_time)
		printf(" %14.3f", (double)v / 1000.0);
	else
		printf(" %14" PRIu64, v);
}

int main(int argc, const char **argv)
{
	double threshold = 25.0;
	long long min_ns = 50000, min_count = 5;
	int top = 20, all = 0, version = 0, rc;
	char *arg_fac = NULL;
	GPtrArray *fac_dirs = g_ptr_array_new_with_free_func(free);
	struct poptOption table[] = {
		{ "threshold", 'p', POPT_ARG_DOUBLE, &threshold, 0,
		  "per cent a figure must move to count as changed (25)", "PCT" },
		{ "min-ns", 0, POPT_ARG_LONGLONG, &min_ns, 0,
		  "noise floor of times, ns (50000)", "NS" },
		{ "min-count", 0, POPT_ARG_LONGLONG, &min_count, 0,
		  "noise floor of counts (5)", "N" },
		{ "top", 'n', POPT_ARG_INT, &top, 0, "list at most N changes (20; 0: all)", "N" },
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
	run r = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free), 0 };
	ltt_open_options opt = { .size = sizeof(opt) };
	GArray *changes = g_array_new(FALSE, FALSE, sizeof(change));
	GHashTableIter hi;
	gpointer k, v;
	unsigned nchanged = 0;

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
	if (!(threshold >= 0) || min_ns < 0 || min_count < 0 || top < 0) {
		fprintf(stderr, "lttv-diff: --threshold, --min-ns, --min-count and --top "
			"want numbers >= 0\n");
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

	g_hash_table_iter_init(&hi, r.figs);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		const figure *f = v;
		double floor = f->is_time ? (double)min_ns : (double)min_count;
		double a = (double)f->v[0], b = (double)f->v[1];
		double moved = fabs(b - a), base = a > 0 ? a : 1;
		change c = { k, f, 0 };
		int changed = moved > floor && 100.0 * moved / base >= threshold;

		c.score = fabs(log2((b + floor + 1) / (a + floor + 1)));
		if (changed)
			nchanged++;
		if (changed || all)
			g_array_append_val(changes, c);
	}
	g_array_sort(changes, by_score);
	printf("%s: A = %s, B = %s\n", nchanged ? "changed" : "same", dirs[0], dirs[1]);
	if (changes->len) {
		printf("%-56s %14s %14s %9s\n", "figure (times in us)", "A", "B", "B/A");
		for (guint i = 0; i < changes->len && (top == 0 || i < (guint)top); i++) {
			const change *c = &g_array_index(changes, change, i);

			printf("%-56s", c->name);
			print_value(c->f->v[0], c->f->is_time, c->f->seen[0]);
			print_value(c->f->v[1], c->f->is_time, c->f->seen[1]);
			if (c->f->v[0])
				printf(" %9.2f\n", (double)c->f->v[1] / (double)c->f->v[0]);
			else
				printf(" %9s\n", c->f->v[1] ? "new" : "-");
		}
	}
	printf("%u of %u figures changed by %.0f%% or more (noise floors %lld ns, %lld)\n",
	       nchanged, g_hash_table_size(r.figs), threshold, min_ns, min_count);
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
