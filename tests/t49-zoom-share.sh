#!/bin/sh
# Zoomed out, a pixel of a row holds many states; the picture must still
# tell the truth: the share of each process row drawn in each running mode
# (user, system call, trap, IRQ, softirq) and not running must be the share
# of time the state engine says the process spent in it (lttv-text
# --process-stats), within 5 points. On 1 M events of a busy machine, java-0
# ran 4.3 % of the time in short bursts: it must not be drawn green wherever
# it ran at all (it was 61 %). Checked on the whole trace (about 700 us per
# pixel) and on a tenth of it, and on the bundled real traces.
# Needs ImageMagick (convert) to read the pixels and python3 to count them.
. "$(dirname "$0")/lib.sh"

gtk="$BIN/lttv-gtk"
gen="$BIN/ltt-tracegen"
if [ ! -x "$gtk" ] || [ ! -x "$gen" ]; then
	skip "zoomed-out shares" "build lttv-gtk and ltt-tracegen first"
	done_testing
	exit
fi
if ! command -v convert >/dev/null || ! command -v python3 >/dev/null; then
	skip "zoomed-out shares" "ImageMagick's convert or python3 is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
unset DISPLAY WAYLAND_DISPLAY
case ${LSAN_OPTIONS:-} in *suppressions=*) ;; *)
	export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0" ;;
esac

# shares TRACE NAME [PID:NAME that must be among the rows checked...]
# The whole trace: from its first to its last event, as lttv-text counts.
shares() {
	trace=$1 name=$2; shift 2
	"$gtk" -t "$trace" --export "$TMP/$name.png" --size 1200x0 --layout \
		>"$TMP/$name.layout" 2>"$TMP/$name.err" &&
	convert "$TMP/$name.png" "rgb:$TMP/$name.rgb" &&
	"$BIN/lttv-text" -t "$trace" -q --process-stats >"$TMP/$name.stats" 2>&1 ||
		return 1
	python3 "$TOP/tests/share-compare.py" "$TMP/$name.layout" "$TMP/$name.rgb" 1200 \
		"$TMP/$name.stats" 0.05 "$@" >"$TMP/$name.out"
	r=$?
	sed 's/^/# /' "$TMP/$name.out" | tail -n 12
	return $r
}

if "$gen" --scenario busy --events 1000000 -o "$TMP/busy" >/dev/null 2>&1; then
	shares "$TMP/busy" busy 1002:java-0
	_report $? "busy, 1 M events, whole trace: each row's share of each state as drawn = as spent, within 5 points"
	grep -q "^ok 1002 java-0: USER_MODE drawn" "$TMP/busy.out"
	_report $? "java-0 is among the rows checked"
else
	_report 1 "ltt-tracegen --scenario busy"
fi

for t in qemu-busybox qemu-usertrace; do
	if [ -d "$TOP/traces/$t" ]; then
		shares "$TOP/traces/$t" "$t"
		_report $? "$t: each row's share of each state as drawn = as spent, within 5 points"
	else
		skip "$t shares" "traces/$t is missing"
	fi
done
done_testing
