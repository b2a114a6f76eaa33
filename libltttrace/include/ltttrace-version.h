/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltttrace-version.h - the version of the Linux Trace Toolkit, the one
 * home of that number: the library, its pkg-config file, the shared
 * library's file name and every tool's --version are made from it.
 *
 * Included by ltttrace.h; GLib-free and declaration-free, so that lttd and
 * lttctl (static, without the library) include it alone.
 *
 * The macros say which version a program was compiled against;
 * ltt_version_number() and ltt_version_string() (ltttrace.h) which
 * library it runs with.
 */
#ifndef LTTTRACE_VERSION_H
#define LTTTRACE_VERSION_H

#define LTTTRACE_VERSION_MAJOR 0
#define LTTTRACE_VERSION_MINOR 7
#define LTTTRACE_VERSION_PATCH 0

#define LTTTRACE_VERSION_STR_(x) #x
#define LTTTRACE_VERSION_STR(x) LTTTRACE_VERSION_STR_(x)
/* "0.7.0" */
#define LTTTRACE_VERSION_STRING						\
	LTTTRACE_VERSION_STR(LTTTRACE_VERSION_MAJOR) "."		\
	LTTTRACE_VERSION_STR(LTTTRACE_VERSION_MINOR) "."		\
	LTTTRACE_VERSION_STR(LTTTRACE_VERSION_PATCH)
/* one number that grows with each version: 0x000700 for 0.7.0 */
#define LTTTRACE_VERSION_NUMBER						\
	((LTTTRACE_VERSION_MAJOR << 16) | (LTTTRACE_VERSION_MINOR << 8) | \
	 LTTTRACE_VERSION_PATCH)

#endif /* LTTTRACE_VERSION_H */
