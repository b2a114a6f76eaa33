// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-slow-online.ko - a CPU that takes its time to come online, for
 * tests/q50-qemu-hostile.sh's traces created during CPU hotplug.
 *
 * relay gives a channel the buffers of the CPUs online when it is opened,
 * and a CPU coming up its own in relay's prepare step (CPUHP_RELAY_PREPARE)
 * once the channel is on relay's list.  A trace created between the two
 * steps would leave that CPU without buffers, unless the tracer holds the
 * hotplug lock around relay_open (patch 0004).  On an emulated machine
 * that window lasts a few milliseconds, so a test that only races a
 * create against an online seldom lands in it, with or without the lock.
 *
 * This module adds a prepare step of its own, which the kernel runs after
 * relay's (the dynamic prepare states follow the fixed ones) and before
 * the CPU is started: it sleeps delay_ms there.  A create that starts
 * while a CPU comes up then falls into the window nearly every time; with
 * the lock it waits for the CPU instead, and gets its buffers.
 *
 * delay_ms is writable (0: no delay), since the test kernel cannot unload
 * modules.
 */
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned int delay_ms = 200;
module_param(delay_ms, uint, 0644);
MODULE_PARM_DESC(delay_ms, "sleep in a CPU's prepare step, after relay's (at most 2000 ms)");

/* the prepare steps that slept, for the test to see it worked */
static unsigned int slept;
module_param(slept, uint, 0444);

static enum cpuhp_state state;

static int slow_prepare(unsigned int cpu)
{
	unsigned int ms = min(READ_ONCE(delay_ms), 2000U);

	if (ms) {
		msleep(ms);
		WRITE_ONCE(slept, slept + 1);
	}
	return 0;
}

static int __init slow_init(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "ltt/slow-online:prepare",
					    slow_prepare, NULL);

	if (ret < 0)
		return ret;
	state = ret;
	return 0;
}

static void __exit slow_exit(void)
{
	cpuhp_remove_state_nocalls(state);
}

module_init(slow_init);
module_exit(slow_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tests: a CPU that sleeps in its prepare step, after relay's");
