#!/bin/sh
# Runs every test program and script, reads their TAP and prints the totals
# as one line: "N passed, N failed, N skipped". Exit status 0 only if none
# failed. Unit tests are C programs in $BUILD/tests/, scripted tests are
# tests/t[0-9]*.sh. Under SANITIZE=1 the QEMU tests (tests/q*.sh) and the
# scripts marked "# run-once" are not rerun: they exercise the kernel or
# carry their own sanitizers. LTT_QEMU_TESTS=0 skips the QEMU tests (each
# is counted as skipped and named), for quick user-space runs.
#
# tests/run.sh [NAME...] runs only the tests whose file name starts with one
# of the NAMEs (t41, q50, test_state, t58-lttng); a NAME that matches no
# test is an error (exit 2), so a typo never passes as an empty run.
: "${BUILD:=build}"
cd "$(dirname "$0")/.." || exit 2
export BUILD
# third-party caches that live as long as the process are not our leaks
LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
log="$BUILD/test-log"
counts="$BUILD/test-counts"
: >"$log"
start=$(date +%s)
pass=0 fail=0 skipped=0

# is test $1 (a file name) among the NAMEs given? (all are when none is)
chosen() {
	[ $# -gt 0 ] || return 1
	[ -z "$names" ] && return 0
	for n in $names; do
		case $1 in "$n"*) return 0 ;; esac
	done
	return 1
}
names="$*"
for n in $names; do
	found=
	for t in "$BUILD"/tests/test_* tests/t[0-9]*.sh tests/q[0-9]*.sh; do
		case $(basename "$t") in "$n"*) found=1; break ;; esac
	done
	if [ -z "$found" ]; then
		echo "tests/run.sh: no test named $n* (in $BUILD/tests/ and tests/)" >&2
		exit 2
	fi
done

run_one() { # name command...
	name=$1; shift
	t0=$(date +%s)
	out=$("$@" 2>>"$log"; echo "exit=$?")
	secs=$(($(date +%s) - t0))
	printf '%s\n' "$out" | sed "s|^|$name: |" >>"$log"
	p=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP')
	s=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	rc=$(printf '%s\n' "$out" | sed -n 's/^exit=//p')
	pass=$((pass + s - p)); skipped=$((skipped + p)); fail=$((fail + f))
	if [ "$rc" != 0 ] && [ "$f" -eq 0 ]; then
		# died without reporting a failure (crash, sanitizer, plan)
		fail=$((fail + 1))
		echo "FAIL $name: exited with $rc without a 'not ok'"
	fi
	printf '%s\n' "$out" | grep '^not ok' | sed "s|^|FAIL $name: |"
	printf '%s\n' "$out" | grep '# SKIP' | sed "s|^|SKIP $name: |"
	printf '%-40s %3d passed, %d failed, %d skipped, %ss\n' "$name" $((s - p)) "$f" "$p" "$secs"
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	chosen "$(basename "$t")" || continue
	run_one "$(basename "$t")" "$t"
done
for t in tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	chosen "$(basename "$t")" || continue
	# scripts that test no sanitized code say "# run-once" and run only in
	# the plain pass
	if [ "${SANITIZE:-}" = 1 ] && grep -q '^# run-once' "$t"; then
		continue
	fi
	run_one "$(basename "$t")" sh "$t"
done
if [ "${SANITIZE:-}" != 1 ]; then
	for t in tests/q[0-9]*.sh; do
		[ -f "$t" ] || continue
		chosen "$(basename "$t")" || continue
		if [ "${LTT_QEMU_TESTS:-1}" = 0 ]; then
			# a quick user-space run while working: said, and counted
			run_one "$(basename "$t")" sh -c 'echo "ok 1 - $1 # SKIP LTT_QEMU_TESTS=0"; echo 1..1' sh "$(basename "$t")"
			continue
		fi
		run_one "$(basename "$t")" sh "$t"
	done
fi
echo "$pass $fail $skipped" >"$counts"
echo "(all of it took $(($(date +%s) - start)) s)"
if [ "$skipped" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
