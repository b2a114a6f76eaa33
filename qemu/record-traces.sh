#!/bin/sh
# qemu/record-traces.sh - record again the real traces kept under traces/
# (`make record-traces`, which builds the kernel first).  Boots the
# kernel of `make kernel` (or KERNEL_TREE) in QEMU with the guest scenario
# qemu/instr-guest.sh, takes the trace it brings out over 9p, and writes
# its expected dump for tests/t11-regression.sh:
#
#   traces/qemu-busybox           the busybox session of qemu/instr-guest.sh
#   traces/qemu-busybox.expected  lttv-text -t traces/qemu-busybox --field-names
#
# A new recording is a different trace (times, pids, interrupts): commit
# the trace and its .expected together.  Run from the top directory.
set -eu
BUILD=${BUILD:-build}
OUT=$BUILD/record-traces.$$
BUILD=$BUILD GUEST_SCRIPT=qemu/instr-guest.sh QEMU_TIMEOUT=${QEMU_TIMEOUT:-240} qemu/run.sh "$OUT"
for step in b_start b_stop b_lttd b_destroy; do
	grep -qx "$step 0" "$OUT/results" || { echo "record-traces: guest step $step failed (kept $OUT)" >&2; exit 1; }
done
rm -rf traces/qemu-busybox
cp -R "$OUT/busybox" traces/qemu-busybox
"$BUILD/bin/lttv-text" -t traces/qemu-busybox --field-names >traces/qemu-busybox.expected
"$BUILD/bin/lttv-text" -t traces/qemu-busybox -c -q | sed 's/^/record-traces: /'
rm -rf "$OUT" "$OUT.console" "$OUT.work"
echo "record-traces: traces/qemu-busybox and traces/qemu-busybox.expected written"
