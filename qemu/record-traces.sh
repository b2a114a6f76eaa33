#!/bin/sh
# qemu/record-traces.sh - record again the real traces kept under traces/
# (`make record-traces`, which builds the kernel first).  For each trace,
# boots the kernel of `make kernel` (or KERNEL_TREE) in QEMU with its guest
# scenario, takes the trace it brings out over 9p, and writes its expected
# dump for tests/t11-regression.sh:
#
#   traces/qemu-busybox      the busybox session of qemu/instr-guest.sh
#   traces/qemu-usertrace    a shorter session and the user-space tracing
#                            example, qemu/usertrace-record-guest.sh
#   traces/NAME.expected     lttv-text -t traces/NAME --field-names
#
# TRACES="busybox usertrace" (the default) names the traces to record:
# TRACES=usertrace records only traces/qemu-usertrace and leaves
# traces/qemu-busybox as it is.  A new recording is a different trace
# (times, pids, interrupts): commit the trace and its .expected together,
# with the docs that quote it (README.md, docs/man/*, traces/README, the
# screenshots in docs/); the tests take pids and times from the trace,
# run them all.  Run from the top directory.
set -eu
BUILD=${BUILD:-build}

record() { # NAME GUEST_SCRIPT STEP...: the guest leaves the trace in OUT/NAME
	name=$1 guest=$2
	shift 2
	out=$BUILD/record-traces.$$.$name
	BUILD=$BUILD GUEST_SCRIPT=$guest QEMU_TIMEOUT=${QEMU_TIMEOUT:-240} qemu/run.sh "$out"
	for step in "$@"; do
		grep -qx "$step 0" "$out/results" ||
			{ echo "record-traces: guest step $step failed (kept $out)" >&2; exit 1; }
	done
	rm -rf "traces/qemu-$name"
	cp -R "$out/$name" "traces/qemu-$name"
	"$BUILD/bin/lttv-text" -t "traces/qemu-$name" --field-names >"traces/qemu-$name.expected"
	"$BUILD/bin/lttv-text" -t "traces/qemu-$name" -c -q | sed 's/^/record-traces: /'
	sed "s/^/record-traces: $name: pid of the /" "$out/pids"
	rm -rf "$out" "$out.console" "$out.work"
	echo "record-traces: traces/qemu-$name and traces/qemu-$name.expected written"
}

for t in ${TRACES:-busybox usertrace}; do
	case $t in
	busybox) record busybox qemu/instr-guest.sh b_start b_stop b_lttd b_destroy ;;
	usertrace)
		[ -x "$BUILD/bin/usertrace-example" ] ||
			{ echo "record-traces: no $BUILD/bin/usertrace-example (make)" >&2; exit 1; }
		record usertrace qemu/usertrace-record-guest.sh \
			facilities u_start u_example u_stop u_lttd u_destroy ;;
	*) echo "record-traces: unknown trace '$t' in TRACES (busybox, usertrace)" >&2; exit 1 ;;
	esac
done
