/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error.c - errors that carry their chain of causes up to the tools. */
#include <stdarg.h>
#include <stdlib.h>

#include "internal.h"
#include "safe-text.h"

void ltt_set_error(ltt_error **err, ltt_error_code code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	if (*err) /* keep the first, most precise cause */
		return;
	*err = g_new0(ltt_error, 1);
	(*err)->code = code;
	va_start(ap, fmt);
	(*err)->message = ltt_safe_message(g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

void ltt_pass_error(ltt_error **err, ltt_error *e)
{
	if (err && !*err)
		*err = e;
	else
		ltt_error_free(e);
}

ltt_error *ltt_error_copy(const ltt_error *e)
{
	ltt_error *c;

	if (!e)
		return NULL;
	c = g_new0(ltt_error, 1);
	c->code = e->code;
	c->message = g_strdup(e->message);
	return c;
}

void ltt_prefix_error(ltt_error **err, const char *fmt, ...)
{
	va_list ap;
	char *outer, *joined;

	if (!err || !*err)
		return;
	va_start(ap, fmt);
	outer = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	joined = g_strconcat(outer, ": ", (*err)->message, NULL);
	g_free(outer);
	g_free((*err)->message);
	(*err)->message = ltt_safe_message(joined);
}

const char *ltt_error_message(const ltt_error *err)
{
	return err ? err->message : "no error";
}

ltt_error_code ltt_error_get_code(const ltt_error *err)
{
	return err ? err->code : LTT_ERROR_NONE;
}

const char *ltt_error_code_name(ltt_error_code code)
{
	static const char *const names[] = {
		[LTT_ERROR_NONE] = "none",
		[LTT_ERROR_IO] = "io",
		[LTT_ERROR_NOMEM] = "nomem",
		[LTT_ERROR_NOT_A_TRACE] = "not-a-trace",
		[LTT_ERROR_CORRUPT] = "corrupt",
		[LTT_ERROR_UNSUPPORTED] = "unsupported",
		[LTT_ERROR_DESCRIPTION] = "description",
		[LTT_ERROR_INVALID] = "invalid",
	};

	if ((unsigned)code < sizeof(names) / sizeof(names[0]) && names[code])
		return names[code];
	return "unknown";
}

void ltt_error_free(ltt_error *err)
{
	if (!err)
		return;
	g_free(err->message);
	g_free(err);
}
