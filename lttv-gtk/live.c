/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.c - lttv-gtk --follow: follow a trace while lttd writes it. Four
 * times a second, if the trace's files have changed and the last version
 * is indexed, the trace is opened again (lttv_reload_doc): the time line
 * grows when the window showed its end, the index goes on from where it
 * stopped (lttv_live_reopen: ltt_state_index_extend, or from the start
 * when it cannot be, said on stderr), the Statistics tab is computed
 * again. Nothing waits: opening reads only the block headers. Files
 * unchanged for a second: the index goes past its horizon to their end
 * (to_end), and the analyses start (indexer.c).
 *
 * The latency from an event to its pixel (bench/live.py) is then the
 * sub-buffers filling, the poll and what is new to index.
 *
 * Traces are opened as ones being written (ltt_open_options.live): a
 * tracefile's last sub-buffer, not whole yet, is read at the next
 * opening; a tracefile that does not open yet is left out and the others
 * are read. What is not read, and why, is said under the toolbar: the
 * trace that does not exist yet (the window waits for it), the files left
 * out, a facility table that lttd has not written yet (the events of the
 * kernel's facilities cannot be decoded before it).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "window.h"

#define LIVE_TICK_MS 250
#define LIVE_STILL_TICKS 4	/* unchanged this long (1 s): stopped growing */
#define LIVE_FACILITIES "control/facilities"

/* The sizes and modification times of the files of a trace directory (its
 * subfolders too), as one number that changes when one of them does. */
static guint64 dir_stamp(const char *path, int depth)
{
	GDir *d = g_dir_open(path, 0, NULL);
	const char *name;
	guint64 sum = 0;

	if (!d)
		return 0;
	while ((name = g_dir_read_name(d))) {
		char *p = g_build_filename(path, name, NULL);
		struct stat st;

		if (stat(p, &st) == 0) {
			if (S_ISREG(st.st_mode))
				sum += (guint64)st.st_size * 1000003u +
				       (guint64)st.st_mtim.tv_sec * 1000000000u +
				       (guint64)st.st_mtim.tv_nsec;
			else if (S_ISDIR(st.st_mode) && depth < 2)
				sum += dir_stamp(p, depth + 1) + 1;
		}
		g_free(p);
	}
	g_dir_close(d);
	return sum;
}

/* The traces shown, or to show once they open. */
static char *const *live_paths(const app *a)
{
	return a->doc ? a->doc->paths : a->trace_paths;
}

static guint64 trace_stamp(const app *a)
{
	guint64 sum = 0;

	for (char *const *p = live_paths(a); p && *p; p++)
		sum += dir_stamp(*p, 0);
	return sum;
}

static int has_facility_table(const ltt_trace *t)
{
	for (unsigned i = 0; i < ltt_trace_num_tracefiles(t); i++) {
		const ltt_tracefile *tf = ltt_trace_tracefile(t, i);

		if (!strcmp(ltt_tracefile_name(tf), LIVE_FACILITIES) &&
		    ltt_tracefile_num_blocks(tf) > 0)
			return 1;
	}
	return 0;
}

void lttv_live_say(app *a, const char *error)
{
	GString *s = g_string_new(NULL);
	char *paths = g_strjoinv(" + ", (char **)live_paths(a));

	if (error && !a->doc)
		g_string_append_printf(s, "Waiting for the trace %s: %s. Tried again as its "
				       "files change.", paths, error);
	else if (error)
		g_string_append_printf(s, "Following %s: %s. Tried again as its files change.",
				       paths, error);
	for (unsigned i = 0; a->doc && !error && i < a->doc->ntraces; i++) {
		const ltt_trace *t = a->doc->traces[i];
		unsigned n = ltt_trace_num_left_out(t);

		for (unsigned k = 0; k < n; k++)
			g_string_append_printf(s, "%s%s: %s: not read yet (being written?), "
					       "tried again as it changes.", s->len ? "\n" : "",
					       ltt_trace_path(t), ltt_trace_left_out(t, k));
		if (!has_facility_table(t))
			g_string_append_printf(s, "%s%s: no facility table yet (lttd writes %s_N "
					       "when its first sub-buffer fills, or at the stop): "
					       "until then only the core events decode.",
					       s->len ? "\n" : "", ltt_trace_path(t),
					       LIVE_FACILITIES);
	}
	gtk_label_set_text(GTK_LABEL(a->live_label), s->str);
	gtk_widget_set_visible(a->live_label, s->len > 0);
	g_string_free(s, TRUE);
	g_free(paths);
}

static int64_t realtime_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

lttv_doc *lttv_live_reopen(app *a, char **error)
{
	char *why = NULL;
	lttv_doc *d;

	lttv_indexer_stop(a);	/* done: its thread joined, the index settled */
	d = lttv_doc_reopen(a->doc, error, &why);
	if (why) {
		g_printerr("lttv-gtk: %s: indexed again from its start: %s\n",
			   ltt_text_safe(a->doc->path), why);
		a->live_reindexed++;
	} else if (d) {
		a->live_carried++;
	}
	g_free(why);
	return d;
}

/* The trace has not changed for a while: it stopped growing (or pauses),
 * what waited at the horizon (the sub-buffers that may still come before
 * it) is indexed too; if it grows again, what comes after it carries the
 * index on, else it is built again. */
static void to_end(app *a)
{
	if (!a->doc || !a->doc->idx || !a->ix.done ||
	    ltt_state_index_horizon_ns(a->doc->idx) == INT64_MAX)
		return;
	lttv_indexer_stop(a);
	ltt_state_index_to_end(a->doc->idx);
	lttv_indexer_start(a);
}

static gboolean tick(gpointer data)
{
	app *a = data;
	guint64 stamp;
	int64_t opened;

	if (a->doc && !a->ix.done)
		return G_SOURCE_CONTINUE;	/* the last growth is still indexed */
	stamp = trace_stamp(a);
	if (stamp == a->live_bytes) {
		if (++a->live_still == LIVE_STILL_TICKS)
			to_end(a);
		return G_SOURCE_CONTINUE;
	}
	a->live_still = 0;
	a->live_bytes = stamp;	/* a failure is tried again at the next change */
	opened = realtime_ns();
	if (!a->doc) {
		a->live_opened = opened;
		if (lttv_open_trace_paths(a) == 0)
			a->live_grew_time = g_get_monotonic_time();
		return G_SOURCE_CONTINUE;
	}
	if (lttv_reload_doc(a) == 0) {
		a->live_opened = opened;
		a->live_grew_time = g_get_monotonic_time();
		a->live_reloads++;
		if (gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) == LTTV_PAGE_STATISTICS)
			lttv_stats_refresh(a);
	}
	return G_SOURCE_CONTINUE;
}

void lttv_live_start(app *a)
{
	a->live_bytes = trace_stamp(a);
	a->live_timer = g_timeout_add(LIVE_TICK_MS, tick, a);
}

void lttv_live_stop(app *a)
{
	if (a->live_timer)
		g_source_remove(a->live_timer);
	a->live_timer = 0;
}

/* A draw of the control flow: it showed events up to covered (trace time:
 * the host's clock when the trace was stamped with it) at wall, of the
 * trace as opened at opened (both CLOCK_REALTIME, ns). */
typedef struct lttv_drawn {
	int64_t covered, wall, opened;
} lttv_drawn;

void lttv_live_drawn(app *a, const lttv_view *v)
{
	lttv_drawn d = { MIN(v->t1, ltt_state_index_indexed_ns(a->doc->view)), realtime_ns(),
			 a->live_opened };

	if (!a->drawn)
		a->drawn = g_array_new(FALSE, FALSE, sizeof(lttv_drawn));
	g_array_append_val(a->drawn, d);
}

/* The latest time the control flow has shown, INT64_MIN if none. */
static int64_t drawn_up_to(const app *a)
{
	int64_t up_to = INT64_MIN;

	for (unsigned i = 0; a->drawn && i < a->drawn->len; i++)
		up_to = MAX(up_to, g_array_index(a->drawn, lttv_drawn, i).covered);
	return up_to;
}

/* "end" (the trace's end as read now) or seconds from the trace's start */
static int64_t script_time(const app *a, const char *s)
{
	if (!a->doc)
		return INT64_MAX;
	return !strcmp(s, "end") ? a->doc->end_ns :
	       a->doc->origin_ns + (int64_t)llround(g_ascii_strtod(s, NULL) * 1e9);
}

static int grown(const app *a)
{
	return a->doc && a->doc->end_ns > a->live_mark && a->live_reloads > 0;
}

/* What the line under the toolbar says, "" when hidden. */
static const char *said(const app *a)
{
	return gtk_widget_get_visible(a->live_label) ?
	       gtk_label_get_text(GTK_LABEL(a->live_label)) : "";
}

static void hash_interval(void *user, int64_t s, int64_t e, ltt_state_kind k)
{
	guint64 *h = user, v[3] = { (guint64)s, (guint64)e, (guint64)k };
	const guint8 *b = (const guint8 *)v;

	for (size_t i = 0; i < sizeof(v); i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

/* One line of print-index: a row's intervals over all that is indexed,
 * as a count and a hash. */
static void print_row(const ltt_state_index *x, const char *what, ltt_state_row_type type,
		      unsigned i)
{
	guint64 h = 0xcbf29ce484222325ull;
	long n = ltt_state_index_intervals(x, type, i, ltt_state_index_start_ns(x),
					   ltt_state_index_indexed_ns(x), 0, hash_interval, &h);

	printf("%s intervals=%ld hash=%016" PRIx64 "\n", what, n, (uint64_t)h);
}

/* print-index: what the control flow and resources views can show of the
 * trace, every row's intervals at full resolution and the processes'
 * facts, so that a test compares the window that followed a trace with
 * one that opened it finished (t55). */
static void print_index(const app *a)
{
	const ltt_state_index *x = a->doc->view;
	const ltt_state *st = ltt_state_index_state(x);
	char what[512];

	printf("index events=%" PRIu64 " checkpoints=%u start_ns=%" PRId64 " indexed_ns=%" PRId64
	       "\n", ltt_state_index_num_events(x), ltt_state_index_num_checkpoints(x),
	       ltt_state_index_start_ns(x), ltt_state_index_indexed_ns(x));
	for (unsigned i = 0; i < ltt_state_num_processes(st); i++) {
		ltt_state_process_info p;

		ltt_state_process(st, i, &p);
		snprintf(what, sizeof(what), "process %u pid=%u tgid=%u ppid=%u name=%s "
			 "status=%d mode=%d cpu=%d birth=%" PRId64 " death=%" PRId64
			 " before=%d user=%" PRIu64 " sys=%" PRIu64, i, p.pid, p.tgid, p.ppid,
			 ltt_text_safe(p.name), p.status, p.mode, p.cpu, p.birth_ns, p.death_ns,
			 p.before_trace, p.cpu_ns[LTT_STATE_USER_MODE], p.cpu_ns[LTT_STATE_SYSCALL]);
		print_row(x, what, LTT_STATE_ROW_PROCESS, i);
	}
	for (unsigned i = 0; i < ltt_state_num_cpus(st); i++) {
		snprintf(what, sizeof(what), "cpu %u", i);
		print_row(x, what, LTT_STATE_ROW_CPU, i);
	}
	for (unsigned i = 0; i < ltt_state_num_irqs(st); i++) {
		snprintf(what, sizeof(what), "irq %u", i);
		print_row(x, what, LTT_STATE_ROW_IRQ, i);
	}
	for (unsigned i = 0; i < ltt_state_num_softirqs(st); i++) {
		snprintf(what, sizeof(what), "softirq %u", i);
		print_row(x, what, LTT_STATE_ROW_SOFTIRQ, i);
	}
	printf("live openings: index carried on %u, built again %u\n", a->live_carried,
	       a->live_reindexed);
	fflush(stdout);
}

/*
 * Self-test commands: live-mark (remember where the trace ends now);
 * wait-live-grown (until it ends later than at the mark, 60 s at most);
 * expect-live-grown (it ends later than at the mark, and was opened again
 * at least once); wait-live-settled (until the files stopped growing for a
 * second and their last version is indexed, 60 s after the mark at most);
 * wait-live TEXT, wait-live-gone TEXT (until the line under the toolbar
 * says TEXT, no longer says it: 60 s at most); expect-live TEXT,
 * expect-live-gone TEXT (it says it, it does not).
 *
 * For the latency from an event to its pixel (bench/live.py): print-drawn
 * prints every draw of the control flow, "drawn covered_ns=T wall_ns=W
 * opened_ns=O": it showed the trace up to T (the view's end or what is
 * indexed, the earlier) at W on the host's clock, as its files were when
 * it was opened at O (what was written before O was read); wait-drawn
 * T|end (until a draw showed the trace up to T, seconds from its start,
 * or up to its end as read then: 60 s after the mark at most);
 * expect-drawn T|end (one did).
 *
 * print-index: every row's intervals (a count and a hash) and the
 * processes' facts, then how many openings carried the index on (the
 * lines before that one are the same for a window that opened the
 * finished trace: t55 compares them).
 */
int lttv_live_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok)
{
	static gint64 wait_since;
	char *text = n > 1 ? g_strjoinv(" ", w + 1) : g_strdup("");
	int says = *text && strstr(said(a), text) != NULL;

	*ok = -1;
	if (!strcmp(w[0], "live-mark")) {
		a->live_mark = a->doc ? a->doc->end_ns : INT64_MIN;
		a->live_mark_time = g_get_monotonic_time();
	} else if (!strcmp(w[0], "wait-live-grown")) {
		*again = !grown(a) && g_get_monotonic_time() - a->live_mark_time < 60 * G_USEC_PER_SEC;
	} else if (!strcmp(w[0], "wait-live-settled")) {
		/* a second without growth: a writer between two sub-buffers
		 * is not done */
		gint64 now = g_get_monotonic_time();

		*again = a->doc && (!a->ix.done || trace_stamp(a) != a->live_bytes ||
				    now - a->live_grew_time < G_USEC_PER_SEC) &&
			 now - a->live_mark_time < 60 * G_USEC_PER_SEC;
	} else if (!strcmp(w[0], "print-index")) {
		if (a->doc)
			print_index(a);
	} else if (!strcmp(w[0], "print-drawn")) {
		for (unsigned i = 0; a->drawn && i < a->drawn->len; i++) {
			const lttv_drawn *d = &g_array_index(a->drawn, lttv_drawn, i);

			printf("drawn covered_ns=%" PRId64 " wall_ns=%" PRId64 " opened_ns=%" PRId64
			       "\n", d->covered, d->wall, d->opened);
		}
		fflush(stdout);
	} else if (!strcmp(w[0], "wait-drawn") && n > 1) {
		*again = drawn_up_to(a) < script_time(a, w[1]) &&
			 g_get_monotonic_time() - a->live_mark_time < 60 * G_USEC_PER_SEC;
	} else if (!strcmp(w[0], "expect-drawn") && n > 1) {
		int64_t up_to = drawn_up_to(a);

		*ok = up_to >= script_time(a, w[1]);
		snprintf(buf, size, "the control flow was drawn up to %s (drawn up to %.6f s, "
			 "the trace ends at %.6f s)", w[1],
			 a->doc && up_to != INT64_MIN ? (up_to - a->doc->origin_ns) / 1e9 : -1.0,
			 a->doc ? (a->doc->end_ns - a->doc->origin_ns) / 1e9 : -1.0);
	} else if (!strcmp(w[0], "expect-live-grown")) {
		*ok = grown(a);
		snprintf(buf, size, "the trace grew while shown: ends %.6f s after the mark, "
			 "opened again %u times", a->doc ? (a->doc->end_ns - a->live_mark) / 1e9 : 0.0,
			 a->live_reloads);
	} else if (!strcmp(w[0], "wait-live") || !strcmp(w[0], "wait-live-gone")) {
		gint64 now = g_get_monotonic_time();

		if (!wait_since)
			wait_since = now;
		*again = says == !strcmp(w[0], "wait-live-gone") &&
			 now - wait_since < 60 * G_USEC_PER_SEC;
		if (!*again)
			wait_since = 0;
	} else if (!strcmp(w[0], "expect-live") || !strcmp(w[0], "expect-live-gone")) {
		*ok = says == !strcmp(w[0], "expect-live");
		snprintf(buf, size, "the line under the toolbar %s \"%s\" (it says \"%.150s\")",
			 *ok == !strcmp(w[0], "expect-live") ? "says" : "does not say", text,
			 said(a));
	} else {
		g_free(text);
		return 0;
	}
	g_free(text);
	return 1;
}
