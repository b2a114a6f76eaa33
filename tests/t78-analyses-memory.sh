#!/bin/sh
# The analyses' memory per event stays small (issue 30, item 2: at 100 M
# events the window grew from 669 MB to 3.72 GB once its analyses ran,
# every occurrence a 48-byte struct). Not a timed test: the peak resident
# memory (ru_maxrss) of two runs of each tool, on busy traces of 0.5 and
# 2.5 M events, and the growth between them per event added:
#
#   lttv-text -q -A              the analyses alone and their tables:
#                                6.8 bytes/event measured (2026-12-07),
#                                35 before (every occurrence a struct,
#                                and a group's durations copied, sorted)
#   lttv-gtk --export --view analyses
#                                their pass, the document and one drawing
#                                of the tab, as the window does: 4.6
#                                measured, 36 before
#
# The bounds leave half as much again, for another allocator or machine.
# docs/performance.md, section 4, has the window's figures at 100 M events.
# Not under SANITIZE=1: AddressSanitizer keeps what is freed a while and
# adds its own memory, so peaks say nothing about ours.
. "$(dirname "$0")/lib.sh"
unset DISPLAY WAYLAND_DISPLAY

if [ "${SANITIZE:-}" = 1 ]; then
	skip "analyses' memory per event" "SANITIZE=1: ASan's quarantine and shadow memory are in every peak"
	done_testing; exit
fi
SMALL=500000
BIG=2500000
check "traces of $SMALL and $BIG events written" sh -c "
	'$BIN/ltt-tracegen' --scenario busy --events $SMALL -o '$TMP/small' >/dev/null &&
	'$BIN/ltt-tracegen' --scenario busy --events $BIG -o '$TMP/big' >/dev/null"

# peak_kb CMD...: the peak resident memory of CMD, in kB (empty: it failed)
peak_kb() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if r.returncode == 0:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}

# per_event WHAT BOUND CMD...: CMD run with TRACE replaced by each trace;
# the growth of its peak per event added, at most BOUND bytes
per_event() {
	what=$1 bound=$2; shift 2
	a=$(peak_kb $(echo "$@" | sed "s|TRACE|$TMP/small|g"))
	b=$(peak_kb $(echo "$@" | sed "s|TRACE|$TMP/big|g"))
	if [ -z "$a" ] || [ -z "$b" ]; then
		_report 1 "$what: both runs finish"
		return
	fi
	got=$(awk -v a="$a" -v b="$b" -v n=$((BIG - SMALL)) 'BEGIN { printf "%.1f", (b - a) * 1024 / n }')
	if awk -v g="$got" -v m="$bound" 'BEGIN { exit !(g <= m) }'; then
		_report 0 "$what: $got bytes/event more memory at most $bound (peaks $a and $b kB)"
	else
		_report 1 "$what: $got bytes/event more memory at most $bound (peaks $a and $b kB)"
	fi
}

per_event "lttv-text -A" 10 "$BIN/lttv-text" -t TRACE -q -A
if [ -x "$BIN/lttv-gtk" ]; then
	per_event "lttv-gtk --export --view analyses" 7 \
		"$BIN/lttv-gtk" -t TRACE --export "$TMP/a.png" --view analyses --size 800x600
else
	skip "lttv-gtk --export --view analyses" "lttv-gtk is not built (no GTK)"
fi
done_testing
