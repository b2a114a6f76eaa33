#!/bin/sh
# CTF export of traces that a CTF reader would refuse as they are (issue
# 16): names that are not identifiers, twin field names, enum labels that
# their container cannot hold; a facility id reused by another facility
# after an unload (a valid trace); times that go back in a stream (an
# event before its sub-buffer, a duplicated sub-buffer); malformed events.
# Each is converted by lttv-convert and read back by babeltrace2: every
# event there, none refused, and the exit status says what was changed.
# Issue 31: a conversion into a CTF folder kept its other streams (2 CPUs
# over 4: cpu_2, cpu_3 stayed, babeltrace2 failed): a folder that is not
# empty is refused unless --replace, which replaces it whole.
. "$(dirname "$0")/lib.sh"
CONVERT="$BIN/lttv-convert"
TEXT="$BIN/lttv-text"
WRITE="$BUILD/tests/test_hostile"
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR

if [ ! -x "$WRITE" ] || [ ! -x "$CONVERT" ]; then
	skip "hostile CTF export" "needs $WRITE and $CONVERT (make all tests)"
	done_testing; exit
fi
if ! command -v babeltrace2 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	skip "hostile CTF export read by babeltrace2" "babeltrace2 or python3 is not installed (scripts/install-deps.sh installs them)"
	done_testing; exit
fi

# convert KIND STATUS WHAT: the trace of KIND converts with exit STATUS and
# babeltrace2 reads every event of it, without a word on stderr
convert() {
	kind=$1 want=$2 what=$3
	( cd "$TOP" && "$WRITE" --write "$kind" "$TMP/$kind" ) >/dev/null 2>&1
	"$CONVERT" --ctf "$TMP/ctf-$kind" -t "$TMP/$kind" >/dev/null 2>"$TMP/$kind.conv"
	rc=$?
	check "$what: lttv-convert exits $want (exit $rc)" test "$rc" -eq "$want"
	sed 's/^/#   /' "$TMP/$kind.conv" | head -n 4
	babeltrace2 --clock-seconds "$TMP/ctf-$kind" >"$TMP/$kind.bt" 2>"$TMP/$kind.bt.err"
	rc=$?
	check "$what: babeltrace2 reads the CTF (exit $rc)" \
		sh -c "test $rc -eq 0 && ! test -s '$TMP/$kind.bt.err'"
	sed 's/^/#   /' "$TMP/$kind.bt.err" | head -n 4
	"$TEXT" -t "$TMP/$kind" --field-names >"$TMP/$kind.lt" 2>/dev/null
	n_lt=$(wc -l <"$TMP/$kind.lt")
	n_bt=$(wc -l <"$TMP/$kind.bt")
	check "$what: every event ($n_lt) is in the CTF ($n_bt)" test "$n_lt" -eq "$n_bt" -a "$n_lt" -gt 0
}

convert ctf-names 0 "names with quotes, dashes, spaces, twins, odd enums"
check "   ... the event named with a quote keeps its words" grep -q 'odd-fac.say _hi_:' "$TMP/ctf-names.bt"
check "   ... twin fields numbered" grep -q 'x = 0, x_2 = "second x"' "$TMP/ctf-names.bt"
check "   ... a field that would be a TSDL keyword renamed" grep -q 'Bool_ = 1' "$TMP/ctf-names.bt"
# (s is a sequence of uchar: text, shown as a string, docs/format.md)
check "   ... a field named like a sequence length kept apart" grep -q 's = "\\a\\b", s_length_2 = 9' "$TMP/ctf-names.bt"

convert ctf-reuse 0 "a facility id reused after an unload"
check "   ... the same events and fields as lttv-text" \
	python3 "$TOP/tests/ctf-compare.py" "$TMP/ctf-reuse.lt" "$TMP/ctf-reuse.bt"
check "   ... the second facility's events under its own name" \
	test "$(grep -c 'other.pong:.*label = "pong"' "$TMP/ctf-reuse.bt")" -eq 5

convert ctf-times 3 "times that go back in a stream"
check "   ... lttv-convert says how many events it moved" \
	grep -Eq "[0-9]+ events went back in time" "$TMP/ctf-times.conv"
check "   ... and why, as the reader found it" grep -q "time goes backwards\|time span" "$TMP/ctf-times.conv"

convert ctf-malformed 3 "malformed events"
check "   ... exported as raw bytes, and said" grep -q "2 malformed events were exported as raw bytes" "$TMP/ctf-malformed.conv"
check "   ... under a class of their own" test "$(grep -c 'demo.tick (malformed)' "$TMP/ctf-malformed.bt")" -eq 2

# into an existing folder: refused, replaced whole with --replace
GEN="$BIN/ltt-tracegen"
"$GEN" --scenario big --events 20000 --cpus 4 -o "$TMP/c4" >/dev/null 2>&1
"$GEN" --scenario big --events 20000 --cpus 2 -o "$TMP/c2" >/dev/null 2>&1
check "a 4-CPU trace converted" "$CONVERT" -t "$TMP/c4" --ctf "$TMP/cc"
ls "$TMP/cc" >"$TMP/cc.before"
fails_with "a 2-CPU one over it without --replace: refused, said" 2 "not empty.*--replace" \
	"$CONVERT" -t "$TMP/c2" --ctf "$TMP/cc"
ls "$TMP/cc" | cmp -s - "$TMP/cc.before"
_report $? "   ... the folder as it was"
check "with --replace: converted" "$CONVERT" -t "$TMP/c2" --ctf "$TMP/cc" --replace
check "   ... no stream of the old trace left (cpu_2, control_*_3)" \
	sh -c '! ls "$1" | grep -q "_[23]\$"' sh "$TMP/cc"
check "   ... nothing left beside it" sh -c '! ls -a "$1" | grep -q "^\.cc\."' sh "$TMP"
babeltrace2 "$TMP/cc" >"$TMP/cc.bt" 2>"$TMP/cc.err"
_report $? "   ... babeltrace2 reads it"
check "   ... every event (lttv-text's count)" \
	test "$(wc -l <"$TMP/cc.bt")" -eq "$("$TEXT" -t "$TMP/c2" | wc -l)"
mkdir "$TMP/notctf" && echo keep >"$TMP/notctf/file"
fails_with "--replace a folder that is not a CTF trace: refused" 2 "not a CTF trace" \
	"$CONVERT" -t "$TMP/c2" --ctf "$TMP/notctf" --replace
check "   ... its file kept" grep -q keep "$TMP/notctf/file"
mkdir "$TMP/empty"
check "into an empty folder: no --replace needed" "$CONVERT" -t "$TMP/c2" --ctf "$TMP/empty"
done_testing
