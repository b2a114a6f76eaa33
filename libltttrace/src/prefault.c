/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* prefault.c - see prefault.h. */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "prefault.h"

#define PREFAULT_MIN ((size_t)64 << 10)

void ltt_prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)getpagesize();
	uintptr_t a = (uintptr_t)p & ~(page - 1);

	if (n)
		(void)madvise((void *)a, (uintptr_t)p + n - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}

void *ltt_malloc_prefaulted(size_t n)
{
	void *p = g_malloc(n);

	if (n >= PREFAULT_MIN)
		ltt_prefault(p, n);
	return p;
}
