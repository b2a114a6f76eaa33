#!/bin/sh
# One policy for every tool (issue 16): every problem is said once on
# stderr, and the exit status (3) says that something was not decoded.
# lttv-text printed "<malformed payload: 0 bytes>" with exit 0 while
# lttv-convert failed on the same event; lttv-gtk printed none of
# lttv-text's warnings; with more than 16 traces the state engine dropped
# the events of the 17th on in silence. Issue 31: the events of a CPU
# beyond the model's 4096 (cpu_4100) were said ignored with exit 0.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
CONVERT="$BIN/lttv-convert"
GTK="$BIN/lttv-gtk"
GEN="$BIN/ltt-tracegen"
WRITE="$BUILD/tests/test_hostile"
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR
unset DISPLAY WAYLAND_DISPLAY

if [ ! -x "$TEXT" ] || [ ! -x "$WRITE" ] || [ ! -x "$GEN" ]; then
	skip "one policy for problems" "needs $TEXT, $GEN and $WRITE (make all tests)"
	done_testing; exit
fi

# malformed events: shown, said once, exit 3, by both tools
( cd "$TOP" && "$WRITE" --write ctf-malformed "$TMP/m" ) >/dev/null 2>&1
# (not $TMP/out and $TMP/err: check writes them)
"$TEXT" -t "$TMP/m" >"$TMP/m.out" 2>"$TMP/m.err"
rc=$?
check "lttv-text: a malformed event is shown as such" grep -q "malformed payload" "$TMP/m.out"
check "   ... said once on stderr" test "$(grep -c 'is malformed' "$TMP/m.err")" -eq 1
check "   ... and the exit status says it (3, was $rc)" test "$rc" -eq 3
"$CONVERT" --ctf "$TMP/m-ctf" -t "$TMP/m" >/dev/null 2>"$TMP/m.err"
rc=$?
check "lttv-convert: the same event, the same status (3, was $rc)" test "$rc" -eq 3
check "   ... and the same warning" test "$(grep -c 'is malformed' "$TMP/m.err")" -eq 1

# the warnings of lttv-text, from lttv-gtk too
"$GEN" --bad no-eventdefs -o "$TMP/noev" >/dev/null 2>&1
"$TEXT" -t "$TMP/noev" -q 2>"$TMP/text.err"
# (but the empty tracefiles, which lttv-text alone names: lttv-gtk follows
# traces lttd is still writing, whose quiet channels are empty until their
# first sub-buffer is full)
grep -v 'empty tracefiles\{0,1\} (0 bytes)' "$TMP/text.err" |
	sed -n 's/^lttv-text: warning: [^:]*: //p' | sort >"$TMP/text.w"
check "lttv-text warns about the facilities it cannot decode" test -s "$TMP/text.w"
if [ -x "$GTK" ]; then
	for mode in export filter; do
		if [ $mode = export ]; then
			"$GTK" -t "$TMP/noev" --export "$TMP/n.png" >/dev/null 2>"$TMP/gtk.err"
		else
			"$GTK" -t "$TMP/noev" --filter "cpu = 0" >/dev/null 2>"$TMP/gtk.err"
		fi
		rc=$?
		sed -n 's/^lttv-gtk: warning: [^:]*: //p' "$TMP/gtk.err" | sort >"$TMP/gtk.w"
		check "lttv-gtk --$mode: the same warnings as lttv-text" cmp -s "$TMP/text.w" "$TMP/gtk.w"
		diff "$TMP/text.w" "$TMP/gtk.w" | head -n 4 | sed 's/^/#   /'
		check "   ... and exit 3 (was $rc)" test "$rc" -eq 3
	done
else
	skip "lttv-gtk prints lttv-text's warnings" "no $GTK (make all)"
fi

# 17 traces: the state of the 17th is followed as when it is alone
"$GEN" --scenario sample -o "$TMP/s" >/dev/null 2>&1
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	cp -r "$TMP/s" "$TMP/e$i"
	: >"$TMP/e$i/cpu_0"
	: >"$TMP/e$i/cpu_1"
	set -- "$@" -t "$TMP/e$i"
done
LTT_FACILITIES_DIR="$TOP/facilities" "$TEXT" "$@" -t "$TMP/s" -q --process-stats >"$TMP/many" 2>/dev/null
LTT_FACILITIES_DIR="$TOP/facilities" "$TEXT" -t "$TMP/s" -q --process-stats >"$TMP/one" 2>/dev/null
check "17 traces: the 17th's processes as when it is alone" cmp -s "$TMP/many" "$TMP/one"
diff "$TMP/many" "$TMP/one" | head -n 4 | sed 's/^/#   /'
check "   ... and they ran (CPU time counted)" grep -q "swapper" "$TMP/one"

# a CPU the state model does not follow: said, and exit 3
"$GEN" --scenario sample -o "$TMP/cpus" >/dev/null 2>&1
mv "$TMP/cpus/cpu_1" "$TMP/cpus/cpu_4100"
for opts in "-s" "--process-stats" "-A"; do
	fails_with "lttv-text -q $opts, events of cpu 4100: said, exit 3" 3 \
		"ignored [0-9]+ events: cpu 4100" \
		env LTT_FACILITIES_DIR="$TOP/facilities" "$TEXT" -t "$TMP/cpus" -q $opts
done
if [ -x "$GTK" ]; then
	fails_with "lttv-gtk --stats, events of cpu 4100: said, exit 3" 3 "ignored [0-9]+ events" \
		env LTT_FACILITIES_DIR="$TOP/facilities" "$GTK" -t "$TMP/cpus" --stats
fi
done_testing
