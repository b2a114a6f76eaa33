/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoints.h - the tracepoints of 6.1 that ltt-probes.c uses, each
 * read through a pointer found by name at load (ltt-compat.c): a module
 * cannot link to __tracepoint_NAME, which 6.1 does not export.
 * LTT_COMPAT_TRACEPOINT(name) is defined by whoever includes this list.
 */
#ifndef LTT_COMPAT_TRACEPOINT
#define LTT_COMPAT_TRACEPOINT(name)					\
	extern struct tracepoint *ltt_compat_tp_##name;
#define __tracepoint_sched_switch	LTT_COMPAT_TP(sched_switch)
#define __tracepoint_sched_waking	LTT_COMPAT_TP(sched_waking)
#define __tracepoint_sched_wakeup_new	LTT_COMPAT_TP(sched_wakeup_new)
#define __tracepoint_sched_process_fork	LTT_COMPAT_TP(sched_process_fork)
#define __tracepoint_sched_process_exit	LTT_COMPAT_TP(sched_process_exit)
#define __tracepoint_sched_process_free	LTT_COMPAT_TP(sched_process_free)
#define __tracepoint_sched_process_wait	LTT_COMPAT_TP(sched_process_wait)
#define __tracepoint_sched_process_exec	LTT_COMPAT_TP(sched_process_exec)
#define __tracepoint_sys_enter		LTT_COMPAT_TP(sys_enter)
#define __tracepoint_sys_exit		LTT_COMPAT_TP(sys_exit)
#define __tracepoint_irq_handler_entry	LTT_COMPAT_TP(irq_handler_entry)
#define __tracepoint_irq_handler_exit	LTT_COMPAT_TP(irq_handler_exit)
#define __tracepoint_local_timer_entry	LTT_COMPAT_TP(local_timer_entry)
#define __tracepoint_local_timer_exit	LTT_COMPAT_TP(local_timer_exit)
#define __tracepoint_softirq_entry	LTT_COMPAT_TP(softirq_entry)
#define __tracepoint_softirq_exit	LTT_COMPAT_TP(softirq_exit)
#define __tracepoint_tasklet_entry	LTT_COMPAT_TP(tasklet_entry)
#define __tracepoint_tasklet_exit	LTT_COMPAT_TP(tasklet_exit)
struct tracepoint;
#endif
LTT_COMPAT_TRACEPOINT(sched_switch)
LTT_COMPAT_TRACEPOINT(sched_waking)
LTT_COMPAT_TRACEPOINT(sched_wakeup_new)
LTT_COMPAT_TRACEPOINT(sched_process_fork)
LTT_COMPAT_TRACEPOINT(sched_process_exit)
LTT_COMPAT_TRACEPOINT(sched_process_free)
LTT_COMPAT_TRACEPOINT(sched_process_wait)
LTT_COMPAT_TRACEPOINT(sched_process_exec)
LTT_COMPAT_TRACEPOINT(sys_enter)
LTT_COMPAT_TRACEPOINT(sys_exit)
LTT_COMPAT_TRACEPOINT(irq_handler_entry)
LTT_COMPAT_TRACEPOINT(irq_handler_exit)
LTT_COMPAT_TRACEPOINT(local_timer_entry)
LTT_COMPAT_TRACEPOINT(local_timer_exit)
LTT_COMPAT_TRACEPOINT(softirq_entry)
LTT_COMPAT_TRACEPOINT(softirq_exit)
LTT_COMPAT_TRACEPOINT(tasklet_entry)
LTT_COMPAT_TRACEPOINT(tasklet_exit)
#undef LTT_COMPAT_TRACEPOINT
