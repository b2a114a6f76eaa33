#!/bin/sh
# `make install` into a scratch DESTDIR gives a working system: exactly the
# files of an installation (never a test tool), the shared library's
# soname chain, pkg-config files for the folders installed to, headers
# that compile alone, tools that find the installed facility catalogue,
# the desktop entry's icon, bash completion; and a program built out of
# the tree with pkg-config (the example of libltttrace(3)), linked against
# the installed shared library, prints a bundled trace as lttv-text does.
# run-once: it installs the plain build and links programs of its own.
. "$(dirname "$0")/lib.sh"

V=$(sed -n 's/^#define LTTTRACE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
	"$TOP/libltttrace/include/ltttrace-version.h" | paste -sd.)
TRACE=$TOP/traces/qemu-busybox

if ! scratch_install; then
	_report 1 "make install DESTDIR=..."
	sed 's/^/#   /' "$TMP/install.log" | tail -n 20
	done_testing
	exit
fi
_report 0 "make install DESTDIR=... ($I_PREFIX)"

# ---- the installed files, exactly ----------------------------------------
P=${I_BIN%/bin}	# the prefix under ROOT
tools="genevent ltt-checksum lttctl lttd lttv-convert lttv-diff lttv-gtk lttv-text"
{
	for t in $tools; do
		echo "$I_BIN/$t"
		echo "$I_DATA/bash-completion/completions/$t"
		echo "$I_DATA/man/man1/$t.1"
	done
	echo "$I_DATA/man/man3/libltttrace.3"
	for f in ltt-abi.h ltt-usertrace.h ltttrace-analysis.h ltttrace-state.h ltttrace-version.h ltttrace.h; do
		echo "$I_INC/ltt/$f"
	done
	for f in libltt-usertrace.a libltttrace.a libltttrace.so libltttrace.so.0 \
		 "libltttrace.so.$V" pkgconfig/ltt-usertrace.pc pkgconfig/ltttrace.pc; do
		echo "$I_LIB/$f"
	done
	for f in "$TOP"/facilities/*.xml; do
		echo "$I_DATA/ltt/facilities/${f##*/}"
	done
	echo "$I_DATA/applications/lttv-gtk.desktop"
	echo "$I_DATA/icons/hicolor/scalable/apps/lttv-gtk.svg"
} | sort >"$TMP/want-files"
find "$ROOT" ! -type d | sort >"$TMP/files"
check "the installed files are exactly an installation's (no test tool)" \
	diff "$TMP/want-files" "$TMP/files"

# ---- the shared library ----------------------------------------------------
check "libltttrace.so -> libltttrace.so.0" test "$(readlink "$I_LIB/libltttrace.so")" = libltttrace.so.0
check "libltttrace.so.0 -> libltttrace.so.$V" test "$(readlink "$I_LIB/libltttrace.so.0")" = "libltttrace.so.$V"
check "the library's soname is libltttrace.so.0" \
	sh -c "readelf -d '$I_LIB/libltttrace.so.$V' | grep -q 'SONAME.*\[libltttrace.so.0\]'"

# ---- pkg-config -------------------------------------------------------------
# the installed .pc files, moved under ROOT by their prefix variable
PKG="env PKG_CONFIG_PATH=$I_LIB/pkgconfig pkg-config --define-variable=prefix=$ROOT$I_PREFIX"
check "ltttrace.pc: the version of ltttrace-version.h ($V)" \
	test "$($PKG --modversion ltttrace)" = "$V"
check "ltt-usertrace.pc: the same version" test "$($PKG --modversion ltt-usertrace)" = "$V"
check "ltttrace.pc: prefix is the one installed to" test "$(env \
	PKG_CONFIG_PATH="$I_LIB/pkgconfig" pkg-config --variable=prefix ltttrace)" = "$I_PREFIX"
check "ltttrace.pc: -I of the installed headers" \
	sh -c "$PKG --cflags ltttrace | grep -q -- '-I$I_INC/ltt'"

# the public headers compile alone, as C11, with only pkg-config's flags
cat >"$TMP/headers.c" <<'EOF'
#include <ltttrace.h>
#include <ltt-usertrace.h>
#include <ltt/ltt-abi.h>
#if LTTTRACE_VERSION_NUMBER < 0x000700
#error "LTTTRACE_VERSION_NUMBER"
#endif
int main(void) { return ltt_version_number() == LTTTRACE_VERSION_NUMBER ? 0 : 1; }
EOF
check "the installed headers compile alone (-std=c11 -Wall -Wextra -Werror)" \
	sh -c "cc -std=c11 -Wall -Wextra -Werror $($PKG --cflags ltttrace ltt-usertrace) \
		-c '$TMP/headers.c' -o '$TMP/headers.o'"

# ---- an out-of-tree program: the example of libltttrace(3) --------------------
groff -man -Tutf8 -P-cbou "$I_DATA/man/man3/libltttrace.3" 2>/dev/null |
	awk '/^ *\/\* ltt-print\.c/ { on = 1; ind = match($0, /[^ ]/) - 1 }
	     on { print substr($0, ind + 1) }
	     on && /^ *}$/ && substr($0, ind + 1) == "}" { exit }' >"$TMP/ltt-print.c"
check "libltttrace(3) has its example program" grep -q 'ltt_iter_next' "$TMP/ltt-print.c"
check "the example builds with pkg-config, against the shared library" \
	sh -c "cc -std=c11 -Wall -Wextra -Werror $($PKG --cflags ltttrace) '$TMP/ltt-print.c' \
		$($PKG --libs ltttrace) -o '$TMP/ltt-print'"
check "it needs libltttrace.so.0 (not linked statically)" \
	sh -c "readelf -d '$TMP/ltt-print' | grep -q 'NEEDED.*\[libltttrace.so.0\]'"
LD_LIBRARY_PATH=$I_LIB ldd "$TMP/ltt-print" >"$TMP/ldd" 2>&1
check "the installed libltttrace.so.0 is the one loaded" \
	grep -q "libltttrace.so.0 => $I_LIB/libltttrace.so.0" "$TMP/ldd"
LD_LIBRARY_PATH=$I_LIB "$TMP/ltt-print" "$TRACE" >"$TMP/print.out" 2>"$TMP/print.err"
check "it runs on a bundled trace" test $? -eq 0
"$I_BIN/lttv-text" -t "$TRACE" >"$TMP/text.out"
check "it prints the events as the installed lttv-text does" cmp "$TMP/print.out" "$TMP/text.out"
check "and counts them" grep -qx "$(wc -l <"$TMP/text.out") events" "$TMP/print.err"

# ---- the installed tools --------------------------------------------------------
for t in $tools; do
	check "$t --version: $V" sh -c "'$I_BIN/$t' --version | grep -qx '$t (Linux Trace Toolkit) $V'"
done
# a trace without its eventdefs/ (written with the catalogue of this
# tree): decoded with the installed catalogue
cp -R "$TOP/traces/sample-synthetic" "$TMP/bare"
rm -rf "$TMP/bare/eventdefs"
check "installed lttv-text decodes a trace without eventdefs/" \
	env -u LTT_FACILITIES_DIR "$I_BIN/lttv-text" -t "$TMP/bare" -o "$TMP/bare.out"
"$I_BIN/lttv-text" -t "$TOP/traces/sample-synthetic" -o "$TMP/full.out"
check "as with them" cmp "$TMP/bare.out" "$TMP/full.out"
check "lttctl's default catalogue is the installed one" \
	sh -c "env -u LTT_FACILITIES_DIR '$I_BIN/lttctl' --help | grep -q '$I_DATA/ltt/facilities)'"
# the same lookup in place: build/share/ltt/facilities is the source tree's
check "lttv-text run in place decodes it with the source tree's catalogue" \
	env -u LTT_FACILITIES_DIR "$BIN/lttv-text" -t "$TMP/bare" -q
mv "$I_DATA/ltt/facilities" "$I_DATA/ltt/moved"
fails_with "without the installed catalogue: undecoded events (exit 3)" 3 'could not be decoded' \
	env -u LTT_FACILITIES_DIR "$I_BIN/lttv-text" -t "$TMP/bare" -q
mv "$I_DATA/ltt/moved" "$I_DATA/ltt/facilities"

# ---- desktop entry, icon, completion ------------------------------------------------
D=$I_DATA/applications/lttv-gtk.desktop
icon=$(sed -n 's/^Icon=//p' "$D")
exe=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$D")
check "the desktop entry's icon is installed" test -f "$I_DATA/icons/hicolor/scalable/apps/$icon.svg"
check "the desktop entry runs an installed tool" test -x "$I_BIN/$exe"
if command -v desktop-file-validate >/dev/null 2>&1; then
	check "desktop-file-validate accepts the entry" desktop-file-validate "$D"
else
	skip "desktop-file-validate accepts the entry" "no desktop-file-validate (desktop-file-utils)"
fi
complete_words() { # tool words... -> the completions of the last word
	(cd "$TOP/traces" && PATH="$I_BIN:$PATH" bash -c '
		. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_ltt_complete; printf "%s\n" "${COMPREPLY[@]}"' sh \
		"$I_DATA/bash-completion/completions/$1" "$@")
}
for t in $tools; do
	check "completion: $t's file completes $t" bash -c \
		". '$I_DATA/bash-completion/completions/$t' && complete -p $t | grep -q _ltt_complete"
done
check "completion: lttv-text --fie -> --field-names" \
	test "$(complete_words lttv-text --fie)" = "--field-names"
check "completion: lttv-text -t qemu-u -> the trace folder" \
	test "$(complete_words lttv-text -t qemu-u)" = "qemu-usertrace"
check "completion: lttd --th -> --threads" test "$(complete_words lttd --th)" = "--threads"
check "completion: genevent -o DIR takes folders" \
	test "$(complete_words genevent -o qemu-b)" = "qemu-busybox"
done_testing
