/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sized.h - the structs that carry their size across the library's
 * boundary (sized.c), for every layer that fills or reads one. */
#ifndef LTTTRACE_SIZED_H
#define LTTTRACE_SIZED_H

#include <stddef.h>

#include "ltttrace.h"

/*
 * Sized structs (ltttrace.h, "Sized structs"). A struct the library fills
 * for the caller is filled whole here, then copied into the caller's
 * `size` bytes: what both know, the caller's tail zeroed. A size below
 * `min` (the struct as 0.7.0 has it: never change these) is refused.
 */
int ltt_sized_out(void *out, size_t size, const void *full, size_t full_size,
		  size_t min);
/* An options struct from the caller, whose first member is its size, into
 * the library's own `own` (zeroed first): 0, or -1 (LTT_ERROR_INVALID)
 * when the size is not set, or when the caller sets members this library
 * does not know. opt may be NULL: the defaults. */
int ltt_sized_in(void *own, size_t own_size, const void *opt, size_t min,
		 const char *what, ltt_error **err);
/* An array of n structs of full_size (malloc()ed by the library) as the
 * caller's array of `size` each, at its stride: rows itself when the
 * sizes agree, else a calloc()ed copy (rows freed); NULL (rows freed)
 * when size is below min or memory runs out. */
void *ltt_sized_rows(void *rows, size_t n, size_t full_size, size_t size, size_t min);
/* The bytes of type up to the end of member: a 0.7.0 size. */
#define LTT_END_OF(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

#endif
