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
 * So each tool catches GLib's fatal errors here: the handler allocates
 * nothing (write(2), then _exit(1)), since memory is what is missing;
 * GLib's own handler would format, log, then trap. Other messages go to
 * GLib's default handler as before.
 *
 * Static inline, for the tools that use GLib (not lttd, lttctl). Not
 * installed.
 */
#ifndef LTT_TOOL_MEMORY_H
#define LTT_TOOL_MEMORY_H

#include <glib.h>

#include "ltttrace.h"
#include <malloc.h>
#include <string.h>
#include <unistd.h>

static const char *ltt_memory_tool_name_ = "ltt";

static void ltt_memory_say_(const char *s)
{
	if (s && write(2, s, strlen(s)) < 0)
		return;	/* nowhere to say it: the exit status still does */
}

static void ltt_memory_handler_(const gchar *domain, GLogLevelFlags level,
				const gchar *message, gpointer unused)
{
	(void)unused;
	if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL))) {
		g_log_default_handler(domain, level, message, NULL);
		return;
	}
	ltt_memory_say_(ltt_memory_tool_name_);
	if (message && strstr(message, "alloc"))
		ltt_memory_say_(": out of memory: ");
	else
		ltt_memory_say_(": fatal error: ");
	ltt_memory_say_(message ? message : "(no message)");
	ltt_memory_say_("\n");
	_exit(1);
}

/* Called first in main(): GLib's fatal errors, out of memory first of
 * all, end the tool with a line on stderr and exit status 1. */
static inline void ltt_exit_on_out_of_memory(const char *tool)
{
	ltt_memory_tool_name_ = tool;
	g_log_set_default_handler(ltt_memory_handler_, NULL);
	/* GLib allocates the per-thread state of its logging (and of any
	 * GPrivate) on first use, and aborts if it cannot: first used on the
	 * out-of-memory error itself, it aborted instead of reaching the
	 * handler. Used once now, while there is memory. */
	g_log("ltt", G_LOG_LEVEL_DEBUG, "%s", "");
	(void)ltt_text_safe("\x01");
#ifdef M_ARENA_MAX
	/* GLib (2.74) formats the "failed to allocate" message with malloc
	 * before any handler runs, and recurses until the stack overflows
	 * when that fails too. A thread's own malloc arena (64 MB of address
	 * space reserved each) had nothing left for it where the main
	 * arena, with its freed chunks, has: lttv-gtk --stats under
	 * `ulimit -v 70000` died of SIGSEGV in the index's coder thread.
	 * One arena for every thread. */
	mallopt(M_ARENA_MAX, 1);
#endif
}

#endif
