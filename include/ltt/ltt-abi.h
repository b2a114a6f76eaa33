/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * ltt-abi.h - the binary interface of the Linux Trace Toolkit.
 *
 * This is the single home of every layout and constant that crosses a
 * boundary: the kernel writes these structures into relayfs sub-buffers,
 * lttd copies them verbatim to disk, libltttrace reads them back, lttctl
 * sends the control message over netlink.  The kernel patch series carries
 * a byte-identical copy as include/uapi/linux/ltt-abi.h
 * (tests/t05-abi-sync.sh checks it); nothing else may redefine these layouts.
 *
 * Only <linux/types.h> and <linux/ioctl.h> are used so that the same text
 * compiles in the kernel and in user space.  docs/format.md explains every
 * byte.
 */
#ifndef _UAPI_LINUX_LTT_ABI_H
#define _UAPI_LINUX_LTT_ABI_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* ---- Trace identity ---------------------------------------------------- */

#define LTT_TRACER_MAGIC_NUMBER		0x00D6B7ED
#define LTT_TRACER_VERSION_MAJOR	0
#define LTT_TRACER_VERSION_MINOR	7

/* arch_type values */
#define LTT_ARCH_TYPE_I386		1
#define LTT_ARCH_TYPE_PPC		2
#define LTT_ARCH_TYPE_SH		3
#define LTT_ARCH_TYPE_S390		4
#define LTT_ARCH_TYPE_MIPS		5
#define LTT_ARCH_TYPE_ARM		6
#define LTT_ARCH_TYPE_PPC64		7
#define LTT_ARCH_TYPE_X86_64		8
#define LTT_ARCH_TYPE_C2		9
#define LTT_ARCH_TYPE_POWERPC		10
#define LTT_ARCH_VARIANT_NONE		0

/* flight_recorder values: the trace mode */
#define LTT_TRACE_MODE_NORMAL		0
#define LTT_TRACE_MODE_FLIGHT		1
#define LTT_TRACE_MODE_HYBRID		2

/*
 * Written at the start of every sub-buffer, right after the block header.
 * Packed: its size is 66 bytes.
 */
struct ltt_trace_header {
	__u32 magic_number;
	__u32 arch_type;
	__u32 arch_variant;
	__u32 float_word_order;		/* only useful for user space traces */
	__u8 arch_size;			/* sizeof(void *) of the writer */
	__u8 major_version;
	__u8 minor_version;
	__u8 flight_recorder;		/* LTT_TRACE_MODE_* */
	__u8 has_heartbeat;		/* 1: 32-bit event timestamps */
	__u8 has_alignment;		/* 0: packed, else max alignment */
	__u32 freq_scale;		/* Hz = start_freq * freq_scale */
	__u64 start_freq;
	__u64 start_tsc;
	__u64 start_monotonic;		/* ns, CLOCK_MONOTONIC at start */
	__u64 start_time_sec;		/* wall clock at start_tsc */
	__u64 start_time_usec;
} __attribute__((packed));

/*
 * Every sub-buffer opens with this header (106 bytes, packed).  The events
 * of the sub-buffer lie in [sizeof(header), buf_size - lost_size).
 */
struct ltt_block_start_header {
	struct {
		__u64 cycle_count;	/* 64-bit TSC when the sub-buffer began */
		__u64 freq;		/* kHz */
	} __attribute__((packed)) begin;
	struct {
		__u64 cycle_count;	/* 64-bit TSC when it was closed */
		__u64 freq;		/* kHz */
	} __attribute__((packed)) end;
	__u32 lost_size;		/* unused bytes at the end */
	__u32 buf_size;			/* size of this sub-buffer */
	struct ltt_trace_header trace;
} __attribute__((packed));

/* ---- Event headers ------------------------------------------------------ */

/* has_heartbeat != 0: 32 low bits of the cycle counter (8 bytes). */
struct ltt_event_header_hb {
	__u32 timestamp;
	__u8 facility_id;
	__u8 event_id;
	__u16 event_size;
} __attribute__((packed));

/* has_heartbeat == 0: the full 64-bit cycle counter (12 bytes). */
struct ltt_event_header_nohb {
	__u64 timestamp;
	__u8 facility_id;
	__u8 event_id;
	__u16 event_size;
} __attribute__((packed));

/* event_size value meaning "too large, compute it from the description" */
#define LTT_EVENT_SIZE_UNKNOWN		0xFFFFU

/* ---- The core facility (facilities/core.xml) ---------------------------- */

#define LTT_CORE_FACILITY_NAME		"core"
#define LTT_CORE_FACILITY_CHECKSUM	0x1A8DE486U
#define LTT_CORE_FACILITY_ID		0
/* The longest facility name the kernel registers, its NUL included. */
#define LTT_FACILITY_NAME_LEN		64
enum ltt_core_event {
	LTT_EVENT_CORE_FACILITY_LOAD = 0,
	LTT_EVENT_CORE_FACILITY_UNLOAD = 1,
	LTT_EVENT_CORE_TIME_HEARTBEAT = 2,
	LTT_EVENT_CORE_STATE_DUMP_FACILITY_LOAD = 3,
};
#define LTT_MAX_FACILITIES		256	/* facility_id is a __u8 */

/* ---- Trace directory layout (relayfs and the copy lttd writes) ---------- */

#define LTT_RELAYFS_ROOT	"ltt"
#define LTT_CONTROL_ROOT	"control"
#define LTT_FACILITIES_CHANNEL	"facilities"
#define LTT_INTERRUPTS_CHANNEL	"interrupts"
#define LTT_PROCESSES_CHANNEL	"processes"
#define LTT_MODULES_CHANNEL	"modules"
#define LTT_NETWORK_CHANNEL	"network"
#define LTT_CPU_CHANNEL		"cpu"
#define LTT_FLIGHT_PREFIX	"flight-"
#define LTT_EVENTDEFS_DIR	"eventdefs"

/* ---- Tracer defaults ---------------------------------------------------- */

#define LTT_DEFAULT_SUBBUF_SIZE_LOW	65536
#define LTT_DEFAULT_N_SUBBUFS_LOW	2
#define LTT_DEFAULT_SUBBUF_SIZE_MED	262144
#define LTT_DEFAULT_N_SUBBUFS_MED	2
#define LTT_DEFAULT_SUBBUF_SIZE_HIGH	1048576
#define LTT_DEFAULT_N_SUBBUFS_HIGH	4
#define LTT_RESERVE_CRITICAL		4096

/* ---- relayfs ioctls (on a channel file) --------------------------------- */

/* Get the next sub-buffer that can be read: its consumed offset. */
#define RELAYFS_GET_SUBBUF		_IOR(0xF4, 0x00, __u32)
/* Release the sub-buffer taken by GET_SUBBUF (argument: that offset). */
#define RELAYFS_PUT_SUBBUF		_IOW(0xF4, 0x01, __u32)
/* Number of sub-buffers in the per-cpu buffer. */
#define RELAYFS_GET_N_SUBBUFS		_IOR(0xF4, 0x02, __u32)
/* Size of one sub-buffer. */
#define RELAYFS_GET_SUBBUF_SIZE		_IOR(0xF4, 0x03, __u32)

/* ---- netlink control ---------------------------------------------------- */

#define NETLINK_LTT			31
#define LTTCTLM_CONTROL			0x11	/* nlmsg_type of a request */

enum ltt_control_op {
	LTT_OP_CREATE = 0,
	LTT_OP_DESTROY = 1,
	LTT_OP_START = 2,
	LTT_OP_STOP = 3,
};

/* NAME_MAX of <linux/limits.h>: the 2006 message's name arrays */
#define LTT_CONTROL_NAME_LEN		255

/*
 * The payload of an LTTCTLM_CONTROL message: 544 bytes, the layout of the
 * 2006 tracer's lttctl_peer_msg_t (LTTng 0.5.108's ltt-control.h, whose
 * enums are 4-byte ints on every Linux ABI), so that the lttctl of that
 * era works unchanged.  Its fields spelled as fixed-size types: the same
 * bytes for a 32-bit lttctl and a 64-bit kernel.  Names are NUL-terminated
 * within their arrays (the kernel refuses them otherwise); trace_type may
 * be empty ("relay").  args is read by LTT_OP_CREATE only; a size or count
 * of 0 means "the default of the mode".  pad is the compiler's padding
 * before op in the 2006 struct: ignored.
 *
 * The kernel also takes the 528 bytes of the lttctl from before the hybrid
 * mode (ltt-control until September 13, 2006): this layout up to, not
 * including, subbuf_size_med, with its one geometry in subbuf_size_low and
 * n_subbufs_low.  That geometry is the cpu channel's; the control channels
 * get the defaults of the mode.  No other length is accepted.
 */
struct ltt_control_msg {
	char trace_name[LTT_CONTROL_NAME_LEN];	/* offset 0 */
	char trace_type[LTT_CONTROL_NAME_LEN];	/* 255: transport, "relay" */
	__u8 pad[2];				/* 510 */
	__u32 op;				/* 512: enum ltt_control_op */
	union {
		struct {
			__u32 mode;		/* 516: LTT_TRACE_MODE_* */
			__u32 subbuf_size_low;	/* 520 */
			__u32 n_subbufs_low;	/* 524 */
			__u32 subbuf_size_med;	/* 528 */
			__u32 n_subbufs_med;	/* 532 */
			__u32 subbuf_size_high;	/* 536 */
			__u32 n_subbufs_high;	/* 540 */
		} new_trace;
	} args;
};

/* ---- User-space tracing system calls ------------------------------------ */

/*
 * x86_64 numbers outside the system call table, at the top of the range
 * below the x32 bit: upstream numbers its calls one after the other from
 * the table's end (471 in 2026), so it can never reach these, and the
 * tracer never changes what a number upstream defines does (the first
 * free ones of 6.1, 451 and 452, became cachestat and fchmodat2 in 6.5 and
 * 6.6).  The patched kernel's do_syscall_64() tries them where it would
 * answer ENOSYS (patch 0009); no i386 numbers.  Programs use the door
 * below instead (libltt-usertrace does): it exists on every kernel with
 * this tracer, the modules for an unpatched kernel included.
 *
 *   long ltt_register_generic(__u32 *facility_id,
 *                             const struct ltt_user_facility_info *info);
 *	Registers (or finds) the facility for the calling process and
 *	writes its id.  Errors: EFAULT, EINVAL (empty or bad name, bad
 *	sizes, alignment not the kernel's, num_events 0 or > 256,
 *	reserved bytes not 0), ENAMETOOLONG
 *	(name not NUL-terminated within its array), ENOSPC (the process
 *	has LTT_USER_MAX_FACILITIES already, or no facility id is left),
 *	EEXIST (name and checksum of a kernel facility, or the same with
 *	other type sizes), ENOMEM.
 *
 *   long ltt_trace_generic(unsigned int facility_id, unsigned int event_id,
 *                          const void *data, size_t data_size,
 *                          int blocking, int high_priority);
 *	Writes one event whose payload is the data_size bytes at data into
 *	every active trace.  blocking = 1: wait (interruptibly) for room in
 *	the buffer instead of losing the event; high_priority = 1: the
 *	processes channel instead of cpu.  Errors: EPERM (facility not
 *	registered by this process), EINVAL (event_id >= num_events,
 *	blocking or high_priority not 0/1, data_size above
 *	LTT_USER_MAX_EVENT_SIZE or above what a sub-buffer of an active
 *	trace holds), EFAULT, ENOMEM, EINTR (a signal while blocked),
 *	EAGAIN (high_priority without CAP_SYS_ADMIN, not blocking, while
 *	half of this CPU's processes buffer awaits the reader: the rest is
 *	kept for the kernel's own events; blocking waits for it instead).
 *	Returns 0 with no active trace (data is not read then).
 */
#define LTT_SYSCALL_REGISTER_GENERIC	0x3FFFFF00
#define LTT_SYSCALL_TRACE_GENERIC	0x3FFFFF01

/*
 * The same two requests as ioctls on a descriptor of /proc/ltt_user_generic,
 * with the same checks and errors: the door of a kernel that cannot have
 * the system calls (the modules for an unpatched kernel), and of every
 * kernel with this tracer.  Its open is the gate (EACCES: the group
 * ltt_user.gid, or CAP_SYS_ADMIN).  The facility table is the open file's,
 * not the process's: shared by whoever shares the descriptor (a fork), and
 * dropped at its last close; open it O_CLOEXEC, so that a new program does
 * not inherit the ids (as execve() drops them for the system calls).
 * Pointers are 64-bit fields: one layout on every ABI.
 */
struct ltt_user_register_req {
	__u64 facility_id;			/* __u32 *: the id, written */
	__u64 info;				/* const struct ltt_user_facility_info * */
};

struct ltt_user_trace_req {
	__u32 facility_id;
	__u32 event_id;
	__u64 data;				/* const void * */
	__u64 data_size;
	__s32 blocking;				/* 0 or 1 */
	__s32 high_priority;			/* 0 or 1 */
};

#define LTT_USER_IOC_REGISTER_GENERIC	_IOW(0xF5, 0x00, struct ltt_user_register_req)
#define LTT_USER_IOC_TRACE_GENERIC	_IOW(0xF5, 0x01, struct ltt_user_trace_req)
#define LTT_USER_DOOR			"/proc/ltt_user_generic"

/*
 * ltt_trace_generic as one pwrite() on the door, the cheaper way: the
 * buffer is the payload and the file offset names the event, as the
 * offset of /dev/cpu/N/msr names a register.  An ioctl pays the security
 * modules' ioctl hooks and a copy of its request on every event; a write
 * pays what a write to ftrace's trace_marker pays.  The offset is
 * LTT_USER_POS(facility_id, event_id, blocking, high_priority): ids up to
 * LTT_USER_POS_ID_MAX, flags 0 or 1.  An offset with another bit set is
 * EINVAL.  The checks and errors are the ioctl's; success returns the
 * size written.  Offset 0, a plain write(), is a user_generic.string.
 * A request the offset cannot hold (a larger id or flag) goes through the
 * ioctl, which refuses it with its own error.
 */
#define LTT_USER_POS_TRACE		(1ULL << 62)
#define LTT_USER_POS_FACILITY_SHIFT	24
#define LTT_USER_POS_EVENT_SHIFT	8
#define LTT_USER_POS_ID_MAX		0xFFFFU
#define LTT_USER_POS_HIGH_PRIORITY	(1ULL << 1)
#define LTT_USER_POS_BLOCKING		(1ULL << 0)
#define LTT_USER_POS(facility_id, event_id, blocking, high_priority)	\
	(LTT_USER_POS_TRACE |						\
	 ((__u64)(facility_id) << LTT_USER_POS_FACILITY_SHIFT) |	\
	 ((__u64)(event_id) << LTT_USER_POS_EVENT_SHIFT) |		\
	 ((blocking) ? LTT_USER_POS_BLOCKING : 0) |			\
	 ((high_priority) ? LTT_USER_POS_HIGH_PRIORITY : 0))
#define LTT_USER_POS_VALID						\
	LTT_USER_POS(LTT_USER_POS_ID_MAX, LTT_USER_POS_ID_MAX, 1, 1)

#define LTT_USER_MAX_FACILITIES		32	/* per process */
#define LTT_USER_MAX_EVENT_SIZE		65535	/* fits the event_size field */

/*
 * The description of a user-space facility (80 bytes, no padding, the
 * same on every ABI).  checksum is that of the facility's XML, as the
 * reader computes it; the sizes are the writer's C types, recorded in
 * core.facility_load so that the reader decodes the payload with them.
 */
struct ltt_user_facility_info {
	char name[LTT_FACILITY_NAME_LEN];	/* [A-Za-z0-9_], NUL-terminated */
	__u32 checksum;
	__u32 num_events;			/* event ids 0..num_events-1 */
	__u8 int_size;
	__u8 long_size;
	__u8 pointer_size;
	__u8 size_t_size;
	__u8 alignment;				/* the kernel's: 0 or sizeof(void *) */
	__u8 reserved[3];			/* 0 */
};

#endif /* _UAPI_LINUX_LTT_ABI_H */
