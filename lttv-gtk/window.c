/* SPDX-License-Identifier: GPL-2.0-or-later */
/* window.c - the GTK window (next commit); for now, the export only. */
#include <stdio.h>

#include "lttv-gtk.h"

int lttv_window_run(const char *trace, const char *self_test, const char *screenshot)
{
	fprintf(stderr, "lttv-gtk: the window is not there yet; use --export\n");
	return 1;
}
