// SPDX-License-Identifier: GPL-2.0
/*
 * ltt-nest-test.ko - a writer nested where the flight recorder is most
 * fragile, for tests/q50-qemu-hostile.sh: a kprobe on
 * ltt_relay_push_reader() (kernel/ltt/ltt-relay.c), which a writer calls
 * right after its reservation opened a new sub-buffer of an overwriting
 * channel, writes an event too big for what is left of that sub-buffer:
 * a second sub-buffer is opened, and the reader pushed, between the
 * first writer's reservation and its own push, every time, as an
 * interrupt would do by chance.
 *
 * Parameters: count (how many hits write, then it stays quiet), len (the
 * payload of each nested event), burst (events written per hit: enough
 * of them wrap the whole buffer while the interrupted writer still owns
 * its slot, issue 27's case 3), arm (written at run time: that many more
 * hits write, with the len and burst of the moment); done (read-only)
 * counts the hits that wrote.
 * The events belong to the facility "nest_test" registered here (the
 * reader does not know it: it skips them by their size).  The test
 * kernel cannot unload modules: the kprobe stays, quiet.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ltt-core.h>
#include <linux/ltt-facilities.h>
#include <linux/module.h>

static int count = 50;
module_param(count, int, 0444);
static int len = 2500;
module_param(len, int, 0644);
static int burst = 1;
module_param(burst, int, 0644);

static struct ltt_facility nest_fac = LTT_FACILITY_INIT("nest_test", 0x4E657374);
static atomic_t left, ndone;
static int done;
module_param(done, int, 0444);
static char payload[4096];

static int arm_set(const char *val, const struct kernel_param *kp)
{
	int n, err = kstrtoint(val, 0, &n);

	if (err)
		return err;
	if (n < 0)
		return -EINVAL;
	atomic_set(&left, n);
	return 0;
}

static const struct kernel_param_ops arm_ops = { .set = arm_set };
module_param_cb(arm, &arm_ops, NULL, 0200);

static int nest_pre(struct kprobe *kp, struct pt_regs *regs)
{
	int n = clamp(READ_ONCE(burst), 1, 64);
	int l = clamp(READ_ONCE(len), 1, (int)sizeof(payload));

	if (atomic_dec_if_positive(&left) < 0)
		return 0;
	while (n--)
		ltt_log_event(NULL, LTT_CHANNEL_CPU, nest_fac.id, 0, payload, l);
	WRITE_ONCE(done, atomic_inc_return(&ndone));
	return 0;
}

static struct kprobe nest_kp = {
	.symbol_name = "ltt_relay_push_reader",
	.pre_handler = nest_pre,
};

static int __init nest_init(void)
{
	int err;

	if (len < 1 || len > (int)sizeof(payload))
		return -EINVAL;
	memset(payload, 'n', sizeof(payload));
	atomic_set(&left, count);
	err = ltt_facility_register(&nest_fac);
	if (err < 0)
		return err;
	err = register_kprobe(&nest_kp);
	if (err) {
		ltt_facility_unregister(&nest_fac);
		return err;
	}
	pr_info("ltt-nest-test: kprobe on %pS, %d nested writes of %d bytes to come\n",
		nest_kp.addr, count, len);
	return 0;
}

module_init(nest_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTT test: a writer nested in the flight recorder's push");
