#!/bin/sh
# The kernel's own events (kernel patch 0007) on the real kernel: boot the
# instrumented kernel in QEMU (TCG, 2 CPUs) with qemu/run.sh, let
# qemu/instr-guest.sh trace a small busybox session, and check on the host
# with lttv-text that the trace tells what the guest did: the state dump,
# the fork, exec and exit of known commands, scheduling on both CPUs,
# matching system call entries and exits, the timer interrupt, the user
# events, no loss; and, in a second trace taken beside ftrace, that our
# schedchange events are ftrace's sched_switch, states included.  Also prints the cost of an active event (getpid()
# with and without a trace, as a ratio: TCG times mean nothing alone).
#
# Needs what tests/q10-qemu-trace.sh needs; skips loudly without.
# Q20_REUSE=DIR checks the results of an earlier run in DIR; KERNEL_TREE
# boots that tree's bzImage instead of running `make kernel`.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
OUT=$TOP/$BUILD/q20.$$
LTTV=$BIN/lttv-text

skip_all() {
	skip "QEMU instrumentation test" "$1"
	echo "# q20: SKIPPED ALL: $1" >&2
	done_testing
	exit 0
}
[ -r "${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ] || [ -n "${KERNEL_TREE:-}" ] ||
	skip_all "no kernel tarball /usr/src/linux-source-6.1.tar.xz (scripts/install-deps.sh kernel)"
command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (scripts/install-deps.sh kernel)"
[ -x /bin/busybox ] || skip_all "no static busybox (busybox-static)"
[ -x "$BIN/lttctl" ] && [ -x "$BIN/lttd" ] && [ -x "$LTTV" ] || skip_all "no $BIN/lttctl, lttd or lttv-text (make)"

# -- build and boot ----------------------------------------------------------
if [ -n "${Q20_REUSE:-}" ]; then
	OUT=$Q20_REUSE
	skip "make kernel and boot" "Q20_REUSE=$Q20_REUSE: checking an earlier run"
else
	if [ -z "${KERNEL_TREE:-}" ]; then
		qemu_build
		[ "$LTT_PLATFORM" != patched ] || [ -r build-kernel/linux-source-6.1/arch/x86/boot/bzImage ] ||
			{ done_testing; exit; }
	fi
	check "QEMU boots ($LTT_PLATFORM kernel), traces the busybox session and powers off" \
		env BUILD="$BUILD" GUEST_SCRIPT=qemu/instr-guest.sh QEMU_TIMEOUT=240 "$QEMU_BOOT" "$OUT"
fi
if [ ! -r "$OUT/results" ]; then
	sed 's/^/#   console: /' "$OUT.console" 2>/dev/null | tail -n 30
	done_testing; exit
fi

step() { test "$(awk -v n="$1" '$1 == n { print $2 }' "$OUT/results")" = 0; }
for s in mount_relayfs b_start b_cat b_sleep b_stop b_lttd b_destroy \
	 x_ftrace_on x_start x_pingpong x_stop x_lttd x_ftrace \
	 bench_off bench_trace bench_on bench_stop bench_lttd; do
	check "guest: $s" step $s
done
pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$OUT/pids"; }
SH=$(pid_of shell); CAT=$(pid_of cat); SLEEP=$(pid_of sleep)
check "guest: the pids of the shell, cat and sleep were noted" \
	test -n "$SH" -a -n "$CAT" -a -n "$SLEEP"

T=$OUT/busybox
check "lttv-text decodes the trace, no warning" \
	sh -c "'$LTTV' -t '$T' -n -s >'$TMP/t.txt' 2>'$TMP/t.err' && test ! -s '$TMP/t.err'"
# every kernel event (strings of fs.exec, fs.open, the state dump...) laid
# out as the independent writer's rules say (docs/format.md, Alignment)
check "ltt-reencode finds the kernel's bytes to be the writer's" \
	sh -c "'$BIN/ltt-reencode' '$T' >'$TMP/re' 2>&1 || { sed 's/^/#   /' '$TMP/re' | head -n 5; exit 1; }"
has() { grep -Eq "$1" "$TMP/t.txt"; }
count() { grep -Ec "$1" "$TMP/t.txt"; }

# -- the state dump ------------------------------------------------------------
check "state dump: pid 1 is init, a user task, parent 0" \
	has '^statedump\.enumerate_process_state: .* \{ pid = 1, parent_pid = 0, name = "init", type = USER_THREAD, .* tgid = 1 \}'
check "state dump: kthreadd (pid 2) is a kernel thread" \
	has '^statedump\.enumerate_process_state: .* \{ pid = 2, parent_pid = 0, name = "kthreadd", type = KERNEL_THREAD,'
check "state dump: the shell (pid $SH) waits in a system call" \
	has "^statedump\\.enumerate_process_state: .* \\{ pid = $SH, parent_pid = 1, name = \"sh\", type = USER_THREAD, mode = SYSCALL, submode = UNKNOWN, status = WAIT, tgid = $SH \\}"
check "state dump: lttctl, which starts the trace, is running" \
	has '^statedump\.enumerate_process_state: .* name = "lttctl", type = USER_THREAD, mode = SYSCALL, submode = NONE, status = RUN,'
check "state dump: on the processes channel" \
	sh -c "! grep '^statedump\\.enumerate_process_state: ' '$TMP/t.txt' | grep -vq '(control/processes_[01])'"
check "state dump: the interrupt handlers, the local APIC timer (236) among them" \
	sh -c "grep -q '^statedump\\.interrupt: .* (control/interrupts_[01]) .*{ irq_id = 236, action = \"local_timer\" }' '$TMP/t.txt' &&
	       grep -q '^statedump\\.interrupt: .*{ irq_id = 4, action = \"ttyS0\" }' '$TMP/t.txt'"
check "state dump: one statedump_end, after the last enumeration" sh -c "
	test \$(grep -c '^statedump\\.statedump_end' '$TMP/t.txt') = 1 &&
	grep -E '^statedump\\.(enumerate_process_state|statedump_end)' '$TMP/t.txt' | tail -n 1 | grep -q '^statedump\\.statedump_end'"
check "the facility table announces kernel, kernel_arch, process, fs, statedump" sh -c "
	for f in kernel kernel_arch process fs statedump; do
		grep -q \"^core\\.state_dump_facility_load: .*{ name = \\\"\$f\\\"\" '$TMP/t.txt' || exit 1
	done"

# -- a known command: fork, exec, exit -------------------------------------------------
check "cat (pid $CAT): process.fork from the shell ($SH)" \
	has "^process\\.fork: .* \\{ parent_pid = $SH, child_pid = $CAT, child_tgid = $CAT \\}"
check "cat (pid $CAT): fs.exec of /bin/cat by that pid, on CPU 1 (taskset)" \
	has "^fs\\.exec: .* \\(cpu_1\\) cpu 1 pid $CAT tgid $CAT \"cat\" SYSCALL \\{ filename = \"/bin/cat\" \\}"
# fs.open/read/write/close come from the system call probes (no VFS
# tracepoints in 6.1).  The cat of fs.xml opens it, copies it with
# sendfile (no read or write events) and closes the fd; the cats at the
# end of the shell's pipes read their stdin and write their stdout (fd 0
# and 1: busybox falls back to read/write when sendfile fails on a pipe)
FSXML=/usr/share/ltt/facilities/fs.xml
FD=$(sed -nE "s|^fs\.open: .* pid $CAT tgid $CAT .*\{ fd = ([0-9]+), filename = \"$FSXML\" \}\$|\1|p" "$TMP/t.txt" | head -n 1)
check "cat (pid $CAT): fs.open of $FSXML with its new fd (${FD:-none})" test -n "$FD"
check "cat (pid $CAT): fs.open is inside an openat (257) syscall_entry/exit pair" sh -c "
	grep -E '^(kernel_arch\\.syscall_(entry|exit)|fs\\.open): .* pid $CAT ' '$TMP/t.txt' |
	grep -B1 -A1 -E '^fs\\.open: .*filename = \"$FSXML\"' | cut -d: -f1 | tr '\n' ' ' |
	grep -q '^kernel_arch\\.syscall_entry fs\\.open kernel_arch\\.syscall_exit \$' &&
	grep -E '^kernel_arch\\.syscall_entry: .* pid $CAT ' '$TMP/t.txt' | grep -q 'syscall_id = 257 \\[openat\\],'"
check "cat (pid $CAT): fs.close of that fd" \
	has "^fs\\.close: .* pid $CAT tgid $CAT .*\\{ fd = ${FD:-x} \\}"
check "the pipes' cats: fs.read of their stdin (fd 0), count > 0" \
	has "^fs\\.read: .* \"cat\" SYSCALL \\{ fd = 0, count = [1-9][0-9]* \\}"
check "the pipes' cats: fs.write of their stdout (fd 1), count > 0" \
	has "^fs\\.write: .* \"cat\" SYSCALL \\{ fd = 1, count = [1-9][0-9]* \\}"
check "every fs.read and fs.write is inside a read (0) or write (1) system call" sh -c "
	awk '/^kernel_arch\\.syscall_entry: /{ s[\$3] = \$0 } /^kernel_arch\\.syscall_exit: /{ delete s[\$3] }
	     /^fs\\.(read|write): /{ n++; w = (\$1 == \"fs.write:\"); if (!(\$3 in s) || s[\$3] !~ (\"syscall_id = \" w \" \\\\[(read|write)\\\\],\")) bad++ }
	     END { exit !(n > 0 && bad == 0) }' '$TMP/t.txt'"
check "cat (pid $CAT): process.exit, then process.free" sh -c "
	grep -nE '^process\\.(exit|free): .* \\{ pid = $CAT \\}' '$TMP/t.txt' | cut -d: -f2 | tr '\n' ' ' | grep -q '^process\\.exit process\\.free $'"
check "sleep (pid $SLEEP): fork, exec of /bin/sleep, exit" sh -c "
	grep -Eq '^process\\.fork: .* \\{ parent_pid = $SH, child_pid = $SLEEP,' '$TMP/t.txt' &&
	grep -Eq '^fs\\.exec: .* pid $SLEEP tgid $SLEEP \"sleep\" SYSCALL \\{ filename = \"/bin/sleep\" \\}' '$TMP/t.txt' &&
	grep -Eq '^process\\.exit: .* \\{ pid = $SLEEP \\}' '$TMP/t.txt'"
check "the shell waits for its children (process.wait)" \
	has "^process\\.wait: .* pid $SH tgid $SH \"sh\" "
check "each ls of the loop is named ls by the state engine (3 execs)" \
	test "$(count '^fs\.exec: .* "ls" SYSCALL \{ filename = "/bin/ls" \}')" = 3

# -- scheduling ----------------------------------------------------------------------
check "process.schedchange on CPU 0 and on CPU 1" sh -c "
	grep -q '^process\\.schedchange: .* (control/processes_0) ' '$TMP/t.txt' &&
	grep -q '^process\\.schedchange: .* (control/processes_1) ' '$TMP/t.txt'"
check "cat is scheduled in on CPU 1" \
	has "^process\\.schedchange: .* \\(control/processes_1\\) .*\\{ out = [0-9]+, in = $CAT, "
check "the shell is woken (process.wakeup) when a child exits" \
	has "^process\\.wakeup: .* \\{ pid = $SH, state = INTERRUPTIBLE \\}"
check "a task that exits leaves the CPU as EXIT_ZOMBIE or EXIT_DEAD" \
	has "^process\\.schedchange: .* \\{ out = $CAT, in = [0-9]+, out_state = EXIT_(ZOMBIE|DEAD) \\}"

# -- system calls, traps, interrupts ------------------------------------------------------
# per pid: never two entries in a row; an exit without its entry only for
# the first call seen (entered before the trace started)
syscalls_pair() {
	awk '/^kernel_arch\.syscall_(entry|exit):/ {
		for (i = 1; i < NF; i++) if ($i == "pid") p = $(i + 1)
		e = $1 == "kernel_arch.syscall_entry:"
		if (e && open[p]) { print "pid " p ": two entries without an exit at " $2; bad = 1 }
		if (!e && !open[p] && seen[p]) { print "pid " p ": an exit without its entry at " $2; bad = 1 }
		open[p] = e; seen[p] = 1; n += e
	} END { print n " system calls"; exit bad || n < 100 }' "$TMP/t.txt"
}
check "kernel_arch.syscall_entry and syscall_exit pair up in every task" syscalls_pair
check "the shell's execve (59) of cat is a syscall_entry by pid $CAT" \
	has "^kernel_arch\\.syscall_entry: .* pid $CAT tgid $CAT .*\\{ syscall_id = 59 \\[execve\\], "
check "page faults: trap_entry (14), some in cat" \
	grep -q '^kernel\.trap_entry: .* pid '"$CAT"' .*{ trap_id = 14 \[page_fault\], ' "$TMP/t.txt"
# (Debian's kernel has no tracepoint where a page fault ends: the modules
# take both ends from a kretprobe on handle_mm_fault, kernel/modules/README.md)
check "page faults: as many trap_exit as trap_entry (14)" sh -c "
	e=\$(grep -c '^kernel\\.trap_entry: .*{ trap_id = 14 \\[page_fault\\], ' '$TMP/t.txt'); x=\$(grep -c '^kernel\\.trap_exit: .*{ trap_id = 14 \\[page_fault\\] }' '$TMP/t.txt')
	echo \"\$e entries, \$x exits\"; test \$e -gt 0 -a \$((e - x)) -le 2 -a \$((x - e)) -le 2"
timer_ok() {
	for c in 0 1; do
		# the local APIC timer (236), or the global timer (irq 0) when
		# the kernel keeps a CPU on the broadcast tick (seen under TCG)
		e=$(grep -Ec "^kernel\.irq_entry: .* \(control/interrupts_$c\) .*\{ irq_id = (236 \[local_timer\]|0( \[[a-z0-9_-]+\])?), " "$TMP/t.txt")
		x=$(grep -c "^kernel\.irq_exit: .* (control/interrupts_$c) " "$TMP/t.txt")
		a=$(grep -c "^kernel\.irq_entry: .* (control/interrupts_$c) " "$TMP/t.txt")
		echo "CPU $c: $e timer interrupts, $a entries, $x exits"
		# (one handler may run while the probes are attached or detached)
		[ "$e" -gt 0 ] && [ $((a - x)) -le 1 ] && [ $((x - a)) -le 1 ] || return 1
	done
}
check "a timer interrupt (236 local_timer or 0 timer) on both CPUs, each irq_entry with its irq_exit" timer_ok
check "softirqs: as many soft_irq_exit as soft_irq_entry (2 CPUs: +-2 at the edges)" sh -c "
	e=\$(grep -c '^kernel\\.soft_irq_entry' '$TMP/t.txt'); x=\$(grep -c '^kernel\\.soft_irq_exit' '$TMP/t.txt')
	test \$e -gt 0 -a \$((e - x)) -le 2 -a \$((x - e)) -le 2"

# -- user space events ------------------------------------------------------------------
user_ok() {
	grep '^user_generic\.string: ' "$TMP/t.txt" | sed -n 's/.*{ data = "\(.*\)\\n" }$/\1/p' >"$TMP/u"
	# the pipe counts the files of facilities/ (kernel_arch_x86_64.xml the 8th)
	printf '%s\n' "session: begin" "loop 1" "loop 2" "loop 3" "pipe: $(ls "$TOP"/facilities/*.xml | wc -l) facilities" \
		"cpu 0 says hello" "cpu 1 says hello" "session: end" | diff - "$TMP/u"
}
check "user_generic.string: the session's 8 strings, in order" user_ok
check "user_generic.string: each on the CPU it was written on" sh -c "
	grep -q '^user_generic\\.string: .* (cpu_0) cpu 0 .*{ data = \"cpu 0 says hello\\\\n\" }' '$TMP/t.txt' &&
	grep -q '^user_generic\\.string: .* (cpu_1) cpu 1 .*{ data = \"cpu 1 says hello\\\\n\" }' '$TMP/t.txt'"

# -- nothing lost, kernel healthy ------------------------------------------------------
check "lttv-text --cpu-stats: 0 lost on both CPUs" sh -c "
	'$LTTV' -t '$T' -c -q >'$TMP/c.txt' && grep -q '^cpu 0: .*, 0 lost' '$TMP/c.txt' &&
	grep -q '^cpu 1: .*, 0 lost' '$TMP/c.txt' && ! grep -Eq '[1-9][0-9]* lost' '$TMP/c.txt'"
check_fails "no channel.buffer_stats (no loss reported by the kernel)" \
	grep -q '^channel\.buffer_stats' "$TMP/t.txt"
check "dmesg: no KASAN, lockdep, refcount, BUG or WARNING report" qemu_dmesg_clean "$OUT/dmesg.txt"

# -- beside ftrace: the same switches in the same boot -------------------------------
# (qemu/instr-guest.sh, "cross": ftrace's sched_switch on around our trace)
check "ftrace lost nothing (overrun 0 on both CPUs)" sh -c "
	test \$(grep -c '^overrun: 0\$' '$OUT/ftrace-stats.txt') = 2"
check "cross trace: lttv-text decodes it, no warning, nothing lost" sh -c "
	'$LTTV' -t '$OUT/cross' -n >'$TMP/x.txt' 2>'$TMP/x.err' && test ! -s '$TMP/x.err' &&
	! grep -q '^channel\.buffer_stats' '$TMP/x.txt'"
check "our schedchange = ftrace's sched_switch on each CPU: the same tasks in the same order, each leaving in the same state" \
	python3 "$TOP/tests/sched-switch-compare.py" "$TMP/x.txt" "$OUT/ftrace.txt"
python3 "$TOP/tests/sched-switch-compare.py" "$TMP/x.txt" "$OUT/ftrace.txt" 2>&1 | sed 's/^/# /'

# -- cost of an active event ---------------------------------------------------------------
cost() {
	off=$(awk '{ print $4 }' "$OUT/bench-off.txt" | sort -n | sed -n 2p)
	on=$(awk '{ print $4 }' "$OUT/bench-on.txt" | sort -n | sed -n 2p)
	awk -v off="$off" -v on="$on" 'BEGIN {
		printf "getpid(): %.0f ns without a trace, %.0f ns with one (median of 3, TCG): x%.2f; an event (2 per call) costs %.2f getpid()\n",
			off, on, on / off, (on - off) / 2 / off
		exit !(off > 0 && on > 0 && on / off < 20) }'
}
check "getpid() timed with and without a trace" cost
cost 2>&1 | sed 's/^/# /'

if [ "$_failed" -eq 0 ] && [ -z "${Q20_REUSE:-}" ]; then
	rm -rf "$OUT" "$OUT.console" "$OUT.work"
else
	echo "# q20: the guest's results are kept in $OUT" >&2
fi
done_testing
