/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * live.c - lttv-gtk --follow: follow a trace while lttd writes it. Twice a
 * second, if the trace's files have grown and the last version is indexed,
 * the trace is opened again (lttv_reload_doc): the time line grows when
 * the window showed its end, the index and the analyses start over in
 * their worker and idle slices, the Statistics tab is computed again.
 * Nothing waits: opening reads only the block headers, and a sub-buffer
 * being written that does not read yet is tried again on the next tick.
 * The library reads tracefiles with pread, a sub-buffer at a time, so a
 * file that grows under it is no harm.
 */
#include <string.h>
#include <sys/stat.h>

#include "window.h"

#define LIVE_TICK_MS 500

/* Bytes in the files of a trace directory (its subfolders too). */
static guint64 dir_bytes(const char *path, int depth)
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
				sum += (guint64)st.st_size;
			else if (S_ISDIR(st.st_mode) && depth < 2)
				sum += dir_bytes(p, depth + 1);
		}
		g_free(p);
	}
	g_dir_close(d);
	return sum;
}

static guint64 trace_bytes(const lttv_doc *d)
{
	guint64 sum = 0;

	for (unsigned i = 0; i < d->ntraces; i++)
		sum += dir_bytes(d->paths[i], 0);
	return sum;
}

static gboolean tick(gpointer data)
{
	app *a = data;
	guint64 bytes;

	if (!a->doc || !a->ix.done)
		return G_SOURCE_CONTINUE;	/* the last growth is still indexed */
	bytes = trace_bytes(a->doc);
	if (bytes == a->live_bytes)
		return G_SOURCE_CONTINUE;
	if (lttv_reload_doc(a) == 0) {
		a->live_bytes = bytes;
		a->live_grew_time = g_get_monotonic_time();
		a->live_reloads++;
		if (gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) == LTTV_PAGE_STATISTICS)
			lttv_stats_refresh(a);
	}
	return G_SOURCE_CONTINUE;
}

void lttv_live_start(app *a)
{
	if (a->doc)
		a->live_bytes = trace_bytes(a->doc);
	a->live_timer = g_timeout_add(LIVE_TICK_MS, tick, a);
}

void lttv_live_stop(app *a)
{
	if (a->live_timer)
		g_source_remove(a->live_timer);
	a->live_timer = 0;
}

static int grown(const app *a)
{
	return a->doc && a->doc->end_ns > a->live_mark && a->live_reloads > 0;
}

/*
 * Self-test commands: live-mark (remember where the trace ends now);
 * wait-live-grown (until it ends later than at the mark, 60 s at most);
 * expect-live-grown (it ends later than at the mark, and was opened again
 * at least once); wait-live-settled (until the files stopped growing for a
 * second and their last version is indexed, 60 s after the mark at most).
 */
int lttv_live_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok)
{
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

		*again = a->doc && (!a->ix.done || trace_bytes(a->doc) != a->live_bytes ||
				    now - a->live_grew_time < G_USEC_PER_SEC) &&
			 now - a->live_mark_time < 60 * G_USEC_PER_SEC;
	} else if (!strcmp(w[0], "expect-live-grown")) {
		*ok = grown(a);
		snprintf(buf, size, "the trace grew while shown: ends %.6f s after the mark, "
			 "opened again %u times", a->doc ? (a->doc->end_ns - a->live_mark) / 1e9 : 0.0,
			 a->live_reloads);
	} else {
		return 0;
	}
	return 1;
}
