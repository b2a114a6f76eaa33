#!/bin/sh
# Kernel markers (kernel patch 0008) in each behaviour: build one kernel
# per Kconfig choice with kernel/tools/marker-kernels.sh (incremental
# rebuilds of the `make kernel` tree, which is left as it was), boot each
# in QEMU (TCG) with qemu/run.sh and qemu/marker-guest.sh, and read on the
# host what the markers' boot self-test (kernel/marker-test.c) logged,
# /proc/kallsyms and /proc/markers:
#   PRINT  the marker's formatted text is in dmesg, no site;
#   FPROBE the registered probe got the marker's arguments, nothing printed;
#   KPROBE /proc/markers lists kernel/marker-test.c:<event> inside its
#          function, a kprobe there fired; no symbol of its own in kallsyms
#          (a label would cut the function in two);
#   JPROBE the site too, and the jprobe handler got the arguments.
# MARK_STATIC (always FPROBE) is checked in every image, MARK_NOPRINT
# off in the PRINT image and in the other three behaviours elsewhere.
#
# Needs what tests/q10-qemu-trace.sh needs; skips loudly without.
# Q40_REUSE=DIR checks the results of an earlier run kept in DIR;
# KERNEL_TREE=DIR/linux-source-6.1 (as for q10-q50) switches and rebuilds
# that tree (DIR is its kernel/build.sh LTT_KERNEL_OUT) instead of `make
# kernel`'s.
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
if [ -n "${KERNEL_TREE:-}" ]; then
	LTT_KERNEL_OUT=$(cd "$KERNEL_TREE/.." && pwd) ||
		skip_all "KERNEL_TREE=$KERNEL_TREE: no such folder"
	[ "$(basename "$KERNEL_TREE")" = linux-source-6.1 ] ||
		skip_all "KERNEL_TREE=$KERNEL_TREE: not a kernel/build.sh tree (OUT/linux-source-6.1)"
else
	LTT_KERNEL_OUT=$TOP/build-kernel
fi
export LTT_KERNEL_OUT
now() { date +%s; }

# -- build the four kernels and boot them -------------------------------------
if [ -n "${Q40_REUSE:-}" ]; then
	OUT=$Q40_REUSE
	skip "make kernel, four marker kernels and four boots" "Q40_REUSE=$Q40_REUSE: checking an earlier run"
else
	check "make kernel (incremental, in $LTT_KERNEL_OUT)" kernel/build.sh
	t0=$(now)
	check "kernel/tools/marker-kernels.sh: one bzImage per behaviour" \
		kernel/tools/marker-kernels.sh "$OUT/images"
	t1=$(now)
	echo "# q40: the four marker kernels took $((t1 - t0)) s to build (incremental)"
	check "make kernel is a no-op afterwards (the default .config is back)" sh -c "
		kernel/build.sh >'$TMP/mk.log' 2>&1 &&
		! grep -q 'configuring' '$TMP/mk.log' &&
		! grep -Eq '^  (CC|LD|AR) ' '$LTT_KERNEL_OUT/build.log'"
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

# the kprobe's address (raw, in the self-test's line) lies in the marked
# function by /proc/kallsyms: the nearest symbol at or below it is it
kprobe_in_function() { # kind name function
	a=$(sed -n "s|.*marker-test: $1: KPROBE: kprobe on $2 at \([0-9a-f]*\) .*|\1|p" "$D/dmesg.txt")
	f=$(awk -v a="$a" 'function h(x) { return sprintf("%040s", tolower(x)) }
		$2 ~ /^[tTwW]$/ && h($1) <= h(a) && h($1) >= best { best = h($1); name = $3 }
		END { print name }' "$D/kallsyms.txt")
	echo "$1: kprobe at '$a', in '$f' by kallsyms"
	[ -n "$a" ] && [ "$f" = "$3" ]
}
kprobe_in_functions() {
	kprobe_in_function MARK kernel/marker-test.c:mark mt_fire_mark &&
		kprobe_in_function MARK_NOPRINT kernel/marker-test.c:noprint mt_fire_noprint
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
	# (__mark_inode_dirty is fs/fs-writeback.c's function, not a marker)
	check_fails "$m: no marker leaves a text symbol (__mark_...) in /proc/kallsyms" \
		sh -c "grep -E ' [tT] __mark_' '$D/kallsyms.txt' | grep -v ' __mark_inode_dirty\$'"
	check "$m: the self-test ran, no check failed" sh -c "
		grep -Eq 'marker-test: [1-9][0-9]* checks, 0 failed\$' '$D/dmesg.txt' &&
		! grep -q 'marker-test: .*FAILED' '$D/dmesg.txt'"
	check "$m: dmesg: no KASAN, lockdep, refcount, BUG or WARNING report" qemu_dmesg_clean "$D/dmesg.txt"
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
		check "print: no /proc/markers (no KPROBE or JPROBE marker)" test ! -e "$D/markers.txt"
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
		check "fprobe: no /proc/markers (no KPROBE or JPROBE marker)" test ! -e "$D/markers.txt"
		;;
	jprobe|kprobe)
		M=$(echo "$m" | tr a-z A-Z)
		check "$m: modes line" has "marker-test: modes: MARK $M, MARK_NOPRINT $M, MARK_STATIC FPROBE"
		check "$m: /proc/markers: kernel/marker-test.c:mark inside mt_fire_mark, :noprint inside mt_fire_noprint" \
			sh -c "grep -Eq '^mt_fire_mark\\+0x[0-9a-f]+/0x[0-9a-f]+ kernel/marker-test.c:mark\$' '$D/markers.txt' &&
			       grep -Eq '^mt_fire_noprint\\+0x[0-9a-f]+/0x[0-9a-f]+ kernel/marker-test.c:noprint\$' '$D/markers.txt'"
		for k in MARK MARK_NOPRINT; do
			check "$m: $k: the self-test found its site inside its function, once" sh -c "
				grep -Fq 'marker-test: $k: $M: its site is inside ' '$D/dmesg.txt' &&
				! grep -Eq 'marker-test: $k: $M: (its site|one site).*FAILED' '$D/dmesg.txt'"
		done
		check_fails "$m: MARK printed nothing" has 'MARK says'
		;;
	esac
	case $m in
	kprobe)
		for k in MARK MARK_NOPRINT; do
			check "kprobe: $k: a kprobe on its site fired once per call" sh -c "
				grep -Fq 'marker-test: $k: KPROBE: register_marker_kprobe() on the marker'\"'\"'s site: ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: KPROBE: the kprobe fired once per marker call (2): ok' '$D/dmesg.txt'"
		done
		check "kprobe: the kprobes sat inside the marked functions by /proc/kallsyms" \
			kprobe_in_functions
		;;
	jprobe)
		for k in MARK MARK_NOPRINT; do
			check "jprobe: $k: a NOP5 at the symbol, optimized into a jump; the handler got the format and (9, \"nine\"), once" sh -c "
				grep -Fq 'marker-test: $k: JPROBE: register_marker_jprobe(): ok' '$D/dmesg.txt' &&
				grep -Fq 'marker-test: $k: JPROBE: a 5-byte NOP at the marker'\''s site: ok' '$D/dmesg.txt' &&
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
