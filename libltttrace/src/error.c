/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* error.c - errors that carry their chain of causes up to the tools. */
#include <stdarg.h>
#include <stdlib.h>

#include "internal.h"

void ltt_set_error(ltt_error **err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	if (*err) /* keep the first, most precise cause */
		return;
	*err = g_new0(ltt_error, 1);
	va_start(ap, fmt);
	(*err)->message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
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
	(*err)->message = joined;
}

const char *ltt_error_message(const ltt_error *err)
{
	return err ? err->message : "no error";
}

void ltt_error_free(ltt_error *err)
{
	if (!err)
		return;
	g_free(err->message);
	g_free(err);
}
