// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-gap-test.ko - a CPU that writes no event for a known number of
 * cycles, for tests/q50-qemu-hostile.sh: writing N to the parameter spin
 * holds the writer's CPU with interrupts off until its cycle counter has
 * advanced N cycles.  Neither the heartbeat nor any other event can be
 * written on that CPU meanwhile, so its tracefiles see the gap that a
 * starved heartbeat, a virtual CPU the host did not run or a counter
 * that jumped would leave: the next event comes N cycles after the last.
 *
 * (The test would rather make the counter jump by writing the TSC MSR,
 * but QEMU's TCG ignores writes to MSR 0x10: the counter is the host's.)
 *
 * N is at most 10 s of the counter, well under the RCU stall timeout
 * (21 s), so that the guest's kernel log stays clean.  The test kernel
 * cannot unload modules: the module stays, idle.
 */
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>

/* the cycles the last spin took, as rdtsc counted them */
static u64 last;
module_param(last, ullong, 0444);

static int spin_set(const char *val, const struct kernel_param *kp)
{
	unsigned long flags;
	u64 n, t0, t;
	int err = kstrtou64(val, 0, &n);

	if (err)
		return err;
	if (!tsc_khz || n > (u64)tsc_khz * 10000)
		return -EINVAL;
	local_irq_save(flags);
	t0 = rdtsc_ordered();
	do {
		cpu_relax();
		t = rdtsc_ordered();
	} while (t - t0 < n);
	local_irq_restore(flags);
	WRITE_ONCE(last, t - t0);
	return 0;
}

static const struct kernel_param_ops spin_ops = {
	.set = spin_set,
};
module_param_cb(spin, &spin_ops, NULL, 0200);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTT test: a CPU silent for a known number of cycles");
