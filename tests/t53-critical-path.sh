#!/bin/sh
# The critical path of a process (ltttrace-analysis.h, lttv-text
# --critical-path) on `ltt-tracegen --scenario chain`, a wakeup chain
# planted by construction: a waits on b, b on c, c on the disk's IRQ (see
# the scenario in tests/writer/ltt-tracegen.c). Every segment below is
# derived from the scenario's description.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"

"$BIN/ltt-tracegen" --scenario chain -o "$TMP/c" >/dev/null 2>&1
check "the chain scenario is written" test -d "$TMP/c/eventdefs"
"$TEXT" -t "$TMP/c" -q -r --critical-path 110 --begin 0.001 --end 0.0025 >"$TMP/path" 2>"$TMP/err"
check "lttv-text --critical-path runs without a warning" sh -c "! test -s '$TMP/err'"
awk '/^== critical path/ { on = 1; next } on && NF >= 5 && $1 ~ /^[0-9]/' "$TMP/path" |
	awk '{ printf "%s %s %s %s %s %s\n", $1, $2, $3, $4, $5, $6 }' >"$TMP/segs"
# the path is the process's whole life, the range only picks the segments
# that overlap it, whole: c's block on the disk began at the start
cat >"$TMP/want" <<'EOF'
0.000000000 0.001201000 1201.000 112 c blocked_device
0.001201000 0.001220000 19.000 112 c wait_cpu
0.001220000 0.001500000 280.000 112 c running
0.001500000 0.001600000 100.000 111 b wait_cpu
0.001600000 0.002000000 400.000 111 b running
0.002000000 0.002100000 100.000 110 a wait_cpu
0.002100000 0.002500000 400.000 110 a running
EOF
if cmp -s "$TMP/segs" "$TMP/want"; then
	_report 0 "a's critical path: c on the disk, c, b, a, each waiting then running"
else
	_report 1 "a's critical path: c on the disk, c, b, a, each waiting then running"
	diff "$TMP/want" "$TMP/segs" | sed 's/^/#   /'
fi
check "the disk's block says it was the IRQ disk on CPU 1" \
	grep -q "blocked_device (woken in IRQ disk on cpu 1)" "$TMP/path"
# over the whole trace: before 1000 us c was blocked since the dump, woken
# by the IRQ; after 2500 us a is blocked on the disk until the IRQ that
# interrupts b on CPU 0 (b did not wake it: the path stays on a), waits,
# runs, and after 2900 it is blocked and nothing says until when
"$TEXT" -t "$TMP/c" -q -r --critical-path 110 >"$TMP/whole"
check "whole trace: the path starts at the trace's start with c blocked on the disk" \
	grep -Eq '^  0.000000000  0.001201000 +1201.000  112 c +blocked_device' "$TMP/whole"
check "whole trace: a blocked on the disk from 2500 to 2701 us, woken in an IRQ on CPU 0" \
	grep -Eq '^  0.002500000  0.002701000 +201.000  110 a +blocked_device \(woken in IRQ disk on cpu 0\)' "$TMP/whole"
check "whole trace: a waits for CPU 1 until 2750 us, runs to 2900" \
	sh -c "grep -Eq '^  0.002701000  0.002750000 +49.000  110 a +wait_cpu' '$TMP/whole' &&
	       grep -Eq '^  0.002750000  0.002900000 +150.000  110 a +running' '$TMP/whole'"
check "whole trace: after 2900 us, a is blocked and nothing says until when" \
	grep -Eq '^  0.002900000  0.003000000 +100.000  110 a +unknown' "$TMP/whole"
# c's own path: only its block on the disk, its wait and its run
"$TEXT" -t "$TMP/c" -q -r --critical-path 112 --begin 0.001 --end 0.0015 >"$TMP/c.path"
check "c's path over 1000..1500 us ends with c running, to 1600 us (uncut)" \
	grep -Eq '^  0.001220000  0.001600000 +380.000  112 c +running' "$TMP/c.path"
check "c's and b's segments say whom they woke (the path came to them for it)" \
	sh -c "grep -Eq '112 c +running \(it woke 111 b, blocked_task\)' '$TMP/whole' &&
	       grep -Eq '111 b +running \(it woke 110 a, blocked_task\)' '$TMP/whole'"
# whatever --begin/--end: the segments are the whole path's that overlap
# the range, unchanged (zooming in changed "blocked" into "unknown")
segs() { awk '/^== critical path/ { on = 1; next } on && $1 ~ /^[0-9]/' "$1"; }
segs "$TMP/whole" >"$TMP/whole.segs"
for r in "0.0012 0.0016" "0.0026 0.0027" "0.0029 0.003" "0 0.0005"; do
	set -- $r
	"$TEXT" -t "$TMP/c" -q -r --critical-path 110 --begin $1 --end $2 >"$TMP/r.path"
	segs "$TMP/r.path" >"$TMP/r.segs"
	awk -v b=$1 -v e=$2 '$2 > b && $1 < e' "$TMP/whole.segs" >"$TMP/r.want"
	check "--begin $1 --end $2: the whole path's segments over it, uncut" \
		sh -c "test -s '$TMP/r.want' && cmp -s '$TMP/r.want' '$TMP/r.segs'"
done
"$TEXT" -t "$TMP/c" -q --critical-path 4242 >"$TMP/none"
check "an unknown pid is said" grep -q "no process with pid 4242" "$TMP/none"
fails_with "--critical-path -5: usage error" 2 "critical-path" "$TEXT" -t "$TMP/c" --critical-path -5
# a real trace: the path of every process covers the range without gaps;
# the session's shell (the parent of the first fork), its first cat and its
# sleep, their pids taken from the trace (a new recording changes them)
"$TEXT" -t "$TOP/traces/qemu-busybox" -s -e process.fork -e fs.exec >"$TMP/who" 2>/dev/null
sh_pid=$(sed -n 's/^process\.fork: .*{ \([0-9]*\), [0-9]*, [0-9]* }$/\1/p' "$TMP/who" | head -n 1)
cat_pid=$(sed -n 's|^fs\.exec: .* pid \([0-9]*\) tgid .*{ "/bin/cat" }$|\1|p' "$TMP/who" | head -n 1)
sleep_pid=$(sed -n 's|^fs\.exec: .* pid \([0-9]*\) tgid .*{ "/bin/sleep" }$|\1|p' "$TMP/who" | head -n 1)
check "qemu-busybox: the shell, a cat and sleep found ($sh_pid, $cat_pid, $sleep_pid)" \
	test -n "$sh_pid" -a -n "$cat_pid" -a -n "$sleep_pid"
for pid in $sh_pid $cat_pid $sleep_pid; do
	"$TEXT" -t "$TOP/traces/qemu-busybox" -q -r --critical-path $pid >"$TMP/real" 2>/dev/null
	check "qemu-busybox pid $pid: segments follow each other without gap or overlap" \
		sh -c "awk '/^== critical path/ { on = 1; next } on && \$1 ~ /^[0-9]/ {
			if (prev != \"\" && \$1 != prev) bad = 1; prev = \$2; n++ }
			END { exit !(n > 0 && !bad) }' '$TMP/real'"
done
# sleep's life: from its fork to its last switch-out after its exit, not
# before its birth nor after its end; its sleep is a timer's, the timer
# IRQ says so (it was "blocked_device")
B="$TOP/traces/qemu-busybox"
"$TEXT" -t "$B" -r -s -e process.fork -e process.exit -e kernel.sched_schedchange \
	>"$TMP/life" 2>/dev/null
fork=$(awk -v p="$sleep_pid" '$1 == "process.fork:" && $0 ~ "{ [0-9]+, " p ", " { print $2; exit }' "$TMP/life")
exit_t=$(awk -v p="$sleep_pid" '$1 == "process.exit:" && $0 ~ "{ " p " }" { print $2; exit }' "$TMP/life")
"$TEXT" -t "$B" -q -r --critical-path $sleep_pid >"$TMP/sleep"
segs "$TMP/sleep" >"$TMP/sleep.segs"
first=$(head -n 1 "$TMP/sleep.segs" | awk '{ print $1 }')
last=$(tail -n 1 "$TMP/sleep.segs" | awk '{ print $2, $NF }')
check "sleep's path starts at its fork ($fork), not before (got $first)" test "$first" = "$fork"
check "sleep's path ends after its exit ($exit_t) on a CPU, not unknown to the trace's end (got $last)" \
	awk -v e="$exit_t" -v l="$last" 'BEGIN { split(l, x, " "); exit !(x[1] >= e && x[1] - e < 0.05 && x[2] != "unknown") }'
check "sleep's 200 ms sleep is blocked on a timer, woken by the local timer IRQ" \
	grep -Eq "200[0-9]{3}\.[0-9]{3}  $sleep_pid sleep +blocked_timer \(woken in IRQ local_timer on cpu [0-9]+\)" "$TMP/sleep"
check "no timer wakeup is called a device's in the whole trace's paths" \
	sh -c "! grep -q 'blocked_device (woken in [A-Z]* [a-z_]*timer' '$TMP/sleep'"
# the window draws the same path as lttv-text prints, whatever the range:
# the export's --layout lists the segments it draws (times as lttv-text
# prints them, the ranges cut inside segments, taken from the path itself)
"$TEXT" -t "$B" -q --critical-path $sleep_pid >"$TMP/abs"
segs "$TMP/abs" | awk '{ print $1, $2, $4, $6 }' >"$TMP/abs.segs"
# ranges cut inside segments 3 to 9 and 9 to 20 (of a shorter path, as a
# new recording may give: 3 to its last but one, and that to its last)
n=$(wc -l <"$TMP/abs.segs")
m=$((n > 10 ? 9 : n - 1)) e=$((n > 20 ? 20 : n))
s3=$(sed -n 3p "$TMP/abs.segs" | cut -d' ' -f2) s9=$(sed -n ${m}p "$TMP/abs.segs" | cut -d' ' -f1)
s20=$(sed -n ${e}p "$TMP/abs.segs" | cut -d' ' -f1)
for r in "" "$s3..$s9" "$s9..$s20"; do
	"$BIN/lttv-gtk" -t "$B" --export "$TMP/cp.png" --critical-path $sleep_pid \
		${r:+--range $r} --layout 2>/dev/null | awk '$1 == "path" { print $2, $3, $4, $5 }' >"$TMP/gui.segs"
	"$TEXT" -t "$B" -q --critical-path $sleep_pid ${r:+--begin ${r%..*} --end ${r#*..}} >"$TMP/txt"
	segs "$TMP/txt" | awk '{ print $1, $2, $4, $6 }' >"$TMP/txt.segs"
	check "the window's path of sleep over ${r:-the whole trace} is lttv-text's ($(wc -l <"$TMP/gui.segs") segments)" \
		sh -c "test -s '$TMP/gui.segs' && cmp -s '$TMP/txt.segs' '$TMP/gui.segs'"
done
done_testing
