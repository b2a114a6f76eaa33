/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_description.c - libFuzzer harness for the facility XML parser and
 * the checksum: any input must give a description or an error, nothing
 * else; its names as ltt_text_safe() shows them and its error message hold
 * nothing the one rule escapes (shown-safely.h). Seeds: the facility files (tests/fuzz/seed.py).
 */
#include <stdint.h>
#include <stdlib.h>

#include "ltttrace.h"
#include "shown-safely.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_error *err = NULL;
	ltt_description *d = ltt_description_parse((const char *)data, size,
						   "fuzz", &err);

	if (!d && !err)
		abort();	/* failure without a reason */
	if (d) {
		(void)ltt_description_checksum(d);
		must_be_shown_safely(ltt_text_safe(ltt_description_name(d)));
		for (unsigned i = 0; i < ltt_description_num_events(d); i++)
			must_be_shown_safely(ltt_text_safe(ltt_description_event_name(d, i)));
	}
	if (err)
		must_be_shown_safely(ltt_error_message(err));
	ltt_description_free(d);
	ltt_error_free(err);
	return 0;
}
