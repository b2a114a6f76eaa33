#!/bin/sh
# Kernel markers (kernel patch 0008) in each behaviour: build one kernel
# per Kconfig choice with kernel/tools/marker-kernels.sh (incremental
# rebuilds of the `make kernel` tree, which is left as it was), boot each
# in QEMU (TCG) with qemu/run.sh and qemu/marker-guest.sh, and read on the
# host what the markers' boot self-test (kernel/marker-test.c) logged and
# which __mark_ symbols /proc/kallsyms lists:
#   PRINT  the marker's formatted text is in dmesg, no __mark_ symbol;
#   FPROBE the registered probe got the marker's arguments, nothing printed;
#   KPROBE __mark_<file>_<event> is in kallsyms, a kprobe on it fired;
#   JPROBE the symbol too, and the jprobe handler got the arguments.
# MARK_STATIC (always FPROBE) is checked in every image, MARK_NOPRINT
# off in the PRINT image and in the other three behaviours elsewhere.
#
# Needs what tests/q10-qemu-trace.sh needs; skips loudly without.
# Q40_REUSE=DIR checks the results of an earlier run kept in DIR.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
OUT=$TOP/$BUILD/q40.$$

skip_all() {
	skip "QEMU markers test" "$1"
	echo "# q40: SKIPPED ALL: $1" >&2
	done_testing
	exit 0
}
[ -r "${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ] ||
	skip_all "no kernel tarball /usr/src/linux-source-6.1.tar.xz (scripts/install-deps.sh kernel)"
command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (scripts/install-deps.sh kernel)"
[ -x /bin/busybox ] || skip_all "no static busybox (busybox-static)"
[ -x "$BIN/lttctl" ] && [ -x "$BIN/lttd" ] || skip_all "no $BIN/lttctl or lttd (make): qemu/run.sh puts them in the initramfs"

MODES="print fprobe jprobe kprobe"
now() { date +%s; }

# -- build the four kernels and boot them -------------------------------------
if [ -n "${Q40_REUSE:-}" ]; then
	OUT=$Q40_REUSE
	skip "make kernel, four marker kernels and four boots" "Q40_REUSE=$Q40_REUSE: checking an earlier run"
else
	check "make kernel (incremental)" make --no-print-directory kernel
	t0=$(now)
	check "kernel/tools/marker-kernels.sh: one bzImage per behaviour" \
		kernel/tools/marker-kernels.sh "$OUT/images"
	t1=$(now)
	echo "# q40: the four marker kernels took $((t1 - t0)) s to build (incremental)"
	check "make kernel is a no-op afterwards (the default .config is back)" sh -c "
		make --no-print-directory kernel >'$TMP/mk.log' 2>&1 &&
		! grep -q 'configuring' '$TMP/mk.log' &&
		! grep -Eq '^  (CC|LD|AR) ' build-kernel/build.log"
	for m in $MODES; do
		if [ ! -r "$OUT/images/bzImage-$m" ]; then
			skip "boot the $m kernel" "no bzImage-$m (its build failed above)"
			continue
		fi
		check "QEMU boots the $m kernel and powers off" \
			env BUILD="$BUILD" KERNEL_IMAGE="$OUT/images/bzImage-$m" \
			GUEST_SCRIPT=qemu/marker-guest.sh QEMU_TIMEOUT=120 qemu/run.sh "$OUT/$m"
	done
	echo "# q40: the four boots took $(($(now) - t1)) s"
fi

# the kprobe's address (raw, in the self-test's line) is the symbol's
kprobe_at_symbol() { # kind symbol
	a=$(sed -n "s/.*marker-test: $1: KPROBE: kprobe on $2 at \([0-9a-f]*\) .*/\1/p" "$D/dmesg.txt")
	s=$(awk -v s="$2" '$3 == s { print $1 }' "$D/kallsyms.txt")
	echo "$1: kprobe at '$a', $2 at '$s' in kallsyms"
	[ -n "$a" ] && [ "$a" = "$s" ]
}
kprobe_at_symbols() {
	kprobe_at_symbol MARK __mark_marker_test_mark &&
		kprobe_at_symbol MARK_NOPRINT __mark_marker_test_noprint
}

# -- what each kernel said ------------------------------------------------------
for m in $MODES; do
	D=$OUT/$m
	if [ ! -r "$D/dmesg.txt" ] || [ ! -r "$D/kallsyms.txt" ]; then
		skip "the $m kernel's checks" "no dmesg.txt or kallsyms.txt in $D (the boot failed above)"
		continue
	fi
	has() { grep -Fq -- "$1" "$D/dmesg.txt"; }
	sym() { grep -Eq " [tT] $1\$" "$D/kallsyms.txt"; }
	check "$m: /proc/kallsyms was copied whole (marker_probe_register is in it)" sym marker_probe_register
	check "$m: the self-test ran, no check failed" sh -c "
		grep -Eq 'marker-test: [1-9][0-9]* checks, 0 failed\$' '$D/dmesg.txt' &&
		! grep -q 'marker-test: .*FAILED' '$D/dmesg.txt'"
	check "$m: no BUG, WARNING, lockdep or sleep-in-atomic report" \
		sh -c "! grep -E 'BUG:|WARNING:|possible recursive locking|possible circular locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|sleeping function called|Call Trace:|Oops|Kernel panic' '$D/dmesg.txt'"
	check "$m: MARK_STATIC (FPROBE): the probe got (7, \"seven\"), nothing after unregistering" sh -c "
		grep -Fq 'marker-test: MARK_STATIC: FPROBE: the probe got (7, \"seven\"): ok' '$D/dmesg.txt' &&
		grep -Fq 'marker-test: MARK_STATIC: FPROBE: probe calls 1, last (7, \"seven\")' '$D/dmesg.txt'"
	check_fails "$m: no MARK_STATIC text printed" has 'MARK_STATIC says'
	check_fails "$m: no MARK_NOPRINT text printed" has 'MARK_NOPRINT says'
	case $m in
	print)
		check "print: modes line" has 'marker-test: modes: MARK PRINT, MARK_NOPRINT off, MARK_STATIC FPROBE'
		check "print: MARK printed its formatted text" \
			grep -Eq '^\[ *[0-9.]+\] marker-test: MARK says 42 forty-two$' "$D/dmesg.txt"
		check_fails "print: no __mark_marker_test_ symbol in /proc/kallsyms" grep -q ' __mark_marker_test_' "$D/kallsyms.txt"
		check "print: MARK is not an FPROBE marker, MARK_NOPRINT (off) neither" sh -c "
			grep -Fq 'marker-test: MARK: PRINT: not an FPROBE marker (-ENOENT): ok' '$D/dmesg.txt' &&
			grep -Fq 'marker-test: MARK_NOPRINT: off: not an FPROBE marker (-ENOENT): ok' '$D/dmesg.txt'"
		;;
	fprobe)
		check "fprobe: modes line" has 'marker-test: modes: MARK FPROBE, MARK_NOPRINT FPROBE, MARK_STATIC FPROBE'
		for k in MARK MARK_NOPRINT; do
			check "fprobe: $k: the registered probe got (7, \"seven\"), its marker, format and private data" sh -c "
				grep -Fq 'marker-test: $k: FPROBE: the probe got (7, \"seven\"): ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: FPROBE: the probe got its marker, format and private data: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: FPROBE: no probe called before registration: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: FPROBE: no call after marker_probe_unregister(): ok' '$D/dmesg.txt'"
		done
		check_fails "fprobe: MARK printed nothing" has 'MARK says'
		check_fails "fprobe: no __mark_marker_test_ symbol in /proc/kallsyms" grep -q ' __mark_marker_test_' "$D/kallsyms.txt"
		;;
	jprobe|kprobe)
		M=$(echo "$m" | tr a-z A-Z)
		check "$m: modes line" has "marker-test: modes: MARK $M, MARK_NOPRINT $M, MARK_STATIC FPROBE"
		check "$m: __mark_marker_test_mark and __mark_marker_test_noprint in /proc/kallsyms" \
			sh -c "grep -Eq ' t __mark_marker_test_mark\$' '$D/kallsyms.txt' &&
			       grep -Eq ' t __mark_marker_test_noprint\$' '$D/kallsyms.txt'"
		check_fails "$m: MARK printed nothing" has 'MARK says'
		;;
	esac
	case $m in
	kprobe)
		for k in MARK MARK_NOPRINT; do
			check "kprobe: $k: a kprobe on its symbol fired once per call" sh -c "
				grep -Fq 'marker-test: $k: KPROBE: register_kprobe() on the marker'\"'\"'s symbol: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: KPROBE: the kprobe fired once per marker call (2): ok' '$D/dmesg.txt'"
		done
		check "kprobe: the kprobes sat at the addresses /proc/kallsyms gives the symbols" \
			kprobe_at_symbols
		;;
	jprobe)
		for k in MARK MARK_NOPRINT; do
			check "jprobe: $k: a NOP5 at the symbol, optimized into a jump; the handler got the format and (9, \"nine\"), once" sh -c "
				grep -Fq 'marker-test: $k: JPROBE: register_marker_jprobe(): ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: JPROBE: a 5-byte NOP at the marker'\''s symbol: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: JPROBE: the kprobe was optimized into a jump on the NOP: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: JPROBE: the handler got (9, \"nine\"), once: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: JPROBE: the handler got the format: ok' '$D/dmesg.txt'"
		done
		;;
	esac
done

if [ "$_failed" -eq 0 ] && [ -z "${Q40_REUSE:-}" ]; then
	rm -rf "$OUT"
else
	echo "# q40: the kernels and the guests' results are kept in $OUT" >&2
fi
done_testing
