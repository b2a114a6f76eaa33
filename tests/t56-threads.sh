#!/bin/sh
# lttv-text -q without -s reads each tracefile on its own, in threads
# (--threads N; lttv-text/unordered.c, ltt_reader): what it prints must be
# what the pass in time order prints. The pass in time order is forced
# with -s (the state needs it; with -q it prints nothing more), so the
# same binary gives both. Compared: the per-type and per-CPU statistics
# (-S -c) and the exit status on every bundled trace, on generated traces
# of several CPUs (the kernel-like mix, every family of field types),
# with --begin/--end and -e filters; the warnings and errors of broken
# traces, the same whatever the number of threads.
. "$(dirname "$0")/lib.sh"

text="$BIN/lttv-text"
gen="$BIN/ltt-tracegen"

# same NAME ARGS...: ordered (-s) vs --threads 1 vs --threads 3, stdout
# and exit status; stderr without the state engine's own lines. With
# BROKEN=1, a trace that fails: the pass in time order stops at the error
# where it meets it, with fewer or no counts, so only the threads' stdout
# are compared (1 and 3 threads: the same), the messages and the status
# with all three.
same() {
	name=$1; shift
	"$text" -q "$@" -s >"$TMP/o" 2>"$TMP/o.err"; ro=$?
	"$text" -q "$@" --threads 1 >"$TMP/t1" 2>"$TMP/t1.err"; r1=$?
	"$text" -q "$@" --threads 3 >"$TMP/t3" 2>"$TMP/t3.err"; r3=$?
	grep -v 'state engine' "$TMP/o.err" | sort >"$TMP/o.errs"
	sort "$TMP/t3.err" >"$TMP/t3.errs"
	if [ $ro -eq $r1 ] && [ $r1 -eq $r3 ] && [ $ro -lt 128 ] &&
	   { [ "${BROKEN:-0}" = 1 ] || { cmp -s "$TMP/o" "$TMP/t1" && [ -s "$TMP/o" ]; }; } &&
	   cmp -s "$TMP/t1" "$TMP/t3" &&
	   cmp -s "$TMP/t1.err" "$TMP/t3.err" && cmp -s "$TMP/o.errs" "$TMP/t3.errs"; then
		_report 0 "$name: the same counts, warnings and exit status ($ro) in time order and in 1 or 3 threads"
	else
		_report 1 "$name: exit $ro / $r1 / $r3"
		diff "$TMP/o" "$TMP/t3" | head -n 10 | sed 's/^/#   /'
		diff "$TMP/o.errs" "$TMP/t3.errs" | head -n 6 | sed 's/^/#   /'
		diff "$TMP/t1.err" "$TMP/t3.err" | head -n 6 | sed 's/^/#   /'
	fi
}

for t in "$TOP"/traces/*; do
	[ -d "$t" ] || continue
	same "$(basename "$t")" -t "$t" -S -c
done

"$gen" --scenario big --cpus 4 --events 300000 --subbuf-size 65536 -o "$TMP/big" >/dev/null
"$gen" --scenario fields --family mixed --cpus 3 --events 60000 --subbuf-size 16384 \
	-o "$TMP/fields" >/dev/null
same "big, 4 CPUs" -t "$TMP/big" -S -c
same "big, 4 CPUs, -r --begin/--end" -t "$TMP/big" -S -c -r --begin 0.01 --end 0.05
same "big, 4 CPUs, -e kernel.*" -t "$TMP/big" -S -e 'kernel.*'
same "every family of field types, 3 CPUs" -t "$TMP/fields" -S -c
same "two traces at once" -t "$TMP/big" -t "$TOP/traces/sample-synthetic" -S -c

# broken traces: the same warnings, errors and status however many threads
# (fail, fail at the open, raw events, an event that cannot be sized)
for kind in truncated bad-magic event-past-subbuf unknown-facility unknown-facility-big \
	    lost-size-edge; do
	"$gen" --bad "$kind" --cpus 3 -o "$TMP/bad-$kind" >/dev/null 2>&1
	BROKEN=1 same "--bad $kind" -t "$TMP/bad-$kind" -S -c
done

fails_with "--threads -1 is refused" 2 'threads' "$text" -t "$TOP/traces/sample-synthetic" -q --threads -1
# where the events are followed in time order, --threads cannot apply: an
# error, not a silent single thread
for args in "" "-q -s" "-q --process-stats" "-q --syscalls" "-q -A"; do
	fails_with "--threads ${args:-without -q} is refused" 2 'works only with -q' \
		"$text" -t "$TOP/traces/sample-synthetic" $args --threads 2
done
done_testing
