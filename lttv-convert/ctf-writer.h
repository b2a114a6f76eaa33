/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctf-writer.h - write the events of an LTT trace as a CTF 1.8 trace. */
#ifndef LTTV_CTF_WRITER_H
#define LTTV_CTF_WRITER_H

#include <glib.h>

#include "ltttrace.h"

typedef struct ctf_writer ctf_writer;

/* Events must come in time order (an ltt_iter on this one trace). */
ctf_writer *ctf_writer_new(const char *dir, ltt_trace *trace);
int ctf_writer_event(ctf_writer *w, const ltt_event *ev);
/* Flushes the streams and writes the metadata; 0 or -1. */
int ctf_writer_close(ctf_writer *w);
const char *ctf_writer_error(const ctf_writer *w);
/* Events written at the time of the one before them in their stream (their
 * own went back in time), and events written as raw bytes because their
 * payload did not hold their fields: the caller says so. */
uint64_t ctf_writer_clamped(const ctf_writer *w);
uint64_t ctf_writer_malformed(const ctf_writer *w);
void ctf_writer_free(ctf_writer *w);

#endif
