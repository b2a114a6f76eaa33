#!/bin/sh
# A short run of each libFuzzer harness from its seeds (make fuzz runs
# them longer; docs/fuzzing.md): any crash, leak, hang or sanitizer report
# in the reader, the XML parser, the CTF writer, the filter language or
# genevent fails here. The seeds are every bundled trace, the writer's
# scenarios and bad kinds, the facility files and the filter examples
# (tests/fuzz/seed.py): a harness that starts from nothing fails too.
# What a fuzzer once found (tests/fuzz/regressions/HARNESS/) is run again.
# run-once: the fuzzers carry ASan and UBSan themselves.
. "$(dirname "$0")/lib.sh"
SECONDS_EACH=${FUZZ_SMOKE_SECONDS:-10}

if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz smoke run" "clang is not installed (scripts/install-deps.sh installs it)"
	done_testing; exit
fi
cd "$TOP" || exit 1
if ! make --no-print-directory fuzz-build fuzz-seeds >"$TMP/build.log" 2>&1; then
	_report 1 "fuzzers build with clang -fsanitize=fuzzer, seeds written"
	tail -n 20 "$TMP/build.log" | sed 's/^/#   /'
	done_testing; exit
fi
_report 0 "fuzzers build with clang -fsanitize=fuzzer, seeds written"
# The trace harnesses rewrite their scratch trace in place from input to
# input (scratch-trace.h): after a long input and then a short one, the
# trace's two files must hold the short one's bytes exactly, nothing of
# the long one (else every finding is a different input than the one kept).
printf '\002\000\000\000AB%0100d' 7 >"$TMP/long"
printf '\001\000\000\000C%010d' 3 >"$TMP/short"
build-fuzz/fuzz_trace "$TMP/long" "$TMP/short" >"$TMP/scratch.log" 2>&1 &
pid=$!
wait $pid
scratch=/dev/shm/ltt-fuzz-$pid
[ -d /dev/shm ] || scratch=/tmp/ltt-fuzz-$pid
printf 'C' >"$TMP/want-fac"
printf '%010d' 3 >"$TMP/want-cpu"
check "fuzz_trace's scratch trace holds the last input only (facilities)" \
	cmp "$TMP/want-fac" "$scratch/control/facilities_0"
check "   ... (cpu_0)" cmp "$TMP/want-cpu" "$scratch/cpu_0"
rm -rf "$scratch"
for h in trace description ctf filter genevent lttng_meta lttng_stream; do
	n=$(ls build-fuzz/seeds-$h | wc -l)
	check "fuzz_$h has seeds ($n)" test "$n" -ge 5
	# what it found once, each input run whole (longer than -max_len too)
	for f in tests/fuzz/regressions/$h/*; do
		[ -f "$f" ] || continue
		timeout 300 "build-fuzz/fuzz_$h" -artifact_prefix="$TMP/" "$f" \
			>"$TMP/regression" 2>&1
		rc=$?
		check "fuzz_$h on its old finding $(basename "$f") (exit $rc)" test "$rc" -eq 0
		[ $rc -eq 0 ] || grep -m 3 'ERROR\|SUMMARY' "$TMP/regression" | sed 's/^/#   /'
	done
	# a corpus of its own, so that a smoke run does not grow the campaign's
	rm -rf "build-fuzz/smoke" && mkdir -p "build-fuzz/smoke"
	ln -s "../seeds-$h" "build-fuzz/smoke/seeds-$h"
	cp "build-fuzz/fuzz_$h" "build-fuzz/smoke/"
	FUZZ_SECONDS=$SECONDS_EACH tests/fuzz/run.sh build-fuzz/smoke "$h" >"$TMP/run" 2>&1
	rc=$?
	check "fuzz_$h runs ${SECONDS_EACH}s without a finding: $(cat "$TMP/run")" test "$rc" -eq 0
	cov=$(sed -n 's/.* cov \([0-9]*\) .*/\1/p' "$TMP/run")
	# a trace harness whose seeds lose their facilities part to -max_len
	# stays near 70 edges (every event unknown); from whole seeds, over 1000
	min=50
	# the LTTng stream harness decodes every field type from its seeds
	case $h in trace|ctf|lttng_stream) min=500 ;; esac
	check "   ... and reaches some coverage (cov ${cov:-?} > $min)" test "${cov:-0}" -gt $min
done
rm -rf build-fuzz/smoke
done_testing
