/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch-trace.h - the input of the trace harnesses (fuzz_trace,
 * fuzz_ctf) made into a trace directory, once per input:
 *
 *   [u32 n, little endian][n bytes: control/facilities_0][the rest: cpu_0]
 *
 * so that the facility_load events come from one part and the events
 * they describe from the other, as in a real trace (seeds: tests/fuzz/
 * seed.py cuts them from the bundled traces and the writer's scenarios).
 * An input shorter than 4 bytes, or whose n is past its end, is all
 * cpu_0. The folder is in /dev/shm when there is one: two files are
 * rewritten per input.
 */
#ifndef LTT_FUZZ_SCRATCH_TRACE_H
#define LTT_FUZZ_SCRATCH_TRACE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char scratch_dir[96];
static int scratch_fd[2] = { -1, -1 };	/* control/facilities_0, cpu_0 */

/*
 * The file of one part, made this input's bytes. The files stay open
 * from input to input and are rewritten in place (pwrite, then ftruncate
 * to the new size): an open and a close less per file and input than
 * fopen/fclose, and the reader still opens, stats and reads them as it
 * does any trace.
 */
static void scratch_put(int i, const char *dir, const char *name,
			const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (scratch_fd[i] < 0) {
		char path[160];

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		scratch_fd[i] = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (scratch_fd[i] < 0)
			abort();
	}
	while (done < size) {
		ssize_t w = pwrite(scratch_fd[i], data + done, size - done, (off_t)done);

		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	if (ftruncate(scratch_fd[i], (off_t)size) < 0)
		abort();
}

/* Writes the trace of this input; returns its folder. */
static const char *scratch_trace(const uint8_t *data, size_t size)
{
	uint32_t n = 0;

	if (!scratch_dir[0]) {
		char ctl[128];
		struct stat st;

		snprintf(scratch_dir, sizeof(scratch_dir), "%s/ltt-fuzz-%d",
			 stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
		snprintf(ctl, sizeof(ctl), "%s/control", scratch_dir);
		mkdir(scratch_dir, 0700);
		mkdir(ctl, 0700);
	}
	if (size >= 4) {
		memcpy(&n, data, 4);
		if (n <= size - 4) {
			data += 4;
			size -= 4;
		} else {
			n = 0;
		}
	}
	scratch_put(0, scratch_dir, "control/facilities_0", data, n);
	scratch_put(1, scratch_dir, "cpu_0", data + n, size - n);
	return scratch_dir;
}

#endif
