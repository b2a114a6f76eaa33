#!/bin/sh
# lttv-gtk --follow under Xvfb while a writer appends sub-buffers to the
# trace, as lttd does: the window opens the trace again as it grows, the
# time line grows with it (the window showed the end), and the window
# keeps answering (its self-test steps, 120 ms apart, go on meanwhile).
. "$(dirname "$0")/lib.sh"
gtk="$BIN/lttv-gtk"
export GSETTINGS_BACKEND=memory ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

if ! command -v xvfb-run >/dev/null || ! command -v python3 >/dev/null; then
	skip "live view" "xvfb-run or python3 is missing (scripts/install-deps.sh)"
	done_testing
	exit
fi
"$BIN/ltt-tracegen" --scenario busy --events 60000 --subbuf-size 8192 -o "$TMP/full" >/dev/null 2>&1
check "a busy trace of 8 KiB sub-buffers is written" test -s "$TMP/full/cpu_0"

# The writer (tests/live-writer.py): eventdefs/ at once, then the
# sub-buffers of every tracefile (the control channels too, which hold the
# process events and heartbeats as our kernel's do) in the order lttd gets
# them, by the time they end: as many as there are CPU files every 150 ms
# (twice that at the start).
mkdir "$TMP/live"
python3 "$TOP/tests/live-writer.py" "$TMP/full" "$TMP/live" "$TMP/live" &
writer=$!
i=0
while [ ! -e "$TMP/live/.started" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "the writer started" test -e "$TMP/live/.started"
# A process selected stays selected as the trace is opened again, and a
# row the user hid stays hidden (both rows exist first: a task appears once
# the sub-buffer of its first event has arrived, maybe after the first load) (hidden rows are named by pid: they came
# back when they were numbered by the old index). Xvfb's
# pointer rests in the middle of the screen, on the control flow: GTK asks
# for its tooltip while the trace is replaced under it (a freed trace read
# there was seen by ASan in the SANITIZE=1 pass).
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/live" --follow --self-test \
	"wait-row-of 1011; wait-row-of 1005; live-mark; hide-pid 1011; select-pid 1005;
	 wait-live-grown; expect-live-grown; wait-live-settled; wait-drawn end; expect-drawn end;
	 print-drawn; print-index; expect-no-row 1011;
	 expect-selected 1005; show-hidden; expect-selected 1005; expect-row-of 1011; view analyses;
	 wait-analysis; screenshot $TMP/live.png; quit" >"$TMP/gui.out" 2>"$TMP/gui.err"
rc=$?
wait $writer
check "lttv-gtk --follow exits 0 (exit $rc)" test "$rc" -eq 0
sed 's/^/# /' "$TMP/gui.out"
check "the trace grew while the window showed it, and the window followed" \
	grep -q '^ok - the trace grew while shown' "$TMP/gui.out"
# bench/live.py's latency reads the draws of the control flow: what each
# showed (up to the trace's end at last), when, of the files as read when
check "the control flow was drawn up to the trace's end (expect-drawn)" \
	grep -q '^ok - the control flow was drawn up to end' "$TMP/gui.out"
check "print-drawn: draws of more than one opening, on the host's clock" \
	awk -v now="$(date +%s)" '/^drawn covered_ns=/ {
		split($3, w, "="); split($4, o, "=")
		if (w[2] / 1e9 > now - 300 && w[2] / 1e9 < now + 5 && o[2] > 0) { n++; op[o[2]] = 1 }
	} END { for (k in op) m++; exit !(n > 0 && m > 1) }' "$TMP/gui.out"
check "the hidden row stayed hidden across reloads" \
	grep -q '^ok - no row of pid 1011' "$TMP/gui.out"
check "no check failed (the selection kept across reloads)" \
	sh -c "! grep -q '^not ok' '$TMP/gui.out'"
check "the last screenshot was saved" test -s "$TMP/live.png"
# The index carried on as the files grew (each opening indexed only what
# was new: ltt_state_index_extend) is the one a window that opens the
# finished trace builds: every row's intervals, every process's facts,
# the events and checkpoints (print-index).
xvfb-run -a -s "-screen 0 1400x900x24" timeout 120 "$gtk" -t "$TMP/live" --self-test \
	"wait-index; print-index; quit" >"$TMP/fresh.out" 2>"$TMP/fresh.err"
grep -E '^(index|process|cpu|irq|softirq) ' "$TMP/gui.out" >"$TMP/followed.idx"
grep -E '^(index|process|cpu|irq|softirq) ' "$TMP/fresh.out" >"$TMP/fresh.idx"
check "print-index printed the rows of the followed window" \
	sh -c "grep -q '^process ' '$TMP/followed.idx' && grep -q '^cpu ' '$TMP/followed.idx'"
check "the followed window carried its index on as the trace grew" \
	grep -q '^live openings: index carried on [1-9]' "$TMP/gui.out"
check "an opening that could not carry it on said why (a control channel's first sub-buffer)" \
	grep -q 'indexed again from its start: control/.*starts before what is indexed' "$TMP/gui.err"
check "followed and opened finished, the index is the same (print-index)" \
	diff "$TMP/fresh.idx" "$TMP/followed.idx"
fails_with "--follow with --export: usage error" 2 "follow" \
	"$gtk" -t "$TMP/full" --follow --export "$TMP/x.png"
done_testing
