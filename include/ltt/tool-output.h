/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * tool-output.h - an output file (lttv-text -o, lttv-gtk --export)
 * written whole or not at all: into a new file beside it, renamed over it
 * once complete, as genevent writes its headers. On a full disk the old
 * file stays as it was and no partial one is left (issue 31: a partial
 * file replaced an existing one). An output that is not a regular file
 * (/dev/null, a FIFO, a terminal) is written as it is; a symbolic link
 * to a regular file is followed (the file replaced, the link kept).
 *
 * Static inline only, C99, no GLib. Not installed.
 */
#ifndef LTT_TOOL_OUTPUT_H
#define LTT_TOOL_OUTPUT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The new file while it is written: removed if memory runs out. Defined
 * by tool-memory.h, which each program using this header includes in its
 * main() file (a link error says when one does not). */
extern const char *ltt_partial_output;
extern int ltt_partial_output_is_folder;

/*
 * The file to write `path` into (malloc'd): a new, empty one in path's
 * folder (".NAME.XXXXXX", the permissions of a new file), or a copy of
 * path when it is not a regular file. NULL with errno if none can be
 * created.
 */
static inline char *ltt_output_begin(const char *path)
{
	struct stat st;
	char *real = NULL, *tmp;
	const char *slash, *base, *to = path;
	size_t dirlen;
	mode_t mask;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return strdup(path);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		to = real;
	slash = strrchr(to, '/');
	base = slash ? slash + 1 : to;
	dirlen = slash ? (size_t)(slash - to) + 1 : 0;
	tmp = malloc(dirlen + strlen(base) + 10);
	if (!tmp) {
		free(real);
		return NULL;
	}
	sprintf(tmp, "%.*s.%s.XXXXXX", (int)dirlen, to, base);
	free(real);
	fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;

		free(tmp);
		errno = e;
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || close(fd) < 0) {
		int e = errno;

		unlink(tmp);
		free(tmp);
		errno = e;
		return NULL;
	}
	ltt_partial_output = tmp;
	ltt_partial_output_is_folder = 0;
	return tmp;
}

/*
 * Ends what ltt_output_begin() began (tmp is freed): ok, the output is
 * complete and renamed over path (where a link pointed); else it is
 * removed, path left as it was. 0, or -1 with errno (the rename failed:
 * the new file removed).
 */
static inline int ltt_output_finish(char *tmp, const char *path, int ok)
{
	struct stat st;
	char *real = NULL;
	int rc = 0, e = 0;

	if (!tmp)
		return -1;
	if (ltt_partial_output == tmp)
		ltt_partial_output = NULL;
	if (strcmp(tmp, path) == 0) {	/* not a regular file: written in place */
		free(tmp);
		return 0;
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		real = realpath(path, NULL);
	if (ok && rename(tmp, real ? real : path) < 0) {
		e = errno;
		rc = -1;
	}
	if (!ok || rc < 0)
		unlink(tmp);
	free(real);
	free(tmp);
	errno = e;
	return rc;
}

#endif
