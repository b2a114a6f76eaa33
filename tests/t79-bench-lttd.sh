#!/bin/sh
# The parsers of bench/lttd.py's LTTng side (lttd against lttng-consumerd
# on Debian's kernel, issue 28 item 5): `lttng list`'s discarded events and
# channel attributes, babeltrace2's counter, lttv-text's count of an
# LTTng trace (tests/bench-lttd-cases.py). The benchmark itself is timed,
# so it is no test: only what it reads is checked here.
. "$(dirname "$0")/lib.sh"
python3 "$TOP/tests/bench-lttd-cases.py" "$TOP/traces" "$TOP/$BUILD" >"$TMP/cases" 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	'ok - '*) _report 0 "${line#ok - }" ;;
	'not ok - '*) _report 1 "${line#not ok - }" ;;
	*) echo "# $line" ;;
	esac
done <"$TMP/cases"
check "bench-lttd-cases.py ran to its end (exit $rc)" grep -qx "end of cases" "$TMP/cases"
done_testing
