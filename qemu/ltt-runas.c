// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-runas UID GID[,GID...] COMMAND [ARG...] - run COMMAND as an
 * unprivileged user in the QEMU guest.
 *
 * The guest's busybox has no `setpriv --reuid`; a test that dropped its
 * privileges that way ran as root without saying so.  This helper drops
 * them for real: supplementary groups (the GIDs after the first), then the
 * real, effective and saved group ids, then the user ids, and checks
 * before exec that every id is the one asked for, that no capability is
 * left and that none can be regained (setresuid(0, 0, 0) must fail).
 * Any mismatch is an error (exit 125), never a silent run as root.
 * With uid 0 the check is skipped: `ltt-runas 0 0 CMD` runs CMD as root,
 * the control case of a test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int die(const char *what)
{
	fprintf(stderr, "ltt-runas: %s: %s\n", what, strerror(errno));
	return 125;
}

/* CapEff of /proc/self/status, or -1. */
static long long cap_eff(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int parse_id(const char *s, unsigned int *id)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || (*end && *end != ',') || v > 65535)
		return -1;
	*id = (unsigned int)v;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int uid, gid, groups[16];
	uid_t r, e, s;
	gid_t gr, ge, gs, gl[16];
	size_t ng = 0;
	const char *p;

	if (argc < 4 || parse_id(argv[1], &uid) || parse_id(argv[2], &gid)) {
		fprintf(stderr, "usage: ltt-runas UID GID[,GID...] COMMAND [ARG...]\n");
		return 125;
	}
	for (p = strchr(argv[2], ','); p && ng < 16; p = strchr(p + 1, ','))
		if (parse_id(p + 1, &groups[ng++])) {
			fprintf(stderr, "ltt-runas: bad group list %s\n", argv[2]);
			return 125;
		}
	for (size_t i = 0; i < ng; i++)
		gl[i] = groups[i];
	if (setgroups(ng, gl))
		return die("setgroups");
	if (setresgid(gid, gid, gid))
		return die("setresgid");
	if (setresuid(uid, uid, uid))
		return die("setresuid");

	if (getresuid(&r, &e, &s) || getresgid(&gr, &ge, &gs))
		return die("getresuid");
	if (r != uid || e != uid || s != uid || gr != gid || ge != gid || gs != gid) {
		fprintf(stderr, "ltt-runas: still uid %u/%u/%u gid %u/%u/%u\n",
			r, e, s, gr, ge, gs);
		return 125;
	}
	if (uid != 0) {
		if (cap_eff() != 0) {
			fprintf(stderr, "ltt-runas: capabilities left: %llx\n",
				cap_eff());
			return 125;
		}
		if (setresuid(0, 0, 0) == 0) {
			fprintf(stderr, "ltt-runas: could become root again\n");
			return 125;
		}
	}
	execvp(argv[3], argv + 3);
	return die(argv[3]);
}
