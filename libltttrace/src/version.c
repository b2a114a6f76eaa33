/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* version.c - which library a program runs with (ltttrace-version.h). */
#include "internal.h"

const char *ltt_version_string(void)
{
	return LTTTRACE_VERSION_STRING;
}

unsigned ltt_version_number(void)
{
	return LTTTRACE_VERSION_NUMBER;
}
