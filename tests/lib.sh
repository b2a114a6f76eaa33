# Shared helpers for the shell tests (sourced). Each test script prints TAP:
#   ok N - what          not ok N - what          ok N - what # SKIP why
# and ends with the plan. tests/run.sh adds them up.
#
#   check "what" cmd args...     runs cmd; passes when it exits 0
#   check_fails "what" cmd...    passes when cmd exits non-zero (and not by a signal)
#   fails_with "what" STATUS PATTERN cmd...
#                                passes when cmd exits with STATUS and its
#                                stderr matches the extended regex PATTERN
#   skip "what" "why"            counted as skipped, and says why
#   done_testing                 prints the plan; exit status says if all passed

: "${BUILD:=build}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN="$TOP/$BUILD/bin"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ltt-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
_n=0
_failed=0

_report() { # status what [directive]
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2${3:+ # $3}"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
}

check() {
	_what=$1; shift
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		_report 0 "$_what"
	else
		_report 1 "$_what"
		sed 's/^/#   /' "$TMP/out" "$TMP/err" | head -n 20
	fi
}

check_fails() {
	_what=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	if [ $_rc -ne 0 ] && [ $_rc -lt 128 ]; then
		_report 0 "$_what"
	else
		_report 1 "$_what (exit $_rc)"
		sed 's/^/#   /' "$TMP/out" "$TMP/err" | head -n 20
	fi
}

fails_with() {
	_what=$1 _want=$2 _pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	if [ "$_rc" -eq "$_want" ] && grep -Eq -- "$_pat" "$TMP/err"; then
		_report 0 "$_what"
	else
		_report 1 "$_what (exit $_rc, want $_want)"
		sed 's/^/#   /' "$TMP/out" "$TMP/err" | head -n 20
	fi
}

skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
	echo "SKIPPED: $1: $2" >&2
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
}

# bt2_python: prints a python3 that imports babeltrace2's bindings
# (python3-bt2 installs them for Debian's /usr/bin/python3, which may not
# be the first python3 in PATH); fails, printing nothing, without one.
bt2_python() {
	for _p in python3 /usr/bin/python3; do
		if command -v "$_p" >/dev/null 2>&1 && "$_p" -c 'import bt2' 2>/dev/null; then
			echo "$_p"
			return 0
		fi
	done
	return 1
}

# gui_test WHAT: a test of lttv-gtk's window under Xvfb. Sets gtk; GTK's
# settings in memory (no dconf/D-Bus session), no leak report (GTK's own
# leaks under AddressSanitizer). Without xvfb-run: WHAT skipped, said
# why, and the test ends.
gui_test() {
	gtk="$BIN/lttv-gtk"
	export GSETTINGS_BACKEND=memory
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	command -v xvfb-run >/dev/null && return 0
	skip "$1" "xvfb-run is missing (scripts/install-deps.sh)"
	done_testing
	exit
}

# scratch_install: `make install DESTDIR=$TMP/root` of this build, with the
# folders it was built for ($BUILD/install-dirs: changing them would
# rebuild the tools). Sets ROOT, and I_PREFIX I_BIN I_LIB I_INC I_DATA
# (the installed folders, under ROOT). Returns make's status; its output
# is in $TMP/install.log.
scratch_install() {
	ROOT=$TMP/root
	# shellcheck disable=SC2046
	set -- $(cat "$TOP/$BUILD/install-dirs" 2>/dev/null)
	I_PREFIX=$1 I_BIN=$ROOT$2 I_LIB=$ROOT$3 I_INC=$ROOT$4 I_DATA=$ROOT$5
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$TOP" BUILD="$BUILD" \
		PREFIX="$1" BINDIR="$2" LIBDIR="$3" INCLUDEDIR="$4" DATADIR="$5" \
		install DESTDIR="$ROOT" >"$TMP/install.log" 2>&1
}

# The kernel log of a QEMU test guest (the test kernel: KASAN, lockdep,
# full preemption, SLUB debugging, kernel/config-debug-fragment):
#   qemu_dmesg_clean FILE     no report of any of them, nor of a BUG,
#                             WARNING or oops; prints the first lines if any
#   qemu_debug_kernel FILE    the debug options were on in that boot (so
#                             that the check above means something)
qemu_dmesg_clean() {
	test -s "$1" || { echo "no kernel log $1"; return 1; }
	! grep -E -m 20 'BUG:|WARNING:|KASAN|UBSAN|refcount_t|general protection|possible recursive locking|possible circular locking|inconsistent lock state|INFO: |DEBUG_LOCKS_WARN_ON|sleeping function called|Call Trace:|Oops|Kernel panic|Redzone|Poison overwritten|Object padding|list_(add|del) corruption|page allocation failure|vmalloc error|Out of memory' "$1"
}
qemu_debug_kernel() {
	grep -q 'KernelAddressSanitizer initialized' "$1" || { echo "no KASAN"; return 1; }
	grep -q 'Lock dependency validator' "$1" || { echo "no lockdep"; return 1; }
	grep -Eq 'Linux version .* PREEMPT' "$1" || { echo "no full preemption"; return 1; }
}

# The kernel the QEMU tests boot (q10, q20, q30): LTT_PLATFORM=patched (the
# default: our series, the debug test kernel), stock (Debian's own image,
# unmodified) or modtest (the debug kernel without the tracer built in),
# the last two with the modules of kernel/modules/ loaded by the guest's
# /init (qemu/modules-boot.sh; tests/q60 and q61 run them so).
LTT_PLATFORM=${LTT_PLATFORM:-patched}
# the script that boots it (same arguments and environment as qemu/run.sh)
case $LTT_PLATFORM in
stock|modtest)
	QEMU_BOOT=qemu/modules-boot.sh
	LTT_MODULES_KERNEL=$LTT_PLATFORM
	export LTT_MODULES_KERNEL ;;
*)	QEMU_BOOT=qemu/run.sh ;;
esac
qemu_build() { # the kernel or the modules the platform boots, as a check
	case $LTT_PLATFORM in
	stock)
		check "make stock-modules (against linux-headers-$(cat "${LTT_STOCK_CACHE:-/var/cache/ltt}/stock-kver" 2>/dev/null))" \
			make --no-print-directory BUILD="$BUILD" stock-modules ;;
	modtest)
		check "make modtest-kernel (the debug kernel without the tracer, incremental)" \
			make --no-print-directory modtest-kernel
		check "make modtest-modules (against it)" \
			make --no-print-directory BUILD="$BUILD" modtest-modules ;;
	*)
		check "make kernel (incremental)" make --no-print-directory kernel ;;
	esac
}
patched_only() { # what why cmd...: a check only the patched kernel can pass; said when skipped
	_po_what=$1 _po_why=$2; shift 2
	if [ "$LTT_PLATFORM" = patched ]; then check "$_po_what" "$@"; else skip "$_po_what" "$_po_why"; fi
}
debug_only() { # what cmd...: a check of the debug options, on the kernels that have them
	_do_what=$1; shift
	if [ "$LTT_PLATFORM" = stock ]; then
		skip "$_do_what" "Debian's kernel has no lockdep, KASAN nor full preemption: tests/q61 runs this on the debug kernel"
	else
		check "$_do_what" "$@"
	fi
}

# png_px PNG X Y: the colour of one pixel of a screenshot, "r,g,b" (0-255)
png_px() {
	convert "$1" -format "%[fx:round(255*p{$2,$3}.r)],%[fx:round(255*p{$2,$3}.g)],%[fx:round(255*p{$2,$3}.b)]" info:
}

# png_first_drawn PNG X W Y: the first x in [X, X+W) of line Y that is
# neither the control flow's background (white) nor its grid (its two
# greys); nothing when the line holds none
png_first_drawn() {
	convert "$1" -crop "${3}x1+$2+$4" txt: |
		awk -F'[,:( )]+' -v x0="$2" 'NR > 1 {
			c = $3 "," $4 "," $5
			if (c != "255,255,255" && c != "246,246,246" && c != "228,228,228") {
				print $1 + x0; exit } }'
}

# cases_report FILE SCRIPT: the lines a Python case script (tests/cases.py)
# wrote into FILE as tests: "ok - " passes (with " # SKIP why", a skip),
# "not ok - " fails, other lines are comments; then one check that SCRIPT
# printed its end line, so that an exit or a traceback in the code under
# test cannot pass for a complete run.
cases_report() {
	while IFS= read -r _line; do
		case $_line in
		'ok - '*' # SKIP '*) _w=${_line#ok - }; skip "${_w%% # SKIP *}" "${_w#* # SKIP }" ;;
		'ok - '*) _report 0 "${_line#ok - }" ;;
		'not ok - '*) _report 1 "${_line#not ok - }" ;;
		'end of cases') ;;
		*) echo "# $_line" ;;
		esac
	done <"$1"
	check "$2 ran to its end" grep -qx "end of cases" "$1"
}

# books_report FILE: each line of qemu/rootfs/books-compare.py's table in
# FILE as a test ("ok" passes, "MISMATCH" fails; "info" lines, reported
# and not checked, as comments). For tests/q62 and tests/t80.
books_report() {
	while IFS= read -r _line; do
		_sq=$(echo "$_line" | sed -e 's/^[A-Za-z]* *//' -e 's/  */ /g')
		case $_line in
		'ok '*) _report 0 "books: $_sq" ;;
		'MISMATCH '*) _report 1 "books: $_sq" ;;
		'info '*) echo "# books: $_sq" ;;
		esac
	done <"$1"
}
