#!/bin/sh
# Output that cannot be written is an error (issue 16): every tool that
# prints on standard output exits 1, saying so, when it is closed (>&-) or
# full (>/dev/full); none reports success for output that went nowhere.
# Issue 31: --help and --version too (they exit inside popt or GOption),
# for every tool.
. "$(dirname "$0")/lib.sh"
T="$TOP/traces/sample-synthetic"
unset DISPLAY WAYLAND_DISPLAY

# fails_on_bad_stdout WHAT CMD...: exit 1 and a word on stderr, both ways
fails_on_bad_stdout() {
	what=$1; shift
	for how in closed full; do
		if [ $how = closed ]; then
			timeout 120 "$@" >&- 2>"$TMP/err"
		else
			timeout 120 "$@" >/dev/full 2>"$TMP/err"
		fi
		rc=$?
		if [ $rc -eq 1 ] && grep -qi "write error\|cannot write" "$TMP/err"; then
			_report 0 "$what, stdout $how: exit 1, said"
		else
			_report 1 "$what, stdout $how: exit 1, said (exit $rc)"
			sed 's/^/#   /' "$TMP/err" | head -n 3
		fi
	done
}

fails_on_bad_stdout "lttv-text" "$BIN/lttv-text" -t "$T"
fails_on_bad_stdout "ltt-checksum" "$BIN/ltt-checksum" "$TOP/facilities/core.xml"
if [ -x "$BIN/lttv-gtk" ]; then
	fails_on_bad_stdout "lttv-gtk --filter" "$BIN/lttv-gtk" -t "$T" --filter "cpu = 0"
	fails_on_bad_stdout "lttv-gtk --export --layout" "$BIN/lttv-gtk" -t "$T" \
		--export "$TMP/v.png" --layout
	check "lttv-gtk --export without --layout needs no stdout" \
		sh -c '"$1" -t "$2" --export "$3" >&-' sh "$BIN/lttv-gtk" "$T" "$TMP/w.png"
else
	skip "lttv-gtk with a bad stdout" "no $BIN/lttv-gtk (make all)"
fi
for tool in lttv-text lttv-diff lttv-convert lttv-gtk ltt-checksum lttd lttctl genevent; do
	[ -x "$BIN/$tool" ] || { skip "$tool --help, --version on a full disk" "no $BIN/$tool"; continue; }
	for opt in --help --version; do
		"$BIN/$tool" $opt >/dev/full 2>"$TMP/err"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -qi "write error" "$TMP/err"; then
			_report 0 "$tool $opt >/dev/full: exit $rc, said"
		else
			_report 1 "$tool $opt >/dev/full: non-zero, said (exit $rc)"
		fi
	done
	"$BIN/$tool" --version >"$TMP/v" 2>&1
	_report $? "$tool --version on a good stdout: exit 0"
done
done_testing
