/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * facilities-dir.c - where the facility catalogue (the facility XML files) is
 * found when a trace does not carry its own eventdefs/.
 *
 *   1. $LTT_FACILITIES_DIR, when set and not empty;
 *   2. PREFIX/share/ltt/facilities, PREFIX being the folder above the
 *      running program's own (/usr for /usr/bin/lttv-text), when it exists:
 *      an installed tool finds the catalogue installed beside it, wherever
 *      the tree was installed or unpacked (make install DESTDIR=..., dpkg -x),
 *      and a tool run in place finds the source tree's facilities/ through
 *      build/share/ltt/facilities, a link the build makes;
 *   3. the folder `make install` puts it in (LTT_FACILITIES_DIR, from
 *      PREFIX at build time), for programs installed elsewhere.
 *
 * GLib-free: lttctl (static, without the library) links this file too, so
 * that its default is the viewers'.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltttrace.h"

#ifndef LTT_FACILITIES_DIR
#define LTT_FACILITIES_DIR "/usr/local/share/ltt/facilities"
#endif

static pthread_once_t beside_once = PTHREAD_ONCE_INIT;
static char beside[PATH_MAX];	/* "" when there is none */

static void find_beside_program(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;
	char *slash;

	if (n <= 0)
		return;
	exe[n] = '\0';
	/* /usr/bin/lttv-text -> /usr */
	for (int up = 0; up < 2; up++) {
		slash = strrchr(exe, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
	if (snprintf(beside, sizeof(beside), "%s/share/ltt/facilities", exe) >=
	    (int)sizeof(beside) || stat(beside, &st) < 0 || !S_ISDIR(st.st_mode))
		beside[0] = '\0';
}

const char *ltt_default_facilities_dir(void)
{
	const char *env = getenv("LTT_FACILITIES_DIR");

	if (env && *env)
		return env;
	pthread_once(&beside_once, find_beside_program);
	return beside[0] ? beside : LTT_FACILITIES_DIR;
}
