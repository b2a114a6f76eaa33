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
