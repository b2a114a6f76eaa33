/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_genevent.c - libFuzzer harness for genevent (genevent.c and
 * names.c): the input is a facility file, generated for the kernel and
 * for --user, in memory. Whatever the input, the generated C must not let
 * it out of its comments and strings (issue 16: code injection): every
 * comment and literal closes, no comment ends outside one, the code holds
 * printable ASCII only, and every file name is a plain name. Seeds: the
 * facility files of the tree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "genevent.h"

/* The lexical check of one generated file. */
static void check_c(const char *text, size_t len)
{
	enum { CODE, BLOCK, LINE, STR, CHR } s = CODE;
	int prev = 0;

	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)text[i];

		if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e))
			abort();	/* nothing but ASCII text, anywhere */
		switch (s) {
		case CODE:
			if (prev == '/' && c == '*') {
				s = BLOCK;
				c = 0;	/* its star cannot also close it */
			} else if (prev == '*' && c == '/') {
				abort();	/* a comment end in code */
			} else if (prev == '/' && c == '/') {
				s = LINE;
			} else if (c == '"') {
				s = STR;
			} else if (c == '\'') {
				s = CHR;
			}
			break;
		case BLOCK:
			if (prev == '*' && c == '/') {
				s = CODE;
				c = 0;
			}
			break;
		case LINE:
			if (c == '\n')
				s = CODE;
			break;
		case STR:
		case CHR:
			if (c == '\n')
				abort();	/* a literal left open */
			if (prev == '\\')
				c = 0;
			else if (c == (s == STR ? '"' : '\''))
				s = CODE;
			break;
		}
		prev = c;
	}
	if (s != CODE && s != LINE)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);

	for (int user = 0; user <= 1; user++) {
		GPtrArray *files = g_ptr_array_new_with_free_func(genevent_file_free);
		GError *error = NULL;

		if (!genevent_generate("fuzz.xml", text, size, user, files, &error) &&
		    (!error || !error->message[0]))
			abort();	/* refused without a reason */
		for (guint i = 0; i < files->len; i++) {
			const gen_file *f = files->pdata[i];

			if (strchr(f->name, '/') || f->name[0] == '.')
				abort();	/* a file outside the output folder */
			check_c(f->text->str, f->text->len);
		}
		g_clear_error(&error);
		g_ptr_array_free(files, TRUE);
	}
	g_free(text);
	return 0;
}
