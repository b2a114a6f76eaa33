#!/bin/sh
# lttctl on the host: argument checks, and a kernel without LTT is named as
# such, with nothing sent and nothing created.  The exchange with a tracer
# is tests/unit/test_lttd_ctl.c (a fake kernel) and the QEMU tests.
. "$(dirname "$0")/lib.sh"
LTTCTL="$BIN/lttctl"

if [ ! -x "$LTTCTL" ]; then
	skip "lttctl tests" "$LTTCTL is not built"
	done_testing
	exit
fi

check "--help exits 0" "$LTTCTL" --help
cp "$TMP/out" "$TMP/help"
check "--help documents the one-shot form" grep -q -- '-d, --daemon' "$TMP/help"
check "--help documents the size bounds" grep -q 'from 4k to 64M' "$TMP/help"

# usage errors: exit 2, before anything else
fails_with "no argument" 2 'missing -n' "$LTTCTL"
fails_with "nothing to do" 2 'nothing to do' "$LTTCTL" -n t1
fails_with "unknown option" 2 'bogus' "$LTTCTL" -n t1 -c --bogus
fails_with "stray argument" 2 "unexpected argument 'x'" "$LTTCTL" -n t1 -c x
fails_with "unknown mode" 2 "unknown mode 'weird'" "$LTTCTL" -n t1 -c -m weird
fails_with "-m without -c" 2 'go with -c or -d' "$LTTCTL" -n t1 -s -m flight
fails_with "-t without -d" 2 'go with -d only' "$LTTCTL" -n t1 -c -t "$TMP/o"
fails_with "-d without -t" 2 'needs -t' "$LTTCTL" -n t1 -d
fails_with "-d with -c" 2 'does not mix' "$LTTCTL" -n t1 -d -c -t "$TMP/o"
fails_with "-N 0" 2 "-N '0'" "$LTTCTL" -n t1 -d -t "$TMP/o" -N 0
fails_with "name with a slash" 2 "contain '/'" "$LTTCTL" -n a/b -c
# names: NUL-terminated within the message's NAME_MAX (255) bytes
long=$(printf '%0255d' 0)
fails_with "255-character name" 2 'trace name of 255 characters: want 1 to 254' "$LTTCTL" -n "$long" -c
fails_with "255-character transport" 2 'transport of 255 characters' "$LTTCTL" -n t1 -c -T "$long"
fails_with "name with a space" 2 'character 0x20' "$LTTCTL" -n "my trace" -c
fails_with "name with a newline" 2 'character 0x0a' "$LTTCTL" -n "a
b" -c
fails_with "name .." 2 "must not be '.', '..'" "$LTTCTL" -n .. -s
fails_with "empty name" 2 'of 0 characters' "$LTTCTL" -n "" -s

# sizes: checked before the kernel is asked
fails_with "size not a power of two" 2 'low sub-buffer size 3000: want a power of two' \
	"$LTTCTL" -n t1 -c --subbuf-size-low 3000
fails_with "size below 4k" 2 'want a power of two from 4096' \
	"$LTTCTL" -n t1 -c --subbuf-size-med 2k
fails_with "size above 64M" 2 'high sub-buffer size' \
	"$LTTCTL" -n t1 -c --subbuf-size-high 128M
fails_with "count not a power of two" 2 'med sub-buffer count 3' \
	"$LTTCTL" -n t1 -c --subbuf-num-med 3
fails_with "count of 1" 2 'low sub-buffer count 1' \
	"$LTTCTL" -n t1 -c --subbuf-num-low 1
fails_with "buffer above 256M per CPU" 2 'per CPU' \
	"$LTTCTL" -n t1 -c --subbuf-size-high 64M --subbuf-num-high 8
fails_with "size not a number" 2 "'64kb' is not a number" \
	"$LTTCTL" -n t1 -c --subbuf-size-low 64kb
fails_with "size 0" 2 '0 is not a valid value' \
	"$LTTCTL" -n t1 -c --subbuf-size-low 0
fails_with "sizes with -s only" 2 'go with -c or -d' \
	"$LTTCTL" -n t1 -s --subbuf-size-low 64k
fails_with "explicit facilities folder must exist" 1 'facilities folder .*nope' \
	"$LTTCTL" -n t1 -d -t "$TMP/o" -F "$TMP/nope"
fails_with "LTT_FACILITIES_DIR must exist" 1 'facilities folder .*nope2' \
	env LTT_FACILITIES_DIR="$TMP/nope2" "$LTTCTL" -n t1 -d -t "$TMP/o"

# the kernel: this host has no NETLINK_LTT.  A start of a trace that does
# not exist is harmless on an LTT kernel too (ENOENT).
"$LTTCTL" -n lttctl-t21-none -s >"$TMP/out" 2>"$TMP/err"
rc=$?
if grep -q 'no LTT support' "$TMP/err"; then
	fails_with "no LTT: a clear error" 1 \
		'^lttctl: this kernel has no LTT support \(NETLINK_LTT 31 not available\)$' \
		"$LTTCTL" -n t1 -c
	fails_with "no LTT: valid sizes get that far" 1 'no LTT support' \
		"$LTTCTL" -n t1 -c -m hybrid --subbuf-size-low 64k \
		--subbuf-num-low 4 --subbuf-size-high 1M --subbuf-num-high 8
	fails_with "no LTT: 4k x 4, as the QEMU test asks" 1 'no LTT support' \
		"$LTTCTL" -n flight1 -c -m flight --subbuf-size-high 4096 \
		--subbuf-num-high 4
	fails_with "no LTT: -q -r too" 1 'no LTT support' "$LTTCTL" -n t1 -q -r
	fails_with "no LTT: the one-shot form" 1 'no LTT support' \
		"$LTTCTL" -n t1 -d -t "$TMP/out1" -l "$TMP"
	check "no LTT: the one-shot form created nothing" test ! -e "$TMP/out1"
	if strace -f -o /dev/null true 2>/dev/null; then
		strace -f -e trace=network -o "$TMP/strace" \
			"$LTTCTL" -n t1 -c -s >/dev/null 2>&1
		check "no LTT: the socket was tried" grep -q 'socket(AF_NETLINK' "$TMP/strace"
		check "no LTT: nothing sent" \
			sh -c "! grep -Eq '^[0-9]+ +(send|sendto|sendmsg)\\(' '$TMP/strace'"
	else
		skip "no LTT: nothing sent" "strace cannot run here"
	fi
else
	skip "no LTT: a clear error" "this kernel has a NETLINK_LTT socket"
	check "an LTT kernel: unknown trace named" grep -q 'no such trace' "$TMP/err"
	check "an LTT kernel: non-zero exit" test "$rc" -ne 0
fi

# ---- against a fake kernel (build/tests/lttctl-fakekernel) ----------------
# lttd/fake-kernel.c answers the requests, logs them, and makes file-backed
# channels that lttd-fakerelay copies.
FK="$TOP/$BUILD/tests/lttctl-fakekernel"
FL="$TOP/$BUILD/tests/lttd-fakerelay"
if [ ! -x "$FK" ] || [ ! -x "$FL" ]; then
	skip "lttctl against a fake kernel" "$FK or $FL is not built"
else
	export LTTCTL_FAKE_LOG="$TMP/klog" LTTCTL_FAKE_RELAYFS="$TMP/relay"
	mkdir "$TMP/relay"
	check "fake: -c -s -q -r" "$FK" -n t1 -c -s -q -r -m hybrid \
		--subbuf-size-low 8k --subbuf-num-low 4 --subbuf-size-high 1M
	printf '%s\n' "create t1 relay mode=2 low=8192x4 med=0x0 high=1048576x0" \
		"start t1" "stop t1" "destroy t1" >"$TMP/want"
	check "fake: the requests, in order, with mode and sizes" cmp "$TMP/want" "$TMP/klog"
	name254=$(printf '%0254d' 0)
	: >"$TMP/klog"
	check "fake: a 254-character name is sent" "$FK" -n "$name254" -s -q
	check "fake: ... whole" test "$(cat "$TMP/klog")" = "start $name254
stop $name254"
	rm -rf "$TMP/relay/t1" "$TMP/klog"

	LTTCTL_FAKE_FAIL=start:2 "$FK" -n t2 -s -q 2>"$TMP/err2"
	check "fake: ENOENT: exit 1" test $? -eq 1
	check "fake: ENOENT: 'no such trace'" grep -q "cannot start trace 't2': no such trace" "$TMP/err2"
	check "fake: ENOENT: stops at the first refusal" test "$(cat "$TMP/klog")" = "start t2"
	rm -f "$TMP/klog"
	LTTCTL_FAKE_FAIL=create:17 "$FK" -n t2 -c 2>"$TMP/err2"
	check "fake: EEXIST: 'already exists'" grep -q "'t2': it already exists" "$TMP/err2"
	rm -f "$TMP/klog"

	# the one-shot form: eventdefs, create, lttd, start
	check "fake: -d" "$FK" -n t3 -d -l "$TMP/relay" -t "$TMP/o3" \
		-F "$TOP/facilities" --lttd "$FL" -N 2
	check "fake: -d: create, then start" test "$(cut -d' ' -f1 "$TMP/klog" | tr '\n' ' ')" = "create start "
	check "fake: -d: facility descriptions in eventdefs/" \
		cmp "$TOP/facilities/core.xml" "$TMP/o3/eventdefs/core.xml"
	i=0
	while [ $i -lt 100 ] && ! cmp -s "$TMP/relay/t3/cpu_0" "$TMP/o3/cpu_0" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	check "fake: -d: lttd copies the channels" cmp "$TMP/relay/t3/cpu_0" "$TMP/o3/cpu_0"
	rm -f "$TMP/klog"

	LTTCTL_FAKE_BADCHAN=1 "$FK" -n t4 -d -l "$TMP/relay" -t "$TMP/o4" \
		-F "$TOP/facilities" --lttd "$FL" >/dev/null 2>"$TMP/err4"
	check "fake: -d, lttd refuses: exit 1" test $? -eq 1
	check "fake: -d, lttd refuses: said so" grep -q "lttd did not take trace 't4'" "$TMP/err4"
	check "fake: -d, lttd refuses: destroyed, never started" \
		test "$(cut -d' ' -f1 "$TMP/klog" | tr '\n' ' ')" = "create destroy "
	rm -f "$TMP/klog"

	LTTCTL_FAKE_FAIL=start:1 "$FK" -n t5 -d -l "$TMP/relay" -t "$TMP/o5" \
		-F "$TOP/facilities" --lttd "$FL" >/dev/null 2>"$TMP/err5"
	check "fake: -d, start refused: exit 1" test $? -eq 1
	check "fake: -d, start refused: EPERM says root" grep -q 'needs root' "$TMP/err5"
	check "fake: -d, start refused: destroyed again" \
		test "$(cut -d' ' -f1 "$TMP/klog" | tr '\n' ' ')" = "create start destroy "
	rm -f "$TMP/klog"

	env -u LTTCTL_FAKE_RELAYFS "$FK" -n t6 -d -l "$TMP/nowhere" -t "$TMP/o6" \
		-F "$TOP/facilities" --lttd "$FL" >/dev/null 2>"$TMP/err6"
	check "fake: -d, no channel directory: exit 1" test $? -eq 1
	check "fake: -d, no channel directory: said so" grep -q 'did not appear' "$TMP/err6"
	unset LTTCTL_FAKE_LOG LTTCTL_FAKE_RELAYFS
fi

if [ "${SANITIZE:-}" = 1 ] || [ "${BUILD%-san}" != "$BUILD" ]; then
	skip "lttctl is static" "SANITIZE=1 links dynamically"
elif command -v readelf >/dev/null; then
	check "lttctl is static (no program interpreter)" \
		sh -c "! readelf -l '$LTTCTL' | grep -q 'INTERP'"
else
	skip "lttctl is static" "no readelf"
fi

done_testing
