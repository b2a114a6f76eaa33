/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltt-checksum - print the name and genevent checksum of facility
 * descriptions: "core 0x1A8DE486 facilities/core.xml". The kernel's
 * hard-coded checksums and the writer's are checked against this.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ltttrace.h"
#include "ltt/tool-stdout.h"

int main(int argc, char **argv)
{
	int status = 0;

	ltt_check_stdout_at_exit("ltt-checksum");	/* --help, --version too */
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: ltt-checksum FACILITY.xml...\n"
			"Prints each facility's name and checksum.\n"
			"      --version  print the version and exit\n");
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("ltt-checksum (Linux Trace Toolkit) %s\n", LTTTRACE_VERSION_STRING);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		ltt_error *err = NULL;
		ltt_description *d = ltt_description_load(argv[i], &err);

		if (!d) {
			fprintf(stderr, "ltt-checksum: %s\n", ltt_error_message(err));
			ltt_error_free(err);
			status = 1;
			continue;
		}
		printf("%s 0x%08X %s\n", ltt_description_name(d),
		       ltt_description_checksum(d), argv[i]);
		ltt_description_free(d);
	}
	/* what could not be printed was not done */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "ltt-checksum: write error on standard output: %s\n",
			strerror(errno));
		status = 1;
	}
	return status;
}
