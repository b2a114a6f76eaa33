#!/bin/sh
# The state engine and the analyses on a real LTTng 2.13 kernel trace
# (traces/lttng-kernel-sample, recorded in QEMU on Debian's kernel by
# tests/lttng-kernel/record.sh; docs/ctf.md): its processes are named as
# the kernel names them, run, wait and die as the trace says, kernel
# threads run in the kernel, system calls are named from the events; the
# control flow draws them; per-thread CPU time, system-call latency and
# scheduling latency equal lttng-analyses' (tests/lttng-analyses-compare.py)
# on the same trace.
# t58 compares its every event with babeltrace2, t11 its dump.
. "$(dirname "$0")/lib.sh"
unset DISPLAY WAYLAND_DISPLAY
TEXT="$BIN/lttv-text"
T="$TOP/traces/lttng-kernel-sample"

"$TEXT" -t "$T" -q --process-stats >"$TMP/ps" 2>"$TMP/ps.err"
check "lttv-text --process-stats reads it" test -s "$TMP/ps"
# pid tgid name user syscall trap irq softirq unknown total
row() { awk -v n="$1" '$3 == n' "$TMP/ps" | head -n 1; }
for name in ls dd cat wc sleep true; do
	r=$(row "$name")
	# total is the last column (an idle column came before it)
	check "$name: a process of that name (its exec, its comm), with CPU time ($(echo "$r" | awk '{ print $NF }') s)" \
		sh -c "echo '$r' | awk '\$NF > 0 { ok = 1 } END { exit !ok }'"
done
r=$(row rcu_preempt)
check "a kernel thread (rcu_preempt) runs in the kernel, not in an unknown mode: $r" \
	sh -c "echo '$r' | awk '\$5 > 0 && \$9 == 0 { ok = 1 } END { exit !ok }'"
"$TEXT" -t "$T" -q -A >"$TMP/an" 2>/dev/null
check "system calls named from their events (openat, getdents64)" \
	sh -c "grep -q '^getdents64 ' '$TMP/an' && grep -q '^openat ' '$TMP/an'"
check "softirqs named by the kernel's numbering (TIMER, RCU)" \
	sh -c "grep -q '^TIMER ' '$TMP/an' && grep -q '^RCU ' '$TMP/an'"
check "an IRQ line named by its handler (virtio0-requests)" grep -q '^virtio0-requests ' "$TMP/an"
# file I/O by file: dd's if= and of= reach its stdin and stdout by dup2;
# the shell's /mnt/host/guest.log was open before the trace (statedump)
check "file I/O: dd wrote 262144 bytes to /tmp/zero (openat, then dup2 to its stdout)" \
	sh -c "grep '^/tmp/zero ' '$TMP/an' | awk '\$13 == 262144 { ok = 1 } END { exit !ok }'"
check "file I/O: dd read 262144 bytes of /dev/zero" \
	sh -c "grep '^/dev/zero ' '$TMP/an' | awk '\$11 == 262144 { ok = 1 } END { exit !ok }'"
check "file I/O: a file open before the trace, named by the statedump" grep -q '^/mnt/host/guest.log ' "$TMP/an"

# lttv-diff (issue 29, item 5): the trace against itself is the same;
# against the user-space sample, its system calls and processes are new
"$BIN/lttv-diff" "$T" "$T" >"$TMP/same" 2>&1
check "lttv-diff: the kernel trace against itself, the same (exit $?)" grep -q '^same: ' "$TMP/same"
"$BIN/lttv-diff" -n 0 "$TOP/traces/lttng-ust-sample" "$T" >"$TMP/diff" 2>&1
rc=$?
check "lttv-diff: against the user-space sample, exit 1 and its openat calls new" \
	sh -c "test $rc -eq 1 && grep -Eq '^latency syscall openat .* new\$' '$TMP/diff'"

if [ -x "$BIN/lttv-gtk" ]; then
	"$BIN/lttv-gtk" -t "$T" --export "$TMP/cf.png" --layout >"$TMP/layout" 2>"$TMP/layout.err"
	check "lttv-gtk draws its control flow (exit $?)" test -s "$TMP/cf.png"
	for name in ls dd cat wc sleep lttng-sessiond rcu_preempt swapper/0 swapper/1; do
		check "control flow: a row for $name" grep -q "^row [0-9]* process pid=[0-9]* name=$name\$" "$TMP/layout"
	done
	# a task preempted (prev_state TASK_REPORT_MAX, 256) waits for a CPU, not
	# for an event: sh 154 from 1796617410.934395795 for 39 ms, in the middle
	if command -v convert >/dev/null 2>&1; then
		px=$(python3 - "$TMP/layout" <<'PY'
import re, sys
lay = open(sys.argv[1]).read()
h = dict(re.findall(r'(\w+)=(\d+)', lay.splitlines()[0]))
x0, x1, y0, rh, t0, t1 = [int(h[k]) for k in ('x0', 'x1', 'y0', 'row_h', 't0', 't1')]
row = int(re.search(r'^row (\d+) process pid=154 ', lay, re.M).group(1))
t = 1796617410934395795 + 19600000
print('%d,%d' % (x0 + (t - t0) * (x1 - x0) // (t1 - t0), y0 + row * rh + rh // 2))
PY
)
		want=$(sed -n 's/^kind WAIT_CPU rgb=\([0-9,]*\) .*/srgb(\1)/p' "$TMP/layout")
		got=$(convert "$TMP/cf.png" -format "%[pixel:p{$px}]" info:)
		check "control flow: sh 154, preempted, waits for a CPU ($got at $px, want $want)" test "$got" = "$want"
	else
		skip "control flow: a preempted task's colour" "ImageMagick's convert is not installed"
	fi
	check "lttv-gtk --stats reads it" sh -c "'$BIN/lttv-gtk' -t '$T' --stats >'$TMP/stats' && grep -q sched_switch '$TMP/stats'"
else
	skip "lttv-gtk on the kernel trace" "lttv-gtk is not built (GTK 3 missing)"
fi

if [ -x /usr/bin/lttng-cputop-mi ] && [ -x /usr/bin/lttng-syscallstats-mi ] &&
   command -v babeltrace2 >/dev/null 2>&1; then
	python3 "$TOP/tests/lttng-analyses-compare.py" "$TEXT" "$T" >"$TMP/la" 2>&1
	rc=$?
	check "CPU time and scheduling latency per thread, system-call latency, equal lttng-analyses' (exit $rc)" test "$rc" -eq 0
	sed 's/^/# /' "$TMP/la" | tail -n 12
else
	skip "equal lttng-analyses" "python3-lttnganalyses or babeltrace2 is not installed (scripts/install-deps.sh)"
fi
done_testing
