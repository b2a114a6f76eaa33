#!/bin/sh
# The parsers of bench/lttd.py's LTTng side (lttd against lttng-consumerd
# on Debian's kernel, issue 28 item 5): `lttng list`'s discarded events and
# channel attributes, babeltrace2's counter, lttv-text's count of an
# LTTng trace; bench/tracer.py's bytes of a trace and its interleaved
# batches (tests/bench-lttd-cases.py). The benchmarks themselves are timed,
# so it is no test: only what it reads is checked here.
. "$(dirname "$0")/lib.sh"
python3 "$TOP/tests/bench-lttd-cases.py" "$TOP/traces" "$TOP/$BUILD" >"$TMP/cases" 2>&1
cases_report "$TMP/cases" bench-lttd-cases.py
done_testing
