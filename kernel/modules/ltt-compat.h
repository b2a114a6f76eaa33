/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ltt-compat.h - what lets the files of kernel/patches/ build as modules
 * of an unpatched kernel (Debian's 6.1), unchanged.  Kbuild includes it
 * before each of them (-include).
 *
 * A built-in tracer never leaves and may use what the kernel keeps to
 * itself; a module must undo its set-up when it is unloaded and can only
 * call what the kernel exports.  Three kinds of help, each by name:
 *
 * 1. Initcalls become functions that the module's generated main file
 *    (make-source.sh writes ltt-modmain-NAME.c) calls in the order the
 *    built-in kernel would: initcall level, then link order.
 * 2. What a part sets up in the kernel at init is recorded and undone in
 *    reverse order when the module is unloaded: file systems, CPU
 *    hotplug states, /proc entries, netlink sockets, and, from the
 *    modules beside ltt_core, transports and facilities.
 * 3. What 6.1 does not export is found another way: tracepoints by name
 *    (for_each_kernel_tracepoint), interrupt descriptors through
 *    irq_get_irq_data(), task_curr() as on_cpu, and a user string read
 *    without faulting through copy_from_user_nofault().  A tracepoint that
 *    the stock kernel lacks (page_fault_exit, added by patch 0007) is a
 *    probe that never fires: kernel/modules/README.md lists what is lost.
 */
#ifndef _LTT_COMPAT_H
#define _LTT_COMPAT_H

/* ---- 1. initcalls -------------------------------------------------------- */
#include <linux/init.h>
#include <linux/module.h>

#undef early_initcall
#undef core_initcall
#undef postcore_initcall
#undef arch_initcall
#undef subsys_initcall
#undef fs_initcall
#undef device_initcall
#undef late_initcall
#undef late_initcall_sync
/* the main file declares ltt_compat_init_FN and calls it */
#define LTT_COMPAT_INITCALL(fn)						\
	int __init ltt_compat_init_##fn(void);				\
	int __init ltt_compat_init_##fn(void) { return fn(); }
#define early_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define core_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define postcore_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define arch_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define subsys_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define fs_initcall(fn)		LTT_COMPAT_INITCALL(fn)
#define device_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define late_initcall(fn)	LTT_COMPAT_INITCALL(fn)
#define late_initcall_sync(fn)	LTT_COMPAT_INITCALL(fn)

/* ---- 2. what init sets up, undone at unload ------------------------------ */
#include <linux/cpuhotplug.h>
#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/netlink.h>

void ltt_compat_undo_all(void);		/* the module's exit, in reverse */
/* set by the main file around the initcalls: only then is set-up recorded */
extern bool ltt_compat_initializing;
int ltt_compat_register_filesystem(struct file_system_type *fs);
int ltt_compat_cpuhp_setup_state(enum cpuhp_state state, const char *name,
				 int (*startup)(unsigned int cpu),
				 int (*teardown)(unsigned int cpu), bool calls);
struct proc_dir_entry *ltt_compat_proc_create(const char *name, umode_t mode,
					      struct proc_dir_entry *parent,
					      const struct proc_ops *ops);
struct sock *ltt_compat_netlink_kernel_create(struct net *net, int unit,
					      struct netlink_kernel_cfg *cfg);

#define register_filesystem(fs)	ltt_compat_register_filesystem(fs)
#define cpuhp_setup_state(s, n, up, down)				\
	ltt_compat_cpuhp_setup_state(s, n, up, down, true)
#define cpuhp_setup_state_nocalls(s, n, up, down)			\
	ltt_compat_cpuhp_setup_state(s, n, up, down, false)
#define proc_create(n, m, p, ops)	ltt_compat_proc_create(n, m, p, ops)
#define netlink_kernel_create(net, unit, cfg)				\
	ltt_compat_netlink_kernel_create(net, unit, cfg)
/*
 * A permanent /proc entry is not protected against its removal while in
 * use: right for the kernel, wrong for a module that can go.
 */
#define PROC_ENTRY_PERMANENT	0

#ifdef LTT_COMPAT_OUTSIDE_CORE
/*
 * The registries live in ltt_core: a module beside it takes back what its
 * init registered (not what user space registers later through it).
 */
#include <linux/ltt-core.h>
#include <linux/ltt-facilities.h>
int ltt_compat_transport_register(struct ltt_transport *t);
int ltt_compat_facility_register(struct ltt_facility *f);
#define ltt_transport_register(t)	ltt_compat_transport_register(t)
#define ltt_facility_register(f)	ltt_compat_facility_register(f)
#endif

/* ---- 3. what 6.1 does not export ----------------------------------------- */
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

struct irq_desc *ltt_compat_irq_to_desc(unsigned int irq);
int ltt_compat_task_curr(const struct task_struct *t);
long ltt_compat_strncpy_from_user_nofault(char *dst, const void __user *src,
					  long count);
#define irq_to_desc(irq)	ltt_compat_irq_to_desc(irq)
/* descriptors are freed after an RCU grace period */
#define irq_lock_sparse()	rcu_read_lock()
#define irq_unlock_sparse()	rcu_read_unlock()
#define task_curr(t)		ltt_compat_task_curr(t)
#define strncpy_from_user_nofault(d, s, n)				\
	ltt_compat_strncpy_from_user_nofault(d, s, n)

/*
 * The tracepoints ltt-probes.c attaches to, none exported by 6.1: each
 * __tracepoint_NAME is read through a pointer that ltt_compat_tracepoints()
 * finds by name when ltt_core loads (kernel/modules/tracepoints.h).
 */
#define LTT_COMPAT_TP(name)	(*ltt_compat_tp_##name)
#include "tracepoints.h"
int ltt_compat_tracepoints(void);

/*
 * Page faults.  6.1 has a tracepoint where the exception starts and none
 * where it ends (patch 0007 adds page_fault_exit): a trap_entry without
 * its trap_exit would leave the task "in a trap" for a viewer.  So here
 * both come from a kretprobe on handle_mm_fault(), for the faults of a
 * task (with registers) that the memory manager handles: the entry and
 * exit probes of ltt-probes.c are kept when it registers them and called
 * from the kretprobe, which page_fault_exit's registration (the last of
 * the three) arms.  Faults that never reach handle_mm_fault() (a bad
 * address, a vmalloc sync) are not written at all.
 */
#include <asm/trace/exceptions.h>	/* first: the macros below rename its functions */
typedef void (*ltt_compat_pf_entry_t)(void *, unsigned long, struct pt_regs *,
				      unsigned long);
typedef void (*ltt_compat_pf_exit_t)(void *, struct pt_regs *, unsigned long);
int ltt_compat_page_fault_entry(ltt_compat_pf_entry_t probe);
int ltt_compat_page_fault_exit(ltt_compat_pf_exit_t probe);
void ltt_compat_page_fault_off(void);
#define register_trace_page_fault_user(p, d)	ltt_compat_page_fault_entry(p)
#define register_trace_page_fault_kernel(p, d)	ltt_compat_page_fault_entry(p)
#define register_trace_page_fault_exit(p, d)	ltt_compat_page_fault_exit(p)
#define unregister_trace_page_fault_user(p, d)	do { } while (0)
#define unregister_trace_page_fault_kernel(p, d) do { } while (0)
#define unregister_trace_page_fault_exit(p, d)	ltt_compat_page_fault_off()

#endif /* _LTT_COMPAT_H */
