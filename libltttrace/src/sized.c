/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sized.c - structs that cross the library's boundary carry their size, so
 * that members can be added at the end without breaking programs built
 * before (ltttrace.h, "Sized structs"): copied out to the caller's size,
 * read in from it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int ltt_sized_out(void *out, size_t size, const void *full, size_t full_size,
		  size_t min)
{
	if (!out || size < min)
		return -1;
	memcpy(out, full, size < full_size ? size : full_size);
	if (size > full_size)
		memset((char *)out + full_size, 0, size - full_size);
	return 0;
}

int ltt_sized_in(void *own, size_t own_size, const void *opt, size_t min,
		 const char *what, ltt_error **err)
{
	size_t size;

	memset(own, 0, own_size);
	if (!opt)
		return 0;
	memcpy(&size, opt, sizeof(size));
	if (size < min) {
		ltt_set_error(err, LTT_ERROR_INVALID, "%s.size is %zu: set it to "
			      "sizeof(%s)", what, size, what);
		return -1;
	}
	for (size_t i = own_size; i < size; i++)
		if (((const unsigned char *)opt)[i]) {
			ltt_set_error(err, LTT_ERROR_INVALID, "%s: members this "
				      "library (%s) does not know are set", what,
				      LTTTRACE_VERSION_STRING);
			return -1;
		}
	memcpy(own, opt, size < own_size ? size : own_size);
	return 0;
}

void *ltt_sized_rows(void *rows, size_t n, size_t full_size, size_t size, size_t min)
{
	unsigned char *sized;

	if (size == full_size)
		return rows;
	/* n + 1: an empty result is still an allocation, as the library's */
	sized = size < min ? NULL : calloc(n + 1, size);
	for (size_t i = 0; sized && i < n; i++)
		ltt_sized_out(sized + i * size, size, (const char *)rows + i * full_size,
			      full_size, min);
	free(rows);
	return sized;
}
