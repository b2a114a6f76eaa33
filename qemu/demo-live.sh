#!/bin/sh
# qemu/demo-live.sh - `make demo-live`: boot our kernel in QEMU with a
# workload traced by lttd into the 9p share (qemu/live-guest.sh), and show
# the trace on the host while it is written: lttv-gtk --follow when there
# is a display; without one, the trace's growth as it happens and, at the
# end, its pictures (control flow, analyses) and the analyses as text.
# Run from the top directory, after `make kernel` and `make`.
set -eu
BUILD=${BUILD:-build}
OUT=${DEMO_OUT:-$BUILD/demo-live}
BIN=$BUILD/bin
rm -rf "$OUT"	# not an old trace for the new one
GUEST_SCRIPT=qemu/live-guest.sh BUILD=$BUILD QEMU_TIMEOUT=${QEMU_TIMEOUT:-240} \
	qemu/run.sh "$OUT" &
qemu=$!
# run.sh builds the initramfs, then makes $OUT anew and boots: wait for the
# trace lttd writes there
n=0
while [ ! -d "$OUT/live/control" ] && [ $n -lt 1200 ]; do
	if ! kill -0 $qemu 2>/dev/null; then
		wait $qemu || true
		echo "demo-live: QEMU ended before the trace began (see $OUT.console)" >&2
		exit 1
	fi
	sleep 0.1
	n=$((n + 1))
done
[ -d "$OUT/live/control" ] || { echo "demo-live: no trace in $OUT/live" >&2; kill $qemu; exit 1; }
echo "demo-live: the guest traces into $OUT/live"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
	# the window follows the trace as lttd writes it; close it when done
	"$BIN/lttv-gtk" -t "$OUT/live" --follow || true
else
	# no display: say how the trace grows while it is written
	while kill -0 $qemu 2>/dev/null; do
		sleep 1
		echo "demo-live: $(du -sk "$OUT/live" | cut -f1) KiB written so far"
	done
fi
wait $qemu
echo "demo-live: the guest is done: $(tr '\n' ' ' <"$OUT/results")"
"$BIN/lttv-gtk" -t "$OUT/live" --export "$OUT/live-controlflow.png" --size 1400x900 || true
"$BIN/lttv-gtk" -t "$OUT/live" --export "$OUT/live-analyses.png" --view analyses || true
"$BIN/lttv-text" -t "$OUT/live" -q --syscalls --cpu-top --worst 3 | head -n 40 || true
echo "demo-live: pictures in $OUT/live-controlflow.png and $OUT/live-analyses.png"
