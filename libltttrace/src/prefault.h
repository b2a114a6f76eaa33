/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * prefault.h - memory about to be written, brought in by one call rather
 * than by a page fault per page inside the write. Each fault is a trap,
 * dear in a virtual machine (some 5 us here: a snapshot of the index of
 * 100 M events copies 15 MB into fresh memory, 3800 pages, and took half
 * as long once they were brought in first). Where the kernel cannot
 * (before Linux 5.14), the write faults them in as before.
 */
#ifndef LTTTRACE_PREFAULT_H
#define LTTTRACE_PREFAULT_H

#include <stddef.h>

/* The pages that [p, p + n) touches, made present and writable. */
__attribute__((visibility("hidden"))) void ltt_prefault(void *p, size_t n);

/* g_malloc(n) (n > 0) for a copy: its pages brought in at once when it
 * is big (64 KiB or more; below, the faults cost less than the call). */
__attribute__((visibility("hidden"))) void *ltt_malloc_prefaulted(size_t n);

#endif
