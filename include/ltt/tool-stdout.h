/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * tool-stdout.h - a tool's standard output checked when it exits, however
 * it exits: --help and --version print and exit through popt or GOption
 * (exit(0) inside them), and reported success for text that went nowhere
 * (issue 31: exit 0 on /dev/full). Each tool's main() calls
 * ltt_check_stdout_at_exit("NAME") first; a write error left on stdout at
 * exit is said and turns the status into 1.
 *
 * Static inline only, C99, no GLib: for every tool (lttd, lttctl and
 * genevent too). Not installed.
 */
#ifndef LTT_TOOL_STDOUT_H
#define LTT_TOOL_STDOUT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ltt_stdout_tool_name_;
static int ltt_stdout_said_;

static void ltt_stdout_check_(void)
{
	int failed = fflush(stdout) != 0, e = errno;

	if (ltt_stdout_said_)	/* and its exit status says so */
		return;
	if (failed || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output: %s\n",
			ltt_stdout_tool_name_, failed ? strerror(e) : "an earlier write failed");
		_exit(1);
	}
}

/* The tool said the write error itself, its exit status too: nothing
 * more at exit. */
static inline void ltt_stdout_error_said(void)
{
	ltt_stdout_said_ = 1;
}

static inline void ltt_check_stdout_at_exit(const char *tool)
{
	ltt_stdout_tool_name_ = tool;
	atexit(ltt_stdout_check_);
}

#endif
