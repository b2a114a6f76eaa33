/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * genevent - generate the kernel's tracing functions from facility XML.
 *
 *   genevent -o DIR facilities/process.xml ...
 *
 * For each facility NAME it writes:
 *
 *   DIR/ltt-facility-NAME.h         one static inline trace_NAME_EVENT() per
 *                                   event, its event ids and checksum
 *   DIR/ltt-facility-loader-NAME.c  the facility's registration
 *
 *   genevent --user -o DIR facilities/NAME.xml ...
 *
 * writes instead, for a program that traces itself through the
 * ltt_trace_generic system call (libltt-usertrace):
 *
 *   DIR/ltt-user-facility-NAME.h    its event ids and checksum, the facility
 *                                   (registered on first use) and one static
 *                                   inline int trace_NAME_EVENT() per event
 *
 * The generated code lays out the payload with the kernel's ltt_payload_*
 * helpers (<linux/ltt-core.h>), in the field order and with the alignment
 * rules of docs/format.md, and writes it with ltt_log_event() into the
 * channel named by the XML's channel="..." attribute (cpu by default).
 * When no trace is active an event costs one test of a flag.
 *
 * The XML is parsed, and the checksum computed, by libltttrace: the
 * catalogue and its checksum have one home each. Types the kernel does not
 * use (float, struct, union, compound elements) are refused with a clear
 * message rather than half supported.
 */
#include <errno.h>
#include <glib.h>
#include <popt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "genevent.h"
#include "ltttrace.h"
#include "names.h"
#include "ltt/tool-stdout.h"

/* Strings and sequences are truncated to this many bytes or elements, so
 * that a payload always fits the stack buffer of its function. */
#define VAR_LIMIT 256

/* --user: C types of user space (<stdint.h>) instead of the kernel's */
static gboolean gen_user;

static char *upper(const char *s)
{
	return g_ascii_strup(s, -1);
}

static const char *channel_enum(const char *channel, GError **error)
{
	static const struct {
		const char *name, *value;
	} map[] = {
		{ "facilities", "LTT_CHANNEL_FACILITIES" },
		{ "interrupts", "LTT_CHANNEL_INTERRUPTS" },
		{ "processes", "LTT_CHANNEL_PROCESSES" },
		{ "modules", "LTT_CHANNEL_MODULES" },
		{ "network", "LTT_CHANNEL_NETWORK" },
		{ "cpu", "LTT_CHANNEL_CPU" },
	};

	if (!channel)
		return "LTT_CHANNEL_CPU";
	for (size_t i = 0; i < G_N_ELEMENTS(map); i++)
		if (strcmp(map[i].name, channel) == 0)
			return map[i].value;
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "unknown channel \"%s\" (facilities, interrupts, processes, "
		    "modules, network or cpu)", channel);
	return NULL;
}

/*
 * The kernel C type of a scalar. Native types keep their C name, so that
 * the size the loader announces (sizeof at compile time, in
 * LTT_FACILITY_INIT) is the size written; an explicit size attribute gives
 * a fixed-width type.
 */
static const char *ctype_of(const ltt_field_type *t, GError **error,
			    const char *where)
{
	static const struct {
		const char *xml, *c;
	} native[] = {
		{ "int", "int" }, { "uint", "unsigned int" }, { "enum", "unsigned int" },
		{ "char", "signed char" }, { "uchar", "unsigned char" },
		{ "short", "short" }, { "ushort", "unsigned short" },
		{ "long", "long" }, { "ulong", "unsigned long" },
		{ "pointer", "const void *" }, { "size_t", "size_t" },
		{ "ssize_t", "ssize_t" }, { "off_t", "long" },
	};
	static const char *const fixed_s[] = { "s8", "s16", "s32", "s64" };
	static const char *const fixed_u[] = { "u8", "u16", "u32", "u64" };
	static const char *const user_s[] = { "int8_t", "int16_t", "int32_t", "int64_t" };
	static const char *const user_u[] = { "uint8_t", "uint16_t", "uint32_t", "uint64_t" };
	const char *xml = ltt_field_type_xml_name(t);
	unsigned size = ltt_field_type_declared_size(t);
	int is_signed = ltt_field_type_kind(t) == LTT_KIND_INT;

	if (strcmp(xml, "float") == 0) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: floating point is not used in the kernel", where);
		return NULL;
	}
	if (size && (strcmp(xml, "int") == 0 || strcmp(xml, "uint") == 0 ||
		     strcmp(xml, "enum") == 0 || strcmp(xml, "int_fixed") == 0 ||
		     strcmp(xml, "uint_fixed") == 0)) {
		int i = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;

		if (gen_user)
			return is_signed ? user_s[i] : user_u[i];
		return is_signed ? fixed_s[i] : fixed_u[i];
	}
	for (size_t i = 0; i < G_N_ELEMENTS(native); i++)
		if (strcmp(native[i].xml, xml) == 0)
			return native[i].c;
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "%s: <%s> is not a scalar genevent can pass", where, xml);
	return NULL;
}

static gboolean emit_event(GString *h, const ltt_description *d, unsigned e,
			   const char *fac, const char *FAC, gboolean user,
			   GError **error)
{
	const char *ev = ltt_description_event_name(d, e);
	char *desc = genevent_comment_text(ltt_description_event_description(d, e));
	const char *chan = channel_enum(ltt_description_event_channel(d, e), error);
	unsigned n = ltt_description_num_fields(d, e);
	char *EV = upper(ev);
	GString *params = g_string_new(NULL), *size = g_string_new("0"),
		*body = g_string_new(NULL), *args = g_string_new("NULL");
	gboolean ok = chan != NULL;

	for (unsigned i = 0; ok && i < n; i++) {
		const char *name = ltt_description_field_name(d, e, i);
		const ltt_field_type *t = ltt_description_field_type(d, e, i);
		ltt_kind k = ltt_field_type_kind(t);
		char *where = g_strdup_printf("%s.%s field %s", fac, ev, name);
		const char *ct;

		if (params->len)
			g_string_append(params, ",\n\t\t");
		g_string_append_printf(args, ", %s", name);
		switch (k) {
		case LTT_KIND_STRING:
			g_string_append_printf(params, "const char *%s", name);
			/* the string, its NUL, the realignment after it */
			g_string_append_printf(size, " + %d + sizeof(void *)", VAR_LIMIT + 1);
			if (gen_user) /* strnlen is not C11: ltt-usertrace.h's own */
				g_string_append_printf(body,
					"\tltt_payload_put_string(&p, %s, %d);\n",
					name, VAR_LIMIT);
			else
				g_string_append_printf(body,
					"\tltt_payload_put(&p, %s, strnlen(%s, %d), 1);\n"
					"\tltt_payload_put(&p, \"\", 1, 1);\n"
					"\tltt_payload_realign(&p);\n",
					name, name, VAR_LIMIT);
			break;
		case LTT_KIND_INT: case LTT_KIND_UINT: case LTT_KIND_POINTER:
		case LTT_KIND_ENUM: case LTT_KIND_FLOAT: {
			ct = ctype_of(t, error, where);
			if (!ct) {
				ok = FALSE;
				break;
			}
			g_string_append_printf(params, "%s%s%s", ct,
					       g_str_has_suffix(ct, "*") ? "" : " ", name);
			g_string_append_printf(size, " + 2 * sizeof(%s)", ct);
			g_string_append_printf(body,
				"\tltt_payload_put(&p, &%s, sizeof(%s), sizeof(%s));\n",
				name, ct, ct);
			break;
		}
		case LTT_KIND_ARRAY:
		case LTT_KIND_SEQUENCE: {
			const ltt_field_type *el = ltt_field_type_element(t);
			ltt_kind ek = ltt_field_type_kind(el);

			if (ek != LTT_KIND_INT && ek != LTT_KIND_UINT && ek != LTT_KIND_ENUM) {
				g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
					    "%s: arrays and sequences of integers only", where);
				ok = FALSE;
				break;
			}
			ct = ctype_of(el, error, where);
			if (!ct) {
				ok = FALSE;
				break;
			}
			if (k == LTT_KIND_ARRAY) {
				unsigned len = ltt_field_type_length(t);

				g_string_append_printf(params, "const %s *%s", ct, name);
				g_string_append_printf(size, " + %u * sizeof(%s) + sizeof(%s)",
						       len, ct, ct);
				g_string_append_printf(body,
					"\tltt_payload_put(&p, %s, %u * sizeof(%s), sizeof(%s));\n",
					name, len, ct, ct);
			} else {
				const ltt_field_type *lt = ltt_field_type_length_type(t);
				const char *lct = ctype_of(lt, error, where);

				if (!lct) {
					ok = FALSE;
					break;
				}
				g_string_append_printf(params, "%s %s_len, const %s *%s",
						       lct, name, ct, name);
				g_string_insert(args, args->len - strlen(name),
						name);
				g_string_insert(args, args->len - strlen(name),
						"_len, ");
				g_string_append_printf(size,
					" + 2 * sizeof(%s) + %d * sizeof(%s) + sizeof(%s) + sizeof(void *)",
					lct, VAR_LIMIT, ct, ct);
				/* the length aligns to the larger of its size and
				 * the element's; after the elements, the realignment
				 * on the pointer size that ends every sequence
				 * (docs/format.md, Alignment) */
				if (user)
					g_string_append_printf(body,
						"\t{\n"
						"\t\t%s n = (%s)ltt_payload_min(%s_len, %d);\n\n"
						"\t\tltt_payload_put(&p, &n, sizeof(n), ltt_payload_max(sizeof(n), sizeof(%s)));\n"
						"\t\tltt_payload_put(&p, %s, n * sizeof(%s), sizeof(%s));\n"
						"\t\tltt_payload_realign(&p);\n"
						"\t}\n", lct, lct, name, VAR_LIMIT,
						ct, name, ct, ct);
				else
					g_string_append_printf(body,
						"\t{\n"
						"\t\t%s n = min_t(%s, %s_len, %d);\n\n"
						"\t\tltt_payload_put(&p, &n, sizeof(n), max(sizeof(n), sizeof(%s)));\n"
						"\t\tltt_payload_put(&p, %s, n * sizeof(%s), sizeof(%s));\n"
						"\t\tltt_payload_realign(&p);\n"
						"\t}\n", lct, lct, name, VAR_LIMIT, ct, name, ct, ct);
			}
			break;
		}
		default:
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s: struct and union fields are not supported "
				    "by genevent", where);
			ok = FALSE;
		}
		g_free(where);
	}
	if (ok && user) {
		/* the channel is the caller's choice (high_priority), not the XML's */
		g_string_append_printf(h, "/* %s.%s: %s */\n", fac, ev, desc);
		g_string_append_printf(h, "static inline int trace_%s_%s(%s)\n{\n",
				       fac, ev, params->len ? params->str : "void");
		if (n) {
			g_string_append_printf(h, "\tunsigned char buf[%s];\n", size->str);
			g_string_append(h, "\tstruct ltt_payload p = { .data = buf, .cap = sizeof(buf) };\n\n");
			g_string_append(h, body->str);
			g_string_append_printf(h,
				"\treturn ltt_usertrace_write_payload(&ltt_facility_%s,\n"
				"\t\t\t\t\t   LTT_EVENT_%s_%s, &p);\n}\n\n", fac, FAC, EV);
		} else {
			g_string_append_printf(h,
				"\treturn ltt_usertrace_write(&ltt_facility_%s, LTT_EVENT_%s_%s,\n"
				"\t\t\t\t   NULL, 0);\n}\n\n", fac, FAC, EV);
		}
	} else if (ok) {
		g_string_append_printf(h, "/* %s.%s: %s */\n", fac, ev, desc);
		/* trace_F_E_to(trace, ...): into one trace (NULL: every
		 * active one), for a state dump written into the trace that
		 * starts; trace_F_E(...) below: into every active trace */
		g_string_append_printf(h, "static inline void trace_%s_%s_to(struct ltt_trace *only%s%s)\n{\n",
				       fac, ev, params->len ? ",\n\t\t" : "", params->str);
		g_string_append_printf(h, "#ifdef CONFIG_LTT_FACILITY_%s\n", FAC);
		if (n) {
			g_string_append_printf(h, "\tchar buf[%s];\n", size->str);
			g_string_append(h, "\tstruct ltt_payload p = { .data = buf, .cap = sizeof(buf) };\n\n");
		}
		g_string_append_printf(h,
			"\tif (likely(!READ_ONCE(ltt_traces.num_active_traces)) ||\n"
			"\t    ltt_facility_%s.id < 0)\n\t\treturn;\n", fac);
		g_string_append(h, body->str);
		if (n)
			g_string_append_printf(h,
				"\tltt_log_event(only, %s, ltt_facility_%s.id,\n"
				"\t\t      LTT_EVENT_%s_%s, p.data, p.len);\n",
				chan, fac, FAC, EV);
		else
			g_string_append_printf(h,
				"\tltt_log_event(only, %s, ltt_facility_%s.id,\n"
				"\t\t      LTT_EVENT_%s_%s, NULL, 0);\n", chan, fac, FAC, EV);
		g_string_append(h, "#endif\n}\n\n");
		g_string_append_printf(h, "static inline void trace_%s_%s(%s)\n{\n"
				       "\ttrace_%s_%s_to(%s);\n}\n\n",
				       fac, ev, params->len ? params->str : "void",
				       fac, ev, args->str);
	}
	g_free(EV);
	g_free(desc);
	g_string_free(params, TRUE);
	g_string_free(size, TRUE);
	g_string_free(body, TRUE);
	g_string_free(args, TRUE);
	return ok;
}

static void add_file(GPtrArray *files, char *name, GString *text)
{
	gen_file *f = g_new(gen_file, 1);

	f->name = name;
	f->text = text;
	g_ptr_array_add(files, f);
}

void genevent_file_free(gpointer p)
{
	gen_file *f = p;

	g_free(f->name);
	g_string_free(f->text, TRUE);
	g_free(f);
}

/* The file's name, for a comment. */
static char *comment_basename(const char *xml)
{
	char *base = g_path_get_basename(xml);
	char *safe = genevent_comment_text(base);

	g_free(base);
	return safe;
}

/* --user: ltt-user-facility-NAME.h for libltt-usertrace. */
static gboolean generate_user(const char *xml, const ltt_description *d,
			      GPtrArray *files, GError **error)
{
	const char *fac = ltt_description_name(d);
	char *FAC = upper(fac), *base = comment_basename(xml);
	GString *h = g_string_new(NULL);
	gboolean ok = TRUE;

	g_string_append_printf(h,
		"/* SPDX-License-Identifier: LGPL-2.1-or-later */\n"
		"/*\n * ltt-user-facility-%s.h - the %s facility's user-space tracing\n"
		" * functions (libltt-usertrace).  Each returns 0 or -errno.\n"
		" * Generated by genevent --user from %s: do not edit.\n */\n"
		"#ifndef _LTT_USER_FACILITY_%s_H\n#define _LTT_USER_FACILITY_%s_H\n\n"
		"#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n"
		"#include <sys/types.h>\n#include <ltt-usertrace.h>\n\n"
		"#define LTT_FACILITY_%s_CHECKSUM\t0x%08XU\n\n"
		"enum ltt_%s_event {\n",
		fac, fac, base, FAC, FAC, FAC, ltt_description_checksum(d), fac);
	for (unsigned e = 0; e < ltt_description_num_events(d); e++) {
		char *EV = upper(ltt_description_event_name(d, e));

		g_string_append_printf(h, "\tLTT_EVENT_%s_%s = %u,\n", FAC, EV, e);
		g_free(EV);
	}
	g_string_append_printf(h, "\tLTT_FACILITY_%s_NUM_EVENTS\n};\n\n", FAC);
	g_string_append_printf(h,
		"/* registered by the first event written (or ltt_usertrace_register) */\n"
		"static struct ltt_usertrace_facility ltt_facility_%s __attribute__((unused)) =\n"
		"\tLTT_USERTRACE_FACILITY_INIT(\"%s\", LTT_FACILITY_%s_CHECKSUM,\n"
		"\t\t\t\t    LTT_FACILITY_%s_NUM_EVENTS);\n\n", fac, fac, FAC, FAC);
	for (unsigned e = 0; ok && e < ltt_description_num_events(d); e++)
		ok = emit_event(h, d, e, fac, FAC, TRUE, error);
	g_string_append_printf(h, "#endif /* _LTT_USER_FACILITY_%s_H */\n", FAC);
	if (ok)
		add_file(files, g_strdup_printf("ltt-user-facility-%s.h", fac), h);
	else
		g_string_free(h, TRUE);
	g_free(base);
	g_free(FAC);
	return ok;
}

/* The kernel's ltt-facility-NAME.h and ltt-facility-loader-NAME.c. */
static gboolean generate_kernel(const char *xml, const ltt_description *d,
				GPtrArray *files, GError **error)
{
	const char *fac = ltt_description_name(d);
	char *FAC = upper(fac), *base = comment_basename(xml);
	GString *h = g_string_new(NULL), *c;
	gboolean ok = TRUE;

	g_string_append_printf(h,
		"/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/*\n * ltt-facility-%s.h - the %s facility's tracing functions.\n"
		" * Generated by genevent from %s: do not edit.\n */\n"
		"#ifndef _LTT_FACILITY_%s_H\n#define _LTT_FACILITY_%s_H\n\n"
		"#include <linux/kernel.h>\n#include <linux/minmax.h>\n"
		"#include <linux/string.h>\n#include <linux/ltt-core.h>\n"
		"#include <linux/ltt-facilities.h>\n\n"
		"#define LTT_FACILITY_%s_CHECKSUM\t0x%08XU\n\n"
		"extern struct ltt_facility ltt_facility_%s;\n\n"
		"enum ltt_%s_event {\n",
		fac, fac, base, FAC, FAC, FAC, ltt_description_checksum(d), fac, fac);
	for (unsigned e = 0; e < ltt_description_num_events(d); e++) {
		char *EV = upper(ltt_description_event_name(d, e));

		g_string_append_printf(h, "\tLTT_EVENT_%s_%s = %u,\n", FAC, EV, e);
		g_free(EV);
	}
	g_string_append_printf(h, "\tLTT_FACILITY_%s_NUM_EVENTS\n};\n\n", FAC);
	for (unsigned e = 0; ok && e < ltt_description_num_events(d); e++)
		ok = emit_event(h, d, e, fac, FAC, FALSE, error);
	g_string_append_printf(h, "#endif /* _LTT_FACILITY_%s_H */\n", FAC);

	c = g_string_new(NULL);
	g_string_append_printf(c,
		"// SPDX-License-Identifier: GPL-2.0\n"
		"/*\n * ltt-facility-loader-%s.c - registers the %s facility.\n"
		" * Generated by genevent from %s: do not edit.\n */\n"
		"#include <linux/init.h>\n#include <linux/ltt/ltt-facility-%s.h>\n\n"
		"struct ltt_facility ltt_facility_%s =\n"
		"\tLTT_FACILITY_INIT(\"%s\", LTT_FACILITY_%s_CHECKSUM);\n\n"
		"static int __init ltt_facility_%s_init(void)\n{\n"
		"\tint ret = ltt_facility_register(&ltt_facility_%s);\n\n"
		"\treturn ret < 0 ? ret : 0;\n}\n"
		"core_initcall(ltt_facility_%s_init);\n",
		fac, fac, base, fac, fac, fac, FAC, fac, fac, fac);
	if (ok) {
		add_file(files, g_strdup_printf("ltt-facility-%s.h", fac), h);
		add_file(files, g_strdup_printf("ltt-facility-loader-%s.c", fac), c);
	} else {
		g_string_free(h, TRUE);
		g_string_free(c, TRUE);
	}
	g_free(base);
	g_free(FAC);
	return ok;
}

gboolean genevent_generate(const char *xml, const char *text, gsize len,
			   gboolean user, GPtrArray *files, GError **error)
{
	ltt_error *err = NULL;
	ltt_description *d;
	gboolean ok;

	/* the names checked (names.c) before anything is generated */
	if (!genevent_check_names(xml, text, len, error))
		return FALSE;
	d = ltt_description_parse(text, len, xml, &err);
	if (!d) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s",
			    ltt_error_message(err));
		ltt_error_free(err);
		return FALSE;
	}
	gen_user = user;
	ok = (user ? generate_user : generate_kernel)(xml, d, files, error);
	if (!ok)
		g_prefix_error(error, "%s: ", xml);
	ltt_description_free(d);
	return ok;
}

/* Generates from the file xml into outdir. The file is read once: the
 * bytes checked are the bytes generated from. */
static gboolean generate_file(const char *xml, const char *outdir, gboolean user,
			      GError **error)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(genevent_file_free);
	char *text;
	gsize len;
	gboolean ok = genevent_read_bounded(xml, &text, &len, error);

	if (ok) {
		ok = genevent_generate(xml, text, len, user, files, error);
		g_free(text);
	}
	for (guint i = 0; ok && i < files->len; i++) {
		const gen_file *f = files->pdata[i];
		char *path = g_build_filename(outdir, f->name, NULL);

		ok = g_file_set_contents(path, f->text->str, (gssize)f->text->len, error);
		if (!ok)
			g_prefix_error(error, "%s: ", xml);
		g_free(path);
	}
	g_ptr_array_free(files, TRUE);
	return ok;
}

int main(int argc, const char **argv)
{
	char *outdir = NULL;
	int user = 0, version = 0;
	struct poptOption table[] = {
		{ "user", 'u', POPT_ARG_NONE, &user, 0,
		  "user-space functions for libltt-usertrace instead of the kernel's", NULL },
		{ "output", 'o', POPT_ARG_STRING, &outdir, 0,
		  "folder for the generated files (created if needed)", "DIR" },
		{ "version", 0, POPT_ARG_NONE, &version, 0,
		  "print the version and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("genevent", argc, argv, table, 0);
	const char *xml;
	int rc, status = 0;

	ltt_check_stdout_at_exit("genevent");	/* --help, --version too */
	poptSetOtherOptionHelp(ctx, "[--user] -o DIR FACILITY.xml...");
	rc = poptGetNextOpt(ctx);
	if (rc == -1 && version) {
		printf("genevent (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		goto out;
	}
	if (rc < -1 || !outdir || !poptPeekArg(ctx)) {
		if (rc < -1)
			fprintf(stderr, "genevent: %s: %s\n",
				poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		else
			fprintf(stderr, "genevent: usage: genevent [--user] -o DIR FACILITY.xml...\n");
		status = 2;
		goto out;
	}
	if (g_mkdir_with_parents(outdir, 0755) < 0) {
		fprintf(stderr, "genevent: cannot create %s: %s\n", outdir, strerror(errno));
		status = 1;
		goto out;
	}
	while ((xml = poptGetArg(ctx))) {
		GError *error = NULL;

		if (!generate_file(xml, outdir, user != 0, &error)) {
			fprintf(stderr, "genevent: %s\n", error->message);
			g_error_free(error);
			status = 1;
		}
	}
out:
	poptFreeContext(ctx);
	free(outdir);
	return status;
}
