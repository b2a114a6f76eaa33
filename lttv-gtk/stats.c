/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - the Statistics tab: the statistics of the visible range, or
 * of the range between cursors A and B when both are set (the summary of
 * a range: time per state and process, event counts), as lttv-gtk --stats
 * prints them (stats-calc.c), computed in slices of at most
 * STATS_SLICE_US from an idle callback, on the window's snapshot of the
 * index (doc->view), so that a long range does not freeze the window.
 * Shown, the tab follows the view and the cursors by itself (a quarter of
 * a second after they stop moving), not on a button only.
 *
 * Each of stats-calc.c's tables is a GtkTreeView on a GtkListStore: the
 * numbers are kept as numbers (a click on a header sorts them as numbers,
 * a second click reverses), shown as the text shows them; the "all" row
 * stays last whatever the order. The order a user chose survives the
 * next computation.
 */
#include <string.h>

#include "window.h"

#define STATS_STEP 5000		/* events between two looks at the clock */
#define STATS_SLICE_US 20000

#define STATS_SETTLE_MS 250
#define STATS_SAY_US 250000	/* the progress, at most this often */
#define STATS_MAX_TABLES 8

struct lttv_stats_job {
	app *a;
	lttv_stats_calc *calc;
	guint source;
	int cursors;			/* the range is A..B */
	gint64 said;			/* when the progress was last shown */
};

/* The tab's widgets: the summary, and a title and a view per table (made
 * at the first result: the tables and their columns never change). */
struct lttv_stats_tab {
	GtkWidget *summary, *tables, *counts;
	unsigned n;
	GtkWidget *title[STATS_MAX_TABLES];
	GtkTreeView *view[STATS_MAX_TABLES];
	char *id[STATS_MAX_TABLES];
};

static guint settle_source;		/* a refresh once the view stops moving */

void lttv_stats_cancel(app *a)
{
	lttv_stats_job *j = a->stats_job;

	if (!j)
		return;
	if (j->source)
		g_source_remove(j->source);
	lttv_stats_calc_free(j->calc);
	g_free(j);
	a->stats_job = NULL;
}

/* ---- the tables ---- */

/* the store's last column: 1 on the "all" row */
#define TOTAL_COLUMN(ncols) (ncols)
#define TOTAL_OF(model) (gtk_tree_model_get_n_columns(model) - 1)

/* A number shown as stats-calc.c shows it (seconds, counts). */
static void show_cell(GtkTreeViewColumn *col, GtkCellRenderer *r, GtkTreeModel *m,
		      GtkTreeIter *it, gpointer data)
{
	int k = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(col), "lttv-col"));
	lttv_stats_kind kind = (lttv_stats_kind)GPOINTER_TO_INT(data);
	guint64 v;
	gboolean total;
	char buf[32];

	gtk_tree_model_get(m, it, k, &v, TOTAL_OF(m), &total, -1);
	lttv_stats_format(kind, v, buf, sizeof(buf));
	g_object_set(r, "text", buf, "weight", total ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
		     NULL);
}

/* By the column's numbers or texts; the "all" row last in either order
 * (GTK reverses what this returns for a descending order). */
static gint compare_rows(GtkTreeModel *m, GtkTreeIter *x, GtkTreeIter *y, gpointer data)
{
	int k = GPOINTER_TO_INT(data), total = TOTAL_OF(m);
	gboolean tx, ty;
	GtkSortType order;
	gint unused;

	gtk_tree_model_get(m, x, total, &tx, -1);
	gtk_tree_model_get(m, y, total, &ty, -1);
	if (tx != ty) {
		gtk_tree_sortable_get_sort_column_id(GTK_TREE_SORTABLE(m), &unused, &order);
		return (tx ? 1 : -1) * (order == GTK_SORT_DESCENDING ? -1 : 1);
	}
	if (gtk_tree_model_get_column_type(m, k) == G_TYPE_UINT64) {
		guint64 a, b;

		gtk_tree_model_get(m, x, k, &a, -1);
		gtk_tree_model_get(m, y, k, &b, -1);
		return a < b ? -1 : a > b;
	} else {
		char *a, *b;
		gint r;

		gtk_tree_model_get(m, x, k, &a, -1);
		gtk_tree_model_get(m, y, k, &b, -1);
		r = g_utf8_collate(a ? a : "", b ? b : "");
		g_free(a);
		g_free(b);
		return r;
	}
}

static GtkListStore *new_store(const lttv_stats_table *t)
{
	GType types[32];
	GtkListStore *st;

	for (unsigned k = 0; k < t->ncols; k++)
		types[k] = t->cols[k].kind == LTTV_STATS_TEXT ? G_TYPE_STRING : G_TYPE_UINT64;
	types[TOTAL_COLUMN(t->ncols)] = G_TYPE_BOOLEAN;
	st = gtk_list_store_newv((gint)t->ncols + 1, types);
	for (unsigned k = 0; k < t->ncols; k++)
		gtk_tree_sortable_set_sort_func(GTK_TREE_SORTABLE(st), (gint)k, compare_rows,
						GINT_TO_POINTER(k), NULL);
	for (unsigned r = 0; r < t->nrows; r++) {
		GtkTreeIter it;

		gtk_list_store_append(st, &it);
		for (unsigned k = 0; k < t->ncols; k++) {
			GValue v = G_VALUE_INIT;
			size_t at = (size_t)r * t->ncols + k;

			if (t->cols[k].kind == LTTV_STATS_TEXT) {
				g_value_init(&v, G_TYPE_STRING);
				g_value_set_string(&v, t->text[at]);
			} else {
				g_value_init(&v, G_TYPE_UINT64);
				g_value_set_uint64(&v, t->num[at]);
			}
			gtk_list_store_set_value(st, &it, (gint)k, &v);
			g_value_unset(&v);
		}
		gtk_list_store_set(st, &it, TOTAL_COLUMN(t->ncols),
				   t->has_total && r + 1 == t->nrows, -1);
	}
	return st;
}

/* A view of the table's columns, headed by name and unit ("user (s)"). */
static GtkTreeView *new_view(const lttv_stats_table *t)
{
	GtkTreeView *v = GTK_TREE_VIEW(gtk_tree_view_new());

	gtk_tree_view_set_grid_lines(v, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
	for (unsigned k = 0; k < t->ncols; k++) {
		GtkCellRenderer *r = gtk_cell_renderer_text_new();
		char *head = t->cols[k].unit ? g_strdup_printf("%s (%s)", t->cols[k].name,
							       t->cols[k].unit)
					     : g_strdup(t->cols[k].name);
		GtkTreeViewColumn *col;

		if (t->cols[k].kind == LTTV_STATS_TEXT) {
			col = gtk_tree_view_column_new_with_attributes(head, r, "text", k, NULL);
		} else {
			g_object_set(r, "xalign", 1.0, "family", "monospace", NULL);
			col = gtk_tree_view_column_new_with_attributes(head, r, NULL);
			gtk_tree_view_column_set_cell_data_func(col, r, show_cell,
				GINT_TO_POINTER(t->cols[k].kind), NULL);
			gtk_tree_view_column_set_alignment(col, 1.0);
		}
		g_object_set_data(G_OBJECT(col), "lttv-col", GINT_TO_POINTER(k));
		g_object_set_data_full(G_OBJECT(col), "lttv-name", g_strdup(t->cols[k].name),
				       g_free);
		gtk_tree_view_column_set_sort_column_id(col, (gint)k);
		gtk_tree_view_column_set_resizable(col, TRUE);
		gtk_tree_view_append_column(v, col);
		g_free(head);
	}
	{	/* the width left: after the numbers, not between them */
		GtkTreeViewColumn *fill = gtk_tree_view_column_new();

		gtk_tree_view_column_set_expand(fill, TRUE);
		gtk_tree_view_append_column(v, fill);
	}
	return v;
}

/* The tables of a computation, in the order a user chose before (at the
 * first: the text's, busiest first, by the total or the count). */
static void show_tables(app *a, const lttv_stats_calc *calc)
{
	lttv_stats_tab *tab = a->stats_tab;
	lttv_stats_table *t;
	unsigned n = lttv_stats_calc_tables(calc, &t);

	for (unsigned i = 0; i < n && i < STATS_MAX_TABLES; i++) {
		GtkListStore *st = new_store(&t[i]);
		gint col = t[i].has_total ? (gint)t[i].ncols - 1 : 0;
		GtkSortType order = GTK_SORT_DESCENDING;

		if (i >= tab->n) {	/* the first time: its title and view */
			char *bold = g_markup_printf_escaped("<b>%s</b>", t[i].title);

			tab->title[i] = gtk_label_new(NULL);
			gtk_label_set_markup(GTK_LABEL(tab->title[i]), bold);
			gtk_label_set_xalign(GTK_LABEL(tab->title[i]), 0);
			g_free(bold);
			tab->view[i] = new_view(&t[i]);
			tab->id[i] = g_strdup(t[i].id);
			{	/* the CPU times across, the counts side by side below */
				GtkWidget *b = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
				/* each scrolls by itself, under its header: a table of
				 * thousands of processes is laid out as it comes into
				 * sight, not all before the tab is drawn */
				GtkWidget *sw = gtk_scrolled_window_new(NULL, NULL);

				gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(sw),
							       GTK_POLICY_NEVER,
							       GTK_POLICY_AUTOMATIC);
				gtk_scrolled_window_set_propagate_natural_height(
					GTK_SCROLLED_WINDOW(sw), TRUE);
				gtk_scrolled_window_set_propagate_natural_width(
					GTK_SCROLLED_WINDOW(sw), TRUE);
				gtk_scrolled_window_set_max_content_height(
					GTK_SCROLLED_WINDOW(sw), t[i].has_total ? 420 : 360);
				gtk_container_add(GTK_CONTAINER(sw), GTK_WIDGET(tab->view[i]));
				gtk_box_pack_start(GTK_BOX(b), tab->title[i], FALSE, FALSE, 4);
				gtk_box_pack_start(GTK_BOX(b), sw, FALSE, FALSE, 0);
				gtk_box_pack_start(GTK_BOX(t[i].has_total ? tab->tables : tab->counts),
						   b, FALSE, FALSE, 0);
				gtk_widget_show_all(b);
			}
			tab->n = i + 1;
		} else {		/* the order a user chose */
			gtk_tree_sortable_get_sort_column_id(
				GTK_TREE_SORTABLE(gtk_tree_view_get_model(tab->view[i])),
				&col, &order);
		}
		gtk_tree_sortable_set_sort_column_id(GTK_TREE_SORTABLE(st), col, order);
		gtk_tree_view_set_model(tab->view[i], GTK_TREE_MODEL(st));
		g_object_unref(st);
	}
	lttv_stats_tables_free(t, n);
}

static void show(app *a, const char *text)
{
	gtk_label_set_text(GTK_LABEL(a->stats_tab->summary), text);
}

static gboolean stats_step(gpointer data)
{
	lttv_stats_job *j = data;
	app *a = j->a;
	char msg[96], *text;
	int more;

	{
		gint64 until = g_get_monotonic_time() + STATS_SLICE_US;

		while ((more = lttv_stats_calc_step(j->calc, STATS_STEP)) &&
		       g_get_monotonic_time() < until)
			;
	}
	if (more) {
		gint64 now = g_get_monotonic_time();

		/* said a few times a second: a new text each slice redrew the
		 * window 50 times a second, which cost as much as the counting */
		if (now - j->said >= STATS_SAY_US) {
			snprintf(msg, sizeof(msg), "Computing... %" PRIu64 " events so far",
				 lttv_stats_calc_events(j->calc));
			show(a, msg);
			j->said = now;
		}
		return G_SOURCE_CONTINUE;
	}
	j->source = 0;
	text = lttv_stats_calc_summary(j->calc);
	if (j->cursors) {
		char *both = g_strconcat("Between cursors A and B (clear B with a click "
					 "to see the visible range)\n", text, NULL);

		g_free(text);
		text = both;
	}
	g_strchomp(text);
	show(a, text);
	g_free(text);
	show_tables(a, j->calc);
	gtk_widget_set_sensitive(a->stats_tab->tables, TRUE);
	lttv_stats_cancel(a);
	return G_SOURCE_REMOVE;
}

GtkWidget *lttv_stats_widget(app *a)
{
	lttv_stats_tab *tab = g_new0(lttv_stats_tab, 1);
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *inner = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *sw = gtk_scrolled_window_new(NULL, NULL);
	GtkWidget *refresh = gtk_button_new_with_label("Recompute for the visible range");

	a->stats_tab = tab;
	tab->summary = gtk_label_new("");
	gtk_label_set_xalign(GTK_LABEL(tab->summary), 0);
	gtk_label_set_selectable(GTK_LABEL(tab->summary), TRUE);
	gtk_label_set_line_wrap(GTK_LABEL(tab->summary), TRUE);
	tab->tables = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	tab->counts = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 16);
	gtk_box_pack_end(GTK_BOX(tab->tables), tab->counts, FALSE, FALSE, 8);
	gtk_box_pack_start(GTK_BOX(inner), tab->summary, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(inner), tab->tables, FALSE, FALSE, 0);
	gtk_widget_set_margin_start(inner, 4);
	gtk_widget_set_margin_end(inner, 4);
	gtk_container_add(GTK_CONTAINER(sw), inner);
	gtk_widget_set_vexpand(sw, TRUE);
	g_signal_connect(refresh, "clicked", G_CALLBACK(lttv_on_stats_refresh), a);
	gtk_box_pack_start(GTK_BOX(box), refresh, FALSE, FALSE, 0);
	gtk_box_pack_start(GTK_BOX(box), sw, TRUE, TRUE, 0);
	return box;
}

void lttv_stats_free(app *a)
{
	lttv_stats_tab *tab = a->stats_tab;

	if (!tab)
		return;
	for (unsigned i = 0; i < tab->n; i++)
		g_free(tab->id[i]);
	g_free(tab);
	a->stats_tab = NULL;
}

void lttv_stats_refresh(app *a)
{
	lttv_stats_job *j;

	lttv_stats_cancel(a);
	if (!a->doc || !a->stats_tab)	/* not after the window closed */
		return;
	j = g_new0(lttv_stats_job, 1);
	j->a = a;
	a->stats_job = j;
	j->cursors = a->cursor_a != INT64_MIN && a->cursor_b != INT64_MIN &&
		     a->cursor_a != a->cursor_b;
	j->calc = j->cursors ? lttv_stats_calc_new(a->doc, MIN(a->cursor_a, a->cursor_b),
						   MAX(a->cursor_a, a->cursor_b), a->filter_text)
			     : lttv_stats_calc_new(a->doc, a->t0, a->t1, a->filter_text);
	show(a, "Computing...");
	gtk_widget_set_sensitive(a->stats_tab->tables, FALSE);	/* the last result, until the new one */
	j->source = g_idle_add(stats_step, j);
}

static gboolean settled(gpointer data)
{
	app *a = data;

	settle_source = 0;
	if (a->win)	/* not after the window closed */
		lttv_stats_refresh(a);
	return G_SOURCE_REMOVE;
}

void lttv_stats_follow(app *a)
{
	if (!a->notebook ||
	    gtk_notebook_get_current_page(GTK_NOTEBOOK(a->notebook)) != LTTV_PAGE_STATISTICS)
		return;
	if (settle_source)
		g_source_remove(settle_source);
	settle_source = g_timeout_add(STATS_SETTLE_MS, settled, a);
}

/* ---- the self-test's ---- */

/* A cell's text as its column shows it (show_cell for the numbers). */
static char *cell_text(GtkTreeViewColumn *col, GtkTreeModel *m, GtkTreeIter *it)
{
	int k = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(col), "lttv-col"));
	GList *r = gtk_cell_layout_get_cells(GTK_CELL_LAYOUT(col));
	char *t = NULL;

	gtk_tree_view_column_cell_set_cell_data(col, m, it, FALSE, FALSE);
	if (gtk_tree_model_get_column_type(m, k) == G_TYPE_UINT64)
		g_object_get(r->data, "text", &t, NULL);
	else
		gtk_tree_model_get(m, it, k, &t, -1);
	g_list_free(r);
	return t ? t : g_strdup("");
}

/* A row as shown, its cells' texts joined by one space. */
static void row_text(GtkTreeView *v, GtkTreeIter *it, GString *out)
{
	GList *cols = gtk_tree_view_get_columns(v);
	int first = 1;

	for (GList *l = cols; l; l = l->next) {
		char *x;

		if (!g_object_get_data(l->data, "lttv-name"))
			continue;	/* the filler */
		x = cell_text(l->data, gtk_tree_view_get_model(v), it);
		if (*x)
			g_string_append_printf(out, "%s%s", first ? "" : " ", x);
		first &= !*x;
		g_free(x);
	}
	g_list_free(cols);
	g_string_append_c(out, '\n');
}

char *lttv_stats_shown(app *a)
{
	lttv_stats_tab *tab = a->stats_tab;
	GString *out = g_string_new(gtk_label_get_text(GTK_LABEL(tab->summary)));

	g_string_append_c(out, '\n');
	for (unsigned i = 0; i < tab->n; i++) {
		GtkTreeModel *m = gtk_tree_view_get_model(tab->view[i]);
		GtkTreeIter it;

		g_string_append_printf(out, "%s\n", gtk_label_get_text(GTK_LABEL(tab->title[i])));
		for (gboolean ok = gtk_tree_model_get_iter_first(m, &it); ok;
		     ok = gtk_tree_model_iter_next(m, &it))
			row_text(tab->view[i], &it, out);
	}
	return g_string_free(out, FALSE);
}

static GtkTreeViewColumn *find_column(app *a, const char *table, const char *name,
				      GtkTreeView **view)
{
	lttv_stats_tab *tab = a->stats_tab;

	for (unsigned i = 0; i < tab->n; i++) {
		GtkTreeViewColumn *found = NULL;
		GList *cols;

		if (strcmp(tab->id[i], table))
			continue;
		cols = gtk_tree_view_get_columns(tab->view[i]);
		for (GList *l = cols; l && !found; l = l->next)
			if (!g_strcmp0(g_object_get_data(l->data, "lttv-name"), name))
				found = l->data;
		g_list_free(cols);
		*view = tab->view[i];
		return found;
	}
	return NULL;
}

/* Whether the rows are in the order of the column: compared here, apart
 * from the sort function, numbers as numbers; the "all" row last. */
static int rows_in_order(GtkTreeModel *m, int k, int desc, GString *first, GtkTreeView *v)
{
	GtkTreeIter it, prev;
	int n = 0, ok = 1, total_seen = 0;

	for (gboolean more = gtk_tree_model_get_iter_first(m, &it); more;
	     prev = it, more = gtk_tree_model_iter_next(m, &it), n++) {
		gboolean total;
		int c = 0;

		gtk_tree_model_get(m, &it, TOTAL_OF(m), &total, -1);
		if (total_seen)
			ok = 0;		/* a row after the total */
		total_seen |= total;
		if (!n)
			row_text(v, &it, first);
		if (!n || total)
			continue;
		if (gtk_tree_model_get_column_type(m, k) == G_TYPE_UINT64) {
			guint64 x, y;

			gtk_tree_model_get(m, &prev, k, &x, -1);
			gtk_tree_model_get(m, &it, k, &y, -1);
			c = x < y ? -1 : x > y;
		} else {
			char *x, *y;

			gtk_tree_model_get(m, &prev, k, &x, -1);
			gtk_tree_model_get(m, &it, k, &y, -1);
			c = g_utf8_collate(x ? x : "", y ? y : "");
			g_free(x);
			g_free(y);
		}
		if (desc ? c < 0 : c > 0)
			ok = 0;
	}
	g_strchomp(first->str);
	return ok && n > 1;
}

/*
 * stats-click TABLE COLUMN: a click on the column's header (as the mouse
 * gives it: GTK sorts by it, or reverses a second time);
 * expect-stats-sorted TABLE COLUMN asc|desc: the rows are in that order,
 * the header shows it. TABLE: cpu-time, types, cpus, processes.
 */
int lttv_stats_script(app *a, char **w, int n, int *again, char *buf, size_t size, int *ok)
{
	GtkTreeView *v = NULL;
	GtkTreeViewColumn *col;

	*ok = -1;
	if (!a->stats_tab)
		return 0;
	if (!strcmp(w[0], "stats-click") && n == 3) {
		col = find_column(a, w[1], w[2], &v);
		*ok = col != NULL;
		snprintf(buf, size, "a click on the header %s of the statistics' %s", w[2], w[1]);
		if (col)
			gtk_tree_view_column_clicked(col);
	} else if (!strcmp(w[0], "expect-stats-sorted") && n == 4) {
		int desc = !strcmp(w[3], "desc");
		GString *first = g_string_new(NULL);

		col = find_column(a, w[1], w[2], &v);
		*ok = 0;
		if (col) {
			GtkTreeModel *m = gtk_tree_view_get_model(v);
			int k = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(col), "lttv-col"));
			gint sorted_by;
			GtkSortType order;

			gtk_tree_sortable_get_sort_column_id(GTK_TREE_SORTABLE(m), &sorted_by, &order);
			*ok = sorted_by == k &&
			      (order == GTK_SORT_DESCENDING) == desc &&
			      gtk_tree_view_column_get_sort_indicator(col) &&
			      rows_in_order(m, k, desc, first, v);
		}
		snprintf(buf, size, "statistics %s sorted by %s %s (first row: %s)", w[1], w[2],
			 desc ? "desc" : "asc", first->str);
		g_string_free(first, TRUE);
	} else {
		return 0;
	}
	*again = 0;
	return 1;
}
