#!/bin/sh
# The event filter acts on the time line (issue 11): each event the
# expression matches is marked on the row of the process running its CPU
# just after it (and on its CPU's row in the resource view); the rows with
# no match in the whole trace are faded, or left out with "only matching";
# the bars stay the true states. Here the marks are counted per pid, by the
# export (--filter EXPR --layout) and by the window (its self-test's
# print-marks, the marking done in a worker while the meter watches the
# main loop), and compared with what lttv-text prints for the same events
# (-s: the pid running after each event), on a bundled trace and on
# generated ones. Then the picture: the marks' colour is drawn, only with a
# filter. That marking never stalls the window is measured on 10 M events
# by t56-gui-never-freezes.sh (1 M events here take too little time to
# tell a worker from a window that would mark them itself).
. "$(dirname "$0")/lib.sh"

gtk="$BIN/lttv-gtk"
gen="$BIN/ltt-tracegen"
txt="$BIN/lttv-text"
if [ ! -x "$gtk" ] || [ ! -x "$gen" ] || [ ! -x "$txt" ]; then
	skip "filter marks" "build lttv-gtk, lttv-text and ltt-tracegen first"
	done_testing
	exit
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export GSETTINGS_BACKEND=memory

# "pid n" per pid, from lttv-text -s lines (awk program $2 keeps the lines)
text_counts() { # trace event-glob awk-condition
	"$txt" -t "$1" -s -e "$2" 2>/dev/null |
		awk "$3"' { for (i = 1; i < NF; i++) if ($i == "pid") { n[$(i + 1)]++; break } }
			END { for (p in n) print p, n[p] }' | sort -n
}
# the same from the export's layout (the rows of one pid added up)
export_counts() { # layout-file
	sed -n 's/^row [0-9]* process pid=\([0-9]*\) .* marks=\([0-9]*\)$/\1 \2/p' "$1" |
		awk '$2 > 0 { n[$1] += $2 } END { for (p in n) print p, n[p] }' | sort -n
}
# the same from the window's print-marks
window_counts() { # self-test output
	sed -n 's/^marks pid=\([0-9]*\) n=\([0-9]*\)$/\1 \2/p' "$1" | sort -n
}

busybox="$TOP/traces/qemu-busybox"
"$gen" --scenario sample -o "$TMP/s" >/dev/null 2>&1
check "sample trace written" test -d "$TMP/s"

# name the matches as lttv-text does: same events, same pids
n=0
for case in "$busybox|event.name = schedchange|schedchange|1" \
	    "$busybox|cpu = 1 and event.facility = kernel|kernel.*|/ cpu 1 pid /" \
	    "$TMP/s|event.name = exec|exec|1" \
	    "$TMP/s|state.process_name = sleep or event.name = wakeup|*|/ tgid [0-9]+ \"sleep\" |\.wakeup:/"; do
	n=$((n + 1))
	trace=${case%%|*}; rest=${case#*|}
	expr=${rest%%|*}; rest=${rest#*|}
	glob=${rest%%|*}; cond=${rest#*|}
	text_counts "$trace" "$glob" "$cond" >"$TMP/want$n"
	"$gtk" -t "$trace" --export "$TMP/m$n.png" --layout --filter "$expr" >"$TMP/layout$n" 2>"$TMP/err$n"
	export_counts "$TMP/layout$n" >"$TMP/got$n"
	total=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/want$n")
	check "export --filter '$expr' on $(basename "$trace"): marks per pid = lttv-text's ($total events)" \
		sh -c "test $total -gt 0 && diff '$TMP/want$n' '$TMP/got$n' &&
		       grep -q '^marks total=$total ' '$TMP/layout$n'"
done

# the resource view: the marks on each CPU's row are the matches on that CPU
"$gtk" -t "$busybox" --export "$TMP/r.png" --view resources --layout \
	--filter "event.name = schedchange" >"$TMP/rlayout" 2>/dev/null
"$txt" -t "$busybox" -e schedchange 2>/dev/null |
	sed -n 's/.* cpu \([0-9]*\) .*/\1/p' | sort -n | uniq -c | awk '{ print $2, $1 }' >"$TMP/rwant"
sed -n 's/^row [0-9]* cpu \([0-9]*\) marks=\([0-9]*\)$/\1 \2/p' "$TMP/rlayout" >"$TMP/rgot"
check "resources: marks per CPU = lttv-text's schedchange per CPU" \
	sh -c "test -s '$TMP/rwant' && diff '$TMP/rwant' '$TMP/rgot'"

# only matching: the processes with no mark are left out, the others kept
"$gtk" -t "$busybox" --export "$TMP/o.png" --layout --filter "event.name = schedchange" \
	--only-matching >"$TMP/olayout" 2>/dev/null
with=$(grep -c '^row .* process .* marks=[1-9]' "$TMP/layout1")
rows=$(grep -c '^row ' "$TMP/olayout")
check "--only-matching: the $with processes with a match, no other ($rows rows)" \
	sh -c "test $with -gt 0 && test $rows -eq $with && ! grep -q 'marks=0$' '$TMP/olayout'"

# the picture: the marks' colour only with a filter, and the legend names it
count() { # file r,g,b
	convert "$1" -fill black +opaque "rgb($2)" -fill white -opaque "rgb($2)" \
		-format "%[fx:round(mean*w*h)]" info: 2>/dev/null
}
if command -v convert >/dev/null; then
	"$gtk" -t "$busybox" --export "$TMP/plain.png" >/dev/null 2>&1
	marked=$(count "$TMP/m1.png" 30,30,110)
	plain=$(count "$TMP/plain.png" 30,30,110)
	check "export: marks drawn with a filter ($marked px), none without ($plain px)" \
		sh -c "test '${marked:-0}' -gt 300 && test '${plain:-1}' -eq 0"
else
	skip "marks in the picture" "ImageMagick's convert is missing"
fi

fails_with "--filter with a wrong expression: exit 2, why" 2 "column" \
	"$gtk" -t "$busybox" --export "$TMP/x.png" --filter "cpu ="
fails_with "--only-matching without --filter: exit 2" 2 "only-matching" \
	"$gtk" -t "$busybox" --export "$TMP/x.png" --only-matching
fails_with "--filter on the analyses: exit 2" 2 "not the analyses" \
	"$gtk" -t "$busybox" --export "$TMP/x.png" --view analyses --filter "cpu = 0"

# the window: the same counts, on 1 M events; "only matching" leaves the
# rows with marks; no filter, no marks
if ! command -v xvfb-run >/dev/null; then
	skip "the window's marks" "xvfb-run is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
check "1 M events of a busy machine written" \
	"$gen" --scenario busy --events 1000000 -o "$TMP/busy"
expr="event.name = schedchange and cpu = 1"
text_counts "$TMP/busy" schedchange "/ cpu 1 pid /" >"$TMP/bwant"
"$gtk" -t "$TMP/busy" --export "$TMP/b.png" --layout --filter "$expr" --only-matching \
	>"$TMP/blayout" 2>/dev/null
brows=$(grep -c '^row ' "$TMP/blayout")
xvfb-run -a -s "-screen 0 1400x900x24" timeout 300 "$gtk" -t "$TMP/busy" --self-test \
	"wait-index; filter-events $expr; wait-marks; print-marks; only-matching on; sleep 200; expect-nrows $brows;
	 only-matching off; filter-events; sleep 200; wait-marks; expect-marks-none; quit" \
	>"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
sed -n 's/^\(not \)*ok - /# &/p' "$TMP/gui.out"
check "window exits 0 ($rc), every check passed" \
	sh -c "test $rc -eq 0 && ! grep -q '^not ok' '$TMP/gui.out'"
window_counts "$TMP/gui.out" >"$TMP/bgot"
total=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/bwant")
check "window: marks per pid = lttv-text's on 1 M events ($total matches)" \
	sh -c "test $total -gt 0 && diff '$TMP/bwant' '$TMP/bgot'"
check "window: only matching shows the export's $brows rows" \
	grep -q "^ok - $brows rows" "$TMP/gui.out"

# the bundled trace in the window too, and a screenshot to look at
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$busybox" --self-test \
	"wait-index; filter-events event.name = schedchange; wait-marks; print-marks;
	 screenshot $TMP/window.png; quit" >"$TMP/gui2.out" 2>"$TMP/gui2.err"
window_counts "$TMP/gui2.out" >"$TMP/got-w1"
check "window: marks per pid on qemu-busybox = lttv-text's" \
	sh -c "test -s '$TMP/want1' && diff '$TMP/want1' '$TMP/got-w1'"

# a trace that breaks late: the matches before the break are marked, and
# the line under the toolbar says why there are no more
if "$gen" -s big -n 200000 --bad event-past-subbuf-late -o "$TMP/bad" >/dev/null 2>&1; then
	xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/bad" --self-test \
		"wait-index; filter-events cpu = 0; wait-marks; print-marks;
		 expect-filter-error marked only up to a read error; quit" >"$TMP/bad.out" 2>&1
	sed -n 's/^\(not \)*ok - /# &/p' "$TMP/bad.out"
	check "a read error while marking: the marks before it, and why no more" \
		sh -c "grep -q '^marks total=[1-9]' '$TMP/bad.out' && ! grep -q '^not ok' '$TMP/bad.out'"
else
	skip "read error while marking" "ltt-tracegen --bad event-past-subbuf-late failed"
fi
done_testing
