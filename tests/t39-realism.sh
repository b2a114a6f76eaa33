#!/bin/sh
# The synthetic traces look like what our kernel writes: one checker,
# tests/realism-check.py, holds its rules (no empty tracefile, heartbeats
# in every tracefile, each event in its channel's tracefile, the facility
# table with the checksums and sizes of eventdefs/, float_word_order, no
# task on two CPUs at once, a fork or the state dump before a pid is used)
# against the traces our kernel recorded
# (traces/qemu-*) -- which proves the rules -- and against every
# ltt-tracegen scenario and stored sample. Then it is shown each rule
# broken once, on a spoiled copy, and must say so.
. "$(dirname "$0")/lib.sh"
GEN="$BIN/ltt-tracegen" TEXT="$BIN/lttv-text"
CHECK="$TOP/tests/realism-check.py"
if ! command -v python3 >/dev/null; then
	skip "realism" "needs python3"
	done_testing
	exit
fi
export LTTV_TEXT="$TEXT" LTT_CHECKSUM="$BIN/ltt-checksum"

for t in "$TOP"/traces/*/; do
	name=$(basename "$t")
	if [ -n "$(find "$t" -name metadata | head -1)" ]; then
		skip "$name: looks like what our kernel writes" "an LTTng trace (t58 checks it against babeltrace2)"
		continue
	fi
	check "$name: looks like what our kernel writes" python3 "$CHECK" "$t"
done

# every scenario, in its default layout, with the options the tests use
for s in "sample" "types" "wraps" "big --events 10000" "busy --events 10000" \
	 "latency" "chain" "fields --events 5000" "fields --events 5000 --losses 50" \
	 "sample --flight" "wraps --cpus 4" "busy --events 10000 --cpus 3"; do
	d="$TMP/$(echo "$s" | tr -d ' -')"
	# shellcheck disable=SC2086
	"$GEN" --scenario $s -o "$d" >/dev/null 2>&1
	case $s in
	latency*|chain*) any=--any-channel ;;	# (see realism-check.py)
	*) any= ;;
	esac
	# shellcheck disable=SC2086
	check "$s: looks like what our kernel writes" python3 "$CHECK" $any "$d"
	"$TEXT" -t "$d" -q >/dev/null 2>"$TMP/warn"
	check "$s: lttv-text names no empty tracefile" sh -c "! grep -i empty '$TMP/warn'"
done
# without heartbeats (a kernel without CONFIG_LTT_HEARTBEAT_EVENT) a channel
# without events stays empty, as it would there
"$GEN" --scenario sample --heartbeat 0 -o "$TMP/nohb" >/dev/null
check "sample --heartbeat 0: looks like what our kernel writes" python3 "$CHECK" "$TMP/nohb"
check "   ... with empty tracefiles, only there" \
	sh -c "find '$TMP/nohb' -type f -size 0 | grep -q modules_0"

# each rule broken once: the checker must see it
any=
spoil() { # name: a fresh copy of the sample in $TMP/name
	rm -rf "$TMP/$1"
	cp -r "$TOP/traces/sample-synthetic" "$TMP/$1"
}
sees() { # what pattern trace [LTTV_TEXT wrapper's sed script]
	_what=$1 _pat=$2 _tr=$3
	if [ -n "$4" ]; then
		printf '#!/bin/sh\n"%s" "$@" | sed %s\n' "$TEXT" "'$4'" >"$TMP/text.sh"
		chmod +x "$TMP/text.sh"
		# shellcheck disable=SC2086
		LTTV_TEXT="$TMP/text.sh" python3 "$CHECK" $any "$_tr" >"$TMP/seen" 2>&1
	else
		python3 "$CHECK" "$_tr" >"$TMP/seen" 2>&1
	fi
	_rc=$?
	if [ "$_rc" -eq 1 ] && grep -q -- "$_pat" "$TMP/seen"; then
		_report 0 "$_what"
	else
		_report 1 "$_what (exit $_rc)"
		sed 's/^/#   /' "$TMP/seen" | head -n 10
	fi
}
spoil empty
: >"$TMP/empty/control/modules_1"
sees "an empty tracefile is seen" "control/modules_1: empty" "$TMP/empty"
spoil sum
sed 's/name="exec"/name="execve"/' "$TOP/traces/sample-synthetic/eventdefs/fs.xml" \
	>"$TMP/sum/eventdefs/fs.xml"
sees "a facility_load checksum that is not eventdefs/'s is seen" \
	"facility fs: checksum" "$TMP/sum"
spoil extra
cp "$TOP/tests/facilities/types.xml" "$TMP/extra/eventdefs/"
sees "a description in eventdefs/ that nothing loads is seen" \
	"describes types, the trace never loads it" "$TMP/extra"
cp -r "$TOP/traces/types-synthetic" "$TMP/float"
for f in $(find "$TMP/float" -name '*_[0-9]*' -type f -size +0); do
	size=$(wc -c <"$f") sb=$(od -An -tu4 -j36 -N4 "$f" | tr -d ' ') off=0
	while [ "$off" -lt "$size" ]; do
		printf '\0\0\0\0' | dd of="$f" bs=1 seek=$((off + 52)) conv=notrunc 2>/dev/null
		off=$((off + sb))
	done
done
sees "float_word_order 0 with <float> fields is seen" "float_word_order 0 with" "$TMP/float"
spoil nocore
sees "no core.facility_load of core is seen" "no core.facility_load of core" \
	"$TMP/nocore" '/^core.facility_load: /d'
sees "an event before its facility's load is seen" "used at .* before any load" \
	"$TMP/nocore" '/^core.state_dump_facility_load: .*"kernel"/d'
sees "a kernel_thread without a fork is seen" \
	"pid 150: process.kernel_thread .* neither forked" "$TMP/nocore" \
	'/^process.fork: .*child_pid = 150,/d'
sees "a tracefile without heartbeats is seen" "control/network_0: no core.time_heartbeat" \
	"$TMP/nocore" '/^core.time_heartbeat: .*(control\/network_0)/d'
sees "an event out of its channel's tracefile is seen" \
	"process.schedchange in cpu_0: its description sends it to processes" "$TMP/nocore" \
	'0,/^process.schedchange: [0-9]* (control\/processes_0)/s/(control\/processes_0)/(cpu_0)/'
"$GEN" --scenario latency -o "$TMP/lat" >/dev/null
any=--any-channel	# latency keeps a CPU's events in cpu_N
sees "a task switched in on a CPU while another runs it is seen" \
	"pid 100 switched in on cpu 1 at .* while cpu 0 runs it" "$TMP/lat" \
	'0,/in = 101,/s/in = 101,/in = 100,/'
done_testing
