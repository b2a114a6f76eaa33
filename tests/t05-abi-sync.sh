#!/bin/sh
# The kernel patch series and user space share one ABI: the patch that adds
# include/uapi/linux/ltt-abi.h must carry include/ltt/ltt-abi.h byte for
# byte, and the facility checksums hard-coded in the kernel must be those
# ltt-checksum computes from facilities/*.xml.
. "$(dirname "$0")/lib.sh"
P=$TOP/kernel/patches

# Prints the new file @2 as added by the patch @1 (a creation: '+' lines).
extract_new_file() {
	awk -v f="$2" '
		/^diff / || /^--- / { if (infile && started) exit }
		$0 == "+++ b/" f { infile = 1; next }
		infile && /^@@ / { started = 1; next }
		infile && started && /^\\ No newline/ { nonl = 1; next }
		infile && started && /^\+/ { if (n++) printf "\n"; printf "%s", substr($0, 2); next }
		END { if (n && !nonl) printf "\n" }
	' "$1"
}

if [ ! -r "$P/series" ]; then
	skip "kernel patch series present" "no kernel/patches/series"
	done_testing; exit
fi

series_ok() {
	for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$P/series"); do
		[ -r "$P/$p" ] || { echo "series lists $p, which does not exist"; return 1; }
	done
	for f in "$P"/*.patch; do
		grep -qx "$(basename "$f")" "$P/series" || { echo "$f is not in series"; return 1; }
	done
}
check "every patch is in series and every series entry exists" series_ok

abi_patch=$(grep -l '^+++ b/include/uapi/linux/ltt-abi.h$' "$P"/*.patch | head -n 1)
check "a patch adds include/uapi/linux/ltt-abi.h" test -n "$abi_patch"
if [ -n "$abi_patch" ]; then
	extract_new_file "$abi_patch" include/uapi/linux/ltt-abi.h >"$TMP/ltt-abi.h"
	check "the kernel's ltt-abi.h is byte-identical to include/ltt/ltt-abi.h" \
		cmp "$TMP/ltt-abi.h" "$TOP/include/ltt/ltt-abi.h"
	# the comparison itself must be able to fail
	printf '/* drift */\n' >>"$TMP/ltt-abi.h"
	check_fails "a drifted copy is detected" cmp -s "$TMP/ltt-abi.h" "$TOP/include/ltt/ltt-abi.h"
fi

# Facility checksums: LTT_FACILITY_<NAME>_CHECKSUM 0x...U in the patches.
if [ ! -x "$BIN/ltt-checksum" ]; then
	skip "kernel facility checksums match the XML" "no $BIN/ltt-checksum (build it first)"
else
	cat "$P"/*.patch | sed -n 's/^+#define[[:space:]]*LTT_FACILITY_\([A-Z0-9_]*\)_CHECKSUM[[:space:]]*\(0x[0-9A-Fa-f]*\)U*$/\1 \2/p' \
		>"$TMP/sums"
	check "the kernel hard-codes facility checksums" test -s "$TMP/sums"
	while read -r name sum; do
		xml=$TOP/facilities/$(echo "$name" | tr 'A-Z' 'a-z').xml
		# an architecture's facility: the kernel is x86_64's
		case $name in *_ARCH) xml=${xml%.xml}_x86_64.xml ;; esac
		if [ ! -r "$xml" ]; then
			check "facility $name has a description" test -r "$xml"
			continue
		fi
		want=$("$BIN/ltt-checksum" "$xml" | awk '{ print $2 }')
		check "kernel checksum of $name ($sum) = ltt-checksum ($want)" \
			test "$(printf '%d' "$sum")" = "$(printf '%d' "$want")"
	done <"$TMP/sums"
	want=$("$BIN/ltt-checksum" "$TOP/facilities/core.xml" | awk '{ print $2 }')
	have=$(sed -n 's/^#define[[:space:]]*LTT_CORE_FACILITY_CHECKSUM[[:space:]]*\(0x[0-9A-Fa-f]*\)U*$/\1/p' "$TOP/include/ltt/ltt-abi.h")
	check "LTT_CORE_FACILITY_CHECKSUM ($have) = ltt-checksum of core.xml ($want)" \
		test "$(printf '%d' "$have")" = "$(printf '%d' "$want")"
fi
done_testing
