#!/bin/sh
# Bad input: lttv-text must refuse a broken trace with one line on stderr
# and an exit status that is neither 0 nor a signal, and never hang; a
# trace whose defect docs/format.md tolerates must still be read.
#
# The broken traces come from `ltt-tracegen --bad KIND` (tests/writer/);
# `ltt-tracegen --list-bad` says what each kind expects:
#   fail  exit 1..127 (not 124, the timeout), exactly one line on stderr
#   raw   events listed (some undecoded), the problem reported on stderr,
#         exit < 128
#   ok    exit 0, events listed
# Issue 31: a trace of the other byte order (every header field swapped)
# is said to be one, not "truncated"; doubles of float_word_order 4321
# (ARM's FPA) are read as such, another order is warned about.
. "$(dirname "$0")/lib.sh"

GEN="$BIN/ltt-tracegen"
TEXT="$BIN/lttv-text"
# no installed or in-tree descriptions: only eventdefs/ counts
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR

# run_text DIR: lttv-text on DIR, output in $TMP/out, $TMP/err, status in $rc
run_text() {
	timeout 20 "$TEXT" -t "$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

show() {
	echo "#   exit $rc; stderr:"
	sed 's/^/#     /' "$TMP/err" | head -n 5
}

expect_fail() { # what dir
	run_text "$2"
	lines=$(grep -c . "$TMP/err")
	if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ $rc -ne 124 ] && [ "$lines" -eq 1 ]; then
		_report 0 "$1: refused with one line"
	else
		_report 1 "$1: refused with one line (exit $rc, $lines lines on stderr)"
		show
	fi
}

expect_raw() { # what dir
	run_text "$2"
	if [ $rc -lt 128 ] && [ $rc -ne 124 ] && [ -s "$TMP/out" ] && [ -s "$TMP/err" ]; then
		_report 0 "$1: read, undecoded events reported"
	else
		_report 1 "$1: read, undecoded events reported (exit $rc)"
		show
	fi
}

expect_ok() { # what dir
	run_text "$2"
	if [ $rc -eq 0 ] && [ -s "$TMP/out" ]; then
		_report 0 "$1: read"
	else
		_report 1 "$1: read (exit $rc)"
		show
	fi
}

if [ ! -x "$GEN" ] || [ ! -x "$TEXT" ]; then
	skip "bad input" "needs $GEN and $TEXT (make all)"
	done_testing
	exit $?
fi

# the base trace is valid
"$GEN" --scenario wraps --subbuf-size 1024 -o "$TMP/good" 2>"$TMP/err"
check "the base trace is written" test -s "$TMP/good/cpu_0"
expect_ok "the base trace" "$TMP/good"

kinds=$("$GEN" --list-bad)
check "ltt-tracegen lists the kinds of bad traces" test -n "$kinds"
printf '%s\n' "$kinds" | {
	while read -r kind expect what; do
		dir="$TMP/bad-$kind"
		if ! "$GEN" --bad "$kind" -o "$dir" 2>"$TMP/err"; then
			_report 1 "$kind: ltt-tracegen --bad $kind"
			sed 's/^/#   /' "$TMP/err"
			continue
		fi
		case $expect in
		fail) expect_fail "$kind ($what)" "$dir" ;;
		raw) expect_raw "$kind ($what)" "$dir" ;;
		ok) expect_ok "$kind ($what)" "$dir" ;;
		*) _report 1 "$kind: unknown expectation '$expect'" ;;
		esac
	done
	# the same kinds with the other header and alignment variants
	for variant in "--heartbeat 0 --alignment 4" "--arch-size 4 --alignment 0"; do
		for kind in truncated event-past-subbuf unknown-facility-big lost-size-edge; do
			dir="$TMP/var-$kind"
			rm -rf "$dir"
			# shellcheck disable=SC2086
			if "$GEN" --bad "$kind" $variant -o "$dir" 2>"$TMP/err"; then
				expect_fail "$kind with $variant" "$dir"
			else
				_report 1 "$kind with $variant: ltt-tracegen"
			fi
		done
	done
	# the other byte order: said so, whatever its swapped buf_size says
	for kind in big-endian swapped-magic; do
		"$GEN" --bad $kind -o "$TMP/bo-$kind" >/dev/null 2>&1
		fails_with "$kind: said to be of the other byte order" 1 "other byte order" \
			"$TEXT" -t "$TMP/bo-$kind"
	done
	# doubles of ARM's FPA (float_word_order 4321): the values of 1234
	"$GEN" --scenario types -o "$TMP/f1234" >/dev/null 2>&1
	"$GEN" --scenario types --float-word-order 4321 -o "$TMP/f4321" >/dev/null 2>&1
	"$GEN" --scenario types --float-word-order 7777 -o "$TMP/f7777" >/dev/null 2>&1
	# (the bytes of a union read as a double are the writer's integer)
	dump() { LTT_FACILITIES_DIR="$TOP/facilities" "$TEXT" -t "$1" -n 2>/dev/null |
		sed 's/as_f64 = [^,]*//'; }
	dump "$TMP/f1234" >"$TMP/d1234"
	dump "$TMP/f4321" >"$TMP/d4321"
	check "float_word_order 4321: the doubles of the trace in 1234" cmp "$TMP/d1234" "$TMP/d4321"
	check "   ... there are doubles" grep -q "f64 = -0.00225," "$TMP/d4321"
	fails_with "float_word_order 7777: said, exit 3" 3 "float_word_order 7777" \
		env LTT_FACILITIES_DIR="$TOP/facilities" "$TEXT" -t "$TMP/f7777" -q
	# not a trace at all
	expect_fail "a missing directory" "$TMP/does-not-exist"
	mkdir -p "$TMP/empty-dir"
	expect_fail "an empty directory" "$TMP/empty-dir"
	echo "not a trace" >"$TMP/a-file"
	expect_fail "a regular file" "$TMP/a-file"
	done_testing
}
