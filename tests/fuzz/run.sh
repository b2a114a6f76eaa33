#!/bin/sh
# run.sh FUZZ_DIR HARNESS: one libFuzzer harness on its corpus
# (FUZZ_DIR/corpus-HARNESS, grown across runs) and its seeds
# (FUZZ_DIR/seeds-HARNESS, from seed.py), for $FUZZ_SECONDS seconds or,
# when $FUZZ_RUNS is set, that many executions, stopping anyway after
# $FUZZ_MAX_SECONDS when that is set too (a campaign that must end by a
# given time: the line then says how far it got). Prints one line:
#
#   fuzz_trace: 10000000 runs in 1234 s (8103/s), cov 2345 ft 9876, corpus 567, load 1.95 2.10 2.31: no finding
#
# (load: the machine's load averages at the end, over 1, 5 and 15 minutes:
# on a shared machine a rate means little without them) and exits 1 with
# the finding's file when it crashed, leaked or timed out.
dir=$1 h=$2
here=$(cd "$(dirname "$0")" && pwd)
cd "$dir" || exit 2
mkdir -p "corpus-$h" "findings-$h"
set -- -print_final_stats=1 -artifact_prefix="findings-$h/" -timeout=30 -rss_limit_mb=2048
case $h in
# 4 bytes of header, then two parts of one 8 KiB sub-buffer each (or
# up to four 4 KiB ones): seed.py's cut. At 8192 every seed lost its tail
# and with it the header's facilities part: cov 63 instead of 1078.
trace) set -- "$@" -max_len=16388 -dict="$here/trace.dict" ;;
ctf) set -- "$@" -max_len=16388 ;;
description|genevent) set -- "$@" -max_len=16384 -dict="$here/xml.dict" ;;
lttng_meta|lttng_stream) set -- "$@" -max_len=16384 ;;
filter) set -- "$@" -max_len=4096 -dict="$here/filter.dict" ;;
esac
if [ -n "${FUZZ_RUNS:-}" ]; then
	set -- "$@" -runs="$FUZZ_RUNS"
	[ -n "${FUZZ_MAX_SECONDS:-}" ] && set -- "$@" -max_total_time="$FUZZ_MAX_SECONDS"
else
	set -- "$@" -max_total_time="${FUZZ_SECONDS:-60}"
fi
# no fill of fresh allocations and a small quarantine: the same checks,
# at twice the speed (the harnesses allocate a trace per input)
ASAN_OPTIONS="max_malloc_fill_size=0:quarantine_size_mb=4:malloc_context_size=4${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
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
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
echo "fuzz_$h: ${runs:-0} runs in $secs s ($rate/s), cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?}, load ${load:-?}: $what"
[ $rc -eq 0 ]
