#!/bin/sh
# run-once
# Every kernel patch reads as a patch sent to a maintainer: From, Date, a
# "[PATCH n/N]" subject numbered as the series orders it (and as its file
# name says), a text saying what it does, a Signed-off-by before the "---",
# then a diff (kernel/tools/series.sh export writes them so); and the
# kernel's checkpatch.pl --strict finds no error in them.
. "$(dirname "$0")/lib.sh"
P=$TOP/kernel/patches

# patch_ok FILE N TOTAL: the header of one patch
patch_ok() {
	f=$1 n=$2 total=$3
	name=$(basename "$f")
	case $name in "$(printf '%04d' "$n")"-*.patch) ;; *)
		echo "$name: its number is not its place ($n) in the series"; return 1 ;;
	esac
	sed -n 1p "$f" | grep -Eq '^From: [^<]+ <[^>@ ]+@[^> ]+>$' ||
		{ echo "$name: line 1 is not 'From: Name <mail>'"; return 1; }
	d=$(sed -n 's/^Date: //p;2q' "$f")
	[ -n "$d" ] && date -d "$d" >/dev/null 2>&1 ||
		{ echo "$name: line 2 is not a Date: header"; return 1; }
	sed -n 3p "$f" | grep -q "^Subject: \[PATCH $n/$total\] [^ ]" ||
		{ echo "$name: line 3 is not 'Subject: [PATCH $n/$total] ...'"; return 1; }
	awk '/^---$/ { exit } { print }' "$f" >"$TMP/head"
	[ "$(sed -n '5,$p' "$TMP/head" | grep -vc '^\(Signed-off-by: .*\|\)$')" -ge 2 ] ||
		{ echo "$name: no text says what the patch does"; return 1; }
	grep -Eq '^Signed-off-by: [^<]+ <[^>]+@[^>]+>$' "$TMP/head" ||
		{ echo "$name: no Signed-off-by before the ---"; return 1; }
	grep -q '^diff --git a/' "$f" || { echo "$name: no diff"; return 1; }
}

series_ok() {
	list=$(grep -v '^[[:space:]]*\(#\|$\)' "$P/series")
	total=$(echo "$list" | wc -l)
	n=0
	for p in $list; do
		n=$((n + 1))
		[ -r "$P/$p" ] || { echo "series lists $p, which does not exist"; return 1; }
		patch_ok "$P/$p" "$n" "$total" || return 1
	done
	for f in "$P"/*.patch; do
		echo "$list" | grep -qx "$(basename "$f")" ||
			{ echo "$(basename "$f") is not in the series"; return 1; }
	done
}

if [ ! -r "$P/series" ]; then
	skip "the kernel patches' headers" "no kernel/patches/series"
	done_testing; exit
fi
check "every patch has From, Date, [PATCH n/N], a text and Signed-off-by" series_ok

# -- checkpatch.pl --strict, the kernel's own (from the tarball) ---------------
# No ERROR, one kind waived as a maintainer would: COMPLEX_MACRO on patch
# 0008's __MARK_ULn, which expand to comma-separated initialisers for an
# array (a list cannot be put in parentheses).  WARNINGs and CHECKs are
# read, not counted.  checkpatch runs from $TMP: inside a git work tree it
# takes the patch's own lines for the file's.
cp_ok() { # DIR: every patch of DIR's series
	for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$1/series"); do
		(cd "$TMP" && perl "$CHECKPATCH" --strict --no-tree --terse --show-types "$1/$p") >"$TMP/cp.out" 2>&1
		grep -q '^total: [0-9]* errors, .* lines checked$' "$TMP/cp.out" ||
			{ echo "$p: checkpatch did not run:"; cat "$TMP/cp.out"; return 1; }
		grep -E ': ERROR:' "$TMP/cp.out" | while IFS=: read -r _f line _e type _msg; do
			if [ "$type" = COMPLEX_MACRO ] &&
			   sed -n "${line}p" "$1/$p" | grep -q '^+#define __MARK_UL[0-9]'; then
				continue
			fi
			echo "$p:$line: $type:$_msg"
		done >"$TMP/cp.err"
		if [ -s "$TMP/cp.err" ]; then cat "$TMP/cp.err"; return 1; fi
	done
}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CHECKPATCH=$TMP/k/linux-source-6.1/scripts/checkpatch.pl
mkdir -p "$TMP/k"
if ! command -v perl >/dev/null; then
	skip "checkpatch.pl --strict" "no perl"
elif [ ! -r "$tarball" ]; then
	skip "checkpatch.pl --strict" "no kernel tarball $tarball (apt-get install linux-source-6.1)"
elif ! tar -xJf "$tarball" -C "$TMP/k" linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt linux-source-6.1/scripts/const_structs.checkpatch; then
	skip "checkpatch.pl --strict" "scripts/checkpatch.pl not in $tarball"
else
	check "checkpatch.pl --strict: no ERROR in any patch (one kind waived)" cp_ok "$P"
	# and it can fail: a copy of the series with one "if(" in a patch
	mkdir -p "$TMP/cpbad"
	cp "$P"/series "$P"/*.patch "$TMP/cpbad/"
	bad=$(grep -l '^+	if (' "$TMP"/cpbad/*.patch | head -n 1)
	sed -i '0,/^+	if (/s//+	if(/' "$bad"
	check_fails "checkpatch: an 'if(' in $(basename "$bad") is an ERROR" cp_ok "$TMP/cpbad"
fi

# the check must be able to fail: a copy of the series with one subject misnumbered
mkdir -p "$TMP/p"
cp "$P"/series "$P"/*.patch "$TMP/p/"
first=$(grep -v '^[[:space:]]*\(#\|$\)' "$P/series" | head -n 1)
sed -i '3s/\[PATCH 1\//[PATCH 2\//' "$TMP/p/$first"
P=$TMP/p
check_fails "a misnumbered subject is found" series_ok
done_testing
