/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_genevent.c - libFuzzer harness for genevent (genevent.c and
 * names.c, its main() renamed): the input is a facility file, generated
 * for the kernel and for --user. Whatever the input, the generated C must
 * not let it out of its comments and strings (issue 16: code injection):
 * every comment and literal closes, no comment ends outside one, and the
 * code holds printable ASCII only. Seeds: the facility files of the tree.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int genevent_main(int argc, const char **argv);

static char dir[96], xml[128], out[128];

/* The lexical check of one generated file. */
static void check_c(const char *path)
{
	FILE *f = fopen(path, "rb");
	enum { CODE, BLOCK, LINE, STR, CHR } s = CODE;
	int c, prev = 0;

	if (!f)
		abort();
	while ((c = fgetc(f)) != EOF) {
		if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e))
			abort();	/* nothing but ASCII text, anywhere */
		switch (s) {
		case CODE:
			if (prev == '/' && c == '*') {
				s = BLOCK;
				c = 0;	/* its star cannot also close it */
			} else if (prev == '*' && c == '/') {
				abort();	/* a comment end in code */
			} else if (prev == '/' && c == '/') {
				s = LINE;
			} else if (c == '"') {
				s = STR;
			} else if (c == '\'') {
				s = CHR;
			}
			break;
		case BLOCK:
			if (prev == '*' && c == '/') {
				s = CODE;
				c = 0;
			}
			break;
		case LINE:
			if (c == '\n')
				s = CODE;
			break;
		case STR:
		case CHR:
			if (c == '\n')
				abort();	/* a literal left open */
			if (prev == '\\')
				c = 0;
			else if (c == (s == STR ? '"' : '\''))
				s = CODE;
			break;
		}
		prev = c;
	}
	fclose(f);
	if (s != CODE && s != LINE)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!dir[0]) {
		struct stat st;

		snprintf(dir, sizeof(dir), "%s/ltt-fuzz-genevent-%d",
			 stat("/dev/shm", &st) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
		mkdir(dir, 0700);
		snprintf(xml, sizeof(xml), "%s/in.xml", dir);
		snprintf(out, sizeof(out), "%s/out", dir);
	}
	f = fopen(xml, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size))
		abort();
	fclose(f);
	for (int user = 0; user <= 1; user++) {
		const char *argv[] = { "genevent", "-o", out, xml, NULL, NULL };
		DIR *d;
		struct dirent *e;

		int saved = dup(2), null = open("/dev/null", O_WRONLY);

		if (user) {
			argv[3] = "--user";
			argv[4] = xml;
		}
		/* its error messages are expected: not on the fuzzer's stderr */
		dup2(null, 2);
		genevent_main(user ? 5 : 4, argv);
		dup2(saved, 2);
		close(saved);
		close(null);
		d = opendir(out);
		while (d && (e = readdir(d))) {
			char path[512];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", out, e->d_name);
			check_c(path);
			unlink(path);
		}
		if (d)
			closedir(d);
	}
	return 0;
}
