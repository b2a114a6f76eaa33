#!/bin/sh
# Self-check of ltt-tracegen against lttv-text, TAP output.  Not run by
# tests/run.sh (it lives beside the writer); run it by hand or from a
# tests/tNN-*.sh wrapper:   sh tests/writer/check-scenarios.sh
#
# - the stored sample traces are what the stored commands make (same bytes);
# - every scenario, in every layout (alignment 0/4/8, heartbeat on/off,
#   arch_size 4/8), is read by lttv-text without error or malformed event,
#   and ltt-reencode finds its bytes to be what the writer's rules give for
#   the values the reader decodes (so are the stored traces, the real ones
#   recorded by our kernel too);
# - the wraps scenario gives the same cycle counts with 32-bit timestamps
#   (rebuilt by the reader) as with 64-bit ones (written in full);
# - flight mode and more CPUs are read; big writes N events, all counted;
# - busy writes N events whose scheduling is consistent for the state engine.
: "${BUILD:=build}"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BIN="$TOP/$BUILD/bin"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ltt-scen.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
n=0 failed=0
report() { # status what
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
GEN="$BIN/ltt-tracegen" TEXT="$BIN/lttv-text"
if [ ! -x "$GEN" ] || [ ! -x "$TEXT" ]; then
	echo "ok 1 - scenarios # SKIP needs $GEN and $TEXT"
	echo "1..1"
	exit 0
fi

for t in sample types; do
	"$GEN" --scenario $t --seed 1 -o "$TMP/$t" && diff -r "$TMP/$t" "$TOP/traces/$t-synthetic" >/dev/null
	report $? "traces/$t-synthetic is what traces/README's command writes"
done

# read DIR: exit 0 (or 0 with a warning) and no malformed payload
read_clean() {
	"$TEXT" -t "$1" -n >"$TMP/out" 2>"$TMP/err" && ! grep -q malformed "$TMP/out"
}
for s in sample types wraps; do
	for layout in "-a 0" "-a 4" "-a 8" "-a 8 --heartbeat 0" "-a 4 --heartbeat 0" \
		      "--arch-size 4 -a 4" "--arch-size 4 -a 0 --heartbeat 0"; do
		d="$TMP/$s$(echo "$layout" | tr -d ' -')"
		# shellcheck disable=SC2086
		"$GEN" --scenario $s $layout -o "$d" && read_clean "$d"
		report $? "$s $layout: read cleanly"
		# the reader's values, laid out again by the writer's rules
		"$BIN/ltt-reencode" "$d" >"$TMP/re" 2>&1
		report $? "$s $layout: ltt-reencode: the same bytes"
	done
done
# every family of field types (tests/facilities/fields.xml) in turn
for a in 0 4 8; do
	"$GEN" --scenario fields --family mixed --events 2000 -a $a -o "$TMP/f$a" >/dev/null &&
		"$BIN/ltt-reencode" "$TMP/f$a" >"$TMP/re" 2>&1
	report $? "fields --family mixed -a $a: ltt-reencode: the same bytes"
done
for t in "$TOP"/traces/*/; do
	if [ -n "$(find "$t" -name metadata -print -quit)" ]; then
		# an LTTng trace (docs/ctf.md): CTF's layout, not the 2006
		# writer's; t58 holds it against babeltrace2 instead
		n=$((n + 1))
		echo "ok $n - $(basename "$t"): ltt-reencode # SKIP an LTTng trace, not laid out by the 2006 writer's rules"
		continue
	fi
	"$BIN/ltt-reencode" "$t" >"$TMP/re" 2>&1
	report $? "$(basename "$t"): ltt-reencode: the same bytes"
done
# and it sees a difference the reader does not: one byte of the padding
# between statedump.enumerate_process_state's name ("init", at payload +8)
# and its next field (an enum, aligned to 4 at +16)
cp -r "$TOP/traces/sample-synthetic" "$TMP/spoiled"
f="$TMP/spoiled/control/processes_0"
at=$(grep -abo 'init' "$f" | head -n 1 | cut -d: -f1)
printf '\001' | dd of="$f" bs=1 seek=$((at + 5)) conv=notrunc 2>/dev/null
! "$BIN/ltt-reencode" "$TMP/spoiled" >"$TMP/re" 2>&1 && grep -q 'first difference at +13' "$TMP/re"
report $? "ltt-reencode finds one spoiled padding byte after a string"

for hb in 0 1; do
	"$GEN" --scenario wraps --heartbeat $hb -o "$TMP/w$hb" &&
		"$TEXT" -t "$TMP/w$hb" --cycles -e 'kernel_arch.*' >"$TMP/w$hb.txt"
done
cmp -s "$TMP/w0.txt" "$TMP/w1.txt" && [ -s "$TMP/w0.txt" ]
report $? "wraps: cycle counts rebuilt from 32 bits equal the 64-bit ones"
first=$(head -n 1 "$TMP/w0.txt" | awk '{print $2}')
last=$(sort -n -k2 "$TMP/w0.txt" | tail -n 1 | awk '{print $2}')
[ $(( (last >> 32) - (first >> 32) )) -ge 5 ]
report $? "wraps: at least 5 wraps of the low 32 bits ($first .. $last)"

"$GEN" --scenario sample --flight -o "$TMP/flight" && read_clean "$TMP/flight" &&
	[ -s "$TMP/flight/flight-cpu_0" ] && [ ! -e "$TMP/flight/cpu_0" ]
report $? "flight mode: flight-cpu_N files, read cleanly"
"$GEN" --scenario wraps --cpus 4 -o "$TMP/cpus4" && read_clean "$TMP/cpus4" &&
	grep -q "(cpu_3)" "$TMP/out"
report $? "4 CPUs"

# the events of a scenario that the writer adds as the kernel does: the
# facility table, the heartbeats, and (busy) the state dump
added() { # TRACE
	"$TEXT" -t "$1" -q -S | awk '$2 ~ /^core\.(state_dump_)?facility_load$|^core\.time_heartbeat$|^statedump\./ { n += $1 } END { print n + 0 }'
}
"$GEN" --scenario big --events 200000 --cpus 3 -o "$TMP/big" &&
	total=$("$TEXT" -t "$TMP/big" -q -c | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
[ "$((total - $(added "$TMP/big")))" = 200000 ] && [ "$(added "$TMP/big")" -ge 7 ]
report $? "big: 200000 events written and counted ($total with the facility loads and heartbeats)"

# busy is what the viewer's benchmark draws: its schedchanges must make
# sense to the state engine
"$GEN" --scenario busy --events 200000 -o "$TMP/busy" &&
	total=$("$TEXT" -t "$TMP/busy" -q -c | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
[ "$((total - $(added "$TMP/busy")))" = 200000 ]
report $? "busy: 200000 events written and counted ($total with the loads, heartbeats and state dump)"
consistent() { # lttv-text -n of schedchanges: switch out what the CPU ran, one CPU per task
	awk '{ cpu = $5; out = $9; sub(",", "", out); inn = $12; sub(",", "", inn); n++
	       if ((cpu in cur) ? cur[cpu] != out : out != 0) bad++
	       if (inn != 0) for (c in cur) if (c != cpu && cur[c] == inn) bad++
	       cur[cpu] = inn }
	     END { exit bad > 0 || n < 1000 }'
}
"$TEXT" -t "$TMP/busy" -n -e process.schedchange | consistent
report $? "busy: each schedchange switches out the task its CPU ran; no task on two CPUs"
# big starts each CPU in a task, not idle: the check finds its first
# switch out inconsistent, and nothing else
"$TEXT" -t "$TMP/big" -n -e process.schedchange | consistent
[ $? -ne 0 ] && "$TEXT" -t "$TMP/big" -n -e process.schedchange |
	awk '!seen[$5]++ { $9 = "0," } { print }' | consistent
report $? "the same check finds big's CPUs start in a task, and no task on two CPUs"
nforks=$("$TEXT" -t "$TMP/busy" -q -S | awk '$2 == "process.fork" { print $1 }')
nfrees=$("$TEXT" -t "$TMP/busy" -q -S | awk '$2 == "process.free" { print $1 }')
[ "${nforks:-0}" -ge 50 ] && [ "${nfrees:-0}" -ge 50 ]
report $? "busy: processes come and go ($nforks forks, $nfrees frees)"

echo "1..$n"
[ "$failed" -eq 0 ]
