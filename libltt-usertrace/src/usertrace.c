// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * usertrace.c - libltt-usertrace: facility registration and event writing
 * through the ltt_register_generic / ltt_trace_generic system calls
 * (numbers and structures: <ltt/ltt-abi.h>).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ltt-usertrace.h"

/*
 * The system call numbers are free ones of Linux 6.1 only: later kernels
 * gave them to other calls (cachestat, fchmodat2).  So no call is made
 * unless the running kernel has the LTT tracer, known by its relayfs.
 */
int ltt_usertrace_available(void)
{
	static int known = -1;
	char line[128];
	FILE *f;
	int yes = 0;

	if (__atomic_load_n(&known, __ATOMIC_RELAXED) >= 0)
		return known;
	f = fopen("/proc/filesystems", "re");
	if (f) {
		while (!yes && fgets(line, sizeof(line), f))
			yes = strcmp(line, "nodev\trelayfs\n") == 0;
		fclose(f);
	}
	__atomic_store_n(&known, yes, __ATOMIC_RELAXED);
	return yes;
}

long ltt_register_generic(uint32_t *facility_id,
			  const struct ltt_user_facility_info *info)
{
	if (!ltt_usertrace_available())
		return -ENOSYS;
	return syscall(LTT_SYSCALL_REGISTER_GENERIC, facility_id, info) < 0 ?
		-errno : 0;
}

long ltt_trace_generic(unsigned int facility_id, unsigned int event_id,
		       const void *data, size_t data_size, int blocking,
		       int high_priority)
{
	if (!ltt_usertrace_available())
		return -ENOSYS;
	return syscall(LTT_SYSCALL_TRACE_GENERIC, facility_id, event_id, data,
		       data_size, blocking, high_priority) < 0 ? -errno : 0;
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
