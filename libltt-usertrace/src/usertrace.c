// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * usertrace.c - libltt-usertrace: facility registration and event writing
 * through the door of the kernel's tracer, /proc/ltt_user_generic: an
 * ioctl registers, a pwrite() writes an event (numbers, structures and
 * offsets: <ltt/ltt-abi.h>).
 *
 * Every kernel with this tracer has the door: the patched one (patch
 * 0010; its system calls of patch 0009 serve the same requests, at
 * numbers outside the table that only that kernel answers) and Debian's
 * own with the tracer's modules, which cannot have system calls.  The descriptor is opened once
 * per process, close-on-exec (a new program does not inherit the ids,
 * as execve() drops them for the system calls); a child made by fork()
 * shares it, and so its facilities.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-usertrace.h"

int ltt_usertrace_available(void)
{
	struct stat st;

	return stat(LTT_USER_DOOR, &st) == 0;
}

#define DOOR_UNKNOWN	(-1)

static int door_fd = DOOR_UNKNOWN;

/*
 * The door's descriptor, or -errno: -ENOSYS without the tracer, -EPERM
 * when the caller may not write user-space events (the open is the gate,
 * EACCES; the system calls said EPERM).  Opened by the first thread that
 * asks; one that loses the race closes its own.  @stale: the descriptor
 * that gave EBADF (the program closed it), opened again once.
 */
static int door(int stale)
{
	int fd = __atomic_load_n(&door_fd, __ATOMIC_ACQUIRE);
	int expected;

	if (fd >= 0 && fd != stale)
		return fd;
	fd = open(LTT_USER_DOOR, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOSYS;
		return errno == EACCES ? -EPERM : -errno;
	}
	expected = stale >= 0 ? stale : DOOR_UNKNOWN;
	if (!__atomic_compare_exchange_n(&door_fd, &expected, fd, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		close(fd);
		return expected;
	}
	return fd;
}

/* One request through the door: 0 or -errno. */
static long door_ioctl(unsigned long request, void *arg)
{
	int fd = door(-2), err;

	if (fd < 0)
		return fd;
	if (ioctl(fd, request, arg) == 0)
		return 0;
	err = errno;
	if (err != EBADF)
		return -err;
	fd = door(fd);
	if (fd < 0)
		return fd;
	return ioctl(fd, request, arg) == 0 ? 0 : -errno;
}

long ltt_register_generic(uint32_t *facility_id,
			  const struct ltt_user_facility_info *info)
{
	struct ltt_user_register_req req = {
		.facility_id = (uintptr_t)facility_id,
		.info = (uintptr_t)info,
	};

	return door_ioctl(LTT_USER_IOC_REGISTER_GENERIC, &req);
}

/*
 * One event through the door's pwrite(): 0 or -errno.  A descriptor that
 * gives EBADF is opened again once, as for the ioctls.
 */
static long door_pwrite(const void *data, size_t size, uint64_t pos)
{
	int fd = door(-2);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = pwrite(fd, data, size, (off_t)pos);
	if (n < 0 && errno == EBADF) {
		fd = door(fd);
		if (fd < 0)
			return fd;
		n = pwrite(fd, data, size, (off_t)pos);
	}
	if (n < 0)
		return -errno;
	return (size_t)n == size ? 0 : -EIO;
}

long ltt_trace_generic(unsigned int facility_id, unsigned int event_id,
		       const void *data, size_t data_size, int blocking,
		       int high_priority)
{
	struct ltt_user_trace_req req = {
		.facility_id = facility_id,
		.event_id = event_id,
		.data = (uintptr_t)data,
		.data_size = data_size,
		.blocking = blocking,
		.high_priority = high_priority,
	};

	/*
	 * What the offset of a pwrite() can say goes that way
	 * (<ltt/ltt-abi.h>: it costs less than the ioctl); anything else
	 * through the ioctl, whose checks give each bad argument its own
	 * error (pwrite() would refuse a huge size as EFAULT first).
	 */
	if (facility_id <= LTT_USER_POS_ID_MAX && event_id <= LTT_USER_POS_ID_MAX &&
	    (blocking == 0 || blocking == 1) && (high_priority == 0 || high_priority == 1) &&
	    data_size <= LTT_USER_MAX_EVENT_SIZE)
		return door_pwrite(data, data_size,
				   LTT_USER_POS(facility_id, event_id, blocking, high_priority));
	return door_ioctl(LTT_USER_IOC_TRACE_GENERIC, &req);
}

void ltt_usertrace_info(const struct ltt_usertrace_facility *f,
			struct ltt_user_facility_info *info)
{
	memset(info, 0, sizeof(*info));
	/* a name that does not fit is sent unterminated: the kernel says so */
	memcpy(info->name, f->name, strnlen(f->name, sizeof(info->name)));
	info->checksum = f->checksum;
	info->num_events = f->num_events;
	info->int_size = sizeof(int);
	info->long_size = sizeof(long);
	info->pointer_size = sizeof(void *);
	info->size_t_size = sizeof(size_t);
	info->alignment = LTT_USERTRACE_ALIGNMENT;
}

int ltt_usertrace_register(struct ltt_usertrace_facility *f)
{
	struct ltt_user_facility_info info;
	uint32_t id;
	long err;

	if (__atomic_load_n(&f->id, __ATOMIC_ACQUIRE) >= 0)
		return 0;
	ltt_usertrace_info(f, &info);
	/* two threads may both get here: the kernel gives both the same id */
	err = ltt_register_generic(&id, &info);
	if (err)
		return (int)err;
	__atomic_store_n(&f->id, (int)id, __ATOMIC_RELEASE);
	return 0;
}

int ltt_usertrace_write(struct ltt_usertrace_facility *f, unsigned int event,
			const void *data, size_t len)
{
	int err = ltt_usertrace_register(f);

	if (err)
		return err;
	return (int)ltt_trace_generic((unsigned int)f->id, event, data, len,
				      f->blocking, f->high_priority);
}

int ltt_usertrace_write_payload(struct ltt_usertrace_facility *f,
				unsigned int event, const struct ltt_payload *p)
{
	if (p->overflow)
		return -EOVERFLOW;
	return ltt_usertrace_write(f, event, p->data, p->len);
}
