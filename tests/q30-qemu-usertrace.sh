#!/bin/sh
# User-space tracing (kernel patch 0009, libltt-usertrace) on the real
# kernel: boot it in QEMU (TCG, 2 CPUs) with qemu/run.sh, let
# qemu/usertrace-guest.sh run the example and ltt-usertrace-tool, and check
# on the host: the example's events decoded by lttv-text with their exact
# fields, the facility inherited by a forked child and released at exit,
# every hostile argument refused with its errno, blocking mode losing
# nothing where the non-blocking writer loses, a clean dmesg.
#
# Needs what tests/q20-qemu-instrumentation.sh needs; skips loudly without.
# Q30_REUSE=DIR checks the results of an earlier run in DIR; KERNEL_TREE
# boots that tree's bzImage instead of running `make kernel`.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
OUT=$TOP/$BUILD/q30.$$
LTTV=$BIN/lttv-text
EX=libltt-usertrace/examples

skip_all() {
	skip "QEMU user-space tracing test" "$1"
	echo "# q30: SKIPPED ALL: $1" >&2
	done_testing
	exit 0
}
[ -r "${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ] || [ -n "${KERNEL_TREE:-}" ] ||
	skip_all "no kernel tarball /usr/src/linux-source-6.1.tar.xz (scripts/install-deps.sh kernel)"
command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (scripts/install-deps.sh kernel)"
[ -x /bin/busybox ] || skip_all "no static busybox (busybox-static)"
for b in lttctl lttd lttv-text usertrace-example ltt-usertrace-tool; do
	[ -x "$BIN/$b" ] || skip_all "no $BIN/$b (make)"
done
# the guest runs the plain build's static tools
[ "${SANITIZE:-0}" != 1 ] || skip_all "SANITIZE=1: the guest tools must be static (the plain run covers this)"

# -- build and boot ----------------------------------------------------------
if [ -n "${Q30_REUSE:-}" ]; then
	OUT=$Q30_REUSE
	skip "make kernel and boot" "Q30_REUSE=$Q30_REUSE: checking an earlier run"
else
	if [ -z "${KERNEL_TREE:-}" ]; then
		qemu_build
		[ "$LTT_PLATFORM" != patched ] || [ -r build-kernel/linux-source-6.1/arch/x86/boot/bzImage ] ||
			{ done_testing; exit; }
	fi
	check "QEMU boots ($LTT_PLATFORM kernel), runs the user-space tracing scenario and powers off" \
		env BUILD="$BUILD" GUEST_SCRIPT=qemu/usertrace-guest.sh QEMU_TIMEOUT=240 "$QEMU_BOOT" "$OUT"
fi
if [ ! -r "$OUT/results" ]; then
	sed 's/^/#   console: /' "$OUT.console" 2>/dev/null | tail -n 30
	done_testing; exit
fi

step() { test "$(awk -v n="$1" '$1 == n { print $2 }' "$OUT/results")" = 0; }
for s in mount_relayfs u_numbers u_limits u_start u_example u_errnos u_inherit u_write_held u_hold \
	 u_write_after u_stop u_lttd u_destroy drop_start drop_flood drop_stop \
	 drop_lttd block_start block_flood block_stop block_lttd; do
	check "guest: $s" step $s
done

# -- the example's events, decoded with its XML ---------------------------------
check "lttv-text decodes the user trace with the example's XML, no warning" \
	sh -c "'$LTTV' -t '$OUT/user' -f '$EX' -n -s >'$TMP/u.txt' 2>'$TMP/u.err' && test ! -s '$TMP/u.err'"
has() { grep -Eq "$1" "$TMP/u.txt"; }
check "the example said it wrote 3 events" grep -q '^usertrace-example: 3 hello events written' "$OUT/example.txt"
hello_ok() {
	grep '^usertrace_example\.hello: ' "$TMP/u.txt" | sed 's/.*{ /{ /' >"$TMP/hello"
	for i in 1 2 3; do
		echo "{ count = $i, delta = -${i}000, small = -$i, word = \"hello $i\", values = [ $i, $((2 * i)), $((3 * i)) ] }"
	done | diff - "$TMP/hello"
}
check "usertrace_example.hello: the 3 events with their exact field values, in order" hello_ok
check "core.facility_load announces usertrace_example with the XML's checksum" \
	has "^core\\.facility_load: .*\\{ name = \"usertrace_example\", checksum = $(printf %u "$("$BIN/ltt-checksum" "$EX/usertrace_example.xml" | awk '{ print $2 }')"),"
check "the facility is released when its last process exits (core.facility_unload)" \
	has '^core\.facility_unload: '

# -- fork and exit ----------------------------------------------------------------
check "inherit: the parent registered, the forked child wrote with its id" \
	sh -c "grep -qx 'parent OK' '$OUT/inherit.txt' && grep -qx 'child OK' '$OUT/inherit.txt'"
P=$(sed -n 's/^pid \([0-9]*\)$/\1/p' "$OUT/inherit.txt")
C=$(sed -n 's/^child_pid \([0-9]*\)$/\1/p' "$OUT/inherit.txt")
check "inherit: the child ($C) is another process than the parent ($P)" \
	test -n "$P" -a -n "$C" -a "$P" != "$C"
check "inherit: usertrace_example.child { parent = $P } in the trace" \
	has "^usertrace_example\\.child: .*\\{ parent = $P \\}"
check "another process cannot write with a live process's facility id: EPERM" grep -qx EPERM "$OUT/write-held.txt"
check "nor after that process exited: EPERM" grep -qx EPERM "$OUT/write-after.txt"

# -- system call numbers ------------------------------------------------------------
# Every number upstream has defined past 6.1 (cachestat 451, fchmodat2 452, ...)
# or may define answers ENOSYS, so programs built for newer kernels fall back.
check "system calls 451..1023 (upstream's since 6.5, and the ones to come): ENOSYS" \
	grep -qx 'upstream ENOSYS' "$OUT/numbers.txt"
sed -n 's/^upstream \([0-9]\)/#   number \1/p' "$OUT/numbers.txt"
if [ "$LTT_PLATFORM" = patched ]; then
	check "the tracer's own register number answers: EFAULT for a NULL info" \
		grep -qx 'own_register EFAULT' "$OUT/numbers.txt"
	check "the tracer's own trace number answers: EPERM for an id nobody registered" \
		grep -qx 'own_trace EPERM' "$OUT/numbers.txt"
else
	check "no system call on Debian's kernel (the modules cannot add one): ENOSYS" \
		sh -c "grep -qx 'own_register ENOSYS' '$OUT/numbers.txt' && grep -qx 'own_trace ENOSYS' '$OUT/numbers.txt'"
fi

# -- hostile arguments ---------------------------------------------------------------
errno_is() { grep -qx "$1 $2" "$OUT/errnos.txt" "$OUT/limits.txt"; }
while read -r c e what; do
	check "$what: $e" errno_is "$c" "$e"
done <<'LIST'
reg_info_null EFAULT register: info NULL
reg_info_bad EFAULT register: info unmapped
reg_id_bad EFAULT register: facility_id unmapped
reg_name_unterminated ENAMETOOLONG register: name not NUL-terminated in its 64 bytes
reg_name_empty EINVAL register: empty name
reg_name_bad EINVAL register: name with / and .
reg_no_events EINVAL register: num_events 0
reg_257_events EINVAL register: num_events 257
reg_int_size_3 EINVAL register: int_size 3
reg_alignment EINVAL register: alignment not the kernel's
reg_reserved EINVAL register: reserved byte set
reg_kernel_facility EEXIST register: the core facility's name and checksum
reg_ok OK register: the example facility
reg_again_same_id OK register again: the same id
trace_ok OK trace: a registered facility
trace_core EPERM trace: a kernel facility's id
trace_unregistered EPERM trace: an id nobody registered
trace_id_huge EPERM trace: id 2^31
trace_event_id EINVAL trace: event id past num_events
trace_data_bad EFAULT trace: data unmapped
trace_data_kernel EFAULT trace: data a kernel address
trace_data_untouched OK trace: data in a page never touched (faulted in, then copied)
trace_data_straddle EFAULT trace: data running into an unmapped page
proc_data_untouched OK /proc/ltt_user_generic: bytes in a page never touched
proc_data_straddle EFAULT /proc/ltt_user_generic: bytes running into an unmapped page
proc_data_bad EFAULT /proc/ltt_user_generic: bytes unmapped
trace_size_subbuf EINVAL trace: 8 KiB into 4 KiB sub-buffers
trace_size_max EINVAL trace: LTT_USER_MAX_EVENT_SIZE + 1
trace_blocking_2 EINVAL trace: blocking = 2
trace_priority_2 EINVAL trace: high_priority = -1
trace_high_priority OK trace: high priority
door_register OK door: an ioctl registers on a descriptor of its own, the same id
pos_ok OK door: a pwrite() at LTT_USER_POS(id, event)
pos_high_priority OK door: a pwrite() with the high-priority flag
pos_other_door EPERM door: a pwrite() on a descriptor that registered nothing
pos_reserved_bit EINVAL door: an offset with a reserved low bit
pos_high_bit EINVAL door: an offset with bit 61 set
pos_no_trace_bit EINVAL door: an offset without LTT_USER_POS_TRACE (not 0: no string)
pos_negative EINVAL door: a negative offset
pos_unregistered EPERM door: an id nobody registered
pos_core EPERM door: a kernel facility's id
pos_event_id EINVAL door: event id past num_events
pos_data_bad EFAULT door: data unmapped
pos_size_max EINVAL door: LTT_USER_MAX_EVENT_SIZE + 1
ioctl_trace_ok OK door: the ioctl the library keeps for what an offset cannot say
reg_first OK register: the first facility
reg_up_to_limit OK register: up to LTT_USER_MAX_FACILITIES (32)
reg_over_limit ENOSPC register: the 33rd
LIST
check "the high-priority event went to the processes channel" \
	has '^usertrace_example\.child: .*\(control/processes_[01]\) .*\{ parent = -1 \}'
check "the door's pwrite() event is in the trace, in the cpu channel" \
	has '^usertrace_example\.child: .*\(cpu_[01]\) .*\{ parent = 4242 \}'
check "the door's pwrite() with the high-priority flag went to the processes channel" \
	has '^usertrace_example\.child: .*\(control/processes_[01]\) .*\{ parent = 4243 \}'
check "the door's ioctl event is in the trace" \
	has '^usertrace_example\.child: .*\(cpu_[01]\) .*\{ parent = 4343 \}'

# -- losing and blocking -----------------------------------------------------------------
ticks() { # the tick events of trace $1, their count and whether seq has holes
	"$LTTV" -t "$OUT/$1" -f "$EX" -n -s 2>/dev/null |
		sed -n 's/^usertrace_example\.tick: .*{ seq = \([0-9]*\),.*/\1/p' >"$TMP/$1.seq"
}
ticks drop; ticks block
N=3000
check "drop: the writer wrote $N events without error" grep -qx "written $N" "$OUT/flood-drop.txt"
check "drop: events were lost (fewer than $N in the trace, channel.buffer_stats says so)" sh -c "
	test \$(wc -l <'$TMP/drop.seq') -lt $N &&
	'$LTTV' -t '$OUT/drop' -f '$EX' -c -q | grep -Eq '[1-9][0-9]* lost'"
check "block: the writer wrote $N events without error" grep -qx "written $N" "$OUT/flood-block.txt"
check "block: all $N events in the trace, seq 0..$((N - 1)) in order" sh -c "
	seq 0 $((N - 1)) | diff -q - '$TMP/block.seq'"
check "block: lttv-text --cpu-stats: 0 lost" sh -c "
	'$LTTV' -t '$OUT/block' -f '$EX' -c -q >'$TMP/bc.txt' && ! grep -Eq '[1-9][0-9]* lost' '$TMP/bc.txt'"

check "dmesg: no KASAN, lockdep, refcount, BUG or WARNING report" qemu_dmesg_clean "$OUT/dmesg.txt"

if [ "$_failed" -eq 0 ] && [ -z "${Q30_REUSE:-}" ]; then
	rm -rf "$OUT" "$OUT.console" "$OUT.work"
else
	echo "# q30: the guest's results are kept in $OUT" >&2
fi
done_testing
