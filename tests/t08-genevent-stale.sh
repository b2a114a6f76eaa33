#!/bin/sh
# The facility files that kernel patch 0007 carries (include/linux/ltt/
# ltt-facility-*.h, kernel/ltt/ltt-facility-loader-*.c) must be exactly
# what build/bin/genevent writes from facilities/*.xml today: a changed
# description or generator means the patch must be regenerated
# (kernel/tools/series.sh facilities, then a fixup of 0007: kernel/README.md).
. "$(dirname "$0")/lib.sh"
P=$TOP/kernel/patches
FACS="kernel kernel_arch process fs statedump"
# an architecture's facility is described in NAME_ARCH.xml; the kernel is
# x86_64's (kernel/tools/series.sh facilities has the same rule)
xml_of() {
	case $1 in
	*_arch) echo "$1_x86_64.xml" ;;
	*) echo "$1.xml" ;;
	esac
}

patch=$(grep -l '^+++ b/include/linux/ltt/ltt-facility-kernel.h$' "$P"/*.patch 2>/dev/null | head -n 1)
if [ -z "$patch" ]; then
	skip "generated facility files in the kernel patches" "no patch adds include/linux/ltt/ltt-facility-kernel.h"
	done_testing; exit
fi
check "the patch that carries them is in the series" \
	grep -qx "$(basename "$patch")" "$P/series"

# Prints the file @2 as created by the patch @1 ('+' lines of its hunk).
new_file() {
	awk -v f="$2" '
		infile && (/^diff / || /^--- /) { exit }
		$0 == "+++ b/" f { infile = 1; next }
		infile && /^@@ / { started = 1; next }
		infile && started && /^\\ No newline/ { nonl = 1; next }
		infile && started && /^\+/ { if (n++) printf "\n"; printf "%s", substr($0, 2) }
		END { if (n && !nonl) printf "\n" }
	' "$1"
}

# shellcheck disable=SC2046
check "genevent generates the five kernel facilities" \
	"$BIN/genevent" -o "$TMP/gen" $(for f in $FACS; do echo "$TOP/facilities/$(xml_of "$f")"; done)
for f in $FACS; do
	for file in include/linux/ltt/ltt-facility-$f.h kernel/ltt/ltt-facility-loader-$f.c; do
		new_file "$patch" "$file" >"$TMP/p"
		check "$(basename "$patch"): $file is what genevent writes" \
			cmp "$TMP/p" "$TMP/gen/$(basename "$file")"
	done
done
# the comparison must be able to fail
new_file "$patch" include/linux/ltt/ltt-facility-fs.h | sed 's/LTT_CHANNEL_CPU/LTT_CHANNEL_NETWORK/' >"$TMP/p"
check_fails "a stale copy is detected" cmp -s "$TMP/p" "$TMP/gen/ltt-facility-fs.h"
done_testing
