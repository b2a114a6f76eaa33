/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * genevent.h - genevent's generation, apart from its files: what the
 * fuzz harness (tests/fuzz/fuzz_genevent.c) calls.
 */
#ifndef GENEVENT_H
#define GENEVENT_H

#include <glib.h>

/* One generated file: its name in the output folder, and its text. */
typedef struct gen_file {
	char *name;
	GString *text;
} gen_file;

void genevent_file_free(gpointer file);

/*
 * The files of the facility text (named xml in messages), kernel or user
 * (--user), added to files (of gen_file*, freed by genevent_file_free).
 * Names are checked first (names.h): nothing is generated from a name
 * that is not a C identifier.
 */
gboolean genevent_generate(const char *xml, const char *text, gsize len,
			   gboolean user, GPtrArray *files, GError **error);

#endif
