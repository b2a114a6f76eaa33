/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* value-text.h - a field value read as text, for the engines that take a
 * file name from an event whatever its writer's dialect. */
#ifndef LTTTRACE_VALUE_TEXT_H
#define LTTTRACE_VALUE_TEXT_H

#include <string.h>

#include "ltttrace.h"

/* A string, or a sequence or array of <uchar/> (text: the era's fs.exec and
 * fs.open filenames): its bytes and their number (up to a NUL, which a
 * writer may have kept), or NULL when the value is neither. */
static inline const char *ltt_value_text(const ltt_value *v, size_t *len)
{
	if (!v->str || (v->kind != LTT_KIND_STRING && v->kind != LTT_KIND_SEQUENCE &&
			v->kind != LTT_KIND_ARRAY))
		return NULL;
	*len = v->kind == LTT_KIND_STRING ? strlen(v->str) : strnlen(v->str, (size_t)v->u);
	return v->str;
}

#endif
