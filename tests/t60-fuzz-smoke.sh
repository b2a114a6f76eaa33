#!/bin/sh
# A short run of each libFuzzer harness (make fuzz runs them longer): any
# crash or sanitizer report in the reader or the XML parser fails here.
# run-once: the fuzzers carry ASan and UBSan themselves.
. "$(dirname "$0")/lib.sh"
SECONDS_EACH=${FUZZ_SMOKE_SECONDS:-10}

if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz smoke run" "clang is not installed (scripts/install-deps.sh installs it)"
	done_testing; exit
fi
cd "$TOP" || exit 1
if ! make --no-print-directory fuzz-build >"$TMP/build.log" 2>&1; then
	_report 1 "fuzzers build with clang -fsanitize=fuzzer"
	tail -n 20 "$TMP/build.log" | sed 's/^/#   /'
	done_testing; exit
fi
_report 0 "fuzzers build with clang -fsanitize=fuzzer"
mkdir -p "$TMP/ct" "$TMP/cd"
find traces -type f -name '*_[0-9]*' -size -1M -exec cp {} "$TMP/ct/" \; 2>/dev/null
cp facilities/*.xml tests/facilities/*.xml "$TMP/cd/"
check "fuzz_trace runs ${SECONDS_EACH}s without a finding" \
	build-fuzz/fuzz_trace -max_total_time="$SECONDS_EACH" -max_len=65536 \
	-artifact_prefix="$TMP/" "$TMP/ct"
check "fuzz_description runs ${SECONDS_EACH}s without a finding" \
	build-fuzz/fuzz_description -max_total_time="$SECONDS_EACH" \
	-artifact_prefix="$TMP/" "$TMP/cd"
done_testing
