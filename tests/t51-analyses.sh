#!/bin/sh
# The analyses of lttv-text (libltttrace's ltttrace-analysis.h):
#  1. on `ltt-tracegen --scenario latency`, whose answers are set by
#     construction (see the scenario in tests/writer/ltt-tracegen.c); the
#     numbers below are derived from its description, not from a run;
#  2. on the recorded QEMU traces and the sample, against a second
#     computation that shares no code with the library: babeltrace2
#     (python3-bt2) reading our CTF export, and tests/analysis-crosscheck.py.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
L="$TMP/latency"

"$BIN/ltt-tracegen" --scenario latency -o "$L" >/dev/null 2>&1
check "the latency scenario is written" test -d "$L/eventdefs"
"$TEXT" -t "$L" -q -A --worst 3 -r >"$TMP/all" 2>"$TMP/all.err"
# (but the one naming the generator's empty tracefiles: its idle channels)
check "lttv-text -A reads it without a warning" sh -c "! grep -v 'empty tracefile' '$TMP/all.err'"

# The rows of one section ("== TITLE ==") with single spaces.
section() { # file title
	awk -v t="== $2 ==" '$0 == t { on = 1; next } /^== / { on = 0 } on' "$1" |
		tr -s ' ' | sed 's/^ //'
}
has_row() { # what file title row
	if section "$2" "$3" | grep -qxF -- "$4"; then
		_report 0 "$1"
	else
		_report 1 "$1"
		echo "#   want: $4"
		section "$2" "$3" | head -n 8 | sed 's/^/#   got:  /'
	fi
}

# read k takes 10k us, k = 1..100: min 10, max 1000, total 50500, mean 505;
# nearest rank: p50 the 50th = 500, p90 the 90th = 900, p99 the 99th = 990
has_row "syscall read: count, min, mean, p50, p90, p99, max, total" "$TMP/all" \
	"system call latency by name (us)" \
	"read 100 10.000 505.000 500.000 900.000 990.000 1000.000 50500.000"
has_row "syscall write: 10 of 50 us" "$TMP/all" "system call latency by name (us)" \
	"write 10 50.000 50.000 50.000 50.000 50.000 50.000 500.000"
has_row "syscall open: two of 2 us" "$TMP/all" "system call latency by name (us)" \
	"open 2 2.000 2.000 2.000 2.000 2.000 2.000 4.000"
# client waits j * 100 us, j = 1..10: p90 the 9th = 900, p99 the 10th = 1000
has_row "schedlat client: 100..1000 us" "$TMP/all" \
	"scheduling latency (wakeup to switch-in) by process (us)" \
	"101 client 10 100.000 550.000 500.000 900.000 1000.000 1000.000 5500.000"
# woken by the last nic IRQ at 109001 us, on a CPU at 120000 us
has_row "schedlat hog: woken by an IRQ, 10999 us" "$TMP/all" \
	"scheduling latency (wakeup to switch-in) by process (us)" \
	"103 hog 1 10999.000 10999.000 10999.000 10999.000 10999.000 10999.000 10999.000"
check "the hog's waker: swapper/1 in an IRQ on CPU 1" \
	grep -q "103 hog *woken by 0 swapper/1 in IRQ on cpu 1" "$TMP/all"
check "the client's waker: the server in a system call on CPU 0" \
	grep -q "101 client *woken by 100 server in SYSCALL on cpu 0" "$TMP/all"
# nic: 2 (i + 1) us, i = 0..19: total 420, p50 the 10th = 20, p90 18th = 36
has_row "IRQ nic: 2..40 us" "$TMP/all" "IRQ handler time by line (us)" \
	"nic 20 2.000 21.000 20.000 36.000 40.000 40.000 420.000"
has_row "IRQ timer: 5 of 7 us" "$TMP/all" "IRQ handler time by line (us)" \
	"timer 5 7.000 7.000 7.000 7.000 7.000 7.000 35.000"
# the last timer IRQ holds a nested disk IRQ of 2 us (counted in both)
has_row "IRQ disk: one of 2 us, nested in a timer IRQ" "$TMP/all" "IRQ handler time by line (us)" \
	"disk 1 2.000 2.000 2.000 2.000 2.000 2.000 2.000"
has_row "softirq NET_RX: 20 of 15 us" "$TMP/all" "softirq handler time by vector (us)" \
	"NET_RX 20 15.000 15.000 15.000 15.000 15.000 15.000 300.000"
has_row "softirq TIMER: 5 of 3 us" "$TMP/all" "softirq handler time by vector (us)" \
	"TIMER 5 3.000 3.000 3.000 3.000 3.000 3.000 15.000"
has_row "file /data/in: 100 reads, 409600 bytes" "$TMP/all" "file I/O by file (us)" \
	"/data/in 100 10.000 505.000 500.000 900.000 990.000 1000.000 50500.000 100 409600 0 0"
has_row "file /data/out: 10 writes, 5120 bytes" "$TMP/all" "file I/O by file (us)" \
	"/data/out 10 50.000 50.000 50.000 50.000 50.000 50.000 500.000 0 0 10 5120"
has_row "file I/O by process: the server's 110 calls" "$TMP/all" "file I/O by process (us)" \
	"100 server 110 10.000 463.636 450.000 890.000 990.000 1000.000 51000.000 100 409600 10 5120"
# the server runs from 1000 us to the end, 200001 us; CPU 1 runs the client
# 10 x 30 us, the hog 40000 us, and nic IRQs + softirqs 420 + 300 us
section "$TMP/all" "CPU usage from 0.000000000 to 0.200001000 (200001.000 us)" >"$TMP/cpu"
check "CPU 0 busy 199001 us" grep -qx "cpu 0 199001.000 99.50" "$TMP/cpu"
check "CPU 1 busy 41020 us" grep -qx "cpu 1 41020.000 20.51" "$TMP/cpu"
check "server 199001 us of CPU" grep -qx "100 server 199001.000 99.50" "$TMP/cpu"
check "hog 40000 us of CPU" grep -qx "103 hog 40000.000 20.00" "$TMP/cpu"
check "client 300 us of CPU" grep -qx "101 client 300.000 0.15" "$TMP/cpu"
check "the longest system call is the 100th read, at 51002 us" \
	grep -q "^  0.051002000 *1000.000 *0  100 server *read ret 4096" "$TMP/all"

# A range: 60..80 ms holds the writes and the client's waits, no read
"$TEXT" -t "$L" -q --syscalls --schedlat --cpu-top -r --begin 0.060 --end 0.080 \
	--worst 0 >"$TMP/range" 2>&1
check_fails "range: no read in 60..80 ms" grep -q '^read ' "$TMP/range"
has_row "range: the 10 writes" "$TMP/range" "system call latency by name (us)" \
	"write 10 50.000 50.000 50.000 50.000 50.000 50.000 500.000"
# the client's busy 30 us slices in 60..80 ms: all 10 on CPU 1
check "range: CPU 1 busy 300 us in 60..80 ms" grep -Eq "^cpu 1 +300.000 +1.50$" "$TMP/range"
# grouped otherwise: CPU 0 has sched_yield (1 us), 2 opens (2 us), 11 calls of
# 50 us (the 5th read and the writes), read k >= 6 at rank k + 13: p50 the
# 57th = read 44, p90 the 102nd = read 89, p99 the 112th = read 99
"$TEXT" -t "$L" -q --syscalls --by cpu --worst 0 >"$TMP/bycpu"
has_row "--by cpu: CPU 0's 113 calls" "$TMP/bycpu" "system call latency by cpu (us)" \
	"cpu 0 113 1.000 451.371 440.000 890.000 990.000 1000.000 51005.000"
"$TEXT" -t "$L" -q --syscalls --by process-name --worst 0 >"$TMP/bypn"
has_row "--by process-name: server's reads" "$TMP/bypn" \
	"system call latency by process and name (us)" \
	"100 server read 100 10.000 505.000 500.000 900.000 990.000 1000.000 50500.000"
"$TEXT" -t "$L" -q --syscalls --histogram --worst 0 >"$TMP/hist"
# read durations 10..1000 us: [2^19, 2^20) ns = 524.288..1048.576 us holds
# k = 53..100 (48 reads)
check "histogram: 48 reads in [524288, 1048576) ns" \
	grep -Eq '^\[ *524288, *1048576\) +48 #+$' "$TMP/hist"
fails_with "--by nonsense is a usage error" 2 "--by" "$TEXT" -t "$L" --syscalls --by nonsense
fails_with "--worst -1 is a usage error" 2 "worst" "$TEXT" -t "$L" --syscalls --worst -1

# 2. Cross-checks with babeltrace2
PY=$(bt2_python)
if [ -z "$PY" ] || ! command -v babeltrace2 >/dev/null 2>&1; then
	skip "analyses cross-checked with babeltrace2" \
		"python3-bt2 is not installed (scripts/install-deps.sh installs it)"
	done_testing
	exit
fi
for dir in "$TOP"/traces/qemu-busybox "$TOP"/traces/qemu-usertrace \
	   "$TOP"/traces/sample-synthetic "$L"; do
	name=$(basename "$dir")
	"$BIN/lttv-convert" --ctf "$TMP/ctf-$name" -t "$dir" 2>/dev/null
	"$TEXT" -t "$dir" -q -A --worst 0 >"$TMP/an-$name" 2>/dev/null
	"$TEXT" -t "$dir" -n -e kernel_arch.syscall_entry >"$TMP/names-$name" 2>/dev/null
	check "$name: analyses agree with babeltrace2 and a second computation" \
		"$PY" "$TOP/tests/analysis-crosscheck.py" "$TMP/ctf-$name" "$TMP/an-$name" \
		"$TMP/names-$name"
	tail -n 1 "$TMP/out" | sed 's/^/# /'
done
done_testing
