/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stable.c - `lttv-text --stable`: a dump that two runs of the same
 * workload print alike, so that `diff` shows what changed and not what
 * merely differs from boot to boot:
 *
 *   times       from the start of the trace (as -r);
 *   pids        renumbered in order of first appearance in the output
 *               (1, 2, 3...; 0, the idle task, stays 0), in event fields
 *               named like pids (pid, tgid, ppid, parent_pid, child_pid,
 *               child_tgid, and schedchange's in and out), in -s columns
 *               and in the analyses' tables;
 *   addresses   pointer fields shown as "0x?" (--addresses keeps them).
 *
 * The fields are formatted by the library as usual, then the values to
 * change are replaced in that text, in the order the library printed them.
 */
#include <inttypes.h>
#include <string.h>

#include "lttv-text.h"

unsigned lttv_pid_shown(const lttv_options *o, unsigned pid)
{
	gpointer v;

	if (!o->stable || pid == 0 || pid == UINT32_MAX)
		return pid;
	v = g_hash_table_lookup(o->pids, GUINT_TO_POINTER(pid));
	if (!v) {
		v = GUINT_TO_POINTER(g_hash_table_size(o->pids) + 1);
		g_hash_table_insert(o->pids, GUINT_TO_POINTER(pid), v);
	}
	return GPOINTER_TO_UINT(v);
}

static int is_pid_field(const char *name)
{
	static const char *const names[] = { "pid", "tgid", "ppid", "parent_pid",
		"child_pid", "child_tgid", "in", "out" };

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

typedef struct rewrite {
	const lttv_options *o;
	GString *text;			/* the library's text, rewritten in place */
	size_t at;			/* where the next value is searched from */
} rewrite;

/* Replaces the first `from` at or after r->at with `to`. */
static void replace(rewrite *r, const char *from, const char *to)
{
	const char *hit = strstr(r->text->str + r->at, from);
	size_t pos;

	if (!hit)
		return;
	pos = (size_t)(hit - r->text->str);
	g_string_erase(r->text, (gssize)pos, (gssize)strlen(from));
	g_string_insert(r->text, (gssize)pos, to);
	r->at = pos + strlen(to);
}

static int visit(void *user, const char *name, int depth, const ltt_value *v)
{
	rewrite *r = user;
	char from[96], to[96];

	if (v->kind == LTT_KIND_POINTER && !r->o->addresses) {
		snprintf(from, sizeof(from), "0x%" PRIx64, v->u);
		replace(r, from, "0x?");
	} else if (depth == 0 && is_pid_field(name) &&
		   (v->kind == LTT_KIND_UINT || v->kind == LTT_KIND_INT) && v->u <= UINT32_MAX) {
		snprintf(from, sizeof(from), "%s = %" PRIu64, name, v->u);
		snprintf(to, sizeof(to), "%s = %u", name, lttv_pid_shown(r->o, (unsigned)v->u));
		replace(r, from, to);
	}
	return 0;
}

void lttv_stable_fields(const lttv_options *o, const ltt_event *ev, GString *out)
{
	size_t need = ltt_event_format_fields(ev, LTT_FORMAT_NAMES, NULL, 0);
	rewrite r = { o, g_string_sized_new(need + 1), 0 };

	g_string_set_size(r.text, need);
	ltt_event_format_fields(ev, LTT_FORMAT_NAMES, r.text->str, need + 1);
	if (ltt_event_is_known(ev))
		ltt_event_visit_fields(ev, visit, &r);
	g_string_append_len(out, r.text->str, (gssize)r.text->len);
	g_string_free(r.text, TRUE);
}
