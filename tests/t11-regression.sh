#!/bin/sh
# Regression: each trace under traces/ with a NAME.expected dump must still
# decode to exactly that text. To accept a deliberate change of the output,
# regenerate the dump (lttv-text -t traces/NAME --field-names) and commit it
# with the change that explains it. A trace kept with a NAME.digest instead
# (too big for its dump) must still give that digest.
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
# a trace too big for its whole dump keeps a digest of it instead
# (tests/trace-digest.sh says what is in it)
for dig in "$TOP"/traces/*.digest; do
	[ -f "$dig" ] || continue
	name=$(basename "$dig" .digest)
	n=$((n + 1))
	if [ ! -d "$TOP/traces/$name" ]; then
		_report 1 "$name: the trace of $name.digest is missing"
		continue
	fi
	"$TOP/tests/trace-digest.sh" "$TOP/traces/$name" "$BIN/lttv-text" >"$TMP/$name.dig" 2>"$TMP/$name.err"
	rc=$?
	check "$name: its digest is made with exit 0" test "$rc" -eq 0
	sed 's/^/#   /' "$TMP/$name.err" | head -n 5
	if cmp -s "$dig" "$TMP/$name.dig"; then
		_report 0 "$name: digest equals traces/$name.digest"
	else
		_report 1 "$name: digest differs from traces/$name.digest"
		diff "$dig" "$TMP/$name.dig" | head -n 10 | cut -c1-200 | sed 's/^/#   /'
	fi
done
check "there are regression traces" test "$n" -gt 0
done_testing
