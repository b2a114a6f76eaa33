// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * out-folder.c - lttv-convert writes the CTF trace into a new folder
 * beside OUT and renames it into place once complete: a conversion into
 * an existing CTF folder left the streams the new trace does not have (a
 * 2-CPU conversion over a 4-CPU one kept cpu_2, cpu_3; babeltrace2 then
 * failed), and a failed one left half a trace. A folder that is not empty
 * is replaced only when asked (--replace), and only if it is a CTF trace.
 */
#include <errno.h>
#include <ftw.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out-folder.h"

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

static int remove_tree(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int is_empty_dir(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	int empty = d && !g_dir_read_name(d);

	if (d)
		g_dir_close(d);
	return empty;
}

char *out_folder_begin(const char *out, int replace)
{
	struct stat st;
	char *parent, *base, *tmpl;

	if (lstat(out, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "lttv-convert: --ctf %s: exists and is not a folder: "
				"refused\n", out);
			return NULL;
		}
		if (!is_empty_dir(out)) {
			char *meta = g_build_filename(out, "metadata", NULL);
			int is_ctf = lstat(meta, &st) == 0 && S_ISREG(st.st_mode);

			g_free(meta);
			if (!replace) {
				fprintf(stderr, "lttv-convert: --ctf %s: the folder is not empty "
					"(its other files would stay beside the new trace): "
					"give --replace to replace it whole\n", out);
				return NULL;
			}
			if (!is_ctf) {
				fprintf(stderr, "lttv-convert: --ctf %s --replace: not a CTF "
					"trace (no metadata file): not replaced\n", out);
				return NULL;
			}
		}
	}
	parent = g_path_get_dirname(out);
	base = g_path_get_basename(out);
	if (g_mkdir_with_parents(parent, 0755) < 0) {
		fprintf(stderr, "lttv-convert: cannot create %s: %s\n", parent, strerror(errno));
		g_free(parent);
		g_free(base);
		return NULL;
	}
	tmpl = g_strdup_printf("%s/.%s.new-XXXXXX", parent, base);
	g_free(parent);
	g_free(base);
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "lttv-convert: cannot create a folder beside %s: %s\n", out,
			strerror(errno));
		g_free(tmpl);
		return NULL;
	}
	chmod(tmpl, 0755);	/* as a folder created for the user (umask aside) */
	return tmpl;
}

int out_folder_commit(const char *tmp, const char *out)
{
	char *old = NULL;
	struct stat st;
	int rc = 0;

	if (lstat(out, &st) == 0 && !is_empty_dir(out)) {
		old = g_strdup_printf("%s.old", tmp);
		if (rename(out, old) < 0) {
			fprintf(stderr, "lttv-convert: cannot move %s aside: %s\n", out,
				strerror(errno));
			g_free(old);
			out_folder_abandon(tmp);
			return -1;
		}
	}
	if (rename(tmp, out) < 0) {	/* onto an empty folder, or none */
		fprintf(stderr, "lttv-convert: cannot rename %s to %s: %s\n", tmp, out,
			strerror(errno));
		if (old && rename(old, out) < 0)
			fprintf(stderr, "lttv-convert: the old trace is in %s\n", old);
		out_folder_abandon(tmp);
		rc = -1;
	} else if (old && remove_tree(old) != 0) {
		fprintf(stderr, "lttv-convert: warning: could not remove the old trace %s\n", old);
	}
	g_free(old);
	return rc;
}

void out_folder_abandon(const char *tmp)
{
	if (remove_tree(tmp) != 0 && errno != ENOENT)
		fprintf(stderr, "lttv-convert: could not remove %s\n", tmp);
}
