/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * names.c - the names of a facility file, checked before genevent turns
 * them into C.
 *
 * Every name="..." becomes part of an identifier, a constant or a file
 * name in the generated code; a name that is not a C identifier could
 * end a comment, open a function or write outside the output folder. The
 * era's genevent read names as [A-Za-z0-9_-] tokens and emitted them as
 * they were; we take the C rule, which every bundled facility follows,
 * and refuse the rest with the file and line, before generating anything.
 * The file is read once, here, and the same bytes are then parsed by the
 * library: what was checked is what is generated from.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltttrace.h"
#include "names.h"

static const char *const c_keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
	"_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
	"_Static_assert", "_Thread_local", "asm", "typeof",
};

/* Longer names are certainly not a facility's; they would only make the
 * generated identifiers unreadable. */
#define NAME_MAX_LEN 128

static const char *identifier_problem(const char *s)
{
	size_t n = strlen(s);

	if (n == 0)
		return "is empty";
	if (n > NAME_MAX_LEN)
		return "is longer than 128 characters";
	if (!g_ascii_isalpha(s[0]) && s[0] != '_')
		return "is not a C identifier (it must start with a letter or _)";
	for (size_t i = 1; i < n; i++)
		if (!g_ascii_isalnum(s[i]) && s[i] != '_')
			return "is not a C identifier (letters, digits and _ only)";
	for (size_t i = 0; i < G_N_ELEMENTS(c_keywords); i++)
		if (strcmp(s, c_keywords[i]) == 0)
			return "is a C keyword";
	return NULL;
}

typedef struct checker {
	const char *file;
	const char *text;
	gsize len;
	GHashTable *events;	/* upper-cased event names */
	GPtrArray *scopes;	/* GHashTable* of member names, one per open
				 * event, struct, union or enum; NULL for
				 * other elements, so that ends pop in step */
} checker;

/*
 * The line where the element being parsed starts. GMarkup gives the
 * position it has read up to: at or past the '>' that ends the tag,
 * maybe on a later line. The tag starts at the last '<' before that '>'
 * (attribute values cannot hold a '<').
 */
static int element_line(GMarkupParseContext *ctx, const checker *c)
{
	int line, col, l = 1;
	const char *p = c->text, *end = c->text + c->len;

	g_markup_parse_context_get_position(ctx, &line, &col);
	for (; p < end && l < line; p++)
		if (*p == '\n')
			l++;
	for (; p < end && col > 0 && *p != '\n'; col--)
		p = g_utf8_next_char(p);
	if (p >= end)
		p = end - 1;
	while (p > c->text && *p != '>')
		p--;
	while (p > c->text && *p != '<')
		p--;
	l = 1;
	for (const char *q = c->text; q < p; q++)
		l += *q == '\n';
	return l;
}

static void fail_at(GMarkupParseContext *ctx, checker *c, GError **error,
		    const char *element, const char *name, const char *what)
{
	int line = element_line(ctx, c);
	char *shown = g_strescape(name, NULL);

	g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
		    "%s:%d: <%s> name \"%.*s%s\" %s", c->file, line, element,
		    NAME_MAX_LEN, shown, strlen(shown) > NAME_MAX_LEN ? "..." : "",
		    what);
	g_free(shown);
}

static GHashTable *scope(checker *c)
{
	return c->scopes->len ? c->scopes->pdata[c->scopes->len - 1] : NULL;
}

static void on_start(GMarkupParseContext *ctx, const char *element,
		     const char **names, const char **values, gpointer data,
		     GError **error)
{
	checker *c = data;
	GHashTable *opens = NULL;

	for (unsigned i = 0; names[i]; i++) {
		const char *problem;

		if (strcmp(names[i], "name") != 0)
			continue;
		problem = identifier_problem(values[i]);
		if (problem) {
			fail_at(ctx, c, error, element, values[i], problem);
			return;
		}
		if (strcmp(element, "event") == 0) {
			char *up = g_ascii_strup(values[i], -1);

			if (g_hash_table_contains(c->events, up)) {
				g_free(up);
				fail_at(ctx, c, error, element, values[i],
					"is the name of another event (its LTT_EVENT_ "
					"constant would be defined twice)");
				return;
			}
			g_hash_table_add(c->events, up);
		} else if ((strcmp(element, "field") == 0 ||
			    strcmp(element, "label") == 0) && scope(c)) {
			if (g_hash_table_contains(scope(c), values[i])) {
				fail_at(ctx, c, error, element, values[i],
					"is used twice in the same event, struct, "
					"union or enum");
				return;
			}
			g_hash_table_add(scope(c), g_strdup(values[i]));
		}
	}
	if (strcmp(element, "event") == 0 || strcmp(element, "struct") == 0 ||
	    strcmp(element, "union") == 0 || strcmp(element, "enum") == 0)
		opens = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_ptr_array_add(c->scopes, opens);
}

static void on_end(GMarkupParseContext *ctx, const char *element,
		   gpointer data, GError **error)
{
	checker *c = data;
	GHashTable *h;

	if (!c->scopes->len)
		return;
	h = g_ptr_array_steal_index(c->scopes, c->scopes->len - 1);
	if (h)
		g_hash_table_destroy(h);
}

static void destroy_scope(gpointer p)
{
	if (p)
		g_hash_table_destroy(p);
}

gboolean genevent_check_names(const char *file, const char *text, gsize len,
			      GError **error)
{
	static const GMarkupParser callbacks = {
		.start_element = on_start,
		.end_element = on_end,
	};
	checker c = {
		.file = file, .text = text, .len = len,
		.events = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
		.scopes = g_ptr_array_new_with_free_func(destroy_scope),
	};
	GMarkupParseContext *ctx = g_markup_parse_context_new(&callbacks, 0, &c, NULL);
	gboolean ok = g_markup_parse_context_parse(ctx, text, (gssize)len, error) &&
		      g_markup_parse_context_end_parse(ctx, error);

	g_markup_parse_context_free(ctx);
	g_hash_table_destroy(c.events);
	g_ptr_array_free(c.scopes, TRUE);
	/* malformed XML: the library's parse says it with more context */
	if (!ok && (*error)->code != G_MARKUP_ERROR_INVALID_CONTENT) {
		g_clear_error(error);
		return TRUE;
	}
	return ok;
}

gboolean genevent_read_bounded(const char *file, char **text, gsize *len,
			       GError **error)
{
	/* O_NONBLOCK: a FIFO must not block the open */
	int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t size, got = 0;
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot read %s: %s", file, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > LTT_DESCRIPTION_MAX_BYTES) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    S_ISREG(st.st_mode) ? "%s: larger than %d bytes: not a "
			    "facility description" : "%s: not a regular file",
			    file, LTT_DESCRIPTION_MAX_BYTES);
		close(fd);
		return FALSE;
	}
	size = (size_t)st.st_size;
	buf = g_malloc(size + 1);
	while (got <= size) {	/* one byte more: a file that grew is refused */
		ssize_t r = read(fd, buf + got, size + 1 - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
				    "cannot read %s: %s", file, g_strerror(errno));
			break;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got > size && !*error)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: changed while it was read", file);
	if (*error) {
		g_free(buf);
		return FALSE;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return TRUE;
}

char *genevent_comment_text(const char *s)
{
	GString *out = g_string_new(NULL);

	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		/* a star and a slash never touch: no end, no nested start */
		if ((ch == '*' && s[1] == '/') || (ch == '/' && s[1] == '*')) {
			g_string_append_c(out, (char)ch);
			g_string_append_c(out, ' ');
		} else if (ch == '\n' || (ch >= 0x20 && ch < 0x7f))
			g_string_append_c(out, (char)ch);
		else
			g_string_append_c(out, '?');
	}
	return g_string_free(out, FALSE);
}
