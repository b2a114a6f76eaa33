#!/bin/sh
# qemu/run.sh OUT_DIR - boot the test kernel in QEMU and run the guest test.
#
# Builds an initramfs (busybox-static, lttctl, lttd, ltt-guest-tool, the
# user-space tracing example and tool when built, the example's XML in
# /usr/share/ltt/examples,
# guest scripts, facilities/*.xml in /usr/share/ltt/facilities), boots
# build-kernel's bzImage with TCG (KVM does not work on these machines) on
# 2 CPUs, and shares OUT_DIR with the guest over 9p: the guest leaves there
# results, guest.log, dmesg.txt and the traces lttd wrote.  The serial
# console goes to OUT_DIR.console.  Run from the top directory.
#
# Environment: BUILD (build), QEMU_TIMEOUT seconds (300), KERNEL_TREE,
# KERNEL_IMAGE (default: the tree's bzImage; tests/q40 boots one saved
# image per marker behaviour), GUEST_SCRIPT (qemu/guest-test.sh: the
# scenario the guest runs, installed as /ltt/guest-test.sh; tests/q20
# uses qemu/instr-guest.sh, tests/q40 qemu/marker-guest.sh),
# INITRAMFS_EXTRA (a gen_init_cpio list appended to ours: bench/ adds its
# tools), QEMU_MEM (MiB, 512), QEMU_APPEND (more kernel command line),
# QEMU_EXTRA (more QEMU arguments, split at spaces: qemu/field-boot.sh's
# root disk), QEMU_ACCEL (tcg: multi-threaded; qemu/modules-boot.sh asks
# for tcg,thread=single, and says why).
# pci=noacpi: under TCG the debug kernel (KASAN, lockdep) spends ~25 s in
# ACPI's PCI interrupt routing, long enough for virtio to miss its
# interrupts on a loaded host; the MP table (CONFIG_X86_MPPARSE) still
# gives the guest its two CPUs.
set -eu
OUT=${1:?usage: qemu/run.sh OUT_DIR}
BUILD=${BUILD:-build}
TREE=${KERNEL_TREE:-build-kernel/linux-source-6.1}
KERNEL=${KERNEL_IMAGE:-$TREE/arch/x86/boot/bzImage}
GEN=$TREE/usr/gen_init_cpio
BUSYBOX=${BUSYBOX:-/bin/busybox}
QEMU=${QEMU:-qemu-system-x86_64}
TIMEOUT=${QEMU_TIMEOUT:-300}
W=$OUT.work
GUEST=${GUEST_SCRIPT:-qemu/guest-test.sh}

die() { echo "qemu/run.sh: $*" >&2; exit 1; }
command -v "$QEMU" >/dev/null || die "no $QEMU (scripts/install-deps.sh kernel)"
mkdir -p "$W"
if [ ! -x "$GEN" ]; then
	# no built tree (Debian's own kernel, qemu/modules-boot.sh): the tool from the tarball
	tar -xOf "${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" \
		linux-source-6.1/usr/gen_init_cpio.c >"$W/gen_init_cpio.c" 2>/dev/null &&
		${CC:-cc} -O2 -o "$W/gen_init_cpio" "$W/gen_init_cpio.c" && GEN=$W/gen_init_cpio
fi
for f in "$KERNEL" "$GEN" "$BUSYBOX" "$BUILD/bin/lttctl" "$BUILD/bin/lttd"; do
	[ -e "$f" ] || die "missing $f (make kernel; make)"
done
file -L "$BUSYBOX" | grep -q 'statically linked' || die "$BUSYBOX is not static (busybox-static)"
for f in "$BUILD/bin/lttctl" "$BUILD/bin/lttd"; do
	file -L "$f" | grep -q 'statically linked' || die "$f is not static (build without SANITIZE)"
done

mkdir -p "$W"
${CC:-cc} -static -O2 -Wall -Wextra -Iinclude -o "$W/ltt-guest-tool" qemu/ltt-guest-tool.c
${CC:-cc} -static -O2 -Wall -Wextra -o "$W/ltt-instr-tool" qemu/ltt-instr-tool.c
${CC:-cc} -static -O2 -Wall -Wextra -o "$W/ltt-runas" qemu/ltt-runas.c

list=$W/initramfs.list
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	for d in /bin /sbin /usr /usr/bin /usr/sbin /proc /sys /tmp /mnt /etc /ltt \
		 /usr/share /usr/share/ltt /usr/share/ltt/facilities /usr/share/ltt/examples; do
		echo "dir $d 0755 0 0"
	done
	echo "file /bin/busybox $BUSYBOX 0755 0 0"
	for a in $("$BUSYBOX" --list); do
		[ "$a" = busybox ] || echo "slink /bin/$a busybox 0777 0 0"
	done
	echo "file /init qemu/init.sh 0755 0 0"
	echo "file /ltt/guest-test.sh $GUEST 0755 0 0"
	echo "file /usr/bin/lttctl $BUILD/bin/lttctl 0755 0 0"
	echo "file /usr/bin/lttd $BUILD/bin/lttd 0755 0 0"
	echo "file /usr/bin/ltt-guest-tool $W/ltt-guest-tool 0755 0 0"
	echo "file /usr/bin/ltt-instr-tool $W/ltt-instr-tool 0755 0 0"
	echo "file /usr/bin/ltt-runas $W/ltt-runas 0755 0 0"
	# user-space tracing (tests/q30): present after `make`
	for b in usertrace-example ltt-usertrace-tool ltt-hostile-tool; do
		if [ -x "$BUILD/bin/$b" ]; then
			echo "file /usr/bin/$b $BUILD/bin/$b 0755 0 0"
		fi
	done
	# and its description, for a trace's eventdefs/ (qemu/usertrace-record-guest.sh)
	echo "file /usr/share/ltt/examples/usertrace_example.xml libltt-usertrace/examples/usertrace_example.xml 0644 0 0"
	for x in facilities/*.xml; do
		echo "file /usr/share/ltt/facilities/$(basename "$x") $x 0644 0 0"
	done
	if [ -n "${INITRAMFS_EXTRA:-}" ]; then cat "$INITRAMFS_EXTRA"; fi
} >"$list"
"$GEN" "$list" | gzip -1 >"$W/initramfs.cpio.gz"

rm -rf "$OUT"
mkdir -p "$OUT"
# the initramfs was built in $W, next to $OUT: runs with different OUT_DIRs
# do not share anything
echo "qemu/run.sh: booting (${QEMU_ACCEL:-tcg}, 2 CPUs, timeout ${TIMEOUT}s)"
rc=0
timeout "$TIMEOUT" "$QEMU" -accel "${QEMU_ACCEL:-tcg}" -smp 2 -m "${QEMU_MEM:-512}" -nographic -no-reboot \
	-kernel "$KERNEL" -initrd "$W/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 oops=panic pci=noacpi${QEMU_APPEND:+ $QEMU_APPEND}" \
	-virtfs "local,path=$OUT,mount_tag=hostshare,security_model=none,id=hs" \
	${QEMU_EXTRA:-} </dev/null >"$OUT.console" 2>&1 || rc=$?
if [ $rc = 124 ]; then
	die "QEMU timed out after ${TIMEOUT}s (console: $OUT.console)"
fi
[ $rc = 0 ] || die "QEMU exited with $rc (console: $OUT.console)"
[ -r "$OUT/guest.rc" ] || die "the guest did not finish its test (console: $OUT.console)"
echo "qemu/run.sh: guest done, results in $OUT"
