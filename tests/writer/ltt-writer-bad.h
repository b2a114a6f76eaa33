/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ltt-writer-bad.h - spoil a valid trace for the readers' error tests.
 *
 * Start from a trace the writer made with at least cpu_0 (two sub-buffers
 * or more) and cpu_1, then lttw_bad_apply(dir, "bad-magic").  Each kind
 * says what docs/format.md asks of a reader:
 *   "fail"  refuse the trace: an error, no event;
 *   "raw"   read it, but some events cannot be decoded (no description):
 *           they are listed raw and the problem is reported;
 *   "ok"    a valid trace (the defect is only apparent).
 */
#ifndef LTT_WRITER_BAD_H
#define LTT_WRITER_BAD_H

typedef struct lttw_bad_kind {
	const char *name;
	const char *expect;	/* "fail", "raw" or "ok" */
	const char *what;	/* one line */
} lttw_bad_kind;

/* All kinds, ended by an entry whose name is NULL. */
const lttw_bad_kind *lttw_bad_kinds(void);

/* Spoil the trace in dir. 0, or -1 with lttw_bad_error() saying why. */
int lttw_bad_apply(const char *dir, const char *kind);
const char *lttw_bad_error(void);

#endif /* LTT_WRITER_BAD_H */
