/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_ctf.c - libFuzzer harness for the CTF writer of lttv-convert.
 *
 * The input becomes a trace as for fuzz_trace (scratch-trace.h), which is
 * written as CTF into a scratch folder the way lttv-convert does. Then
 * the data streams are read back: every packet must carry the CTF magic,
 * sizes that add up to the file, and times that never go backwards (a
 * trace whose clock does must still give a CTF that readers accept:
 * issue 16). Any crash, sanitizer report or broken stream is a bug.
 */
#include <dirent.h>

#include "ctf-writer.h"
#include "scratch-trace.h"

static char out_dir[128];

/* Every packet of a data stream: magic, sizes, times in order. */
static void check_stream(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint64_t last = 0;
	uint8_t h[52];

	if (!f)
		abort();
	while (fread(h, 1, sizeof(h), f) == sizeof(h)) {
		uint32_t magic;
		uint64_t begin, end, content, packet;

		memcpy(&magic, h, 4);
		memcpy(&begin, h + 8, 8);
		memcpy(&end, h + 16, 8);
		memcpy(&content, h + 24, 8);
		memcpy(&packet, h + 32, 8);
		if (magic != 0xC1FC1FC1U || content != packet || packet % 8 ||
		    packet < sizeof(h) * 8 || begin > end || begin < last)
			abort();
		last = end;
		if (fseek(f, (long)(packet / 8 - sizeof(h)), SEEK_CUR) < 0)
			abort();
	}
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dirs[] = { LTT_TEST_FACILITIES_DIR, NULL };
	ltt_open_options opt = { .size = sizeof(opt), .facility_dirs = dirs };
	const char *dir = scratch_trace(data, size);
	ltt_trace *t;
	ltt_iter *it;
	ctf_writer *w;
	const ltt_event *ev;
	unsigned n = 0;
	int ok = 1;

	if (!out_dir[0])
		snprintf(out_dir, sizeof(out_dir), "%s-ctf", dir);
	t = ltt_trace_open(dir, &opt, NULL);
	if (!t)
		return 0;
	it = ltt_iter_new(&t, 1, NULL);
	w = ctf_writer_new(out_dir, t);
	while (it && n++ < 100000 && ltt_iter_next(it, &ev, NULL) > 0)
		if (ctf_writer_event(w, ev) < 0) {
			ok = 0;
			break;
		}
	if (ctf_writer_close(w) < 0)
		ok = 0;
	if (ok) {
		DIR *d = opendir(out_dir);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char path[512];

			if (e->d_name[0] == '.' || !strcmp(e->d_name, "metadata"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", out_dir, e->d_name);
			check_stream(path);
			unlink(path);
		}
		if (d)
			closedir(d);
	}
	ctf_writer_free(w);
	ltt_iter_free(it);
	ltt_trace_close(t);
	return 0;
}
