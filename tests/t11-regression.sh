#!/bin/sh
# Regression: each trace under traces/ with a NAME.expected dump must still
# decode to exactly that text. To accept a deliberate change of the output,
# regenerate the dump (lttv-text -t traces/NAME --field-names) and commit it
# with the change that explains it.
. "$(dirname "$0")/lib.sh"
n=0
for exp in "$TOP"/traces/*.expected; do
	[ -f "$exp" ] || continue
	name=$(basename "$exp" .expected)
	n=$((n + 1))
	if [ ! -d "$TOP/traces/$name" ]; then
		_report 1 "$name: the trace of $name.expected is missing"
		continue
	fi
	"$BIN/lttv-text" -t "$TOP/traces/$name" --field-names >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	check "$name: decodes with exit 0" test "$rc" -eq 0
	if cmp -s "$exp" "$TMP/$name.out"; then
		_report 0 "$name: output equals traces/$name.expected"
	else
		_report 1 "$name: output differs from traces/$name.expected"
		diff "$exp" "$TMP/$name.out" | head -n 10 | cut -c1-200 | sed 's/^/#   /'
	fi
done
check "there are regression traces" test "$n" -gt 0
done_testing
