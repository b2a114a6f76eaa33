// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * usertrace-example - a program that traces itself with libltt-usertrace.
 *
 * Its events are described in usertrace_example.xml; the build turns that
 * into ltt-user-facility-usertrace_example.h (genevent --user), whose
 * trace_usertrace_example_*() functions lay the fields out and call the
 * ltt_trace_generic system call.  With a trace running:
 *
 *	usertrace-example [N]	   N hello events (3 by default)
 *
 * writes hello { count = i, delta = -1000 * i, small = -i,
 * word = "hello i", values = [ i, 2i, 3i ] } for i = 1..N, then exits 0;
 * any error is printed with the call that failed, exit 1.  Decode with
 *	lttv-text -t TRACE -f libltt-usertrace/examples
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-user-facility-usertrace_example.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 3;

	if (argc > 2 || n < 1 || n > 1000000) {
		fprintf(stderr, "usage: usertrace-example [N (1..1000000)]\n");
		return 2;
	}
	for (long i = 1; i <= n; i++) {
		uint32_t values[3] = { (uint32_t)i, (uint32_t)(2 * i), (uint32_t)(3 * i) };
		char word[32];
		int err;

		snprintf(word, sizeof(word), "hello %ld", i);
		err = trace_usertrace_example_hello((unsigned int)i, -1000 * (int64_t)i,
						    (short)-i, word, 3, values);
		if (err) {
			fprintf(stderr, "usertrace-example: event %ld: %s\n", i, strerror(-err));
			return 1;
		}
	}
	printf("usertrace-example: %ld hello events written (facility id %d)\n",
	       n, ltt_facility_usertrace_example.id);
	return 0;
}
