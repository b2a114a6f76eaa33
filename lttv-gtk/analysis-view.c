/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis-view.c - the Analyses tab of the window: the event density,
 * CPU usage, latency scatter and histogram of analysis-draw.c over the
 * visible range, for the latency chosen in the tab's menu. The analyses'
 * pass runs in a worker thread (analysis-calc.c, on its own trace
 * handles): the tab says how far it is, and draws it when it is done.
 * It starts when it is first wanted: the tab shown, a link over the
 * control flow ticked, or the index done. Not at open: on a machine of two
 * cores the index already takes both (its reader and its coder), and the
 * pass, as long as the index's own, made a third busy thread.
 * Not in the window's thread: the analyses grow arrays of millions of
 * latencies, and one growth is tens of milliseconds of copying. A click on a
 * point of the scatter puts cursor A at its start (the event list goes
 * there) and selects its process in the control flow. Two check boxes
 * draw the analyses over the control flow (analysis-links.c): wakeup
 * arrows, the critical path of the selected process.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "window.h"

#define STEP_EVENTS 4096	/* the worker looks at stop this often */
#define POLL_MS 250		/* the tab's progress, and whether it is done */

typedef struct lttv_atab lttv_atab;

struct lttv_atab {
	app *a;
	GtkWidget *box, *area, *combo, *info, *arrows, *critical;
	lttv_adata *data;		/* the finished pass, or NULL */
	/* the pass in the worker: the window touches none of it but these
	 * atomics until the worker has ended (joined) */
	lttv_adata *running;
	GThread *thread;
	atomic_int stop, finished;
	_Atomic uint64_t events;
	guint poll;
	ltt_latency_kind kind;
	const ltt_latency *selected;	/* &picked, or NULL */
	ltt_latency picked;
};

static void view_of(lttv_atab *t, lttv_aview *v, char *msg, size_t size)
{
	app *a = t->a;

	memset(v, 0, sizeof(*v));
	v->doc = a->doc;
	v->data = t->data;
	v->an = t->data ? lttv_adata_analysis(t->data) : NULL;
	v->t0 = a->t0;
	v->t1 = a->t1;
	v->kind = t->kind;
	v->selected = t->selected;
	if (t->data && lttv_adata_error(t->data))
		snprintf(msg, size, "read error: %s", lttv_adata_error(t->data));
	else if (t->running)
		snprintf(msg, size, "analysing: %" PRIu64 " events so far",
			 atomic_load(&t->events));
	else
		msg[0] = '\0';
	v->message = *msg ? msg : NULL;
}

static gboolean on_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	lttv_atab *t = data;
	lttv_aview v;
	char msg[256];

	view_of(t, &v, msg, sizeof(msg));
	if (!t->a->doc) {
		v.an = NULL;
		v.message = "no trace open";
	}
	lttv_analysis_draw(cr, &v, gtk_widget_get_allocated_width(w),
			   gtk_widget_get_allocated_height(w), NULL);
	return TRUE;
}

void lttv_atab_draw_offscreen(app *a, int width, int height)
{
	lttv_atab *t = a->atab;
	cairo_surface_t *s;
	cairo_t *cr;
	lttv_aview v;
	char msg[256];

	if (!t)
		return;
	view_of(t, &v, msg, sizeof(msg));
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	cr = cairo_create(s);
	lttv_analysis_draw(cr, &v, width, height, NULL);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

static gpointer pass_thread(gpointer data)
{
	lttv_atab *t = data;

	while (!atomic_load(&t->stop) && lttv_adata_step(t->running, STEP_EVENTS))
		atomic_store(&t->events, lttv_adata_events(t->running));
	atomic_store(&t->events, lttv_adata_events(t->running));
	atomic_store(&t->finished, 1);
	return NULL;
}

/* Stops the worker, if one runs, and drops its pass. */
static void pass_stop(lttv_atab *t)
{
	if (t->thread) {
		atomic_store(&t->stop, 1);
		g_thread_join(t->thread);
		t->thread = NULL;
	}
	if (t->poll)
		g_source_remove(t->poll);
	t->poll = 0;
	lttv_adata_free(t->running);
	t->running = NULL;
}

static gboolean poll_pass(gpointer data)
{
	lttv_atab *t = data;

	gtk_widget_queue_draw(t->area);
	if (!atomic_load(&t->finished))
		return G_SOURCE_CONTINUE;
	g_thread_join(t->thread);
	t->thread = NULL;
	t->poll = 0;
	t->data = t->running;
	t->running = NULL;
	if (lttv_adata_error(t->data))
		g_printerr("lttv-gtk: analyses: %s\n", lttv_adata_error(t->data));
	else
		t->a->cf.v.analysis = t->data;	/* the links over the control flow */
	lttv_queue_redraw(t->a);
	lttv_bench_analyses_done(t->a);
	return G_SOURCE_REMOVE;
}

void lttv_atab_stop(app *a)
{
	lttv_atab *t = a->atab;

	if (!t)
		return;
	pass_stop(t);
	t->selected = NULL;
	a->cf.v.analysis = NULL;
	lttv_adata_free(t->data);
	t->data = NULL;
}

void lttv_atab_want(app *a)
{
	lttv_atab *t = a->atab;

	if (!t || !a->doc || t->data || t->running)
		return;
	t->running = lttv_adata_new(a->doc);
	if (t->running) {
		atomic_store(&t->stop, 0);
		atomic_store(&t->finished, 0);
		atomic_store(&t->events, 0);
		t->thread = g_thread_new("lttv-analyses", pass_thread, t);
		t->poll = g_timeout_add(POLL_MS, poll_pass, t);
	}
	gtk_widget_queue_draw(t->area);
}

/* Wanted now, for what is on screen: the tab, or links over the flow. */
static int shown(const lttv_atab *t)
{
	return gtk_notebook_get_current_page(GTK_NOTEBOOK(t->a->notebook)) ==
		LTTV_PAGE_ANALYSES ||
	       gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(t->arrows)) ||
	       gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(t->critical));
}

void lttv_atab_doc_changed(app *a)
{
	lttv_atab *t = a->atab;

	if (!t)
		return;
	lttv_atab_stop(a);
	if (shown(t))
		lttv_atab_want(a);
	gtk_widget_queue_draw(t->area);
}

void lttv_atab_redraw(app *a)
{
	if (a->atab)
		gtk_widget_queue_draw(a->atab->area);
}

void lttv_atab_free(app *a)
{
	lttv_atab *t = a->atab;

	if (!t)
		return;
	lttv_atab_stop(a);
	g_free(t);
	a->atab = NULL;
}

/* A click at (x, y) of the tab's area: the occurrence there, if any, is
 * selected, cursor A goes to its start, its process is selected. */
static int click(lttv_atab *t, double x, double y)
{
	app *a = t->a;
	lttv_aview v;
	char msg[256];
	const ltt_latency *hit = &t->picked;
	ltt_state_process_info pi;
	int row;

	view_of(t, &v, msg, sizeof(msg));
	if (!lttv_analysis_hit(&v, gtk_widget_get_allocated_width(t->area),
			       gtk_widget_get_allocated_height(t->area), x, y, &t->picked))
		return 0;
	t->selected = hit;
	lttv_set_cursor(a, hit->start_ns, 0);
	if (hit->process >= 0 &&
	    ltt_state_process(ltt_analysis_state(v.an), (unsigned)hit->process, &pi) == 0) {
		lttv_view_sync(a, &a->cf);
		row = lttv_row_of_pid(&a->cf, pi.pid);
		if (row >= 0)
			lttv_select_row(&a->cf, row);
	}
	gtk_widget_queue_draw(t->area);
	return 1;
}

/* Hovering a point of the scatter says what it is. */
static char *tip_at(lttv_atab *t, double x, double y)
{
	lttv_aview v;
	char msg[256], text[256];
	ltt_latency hit;

	view_of(t, &v, msg, sizeof(msg));
	if (!lttv_analysis_hit(&v, gtk_widget_get_allocated_width(t->area),
			       gtk_widget_get_allocated_height(t->area), x, y, &hit))
		return NULL;
	lttv_analysis_describe(&v, &hit, text, sizeof(text));
	return g_strdup(text);
}

static gboolean on_tooltip(GtkWidget *w, gint x, gint y, gboolean kbd, GtkTooltip *tip,
			   gpointer data)
{
	char *text = tip_at(data, x, y);

	if (!text)
		return FALSE;
	gtk_tooltip_set_text(tip, text);
	g_free(text);
	return TRUE;
}

static gboolean on_press(GtkWidget *w, GdkEventButton *e, gpointer data)
{
	if (e->type == GDK_BUTTON_PRESS && e->button == 1)
		click(data, e->x, e->y);
	return TRUE;
}

static void on_kind(GtkComboBox *c, gpointer data)
{
	lttv_atab *t = data;
	int k = gtk_combo_box_get_active(c);

	if (k >= 0 && k < LTT_LATENCY_NUM_KINDS) {
		t->kind = (ltt_latency_kind)k;
		t->selected = NULL;
		gtk_widget_queue_draw(t->area);
	}
}

static void on_links(GtkToggleButton *b, gpointer data)
{
	lttv_atab *t = data;

	t->a->cf.v.arrows = gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(t->arrows));
	t->a->cf.v.critical = gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(t->critical));
	if (t->a->cf.v.arrows || t->a->cf.v.critical)
		lttv_atab_want(t->a);
	lttv_queue_redraw(t->a);
}

GtkWidget *lttv_atab_widget(app *a)
{
	static const char *const labels[LTT_LATENCY_NUM_KINDS] = {
		"system calls", "scheduling latency (wakeup to switch-in)",
		"IRQ handlers", "softirq handlers", "file reads and writes",
	};
	lttv_atab *t = g_new0(lttv_atab, 1);
	GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);

	t->a = a;
	a->atab = t;
	t->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	t->combo = gtk_combo_box_text_new();
	for (unsigned k = 0; k < LTT_LATENCY_NUM_KINDS; k++)
		gtk_combo_box_text_append_text(GTK_COMBO_BOX_TEXT(t->combo), labels[k]);
	gtk_combo_box_set_active(GTK_COMBO_BOX(t->combo), 0);
	g_signal_connect(t->combo, "changed", G_CALLBACK(on_kind), t);
	gtk_box_pack_start(GTK_BOX(bar), gtk_label_new("Latency of"), FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(bar), t->combo, FALSE, FALSE, 0);
	t->info = gtk_label_new("over the visible range; lttv-text -A prints the same "
				"tables");
	gtk_box_pack_start(GTK_BOX(bar), t->info, FALSE, FALSE, 6);
	/* what the analyses draw over the control flow (analysis-links.c) */
	t->arrows = gtk_check_button_new_with_label("wakeup arrows");
	t->critical = gtk_check_button_new_with_label("critical path of the selected process");
	gtk_widget_set_tooltip_text(t->critical, "in the Control flow view: what the "
				    "selected process waited on, and who woke it");
	g_signal_connect(t->arrows, "toggled", G_CALLBACK(on_links), t);
	g_signal_connect(t->critical, "toggled", G_CALLBACK(on_links), t);
	gtk_box_pack_end(GTK_BOX(bar), t->critical, FALSE, FALSE, 0);
	gtk_box_pack_end(GTK_BOX(bar), t->arrows, FALSE, FALSE, 0);
	gtk_container_set_border_width(GTK_CONTAINER(bar), 3);
	t->area = gtk_drawing_area_new();
	gtk_widget_set_vexpand(t->area, TRUE);
	gtk_widget_add_events(t->area, GDK_BUTTON_PRESS_MASK);
	g_signal_connect(t->area, "draw", G_CALLBACK(on_draw), t);
	g_signal_connect(t->area, "button-press-event", G_CALLBACK(on_press), t);
	gtk_widget_set_has_tooltip(t->area, TRUE);
	g_signal_connect(t->area, "query-tooltip", G_CALLBACK(on_tooltip), t);
	gtk_box_pack_start(GTK_BOX(t->box), bar, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(t->box), t->area, TRUE, TRUE, 0);
	return t->box;
}

/*
 * Self-test commands of the tab (selftest.c hands over what it does not
 * know): wait-analysis (starts the pass if it has not); expect-analysis
 * none|started; latency KIND; links A C (the check boxes of the
 * wakeup arrows and critical path); analysis-click-worst (clicks, by
 * position, on the longest occurrence of the visible range);
 * expect-analysis-selected START_S (the selected one starts there).
 * Returns 1 if the command was one of these.
 */
int lttv_atab_script(app *a, char **w, int n, int *again, char *buf, size_t size,
		     int *ok)
{
	lttv_atab *t = a->atab;

	*ok = -1;
	if (!t)
		return 0;
	if (!strcmp(w[0], "wait-analysis")) {
		lttv_atab_want(a);	/* a script may wait before it is shown */
		*again = t->running != NULL;
	} else if (!strcmp(w[0], "expect-analysis") && n == 2) {
		/* expect-analysis none|started: whether the pass ran or runs */
		int started = t->running || t->data;

		*ok = !strcmp(w[1], "started") ? started : !strcmp(w[1], "none") && !started;
		snprintf(buf, size, "the analyses' pass: %s (it has%s started)", w[1],
			 started ? "" : " not");
	} else if (!strcmp(w[0], "latency") && n == 2) {
		ltt_latency_kind k;

		*ok = lttv_parse_latency_kind(w[1], &k) == 0;
		snprintf(buf, size, "latency kind %s", w[1]);
		if (*ok)
			gtk_combo_box_set_active(GTK_COMBO_BOX(t->combo), (int)k);
	} else if (!strcmp(w[0], "analysis-click-worst")) {
		lttv_aview v;
		lttv_alayout l;
		ltt_latency *worst, at;
		char msg[256];
		size_t got;

		view_of(t, &v, msg, sizeof(msg));
		*ok = 0;
		snprintf(buf, size, "a click on the longest %s selects it",
			 ltt_latency_kind_name(t->kind));
		if (!v.an)
			return 1;
		got = ltt_analysis_longest(v.an, t->kind, v.t0, v.t1, 1, &worst);
		if (got) {
			double x, y;

			lttv_alayout_get(&v, gtk_widget_get_allocated_width(t->area),
					 gtk_widget_get_allocated_height(t->area), &l);
			x = lttv_ax_of(&v, &l, worst[0].start_ns);
			/* the point's row: search the column for it */
			for (y = l.sc_y; y <= l.sc_y + l.sc_h; y += 1) {
				if (lttv_analysis_hit(&v, gtk_widget_get_allocated_width(t->area),
						      gtk_widget_get_allocated_height(t->area),
						      x, y, &at) && lttv_same_occurrence(&at, &worst[0]))
					break;
			}
			*ok = y <= l.sc_y + l.sc_h && click(t, x, y) && t->selected &&
			      lttv_same_occurrence(t->selected, &worst[0]);
			if (*ok && n > 1) {	/* analysis-click-worst TEXT: its tooltip says it */
				char *tip = tip_at(t, x, y), *want = g_strjoinv(" ", w + 1);

				*ok = tip && strstr(tip, want);
				snprintf(buf, size, "the longest %s's tooltip says \"%s\" (got \"%s\")",
					 ltt_latency_kind_name(t->kind), want, tip ? tip : "");
				g_free(tip);
				g_free(want);
			}
		}
		free(worst);
	} else if (!strcmp(w[0], "links") && n == 3) {
		/* links ARROWS CRITICAL: 0 or 1 each, as the check boxes */
		gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(t->arrows), atoi(w[1]));
		gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(t->critical), atoi(w[2]));
	} else if (!strcmp(w[0], "expect-analysis-selected") && n == 2) {
		double got = t->selected ? (t->selected->start_ns - a->doc->origin_ns) / 1e9 : -1;

		*ok = t->selected && fabs(got - g_ascii_strtod(w[1], NULL)) < 1e-9;
		snprintf(buf, size, "selected occurrence starts at %s s (got %.9f)", w[1], got);
	} else {
		return 0;
	}
	return 1;
}
