#!/bin/sh
# Names whoever is traced chooses (issue 31): process names (prctl, an
# exec of a file named so), IRQ handler names, file names, and the
# facility, event, field and enum label names of a trace's own eventdefs,
# holding C0 controls (a terminal title, clear screen, bell, backspace),
# C1 controls in UTF-8 (CSI, OSC, NEL), bidi overrides, a line separator,
# Latin-1 bytes that are not UTF-8 (ltt-tracegen --scenario names). Every
# tool and every output, text or drawn, goes through the one rule of
# libltttrace (safe-text.c): tests/raw-controls.py (Python's Unicode
# tables, not ours) finds no raw control, format character or bad UTF-8
# in any of them. The window draws every row (a Latin-1 name blanked the
# rows after it, and the Statistics tab) and GTK says nothing.
. "$(dirname "$0")/lib.sh"
T="$TMP/names"
unset DISPLAY WAYLAND_DISPLAY

if ! command -v python3 >/dev/null; then
	skip "hostile names" "python3 is missing"
	done_testing
	exit
fi
check "the names trace written" "$BIN/ltt-tracegen" --scenario names -o "$T"
mkdir "$TMP/o"

# scanned NAME CMD...: runs CMD (exit 0; 1: lttv-diff's "changed"; 3:
# warnings), stdout and stderr both scanned
scanned() {
	name=$1; shift
	"$@" >"$TMP/o/$name.out" 2>"$TMP/o/$name.err"
	rc=$?
	if [ $rc -gt 3 ] || [ $rc -eq 2 ]; then
		_report 1 "$name: runs (exit $rc)"
		sed 's/^/#   /' "$TMP/o/$name.err" | head -n 5
		return
	fi
	if python3 "$TOP/tests/raw-controls.py" "$TMP/o/$name.out" "$TMP/o/$name.err" \
	   ${extra:-} >"$TMP/scan" 2>&1; then
		_report 0 "$name: no raw control, bidi or bad UTF-8 in its output"
	else
		_report 1 "$name: no raw control, bidi or bad UTF-8 in its output"
		sed 's/^/#   /' "$TMP/scan" | head -n 12
	fi
}

LT="$BIN/lttv-text"
scanned "lttv-text" "$LT" -t "$T"
scanned "lttv-text -n" "$LT" -t "$T" -n
scanned "lttv-text -s" "$LT" -t "$T" -s
scanned "lttv-text -s --stable" "$LT" -t "$T" -s --stable
scanned "lttv-text -S -c" "$LT" -t "$T" -q -S -c
scanned "lttv-text --process-stats" "$LT" -t "$T" -q --process-stats
for by in name process process-name cpu all; do
	scanned "lttv-text -A --by $by" "$LT" -t "$T" -q -A --histogram --by "$by"
done
scanned "lttv-text --critical-path (a Latin-1 name)" "$LT" -t "$T" -q --critical-path 2472
scanned "lttv-text --critical-path (the shell)" "$LT" -t "$T" -q --critical-path 2404
scanned "lttv-text -o" "$LT" -t "$T" -s -o "$TMP/o/dump.txt"
extra="$TMP/o/dump.txt" scanned "lttv-text -o: the file" true
scanned "lttv-diff A B" "$BIN/lttv-diff" "$T" "$TOP/traces/sample-synthetic"
scanned "lttv-diff B A" "$BIN/lttv-diff" "$TOP/traces/sample-synthetic" "$T"
scanned "lttv-convert --ctf" "$BIN/lttv-convert" -t "$T" --ctf "$TMP/o/ctf"
extra="$TMP/o/ctf/metadata" scanned "lttv-convert: the CTF metadata" true

# what a name became: escaped, visibly
grep -q 'pid 2404 tgid 2404 "ba\\x1b\]0;owned\\x07sh"' "$TMP/o/lttv-text -s.out"
_report $? "-s: ESC and BEL of a process name as \\xHH"
grep -q 'caf\\xe9' "$TMP/o/lttv-text --process-stats.out"
_report $? "--process-stats: a Latin-1 name as \\xe9"
grep -q '<U+202E>sl' "$TMP/o/lttv-text --process-stats.out"
_report $? "--process-stats: a bidi override as <U+202E>"
grep -q 'irq_id = 11 \[\\x1b\]0;owned\\x07|eth0\]' "$TMP/o/lttv-text -n.out"
_report $? "the dump: an IRQ handler name (state dump) escaped in the event's label"
grep -q '^ho\\x1b\]0;owned\\x07stile\.ev\\x1b\[31m<U+009D>0;x: .* { fi\\x08eld\\r = GR<U+202E>EEN, te<U+0085>xt = "te<U+009B>31mxt" }' \
	"$TMP/o/lttv-text -n.out"
_report $? "the dump: facility, event, field and label names of the trace's eventdefs escaped"
grep -q 'facility gh<U+009B>31mo\\x1b\[2Jst (checksum' "$TMP/o/lttv-text.err"
_report $? "the warning of a facility without description: its name escaped"

if [ -x "$BIN/lttv-gtk" ]; then
	G="$BIN/lttv-gtk"
	scanned "lttv-gtk --stats" "$G" -t "$T" --stats
	scanned "lttv-gtk --filter" "$G" -t "$T" --filter "cpu = 1"
	for view in controlflow resources; do
		scanned "lttv-gtk --export --layout ($view)" "$G" -t "$T" --view $view \
			--export "$TMP/o/$view.svg" --layout
		extra="$TMP/o/$view.svg" scanned "lttv-gtk --export: the SVG ($view)" true
	done
	for lat in syscall sched irq file; do
		scanned "lttv-gtk --export --view analyses --latency $lat" "$G" -t "$T" \
			--view analyses --latency $lat --export "$TMP/o/a-$lat.svg"
		extra="$TMP/o/a-$lat.svg" scanned "lttv-gtk --export: the SVG (analyses, $lat)" true
	done
	grep -q '^row [0-9]* process pid=2472 name=caf\\xe9$' "$TMP/o/lttv-gtk --export --layout (controlflow).out"
	_report $? "--layout: the Latin-1 name escaped"

	# every row drawn: a name that is not UTF-8 put cairo in an error
	# state, and nothing was drawn after it (no warning, exit 0)
	"$G" -t "$T" --export "$TMP/cf.png" --layout >"$TMP/layout" 2>"$TMP/gerr"
	if command -v convert >/dev/null; then
		val() { sed -n "s/^layout.* $1=\([0-9]*\).*/\1/p" "$TMP/layout"; }
		y0=$(val y0) rh=$(val row_h) rows=$(val rows) x0=$(val x0)
		blank=""
		for r in $(seq 0 $((rows - 1))); do
			sd=$(convert "$TMP/cf.png" -crop "$((x0 - 10))x$((rh - 4))+2+$((y0 + r * rh + 2))" \
				+repage -colorspace gray -format "%[fx:standard_deviation>0.01]" info:)
			[ "$sd" = 1 ] || blank="$blank $r"
		done
		[ -z "$blank" ]
		_report $? "--export: every one of the $rows rows has its name drawn"
		[ -z "$blank" ] || echo "#   blank rows:$blank"
	else
		skip "--export: every row drawn" "ImageMagick's convert is missing (scripts/install-deps.sh)"
	fi
	! grep -v "^lttv-gtk: warning: " "$TMP/gerr" | grep -qi "warning\|critical\|utf-8\|failure"
	_report $? "--export: no GTK, GLib or cairo complaint"

	if command -v xvfb-run >/dev/null; then
		export GSETTINGS_BACKEND=memory
		# GTK itself leaks under AddressSanitizer (as in t43): leak
		# detection off for the window only
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
		script="wait-index; expect-nrows 22; expect-no-warnings;
			view statistics; sleep 300; expect-stats caf\\\\xe9; expect-stats ba\\\\x1b;
			expect-stats CPU time per process;
			view resources; sleep 200; view controlflow;
			range 0.4..0.5; select-pid 2472; sleep 300; expect-selected 2472;
			screenshot $TMP/window.png; expect-no-warnings; quit"
		xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$G" -t "$T" \
			--self-test "$(echo "$script" | tr '\n' ' ')" >"$TMP/gui.out" 2>"$TMP/gui.err"
		rc=$?
		if grep -q "cannot open a display" "$TMP/gui.err"; then
			skip "the window on hostile names" "no X display could be started (xvfb-run)"
		else
			[ $rc -eq 0 ] || [ $rc -eq 3 ]
			_report $? "the window on hostile names: --self-test exits 0 (3: the trace's warnings)"
			while IFS= read -r line; do
				case $line in
				"ok - "*) _report 0 "window: ${line#ok - }" ;;
				"not ok - "*) _report 1 "window: ${line#not ok - }" ;;
				esac
			done <"$TMP/gui.out"
			! grep -v "^lttv-gtk: warning: " "$TMP/gui.err" | grep -qi "warning\|critical\|utf-8\|failure"
			_report $? "the window: no GTK, GLib or cairo complaint"
			grep -v "^lttv-gtk: warning: " "$TMP/gui.err" | sed 's/^/#   /' | head -n 5
		fi
	else
		skip "the window on hostile names" "xvfb-run is missing (scripts/install-deps.sh)"
	fi
else
	skip "lttv-gtk on hostile names" "no $BIN/lttv-gtk (make all)"
fi
done_testing
