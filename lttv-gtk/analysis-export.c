/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis-export.c - lttv-gtk --export FILE --view analyses [--latency
 * KIND]: the Analyses tab drawn without a display (analysis-draw.c, as the
 * window draws it). With --layout, what was drawn, for tests:
 *
 *   alayout x0=80 x1=1188 dens_y=18 ... t0=... t1=...
 *   density events=5598            events in the density bars
 *   scatter kind=syscall points=672
 *   scatter key_y1=... plot_y=... axis_y=...   its key's band ends above its points
 *   axis t=... x=... label=4.5     the time axis' ticks (seconds from the start)
 *   hist bucket=19 count=48        the histogram's bars
 *   cpu 0 busy_ns=... span_ns=...  CPU usage over the range
 */
#include <stdio.h>
#include <string.h>

#include "lttv-gtk.h"

typedef struct sized_aview {
	const lttv_aview *v;
	int width, height;
	lttv_adraw_stats *ds;
} sized_aview;

static void paint_analyses(cairo_t *cr, void *user)
{
	const sized_aview *sv = user;

	lttv_analysis_draw(cr, sv->v, sv->width, sv->height, sv->ds);
}

int lttv_export_analyses(const char *const *traces, unsigned ntraces, const char *file,
			 const char *range, const char *kind_name, const char *size,
			 int layout)
{
	lttv_aview v = { 0 };
	lttv_adraw_stats ds;
	lttv_adata *data;
	char *error = NULL;
	lttv_doc *d;
	int width = 1200, height = 0, svg, rc = 0;

	if (kind_name && lttv_parse_latency_kind(kind_name, &v.kind) < 0) {
		fprintf(stderr, "lttv-gtk: --latency is syscall, sched, irq, softirq or file, "
			"not \"%s\"\n", kind_name);
		return 2;
	}
	if (size && (sscanf(size, "%dx%d", &width, &height) < 1 || width < 400 ||
		     width > 20000 || height < 0 || height > 20000)) {
		fprintf(stderr, "lttv-gtk: --size WIDTHxHEIGHT, e.g. 1200x720\n");
		return 2;
	}
	if ((svg = lttv_export_kind(file)) < 0)
		return 2;
	d = lttv_doc_open(traces, ntraces, &error);
	if (!d) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		return 1;
	}
	if (lttv_doc_output_is_input(d, "--export", file)) {
		lttv_doc_free(d);
		return 2;
	}
	v.t0 = d->start_ns;
	v.t1 = d->end_ns;
	if (range && lttv_range_arg(d, range, &v.t0, &v.t1, &error) < 0) {
		fprintf(stderr, "lttv-gtk: %s\n", error);
		g_free(error);
		lttv_doc_free(d);
		return 2;
	}
	data = lttv_adata_new(d);
	while (lttv_adata_step(data, 1 << 20) > 0)
		;
	if (lttv_adata_error(data)) {
		fprintf(stderr, "lttv-gtk: %s\n", lttv_adata_error(data));
		lttv_adata_free(data);
		lttv_doc_free(d);
		return 1;
	}
	lttv_doc_report_warnings(d);
	v.doc = d;
	v.data = data;
	v.an = lttv_adata_analysis(data);
	if (!height)
		height = lttv_anatural_height();
	sized_aview sv = { &v, width, height, &ds };

	if (lttv_export_write(file, svg, width, height, paint_analyses, &sv)) {
		rc = 1;
	} else if (layout) {
		lttv_alayout l;
		unsigned ncpus = ltt_state_num_cpus(ltt_analysis_state(v.an));

		lttv_alayout_get(&v, width, height, &l);
		printf("alayout x0=%d x1=%d dens_y=%d dens_h=%d cpu_y=%d cpu_h=%d sc_y=%d "
		       "sc_h=%d hist_y=%d hist_h=%d t0=%" PRId64 " t1=%" PRId64 "\n", l.x0, l.x1,
		       l.dens_y, l.dens_h, l.cpu_y, l.cpu_h, l.sc_y, l.sc_h, l.hist_y, l.hist_h,
		       v.t0, v.t1);
		printf("scatter key_y1=%d plot_y=%d axis_y=%d\n", l.sc_y + 18, l.plot_y, l.axis_y);
		{
			int64_t t[64];
			char label[64][32];
			unsigned nt = lttv_aaxis_ticks(&v, &l, t, label, 64);

			for (unsigned i = 0; i < nt; i++)
				printf("axis t=%" PRId64 " x=%.0f label=%s\n", t[i],
				       lttv_ax_of(&v, &l, t[i]), label[i]);
		}
		printf("density events=%" PRIu64 "\n", ds.density_events);
		printf("scatter kind=%s points=%" PRIu64 "\n", ltt_latency_kind_name(v.kind),
		       ds.points);
		for (unsigned b = 0; b < LTT_LATENCY_HIST_BUCKETS; b++)
			if (ds.hist[b])
				printf("hist bucket=%u count=%" PRIu64 "\n", b, ds.hist[b]);
		for (unsigned c = 0; c < ncpus; c++)
			printf("cpu %u busy_ns=%" PRIu64 " span_ns=%" PRId64 "\n", c,
			       ltt_analysis_cpu_busy_ns(v.an, c, v.t0, v.t1), v.t1 - v.t0);
	}
	lttv_adata_free(data);
	lttv_doc_free(d);
	cairo_debug_reset_static_data();
	return rc;
}
