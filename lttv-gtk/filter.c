/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * filter.c - the event filter language (in the spirit of LTTV's):
 *
 *   expr    := and ( "or" and )*
 *   and     := unary ( "and" unary )*
 *   unary   := "not" unary | "(" expr ")" | compare
 *   compare := NAME op value          op: = != < > <= >=
 *   NAME    := event.name | event.facility | cpu | event.cpu | event.time
 *            | state.pid | state.tgid | state.ppid | state.process_name
 *            | state.mode | field.F | F       (F: a field of the event)
 *            | syscall | trap | irq | softirq  (syscall_id, trap_id, ...)
 *   value   := number | "quoted string" | word
 *
 * Strings compare as strings (a word may end with * to match a prefix).
 * An integer (decimal, or 0x hex) compares exactly with an integer field,
 * all 64 bits (never through a double); a number with a point compares
 * as a double. An enum field compares with its label or its value; a
 * system call, trap or IRQ number with its name (`syscall = openat`,
 * names from the library) or its value. event.time is in seconds from the
 * trace start. A comparison on a field the event does not have is false,
 * but a field that no event of the trace has is an error (a typo must not
 * silently match nothing). Nesting is bounded (MAX_DEPTH), and so is the
 * number of comparisons (MAX_TERMS): the parser and evaluator recurse.
 * Errors give the column (1-based).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lttv-filter.h"

#define MAX_DEPTH 64		/* nested parentheses and nots */
#define MAX_TERMS 1000		/* comparisons in one expression */

enum { N_OR, N_AND, N_NOT, N_CMP };
enum { OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE };
enum { K_NAME, K_FACILITY, K_CPU, K_TIME, K_PID, K_TGID, K_PPID, K_PNAME, K_MODE,
       K_FIELD };

typedef struct node {
	int type;
	struct node *a, *b;
	int key, op;
	char *field;			/* K_FIELD */
	char *str;			/* value as written */
	double num;
	int is_num;
	int is_int;			/* an integer literal: exact in ival */
	__int128 ival;
} node;

struct lttv_filter {
	node *root;
	int64_t origin;
};

typedef struct parser {
	const char *s;
	size_t pos;
	char *error;
	unsigned depth, terms;
	GHashTable *fields;		/* field names of the traces; NULL: any */
} parser;

static void node_free(node *n)
{
	if (!n)
		return;
	node_free(n->a);
	node_free(n->b);
	g_free(n->field);
	g_free(n->str);
	g_free(n);
}

void lttv_filter_free(lttv_filter *f)
{
	if (!f)
		return;
	node_free(f->root);
	g_free(f);
}

static void fail(parser *p, size_t col, const char *what)
{
	if (!p->error)
		p->error = g_strdup_printf("column %zu: %s", col + 1, what);
}

static void skip_ws(parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '/' || c == '-' ||
	       c == '*' || c == '[' || c == ']' || c == ':';
}

/* A word at pos (not consumed), its length. */
static size_t peek_word(parser *p)
{
	size_t n = 0;

	while (word_char(p->s[p->pos + n]))
		n++;
	return n;
}

static int keyword(parser *p, const char *kw)
{
	size_t n;

	skip_ws(p);
	n = peek_word(p);
	if (n == strlen(kw) && !g_ascii_strncasecmp(p->s + p->pos, kw, n)) {
		p->pos += n;
		return 1;
	}
	return 0;
}

static node *parse_or(parser *p);

/* The value as a number: an integer (decimal or 0x hex, optionally
 * negative; exact up to 64 bits, signed or unsigned) or a double. */
static void parse_number(node *n)
{
	const char *t = n->str + (n->str[0] == '-');
	char *end;
	int hex = t[0] == '0' && (t[1] == 'x' || t[1] == 'X');

	if (g_ascii_isdigit(t[0]) && t[strspn(t + hex * 2, hex ? "0123456789abcdefABCDEF"
						: "0123456789") + hex * 2] == 0 &&
	    t[hex * 2]) {
		uint64_t u;

		errno = 0;
		u = g_ascii_strtoull(t, &end, hex ? 16 : 10);
		if (errno == 0 && *end == 0) {
			n->is_int = n->is_num = 1;
			n->ival = n->str[0] == '-' ? -(__int128)u : (__int128)u;
			n->num = (double)n->ival;
			return;
		}
	}
	n->num = g_ascii_strtod(n->str, &end);
	n->is_num = *end == 0 && end != n->str;
}

static node *parse_cmp(parser *p)
{
	static const struct { const char *name; int key; } keys[] = {
		{ "event.name", K_NAME }, { "event.facility", K_FACILITY },
		{ "cpu", K_CPU }, { "event.cpu", K_CPU }, { "event.time", K_TIME },
		{ "state.pid", K_PID }, { "state.tgid", K_TGID }, { "state.ppid", K_PPID },
		{ "state.process_name", K_PNAME }, { "state.name", K_PNAME },
		{ "state.mode", K_MODE },
	};
	node *n;
	size_t len, start;
	char *name;

	skip_ws(p);
	start = p->pos;
	if (++p->terms > MAX_TERMS) {
		fail(p, start, "too many comparisons (at most " G_STRINGIFY(MAX_TERMS) ")");
		return NULL;
	}
	n = g_new0(node, 1);
	len = peek_word(p);
	if (!len || g_ascii_isdigit(p->s[start])) {
		fail(p, start, *p->s ? "expected a name (event.name, state.pid, cpu, a field...)"
				     : "empty expression");
		g_free(n);
		return NULL;
	}
	name = g_strndup(p->s + start, len);
	p->pos += len;
	n->type = N_CMP;
	n->key = K_FIELD;
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
		if (!strcmp(name, keys[i].name))
			n->key = keys[i].key;
	if (n->key == K_FIELD) {
		if (g_str_has_prefix(name, "event.") || g_str_has_prefix(name, "state.")) {
			if (!g_str_has_prefix(name, "event.field.")) {
				fail(p, start, "unknown name (event.name, event.facility, "
				     "event.time, cpu, state.pid, state.tgid, state.ppid, "
				     "state.process_name, state.mode, field.NAME)");
				g_free(name);
				node_free(n);
				return NULL;
			}
			n->field = g_strdup(name + strlen("event.field."));
		} else if (g_str_has_prefix(name, "field.")) {
			n->field = g_strdup(name + strlen("field."));
		} else {
			static const char *const alias[][2] = {
				{ "syscall", "syscall_id" }, { "trap", "trap_id" },
				{ "irq", "irq_id" }, { "softirq", "softirq_id" },
			};

			n->field = g_strdup(name);
			for (size_t i = 0; i < G_N_ELEMENTS(alias); i++)
				if (!strcmp(name, alias[i][0]) &&
				    (!p->fields || !g_hash_table_contains(p->fields, name))) {
					g_free(n->field);
					n->field = g_strdup(alias[i][1]);
				}
		}
		if (p->fields && !g_hash_table_contains(p->fields, n->field)) {
			char *what = g_strdup_printf("unknown field \"%s\": no event of the "
						     "trace has it (names: event.name, "
						     "state.pid, cpu, ... or a field)", name);

			fail(p, start, what);
			g_free(what);
			g_free(name);
			node_free(n);
			return NULL;
		}
	}
	g_free(name);
	skip_ws(p);
	start = p->pos;
	if (!strncmp(p->s + p->pos, "!=", 2)) { n->op = OP_NE; p->pos += 2; }
	else if (!strncmp(p->s + p->pos, "<=", 2)) { n->op = OP_LE; p->pos += 2; }
	else if (!strncmp(p->s + p->pos, ">=", 2)) { n->op = OP_GE; p->pos += 2; }
	else if (!strncmp(p->s + p->pos, "==", 2)) { n->op = OP_EQ; p->pos += 2; }
	else if (p->s[p->pos] == '=') { n->op = OP_EQ; p->pos++; }
	else if (p->s[p->pos] == '<') { n->op = OP_LT; p->pos++; }
	else if (p->s[p->pos] == '>') { n->op = OP_GT; p->pos++; }
	else {
		fail(p, start, "expected an operator (= != < > <= >=)");
		node_free(n);
		return NULL;
	}
	skip_ws(p);
	start = p->pos;
	if (p->s[p->pos] == '"') {
		const char *q = strchr(p->s + p->pos + 1, '"');

		if (!q) {
			fail(p, start, "string not closed (missing \")");
			node_free(n);
			return NULL;
		}
		n->str = g_strndup(p->s + p->pos + 1, (size_t)(q - p->s) - p->pos - 1);
		p->pos = (size_t)(q - p->s) + 1;
	} else {
		len = peek_word(p);
		if (!len) {
			fail(p, start, "expected a value (a number, a word or \"a string\")");
			node_free(n);
			return NULL;
		}
		n->str = g_strndup(p->s + start, len);
		p->pos += len;
		parse_number(n);
	}
	if (n->key == K_CPU || n->key == K_PID || n->key == K_TGID || n->key == K_PPID ||
	    n->key == K_TIME) {
		if (!n->is_num) {
			fail(p, start, "expected a number");
			node_free(n);
			return NULL;
		}
	}
	return n;
}

static node *parse_unary(parser *p)
{
	node *n;

	skip_ws(p);
	if (p->depth >= MAX_DEPTH) {
		fail(p, p->pos, "nested too deep (at most " G_STRINGIFY(MAX_DEPTH)
		     " parentheses and nots)");
		return NULL;
	}
	if (keyword(p, "not")) {
		n = g_new0(node, 1);
		n->type = N_NOT;
		p->depth++;
		n->a = parse_unary(p);
		p->depth--;
		if (!n->a) {
			node_free(n);
			return NULL;
		}
		return n;
	}
	if (p->s[p->pos] == '(') {
		size_t open = p->pos;

		p->pos++;
		p->depth++;
		n = parse_or(p);
		p->depth--;
		if (!n)
			return NULL;
		skip_ws(p);
		if (p->s[p->pos] != ')') {
			fail(p, p->s[p->pos] ? p->pos : open,
			     p->s[p->pos] ? "expected )" : "( not closed");
			node_free(n);
			return NULL;
		}
		p->pos++;
		return n;
	}
	return parse_cmp(p);
}

static node *parse_and(parser *p)
{
	node *l = parse_unary(p);

	while (l && keyword(p, "and")) {
		node *n = g_new0(node, 1);

		n->type = N_AND;
		n->a = l;
		n->b = parse_unary(p);
		if (!n->b) {
			node_free(n);
			return NULL;
		}
		l = n;
	}
	return l;
}

static node *parse_or(parser *p)
{
	node *l = parse_and(p);

	while (l && keyword(p, "or")) {
		node *n = g_new0(node, 1);

		n->type = N_OR;
		n->a = l;
		n->b = parse_and(p);
		if (!n->b) {
			node_free(n);
			return NULL;
		}
		l = n;
	}
	return l;
}

/* Every top-level field name of every event the traces describe. */
static GHashTable *field_names(ltt_trace *const *traces, size_t n)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (size_t t = 0; t < n; t++)
		for (unsigned id = 0; id < 256; id++) {
			const ltt_facility *fac = ltt_trace_facility(traces[t], id);
			const ltt_description *d = fac ? ltt_facility_description(fac) : NULL;

			for (unsigned e = 0; d && e < ltt_description_num_events(d); e++)
				for (unsigned i = 0; i < ltt_description_num_fields(d, e); i++)
					g_hash_table_add(h, g_strdup(ltt_description_field_name(d, e, i)));
		}
	return h;
}

lttv_filter *lttv_filter_parse(const char *text, int64_t origin_ns,
			       ltt_trace *const *traces, size_t ntraces, char **error)
{
	parser p = { text, 0, NULL, 0, 0, traces && ntraces ? field_names(traces, ntraces) : NULL };
	node *root = parse_or(&p);
	lttv_filter *f;

	if (root) {
		skip_ws(&p);
		if (p.s[p.pos]) {
			fail(&p, p.pos, "expected and, or or the end");
			node_free(root);
			root = NULL;
		}
	}
	if (p.fields)
		g_hash_table_destroy(p.fields);
	if (!root) {
		if (error)
			*error = p.error ? p.error : g_strdup("column 1: syntax error");
		else
			g_free(p.error);
		return NULL;
	}
	g_free(p.error);
	f = g_new0(lttv_filter, 1);
	f->root = root;
	f->origin = origin_ns;
	return f;
}

static int cmp_num(int op, double a, double b)
{
	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_GT: return a > b;
	case OP_LE: return a <= b;
	default: return a >= b;
	}
}

/* x op the node's value: exact for integer literals */
static int cmp_int(int op, __int128 x, const node *n)
{
	if (!n->is_int)
		return cmp_num(op, (double)x, n->num);
	switch (op) {
	case OP_EQ: return x == n->ival;
	case OP_NE: return x != n->ival;
	case OP_LT: return x < n->ival;
	case OP_GT: return x > n->ival;
	case OP_LE: return x <= n->ival;
	default: return x >= n->ival;
	}
}

static int cmp_str(int op, const char *a, const char *pattern)
{
	size_t n = strlen(pattern);
	int c;

	if (n && pattern[n - 1] == '*' && (op == OP_EQ || op == OP_NE)) {
		int m = !strncmp(a, pattern, n - 1);

		return op == OP_EQ ? m : !m;
	}
	c = strcmp(a, pattern);
	switch (op) {
	case OP_EQ: return c == 0;
	case OP_NE: return c != 0;
	case OP_LT: return c < 0;
	case OP_GT: return c > 0;
	case OP_LE: return c <= 0;
	default: return c >= 0;
	}
}

static int eval(const lttv_filter *f, const node *n, const ltt_event *ev,
		const ltt_state *st)
{
	ltt_state_process_info pi;
	int have_proc = 0;

	switch (n->type) {
	case N_OR: return eval(f, n->a, ev, st) || eval(f, n->b, ev, st);
	case N_AND: return eval(f, n->a, ev, st) && eval(f, n->b, ev, st);
	case N_NOT: return !eval(f, n->a, ev, st);
	default: break;
	}
	if (n->key >= K_PID && n->key <= K_MODE) {
		int i = st ? ltt_state_cpu_process(st, ltt_event_cpu(ev)) : -1;

		have_proc = i >= 0 && ltt_state_process(st, (unsigned)i, &pi) == 0;
		if (!have_proc)
			return 0;
	}
	switch (n->key) {
	case K_NAME: return cmp_str(n->op, ltt_event_name(ev), n->str);
	case K_FACILITY: return cmp_str(n->op, ltt_event_facility_name(ev), n->str);
	case K_CPU: return cmp_int(n->op, ltt_event_cpu(ev), n);
	case K_TIME: return cmp_num(n->op, (double)(ltt_event_time_ns(ev) - f->origin) / 1e9,
				    n->num);
	case K_PID: return cmp_int(n->op, pi.pid, n);
	case K_TGID: return cmp_int(n->op, pi.tgid, n);
	case K_PPID: return cmp_int(n->op, pi.ppid, n);
	case K_PNAME: return cmp_str(n->op, pi.name, n->str);
	case K_MODE: return cmp_str(n->op, ltt_state_mode_name(pi.mode), n->str);
	default: {
		int idx = ltt_event_field_index(ev, n->field);
		ltt_value v;

		if (idx < 0 || ltt_event_field(ev, idx, &v) < 0)
			return 0;
		switch (v.kind) {
		case LTT_KIND_STRING:
			return cmp_str(n->op, v.str ? v.str : "", n->str);
		case LTT_KIND_ARRAY:
		case LTT_KIND_SEQUENCE: {
			/* text (<uchar/> elements, fs.exec's filename): as a
			 * string, up to a NUL if it holds one */
			char *text;
			int r;

			if (!v.str)
				return 0;
			text = g_strndup(v.str, (gsize)v.u);
			r = cmp_str(n->op, text, n->str);
			g_free(text);
			return r;
		}
		case LTT_KIND_ENUM:
		case LTT_KIND_UINT:	/* a named number: by name or value */
			if (!n->is_num)
				return v.label && cmp_str(n->op, v.label, n->str);
			return cmp_int(n->op, v.u, n);
		case LTT_KIND_POINTER: return n->is_num && cmp_int(n->op, v.u, n);
		case LTT_KIND_INT: return n->is_num && cmp_int(n->op, v.i, n);
		case LTT_KIND_FLOAT: return n->is_num && cmp_num(n->op, v.f, n->num);
		default: return 0;
		}
	}
	}
}

int lttv_filter_match(const lttv_filter *f, const ltt_event *ev, const ltt_state *st)
{
	return !f || eval(f, f->root, ev, st);
}
