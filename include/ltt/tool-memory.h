/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * tool-memory.h - out of memory is an error said, with exit status 1,
 * not a SIGTRAP or a crash (issue 31: lttv-text -A, lttv-diff and
 * lttv-convert under `ulimit -v` died of GLib's "failed to allocate"
 * breakpoint).
 *
 * Why a handler and not g_try_malloc() at each allocation: what grows
 * with the trace is held in GLib's containers (GArray, GHashTable,
 * GString: the analyses' occurrences, the state index, the statistics),
 * which have no "try" form; their g_realloc() failing calls g_error().
 * The library's own large buffers whose size a trace gives (a
 * sub-buffer) already use g_try_malloc() and fail with LTT_ERROR_NOMEM.
 * So each tool catches GLib's fatal errors here: the handler says the
 * error with write(2), removes the partial output, then _exit(1), since
 * memory is what is missing; GLib's own handler would format, log, then
 * trap. Other messages go to GLib's default handler as before. What is
 * not caught: a failure before main() (the loader cannot map a library:
 * exit 127, said by the loader) and a C library outside GLib that aborts.
 *
 * For the tools that use GLib (not lttd, lttctl), included by each one's
 * main() file only: it defines vasprintf() and ltt_partial_output (below).
 * Not installed.
 */
#ifndef LTT_TOOL_MEMORY_H
#define LTT_TOOL_MEMORY_H

#include <glib.h>

#include "ltttrace.h"
#include <ftw.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ltt_memory_tool_name_ = "ltt";

/*
 * The output being written (a new file of tool-output.h, lttv-convert's
 * new folder), NULL if none: removed if memory runs out, as a failed
 * write removes it, so that no partial output stays beside the real one.
 * Defined here, once per program; tool-output.h sets it.
 */
const char *ltt_partial_output;
int ltt_partial_output_is_folder;

/* Released when memory runs out: room for the removal (nftw() opens
 * folders) and for the message */
#define LTT_MEMORY_RESERVE (256 * 1024)
static void *ltt_memory_reserve_;

static void ltt_memory_say_(const char *s)
{
	if (s && write(2, s, strlen(s)) < 0)
		return;	/* nowhere to say it: the exit status still does */
}

static int ltt_memory_rm_(const char *path, const struct stat *sb, int flag,
			  struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

/* The end, once the message is said: the partial output removed, exit 1 */
static void ltt_memory_exit_(void)
{
	const char *out = ltt_partial_output;

	ltt_partial_output = NULL;
	if (out && (ltt_partial_output_is_folder
		    ? nftw(out, ltt_memory_rm_, 8, FTW_DEPTH | FTW_PHYS) : unlink(out)) != 0) {
		ltt_memory_say_(ltt_memory_tool_name_);
		ltt_memory_say_(": could not remove the partial output ");
		ltt_memory_say_(out);
		ltt_memory_say_("\n");
	}
	_exit(1);
}

static void ltt_memory_handler_(const gchar *domain, GLogLevelFlags level,
				const gchar *message, gpointer unused)
{
	(void)unused;
	if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL))) {
		g_log_default_handler(domain, level, message, NULL);
		return;
	}
	free(ltt_memory_reserve_);
	ltt_memory_reserve_ = NULL;
	ltt_memory_say_(ltt_memory_tool_name_);
	if (message && strstr(message, "alloc"))
		ltt_memory_say_(": out of memory: ");
	else if (message && strstr(message, "creating thread"))
		/* EAGAIN: no room for its stack, or the threads' limit */
		ltt_memory_say_(": out of memory or of threads: ");
	else
		ltt_memory_say_(": fatal error: ");
	ltt_memory_say_(message ? message : "(no message)");
	ltt_memory_say_("\n");
	ltt_memory_exit_();
}

/*
 * GLib formats a message before any handler sees it (g_logv(), with
 * vasprintf()). Out of memory, that formatting fails too, and GLib 2.74's
 * g_vasprintf() reports it with g_error(), which formats again: GLib
 * recursed until the stack overflowed (lttv-gtk segfaulted under `ulimit
 * -v 70000`, in the index's coder thread). No handler runs before that
 * formatting, so the program defines the vasprintf() GLib calls (an
 * executable's definition comes first; Debian's GLib is built with
 * _FORTIFY_SOURCE and calls __vasprintf_chk()): the same result, the
 * same checks; when there is no memory for it, the reserve is released
 * so that GLib's error reaches the handler, and without a reserve the
 * error is said and the tool exits 1 where the recursion would start.
 * Defined once per program: only its main() file includes this header.
 */
#ifdef __GLIBC__
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen,
		    const char *fmt, va_list ap);
#endif

/* flag < 0: plain vsnprintf(); else the fortified one, with that flag */
static int ltt_memory_vformat_(char *buf, size_t size, int flag,
			       const char *fmt, va_list ap)
{
#ifdef __GLIBC__
	if (flag >= 0)
		return __vsnprintf_chk(buf, size, flag, size, fmt, ap);
#endif
	return vsnprintf(buf, size, fmt, ap);
}

static int ltt_memory_vasprintf_(char **out, int flag, const char *fmt, va_list ap)
{
	va_list ap2;
	char *buf;
	int n;

	va_copy(ap2, ap);
	n = ltt_memory_vformat_(NULL, 0, flag, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		*out = NULL;
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf && ltt_memory_reserve_) {
		/* the reserve lets GLib say its error, and the handler run */
		free(ltt_memory_reserve_);
		ltt_memory_reserve_ = NULL;
		buf = malloc((size_t)n + 1);
	}
	if (!buf) {
		ltt_memory_say_(ltt_memory_tool_name_);
		ltt_memory_say_(": out of memory (no room left to format a message)\n");
		ltt_memory_exit_();
	}
	ltt_memory_vformat_(buf, (size_t)n + 1, flag, fmt, ap);
	*out = buf;
	return n;
}

int vasprintf(char **restrict out, const char *restrict fmt, va_list ap)
{
	return ltt_memory_vasprintf_(out, -1, fmt, ap);
}

#ifdef __GLIBC__
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap);
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap)
{
	return ltt_memory_vasprintf_(out, flag, fmt, ap);
}
#endif

/* Called first in main(): GLib's fatal errors, out of memory first of
 * all, end the tool with a line on stderr and exit status 1. */
static inline void ltt_exit_on_out_of_memory(const char *tool)
{
	ltt_memory_tool_name_ = tool;
	ltt_memory_reserve_ = malloc(LTT_MEMORY_RESERVE);
	g_log_set_default_handler(ltt_memory_handler_, NULL);
	/* GLib allocates the per-thread state of its logging (and of any
	 * GPrivate) on first use, and aborts if it cannot: first used on the
	 * out-of-memory error itself, it aborted instead of reaching the
	 * handler. Used once now, while there is memory. */
	g_log("ltt", G_LOG_LEVEL_DEBUG, "%s", "");
	/* The same for the key of GLib's per-thread GThread: first made by a
	 * new thread, GLib aborted ("Unexpected error from C library during
	 * 'malloc'", lttv-gtk under `ulimit -v 60000`). */
	(void)g_thread_self();
	/* glibc gives a new thread an arena of its own, 64 MiB of address
	 * space reserved at once: under a limit that reservation fails, the
	 * thread's every malloc with it, and GLib formats the "failed to
	 * allocate" error with malloc before any handler sees it, recursing
	 * until the stack overflows (lttv-gtk's index coder thread: a
	 * segfault at 60-80 MB, t59-hostile-memory). One arena: threads
	 * allocate from the heap that the main thread's messages can use. */
	mallopt(M_ARENA_MAX, 1);
	(void)ltt_text_safe("\x01");
}

#endif
