#!/bin/sh
# LTTng 2 traces (CTF 1.8, docs/ctf.md) read by lttv-text: every event and
# field value of each LTTng trace in traces/ equals babeltrace2's reading
# (tests/ctf-compare.py --lttng), the losses equal those babeltrace2
# reports, --stable works, lttv-convert exports it, and a session folder
# (several metadata folders below it) reads as one trace.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"

n=0
for dir in "$TOP"/traces/*/; do
	[ -n "$(find "$dir" -name metadata 2>/dev/null | head -1)" ] || continue
	name=$(basename "$dir")
	n=$((n + 1))
	check "$name: lttv-text reads it" "$TEXT" -t "$dir" --field-names
	"$TEXT" -t "$dir" --field-names >"$TMP/$name.lt" 2>"$TMP/$name.lterr"
	# a seek: --begin at the time of the middle event gives the dump's tail
	# from that time on (times compared as text: same length, no float)
	mid=$(sed -n "$(( $(wc -l <"$TMP/$name.lt") / 2 ))p" "$TMP/$name.lt" | awk '{ print $2 }')
	awk -v m="$mid" '($2 "") >= (m "")' "$TMP/$name.lt" >"$TMP/$name.tail"
	"$TEXT" -t "$dir" --field-names --begin "$mid" >"$TMP/$name.seek" 2>/dev/null
	check "$name: --begin $mid seeks to the dump's tail" cmp "$TMP/$name.seek" "$TMP/$name.tail"
	check "$name: --stable reads it" sh -c "'$TEXT' -t '$dir' --stable >'$TMP/$name.st' && test -s '$TMP/$name.st'"
	if ! command -v babeltrace2 >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
		skip "$name: equals babeltrace2" "babeltrace2 or python3 is not installed (scripts/install-deps.sh installs them)"
		continue
	fi
	babeltrace2 --clock-seconds "$dir" >"$TMP/$name.bt" 2>"$TMP/$name.bterr"
	check "$name: babeltrace2 reads it" test -s "$TMP/$name.bt"
	check "$name: every event and field equals babeltrace2's" \
		python3 "$TOP/tests/ctf-compare.py" --lttng "$TMP/$name.lt" "$TMP/$name.bt"
	tail -2 "$TMP/out" | sed 's/^/# /'
	bt_lost=$(sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events.*/\1/p' "$TMP/$name.bterr" |
		awk '{ s += $1 } END { print s + 0 }')
	lt_lost=$(sed -n 's/.* lost \([0-9]*\) events.*/\1/p' "$TMP/$name.lterr" | head -1)
	check "$name: events lost, as babeltrace2 counts them ($bt_lost)" test "${lt_lost:-0}" -eq "$bt_lost"
	# lttv-convert's CTF export of it: babeltrace2 reads as many events
	check "$name: lttv-convert --ctf exports it" "$BIN/lttv-convert" --ctf "$TMP/$name.ctf" -t "$dir"
	babeltrace2 "$TMP/$name.ctf" >"$TMP/$name.ctf.bt" 2>/dev/null
	check "$name: babeltrace2 reads the export: $(wc -l <"$TMP/$name.ctf.bt") events, as lttv-text" \
		test "$(wc -l <"$TMP/$name.ctf.bt")" -eq "$(wc -l <"$TMP/$name.lt")"
done
check "there are LTTng traces in traces/" test "$n" -gt 0

# a session folder: two copies of the sample's ust/ under other user ids
s="$TOP/traces/lttng-ust-sample"
mkdir -p "$TMP/session/ust/uid"
cp -r "$s/ust/uid/0" "$TMP/session/ust/uid/1000"
cp -r "$s/ust/uid/0" "$TMP/session/ust/uid/1001"
"$TEXT" -t "$s" >"$TMP/one" 2>/dev/null
"$TEXT" -t "$TMP/session" >"$TMP/two" 2>/dev/null
check "a session folder holds both copies' events" \
	test "$(wc -l <"$TMP/two")" -eq $((2 * $(wc -l <"$TMP/one")))
# a session of both tracers, as lttng create writes it (kernel/, ust/uid/):
# the kernel sample's and the user-space sample's events, in one trace
k="$TOP/traces/lttng-kernel-sample"
mkdir -p "$TMP/both"
cp -r "$k/kernel" "$s/ust" "$TMP/both/"
"$TEXT" -t "$k" >"$TMP/k" 2>/dev/null
"$TEXT" -t "$TMP/both" >"$TMP/both.out" 2>/dev/null
check "a session folder of kernel/ and ust/ holds both samples' events ($(wc -l <"$TMP/both.out"))" \
	test "$(wc -l <"$TMP/both.out")" -eq $(($(wc -l <"$TMP/k") + $(wc -l <"$TMP/one")))
check "   ... in time order, kernel and user-space events merged" \
	sh -c "awk '{ print \$2 }' '$TMP/both.out' | sort -c -n"
# the same events, their files named from another folder
"$TEXT" -t "$s/ust/uid/0/64-bit" | sed 's|(\([^)]*\))|(ust/uid/0/64-bit/\1)|' >"$TMP/alone"
check "a metadata folder alone reads as the whole sample" cmp -s "$TMP/alone" "$TMP/one"
done_testing
