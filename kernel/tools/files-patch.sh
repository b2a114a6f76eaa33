#!/bin/sh
# kernel/tools/files-patch.sh NAME BASE WORK FILE... - write
# kernel/patches/NAME.patch: kernel/patches/headers/NAME.txt, then the
# diff of the listed FILEs from BASE to WORK, in the order given, so the
# same inputs always give the same patch.  A FILE missing from BASE is a
# new file; BASE and WORK need hold only these files.  The one diff
# maker of kernel-events-patch.sh (0007) and markers-patch.sh (0008).
# Run from the top of the LTT repository.
set -eu
NAME=${1:?usage: files-patch.sh NAME BASE WORK FILE...}
BASE=$(cd "${2:?usage: files-patch.sh NAME BASE WORK FILE...}" && pwd)
WORK=$(cd "${3:?usage: files-patch.sh NAME BASE WORK FILE...}" && pwd)
shift 3
TOP=$(pwd)

G=$(mktemp -d)
trap 'rm -rf "$G"' EXIT
R=$G/repo
mkdir -p "$R"
git -C "$R" init -q
for f in "$@"; do
	if [ -e "$BASE/$f" ]; then
		mkdir -p "$R/$(dirname "$f")"
		cp "$BASE/$f" "$R/$f"
	fi
done
git -C "$R" add -A
git -C "$R" -c user.name=LTT -c user.email=ltt@localhost commit -q --allow-empty -m base
for f in "$@"; do
	mkdir -p "$R/$(dirname "$f")"
	cp "$WORK/$f" "$R/$f"
done
git -C "$R" add -A
OUT=$TOP/kernel/patches/$NAME.patch
{
	sed -e '$a\' "$TOP/kernel/patches/headers/$NAME.txt"
	echo "---"
	git -C "$R" diff --cached --stat=72
	echo
	git -C "$R" diff --cached
} >"$OUT"
echo "wrote $OUT"
