/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * input-paths.c - whether an output path would write over a trace: a
 * tool's -o or --ctf comes from a command line, and a trace directory
 * from another machine (issue 16: lttv-text -o TRACE/cpu_0 truncated its
 * input, lttv-convert --ctf TRACE died of SIGBUS in the middle of it).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * The absolute path `path` names, symbolic links resolved, even when it
 * does not exist yet: its deepest existing ancestor resolved, the rest
 * appended (an output is usually new). NULL if nothing of it resolves.
 */
static char *resolve(const char *path)
{
	char *abs = g_canonicalize_filename(path, NULL);
	char *head = g_strdup(abs), *tail = g_strdup("");
	char *real = NULL;

	for (;;) {
		char *base, *parent, *t;

		real = realpath(head, NULL);
		if (real || strcmp(head, "/") == 0)
			break;
		base = g_path_get_basename(head);
		parent = g_path_get_dirname(head);
		t = *tail ? g_build_filename(base, tail, NULL) : g_strdup(base);
		g_free(tail);
		g_free(base);
		g_free(head);
		tail = t;
		head = parent;
	}
	if (real) {
		char *joined = *tail ? g_build_filename(real, tail, NULL) : g_strdup(real);

		free(real);
		real = joined;
	}
	g_free(abs);
	g_free(head);
	g_free(tail);
	return real;
}

static bool is_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return strncmp(dir, path, n) == 0 &&
	       (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

int ltt_trace_path_is_input(const ltt_trace *t, const char *path)
{
	char *dir = resolve(t->path), *out = resolve(path);
	struct stat st;
	int hit = 0;

	if (dir && out && is_within(dir, out))
		hit = 1;
	g_free(dir);
	g_free(out);
	/* the same file under another name: a hard link, or a link that
	 * resolve() followed out of the trace */
	if (!hit && stat(path, &st) == 0) {
		uint64_t dev = (uint64_t)st.st_dev, ino = (uint64_t)st.st_ino;

		for (guint i = 0; !hit && i < t->tracefiles->len; i++) {
			const ltt_tracefile *tf = t->tracefiles->pdata[i];

			hit = (tf->dev || tf->ino) && tf->dev == dev && tf->ino == ino;
		}
		for (guint i = 0; !hit && i < t->descriptions->len; i++) {
			const ltt_description *d = t->descriptions->pdata[i];

			hit = (d->file_dev || d->file_ino) && d->file_dev == dev &&
			      d->file_ino == ino;
		}
	}
	return hit;
}
