// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-compat.c - the module side of ltt-compat.h: the undo log of what
 * init set up, the tracepoints found by name, and the few kernel
 * functions 6.1 keeps to itself.  Linked into every module; each has its
 * own undo log.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ltt-core.h>
#include <linux/ltt-facilities.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <net/sock.h>

/* ---- the undo log -------------------------------------------------------- */

enum ltt_undo_kind {
	LTT_UNDO_FS, LTT_UNDO_CPUHP, LTT_UNDO_PROC, LTT_UNDO_NETLINK,
	LTT_UNDO_TRANSPORT, LTT_UNDO_FACILITY,
};

struct ltt_undo {
	enum ltt_undo_kind kind;
	union {
		struct file_system_type *fs;
		int cpuhp;
		struct proc_dir_entry *pde;
		struct sock *sk;
		struct ltt_transport *transport;
		struct ltt_facility *facility;
	};
};

/* More than any module of ours sets up; a part that needs more fails. */
#define LTT_UNDO_MAX	16
static struct ltt_undo ltt_undo_log[LTT_UNDO_MAX];
static unsigned int ltt_undo_n;

bool ltt_compat_initializing;

static int ltt_undo_push(struct ltt_undo u)
{
	if (ltt_undo_n == LTT_UNDO_MAX) {
		pr_err("LTT: compat: undo log full\n");
		return -ENOSPC;
	}
	ltt_undo_log[ltt_undo_n++] = u;
	return 0;
}

void ltt_compat_undo_all(void)
{
	while (ltt_undo_n) {
		struct ltt_undo *u = &ltt_undo_log[--ltt_undo_n];

		switch (u->kind) {
		case LTT_UNDO_FS:
			unregister_filesystem(u->fs);
			break;
		case LTT_UNDO_CPUHP:
			cpuhp_remove_state(u->cpuhp);
			break;
		case LTT_UNDO_PROC:
			proc_remove(u->pde);
			break;
		case LTT_UNDO_NETLINK:
			netlink_kernel_release(u->sk);
			break;
#ifdef LTT_COMPAT_OUTSIDE_CORE
		case LTT_UNDO_TRANSPORT:
			ltt_transport_unregister(u->transport);
			break;
		case LTT_UNDO_FACILITY:
			ltt_facility_unregister(u->facility);
			break;
#endif
		default:
			break;
		}
	}
}

/*
 * Each wrapper sets up first, then records; if the record fails, it
 * undoes what it set up and fails the part's init as the kernel would.
 */
#undef register_filesystem
int ltt_compat_register_filesystem(struct file_system_type *fs)
{
	int err = register_filesystem(fs);

	if (!err && ltt_undo_push((struct ltt_undo){ LTT_UNDO_FS, .fs = fs })) {
		unregister_filesystem(fs);
		err = -ENOSPC;
	}
	return err;
}

#undef cpuhp_setup_state
#undef cpuhp_setup_state_nocalls
int ltt_compat_cpuhp_setup_state(enum cpuhp_state state, const char *name,
				 int (*startup)(unsigned int cpu),
				 int (*teardown)(unsigned int cpu), bool calls)
{
	int ret = calls ? cpuhp_setup_state(state, name, startup, teardown) :
			  cpuhp_setup_state_nocalls(state, name, startup, teardown);
	/* a dynamic state is the number returned, a fixed one is @state */
	int id = state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN ?
		 ret : state;

	if (ret >= 0 &&
	    ltt_undo_push((struct ltt_undo){ LTT_UNDO_CPUHP, .cpuhp = id })) {
		cpuhp_remove_state(id);
		ret = -ENOSPC;
	}
	return ret;
}

#undef proc_create
struct proc_dir_entry *ltt_compat_proc_create(const char *name, umode_t mode,
					      struct proc_dir_entry *parent,
					      const struct proc_ops *ops)
{
	struct proc_dir_entry *pde = proc_create(name, mode, parent, ops);

	if (pde && ltt_undo_push((struct ltt_undo){ LTT_UNDO_PROC, .pde = pde })) {
		proc_remove(pde);
		pde = NULL;
	}
	return pde;
}

#undef netlink_kernel_create
struct sock *ltt_compat_netlink_kernel_create(struct net *net, int unit,
					      struct netlink_kernel_cfg *cfg)
{
	struct sock *sk = netlink_kernel_create(net, unit, cfg);

	if (sk && ltt_undo_push((struct ltt_undo){ LTT_UNDO_NETLINK, .sk = sk })) {
		netlink_kernel_release(sk);
		sk = NULL;
	}
	return sk;
}

#ifdef LTT_COMPAT_OUTSIDE_CORE
#undef ltt_transport_register
#undef ltt_facility_register
int ltt_compat_transport_register(struct ltt_transport *t)
{
	int err = ltt_transport_register(t);

	if (!err && ltt_undo_push((struct ltt_undo){ LTT_UNDO_TRANSPORT,
						     .transport = t })) {
		ltt_transport_unregister(t);
		err = -ENOSPC;
	}
	return err;
}

/*
 * A facility registered at init is unregistered at unload; user-space
 * ones come and go with their tables (ltt-user-facilities.c).
 */
int ltt_compat_facility_register(struct ltt_facility *f)
{
	int id = ltt_facility_register(f);

	if (id >= 0 && ltt_compat_initializing && ltt_undo_push((struct ltt_undo){ LTT_UNDO_FACILITY,
							.facility = f })) {
		ltt_facility_unregister(f);
		id = -ENOSPC;
	}
	return id;
}
#endif

/* ---- what 6.1 does not export -------------------------------------------- */

#ifdef LTT_COMPAT_CORE
/* The tracepoints of tracepoints.h, found by name. */
#define LTT_COMPAT_TRACEPOINT(name) struct tracepoint *ltt_compat_tp_##name;
#include "tracepoints.h"

static const struct {
	const char *name;
	struct tracepoint **tp;
} ltt_compat_tp_table[] = {
#define LTT_COMPAT_TRACEPOINT(name) { #name, &ltt_compat_tp_##name },
#include "tracepoints.h"
};

static void ltt_compat_tp_match(struct tracepoint *tp, void *priv)
{
	unsigned int *found = priv;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ltt_compat_tp_table); i++) {
		if (!strcmp(tp->name, ltt_compat_tp_table[i].name) &&
		    !*ltt_compat_tp_table[i].tp) {
			*ltt_compat_tp_table[i].tp = tp;
			(*found)++;
		}
	}
}

/*
 * Called first by ltt_core's init: a kernel without one of them (another
 * version, another configuration) is refused at load, by name, rather
 * than tracing without saying what is missing.
 */
int ltt_compat_tracepoints(void)
{
	unsigned int found = 0;
	size_t i;
	int err = 0;

	for_each_kernel_tracepoint(ltt_compat_tp_match, &found);
	for (i = 0; i < ARRAY_SIZE(ltt_compat_tp_table); i++) {
		if (!*ltt_compat_tp_table[i].tp) {
			pr_err("LTT: this kernel has no tracepoint %s\n",
			       ltt_compat_tp_table[i].name);
			err = -ENOENT;
		}
	}
	return err;
}

/* ---- page faults: a kretprobe on handle_mm_fault() (ltt-compat.h) ------- */

static ltt_compat_pf_entry_t ltt_compat_pf_entry;
static ltt_compat_pf_exit_t ltt_compat_pf_exit;

struct ltt_compat_pf {
	struct pt_regs *regs;	/* the faulting context's */
};

static int ltt_compat_pf_enter(struct kretprobe_instance *ri,
			       struct pt_regs *kregs)
{
	struct ltt_compat_pf *pf = (struct ltt_compat_pf *)ri->data;
	/* handle_mm_fault(vma, address, flags, regs) */
	unsigned long address = regs_get_kernel_argument(kregs, 1);
	struct pt_regs *regs = (void *)regs_get_kernel_argument(kregs, 3);

	if (!regs)
		return 1;	/* get_user_pages(): no trap, no exit probe */
	pf->regs = regs;
	ltt_compat_pf_entry(NULL, address, regs, 0);
	return 0;
}

static int ltt_compat_pf_return(struct kretprobe_instance *ri,
				struct pt_regs *kregs)
{
	struct ltt_compat_pf *pf = (struct ltt_compat_pf *)ri->data;

	ltt_compat_pf_exit(NULL, pf->regs, 0);
	return 0;
}

static struct kretprobe ltt_compat_pf_probe = {
	.kp.symbol_name	= "handle_mm_fault",
	.entry_handler	= ltt_compat_pf_enter,
	.handler	= ltt_compat_pf_return,
	.data_size	= sizeof(struct ltt_compat_pf),
	/* faults in flight at once: every CPU, and those that sleep */
	.maxactive	= 256,
};

int ltt_compat_page_fault_entry(ltt_compat_pf_entry_t probe)
{
	ltt_compat_pf_entry = probe;
	return 0;
}

int ltt_compat_page_fault_exit(ltt_compat_pf_exit_t probe)
{
	int err;

	if (!ltt_compat_pf_entry)
		return -EINVAL;
	ltt_compat_pf_exit = probe;
	/* a fresh kretprobe each time: register_kretprobe() wants one */
	memset(&ltt_compat_pf_probe.kp, 0, sizeof(ltt_compat_pf_probe.kp));
	ltt_compat_pf_probe.kp.symbol_name = "handle_mm_fault";
	ltt_compat_pf_probe.nmissed = 0;
	err = register_kretprobe(&ltt_compat_pf_probe);
	if (err)
		pr_err("LTT: cannot probe handle_mm_fault (%d)\n", err);
	return err;
}

void ltt_compat_page_fault_off(void)
{
	unregister_kretprobe(&ltt_compat_pf_probe);
}

#undef irq_to_desc
/*
 * 6.1 exports irq_get_irq_data() but not irq_to_desc(); an interrupt
 * line's first irq_data is the one inside its descriptor.  Under RCU
 * (irq_lock_sparse() above): descriptors are freed after a grace period.
 */
struct irq_desc *ltt_compat_irq_to_desc(unsigned int irq)
{
	struct irq_data *d = irq_get_irq_data(irq);

	return d ? container_of(d, struct irq_desc, irq_data) : NULL;
}

#undef task_curr
/* Running on a CPU now (or being switched to or from it). */
int ltt_compat_task_curr(const struct task_struct *t)
{
	return READ_ONCE(t->on_cpu);
}

#undef strncpy_from_user_nofault
/*
 * A NUL-terminated user string of at most @count bytes, without faulting:
 * a word at a time through copy_from_user_nofault(), which 6.1 exports,
 * then byte by byte at a page's end.  Returns its length, or -EFAULT.
 */
long ltt_compat_strncpy_from_user_nofault(char *dst, const void __user *src,
					  long count)
{
	const char __user *s = src;
	long n = 0;

	while (n < count) {
		long chunk = min_t(long, count - n, sizeof(unsigned long));
		char *nul;

		if (copy_from_user_nofault(dst + n, s + n, chunk)) {
			if (chunk == 1)
				return -EFAULT;
			chunk = 1;	/* maybe the page ends inside the word */
			if (copy_from_user_nofault(dst + n, s + n, 1))
				return -EFAULT;
		}
		nul = memchr(dst + n, '\0', chunk);
		if (nul)
			return nul - dst;
		n += chunk;
	}
	return n;
}
#endif /* LTT_COMPAT_CORE */
