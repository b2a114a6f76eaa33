/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * input-paths.c - whether an output path would write over a trace: a
 * tool's -o or --ctf comes from a command line, and a trace directory
 * from another machine (issue 16: lttv-text -o TRACE/cpu_0 truncated its
 * input, lttv-convert --ctf TRACE died of SIGBUS in the middle of it;
 * issue 31: a dangling link into the trace as -o created a tracefile in
 * it, --ctf into a bind mount of the trace overwrote its cpu_0). By path
 * (links resolved, the last one even when it dangles), by the inode of
 * each folder on the way (bind mounts), and by the inode of the file.
 */
#include <errno.h>
#include <inttypes.h>
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

/*
 * Where a symbolic link at the end of `path` leads, followed link by link
 * even when the last one dangles (realpath() gives up there, and the
 * output would then be created at the link's target: TRACE/cpu_9, a new
 * tracefile). NULL if path is not a link. At most 40 links, as the
 * kernel follows.
 */
static char *link_target(const char *path)
{
	char *cur = NULL;
	struct stat st;

	for (int i = 0; i < 40 && lstat(cur ? cur : path, &st) == 0 && S_ISLNK(st.st_mode); i++) {
		const char *at = cur ? cur : path;
		char buf[PATH_MAX], *next, *dir;
		ssize_t n = readlink(at, buf, sizeof(buf) - 1);

		if (n < 0)
			break;
		buf[n] = '\0';
		dir = g_path_get_dirname(at);
		next = g_path_is_absolute(buf) ? g_strdup(buf) : g_build_filename(dir, buf, NULL);
		g_free(dir);
		g_free(cur);
		cur = next;
	}
	return cur;
}

/* The (device, inode) of dir and of every folder under it, a few levels
 * deep (a trace has control/ and eventdefs/), as "dev:ino" keys. */
static void add_dirs(GHashTable *ids, const char *dir, int depth)
{
	struct stat st;
	GDir *d;
	const char *name;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return;
	g_hash_table_add(ids, g_strdup_printf("%ju:%ju", (uintmax_t)st.st_dev,
					      (uintmax_t)st.st_ino));
	if (depth == 0 || !(d = g_dir_open(dir, 0, NULL)))
		return;
	while ((name = g_dir_read_name(d))) {
		char *sub = g_build_filename(dir, name, NULL);
		struct stat ls;

		if (lstat(sub, &ls) == 0 && S_ISDIR(ls.st_mode))
			add_dirs(ids, sub, depth - 1);
		g_free(sub);
	}
	g_dir_close(d);
}

/*
 * Is a folder on the way to `out` (resolved; its existing part) the
 * trace's folder or one under it, by device and inode: the trace seen
 * through a bind mount (or another path the names do not show) has other
 * names, not other inodes.
 */
static bool reaches_trace_dir(const char *trace_dir, const char *out)
{
	GHashTable *ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	char *p = g_strdup(out);
	bool hit = false;

	add_dirs(ids, trace_dir, 4);
	for (;;) {
		struct stat st;
		char *parent;

		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *key = g_strdup_printf("%ju:%ju", (uintmax_t)st.st_dev,
						    (uintmax_t)st.st_ino);

			hit = g_hash_table_contains(ids, key);
			g_free(key);
			if (hit)
				break;
		}
		if (strcmp(p, "/") == 0 || strcmp(p, ".") == 0)
			break;
		parent = g_path_get_dirname(p);
		g_free(p);
		p = parent;
	}
	g_free(p);
	g_hash_table_destroy(ids);
	return hit;
}

static bool is_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return strncmp(dir, path, n) == 0 &&
	       (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

int ltt_trace_path_is_input(const ltt_trace *t, const char *path)
{
	char *dir = resolve(t->path), *out = resolve(path), *target = link_target(path);
	char *to = target ? resolve(target) : NULL;
	struct stat st;
	int hit = 0;

	if (dir && out && is_within(dir, out))
		hit = 1;
	if (dir && to && is_within(dir, to))	/* a link into the trace */
		hit = 1;
	if (!hit && dir && ((out && reaches_trace_dir(dir, out)) ||
			    (to && reaches_trace_dir(dir, to))))
		hit = 1;
	g_free(dir);
	g_free(out);
	g_free(target);
	g_free(to);
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
