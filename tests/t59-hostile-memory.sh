#!/bin/sh
# Out of memory is an error said, exit 1 (issue 31): under `ulimit -v`,
# on a trace of 3 M events, lttv-text -A and lttv-diff died of GLib's
# "failed to allocate" breakpoint (SIGTRAP), lttv-gtk --stats and
# --export of a segfault (GLib's logging out of memory in its turn:
# 70 MB), of GLib's abort (a new thread's key in GLib: 60 MB).
# Each tool, at several limits, either finishes (0 or 3) or exits 1 with
# a line that says memory ran out; never a signal; and a partial output
# (lttv-text -o's new file, lttv-convert's new folder, --export's file)
# is removed, as on a full disk. Not under SANITIZE=1
# (ASan reserves terabytes of shadow: a limit stops it before main).
. "$(dirname "$0")/lib.sh"
unset DISPLAY WAYLAND_DISPLAY

if [ "${SANITIZE:-}" = 1 ]; then
	skip "out of memory" "SANITIZE=1: ASan's shadow memory does not run under ulimit -v"
	done_testing; exit
fi
if ! (ulimit -v 1000000) 2>/dev/null; then
	skip "out of memory" "this shell cannot set ulimit -v"
	done_testing; exit
fi
check "a 3 M-event trace written" "$BIN/ltt-tracegen" --scenario busy --events 3000000 -o "$TMP/big"
O="$TMP/outputs"
mkdir "$O"

# under LIMIT_KB CMD...: a result or a said failure, never a signal
under() {
	limit=$1; shift
	( ulimit -v "$limit"; timeout 300 "$@" >/dev/null 2>"$TMP/err" )
	rc=$?
	case $rc in
	0|3) _report 0 "ulimit -v $limit: ${*##*/} finishes (exit $rc)" ;;
	1) if grep -qi "memory" "$TMP/err"; then
		_report 0 "ulimit -v $limit: ${*##*/}: exit 1, said ($(grep -i -m1 memory "$TMP/err" | cut -c1-70))"
	   else
		_report 1 "ulimit -v $limit: ${*##*/}: exit 1 says that memory ran out"
		tail -n 2 "$TMP/err" | sed 's/^/#   /'
	   fi ;;
	*) _report 1 "ulimit -v $limit: ${*##*/}: no crash (exit $rc)"
	   tail -n 2 "$TMP/err" | sed 's/^/#   /' ;;
	esac
	if [ -n "$(ls -A "$O" | grep '^\.')" ]; then
		_report 1 "ulimit -v $limit: ${*##*/}: no partial output left ($(ls -A "$O" | grep '^\.' | head -n 1))"
		rm -rf "$O" && mkdir "$O"
	fi
}

# lttv-convert runs out at 30 MB (a 2 MB buffer), where GTK cannot load
rm -rf "$O/ctf"
under 30000 "$BIN/lttv-convert" -t "$TMP/big" --ctf "$O/ctf"
for limit in 50000 60000 70000 100000; do
	under $limit "$BIN/lttv-text" -t "$TMP/big" -q -A -o "$O/a.txt"
	under $limit "$BIN/lttv-text" -t "$TMP/big" -q -s --process-stats
	under $limit "$BIN/lttv-diff" "$TMP/big" "$TMP/big"
	rm -rf "$O/ctf"
	under $limit "$BIN/lttv-convert" -t "$TMP/big" --ctf "$O/ctf"
	if [ -x "$BIN/lttv-gtk" ]; then
		under $limit "$BIN/lttv-gtk" -t "$TMP/big" --stats
		under $limit "$BIN/lttv-gtk" -t "$TMP/big" --export "$O/v.png"
	fi
done
done_testing
