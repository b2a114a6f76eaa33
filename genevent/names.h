/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.h - what genevent checks in a facility file before it generates a
 * line of C from it (names.c).
 */
#ifndef GENEVENT_NAMES_H
#define GENEVENT_NAMES_H

#include <glib.h>

/* Reads FILE: a regular file of at most LTT_DESCRIPTION_MAX_BYTES, whole,
 * NUL-terminated. Errors name FILE. */
gboolean genevent_read_bounded(const char *file, char **text, gsize *len,
			       GError **error);

/*
 * Checks every name="..." of the facility text (from FILE): a C
 * identifier, not a C keyword, and unique where C needs it (events of a
 * facility, also once upper-cased for their constants; fields of an
 * event or struct; labels of an enum). Errors say "FILE:LINE: ...".
 */
gboolean genevent_check_names(const char *file, const char *text, gsize len,
			      GError **error);

/* s made safe inside a C block comment: a star and a slash never
 * touch, printable ASCII and newlines only. g_free() it. */
char *genevent_comment_text(const char *s);

#endif
