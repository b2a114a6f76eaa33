#!/bin/sh
# The event matcher of the field run (issue 28, item 4:
# qemu/rootfs/match-events.py, which aligns our trace with LTTng's and
# ftrace's event by event) on made-up streams whose answer is known
# (tests/field-match-cases.py): identical streams all match; an event
# written on either side of an interrupt is matched as reordered; the
# other session's events outside our window, a loss reported where the
# events are missing, LTTng's missing rt_sigreturn exits each counted as
# such, and the same gaps without their reason, or a field that differs,
# unexplained; the parsers of each tracer's output, and the two bundled
# traces read through lttv-text and babeltrace2.
. "$(dirname "$0")/lib.sh"
# without python3-bt2 the LTTng reading is skipped, saying why
PY=$(bt2_python) || PY=python3
"$PY" "$TOP/tests/field-match-cases.py" "$BIN/lttv-text" >"$TMP/cases" 2>&1
cases_report "$TMP/cases" field-match-cases.py
done_testing
