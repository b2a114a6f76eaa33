#!/bin/sh
# lttd and the library read the same bytes the same way: the loss counters
# lttd's exit report gives for each channel it copied (lttd/stats.c walks
# the events) equal the ones lttv-text -c gives for that CPU (libltttrace),
# and the totals equal lttv-text's warning, on generated traces of every
# layout (alignment 0, 4, 8; 32- and 64-bit timestamps; 4- and 8-byte
# longs and pointers) whose events are strings, sequences or a mix, so that
# the events before a buffer_stats have every length and padding.  Both use
# include/ltt/ltt-decode.h; this catches either drifting from it.  Each
# CPU loses events every N of its events (told at the start of the next
# sub-buffer) and once more at the end, told after its last events as the
# kernel's stop does (ltt-tracegen --losses).
. "$(dirname "$0")/lib.sh"

GEN="$BIN/ltt-tracegen"
FAKE="$TOP/$BUILD/tests/lttd-fakerelay"
if [ ! -x "$FAKE" ] || [ ! -x "$GEN" ]; then
	skip "lttd and lttv-text agree on losses" "lttd-fakerelay or ltt-tracegen is not built"
	done_testing
	exit
fi

n=0
# family alignment heartbeat arch-size sub-buffer losses seed
while read -r fam a hb arch sb every seed; do
	n=$((n + 1))
	name="$fam a=$a hb=$hb arch=$arch sb=$sb every $every"
	g="$TMP/g$n"
	if ! "$GEN" -s fields --family "$fam" -n 2400 -c 3 -b "$sb" -a "$a" \
		--heartbeat "$hb" --arch-size "$arch" --losses "$every" \
		--seed "$seed" -o "$g" >/dev/null 2>"$TMP/gen.err"; then
		_report 1 "$name: ltt-tracegen: $(cat "$TMP/gen.err")"
		continue
	fi
	"$BIN/lttv-text" -t "$g" -q -c >"$TMP/text" 2>"$TMP/text.err"
	# lttd copies channels: eventdefs/ is not one
	mkdir "$TMP/ch$n"
	cp -r "$g/control" "$g"/cpu_* "$TMP/ch$n/"
	env LTTD_FAKE_SUBBUF_SIZE="$sb" timeout 60 "$FAKE" -t "$TMP/ch$n" \
		-d "$TMP/out$n" -N 2 2>"$TMP/lttd.err"
	# "cpu N LOST" from each
	sed -n 's/^lttd: cpu_\([0-9]*\): .*kernel: \([0-9]*\) events lost.*/cpu \1 \2/p; s/^lttd: cpu_\([0-9]*\): .*kernel: no loss.*/cpu \1 0/p' \
		"$TMP/lttd.err" | sort >"$TMP/l"
	sed -n 's/^cpu \([0-9]*\): .*, \([0-9]*\) lost$/cpu \1 \2/p' "$TMP/text" | sort >"$TMP/t"
	lt=$(sed -n 's/^lttd: total: .*kernel: \([0-9]*\) events lost, \([0-9]*\) corrupted.*/\1 \2/p' "$TMP/lttd.err")
	tt=$(sed -n 's/.*the kernel lost \([0-9]*\) events and delivered \([0-9]*\) corrupted.*/\1 \2/p' "$TMP/text.err")
	check "$name: 3 CPUs, each lost events ($(tr '\n' ' ' <"$TMP/t"))" \
		sh -c "[ \$(grep -c ' [1-9][0-9]*\$' '$TMP/t') -eq 3 ]"
	check "$name: lttd's losses per CPU are lttv-text's ($(tr '\n' ' ' <"$TMP/l"))" \
		cmp -s "$TMP/l" "$TMP/t"
	check "$name: lttd's total '$lt' is lttv-text's '$tt'" \
		test -n "$lt" -a "$lt" = "$tt"
done <<EOF
strings 8 1 8 4096 37 1
strings 4 0 4 2048 53 2
strings 0 1 8 4096 97 3
strings 8 0 4 2048 47 10
sequences 8 0 8 4096 41 4
sequences 4 1 4 2048 29 5
sequences 0 0 4 4096 61 6
mixed 8 1 4 2048 31 7
mixed 0 0 8 4096 43 8
mixed 4 0 8 2048 71 9
EOF
done_testing
