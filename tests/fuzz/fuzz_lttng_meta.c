/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_lttng_meta.c - libFuzzer harness for the TSDL metadata parser of
 * LTTng traces (libltttrace/src/ctf-meta.c): any input, text or
 * packetized, must give a metadata or an error, nothing else. Seeds: the
 * bundled LTTng traces' metadata, packetized and as text, and small
 * hostile ones (tests/fuzz/seed.py).
 */
#include <stdint.h>
#include <stdlib.h>

#include "ctf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ltt_error *err = NULL;
	ctf_meta *m = ltt_ctf_meta_parse(data, size, "fuzz", &err);

	if (!m && !err)
		abort();	/* failure without a reason */
	ltt_ctf_meta_free(m);
	ltt_error_free(err);
	return 0;
}
