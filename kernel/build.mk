# kernel/build.mk - `make kernel`: Debian's linux-source 6.1 with our patch
# series, configured small, built into build-kernel/ (ignored by git).
# The work is in kernel/build.sh; it is incremental: the tree is unpacked
# once, a changed series is swapped in by reversing the old one, and only
# the files that changed are rebuilt.

LTT_KERNEL_DEBUG ?= 1
KERNEL_TREE := build-kernel/linux-source-6.1
KERNEL_IMAGE := $(KERNEL_TREE)/arch/x86/boot/bzImage

.PHONY: kernel
kernel:
	@LTT_KERNEL_DEBUG=$(LTT_KERNEL_DEBUG) kernel/build.sh

# The benchmark kernel (`make bench`): no debug options, ftrace's events on,
# in its own folder so that it never swaps the test kernel's configuration.
BENCH_KERNEL_OUT := build-kernel-bench
BENCH_KERNEL_IMAGE := $(BENCH_KERNEL_OUT)/linux-source-6.1/arch/x86/boot/bzImage

.PHONY: bench-kernel
bench-kernel:
	@LTT_KERNEL_DEBUG=0 LTT_KERNEL_OUT=$(BENCH_KERNEL_OUT) \
		LTT_KERNEL_FRAGMENT=kernel/config-bench-fragment kernel/build.sh

# The debug kernel of the modules' tests (tests/q61): no tracer built in,
# the debug options, kmemleak, and what kernel/modules/ needs
# (kernel/config-modtest-fragment), in its own folder.
MODTEST_KERNEL_OUT := build-kernel-modtest
MODTEST_KERNEL_TREE := $(MODTEST_KERNEL_OUT)/linux-source-6.1

.PHONY: modtest-kernel
modtest-kernel:
	@LTT_KERNEL_DEBUG=1 LTT_KERNEL_TRACER=0 LTT_KERNEL_OUT=$(MODTEST_KERNEL_OUT) \
		LTT_KERNEL_FRAGMENT=kernel/config-modtest-fragment kernel/build.sh
