// SPDX-License-Identifier: GPL-2.0
/*
 * ctl-socket.c - lttctl's way to the tracer: the NETLINK_LTT socket.  On
 * its own so that a test build can put a fake kernel in its place
 * (fake-kernel.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "lttctl.h"

int lttctl_open(char *err, size_t errlen)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_LTT);

	if (fd < 0) {
		int e = errno;

		if (e == EPROTONOSUPPORT || e == EAFNOSUPPORT)
			snprintf(err, errlen, "this kernel has no LTT support "
				 "(NETLINK_LTT %d not available)", NETLINK_LTT);
		else if (e == EPERM || e == EACCES)
			snprintf(err, errlen, "not allowed to open the LTT "
				 "control socket: run lttctl as root");
		else
			snprintf(err, errlen, "cannot open the LTT control "
				 "socket (NETLINK_LTT %d): %s", NETLINK_LTT,
				 strerror(e));
		errno = e;
		return -1;
	}
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0 ||
	    connect(fd, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot set up the LTT control socket: "
			 "%s", strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
