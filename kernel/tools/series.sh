#!/bin/sh
# kernel/tools/series.sh - the patch series as git commits, and back.
#
#   kernel/tools/series.sh git          the built tree as a git work tree: one
#                                       commit of the pristine tarball, then one
#                                       commit per patch of kernel/patches/series
#   kernel/tools/series.sh export       rewrite kernel/patches/ from those commits
#   kernel/tools/series.sh facilities   write genevent's kernel facility files into
#                                       the tree (then commit them where they belong)
#
# The tree is $LTT_KERNEL_OUT/linux-source-6.1 (default build-kernel/), as
# `make kernel` left it; the git directory is $LTT_KERNEL_OUT/series.git, apart
# from the tree so that the kernel's own scripts (setlocalversion) see no
# repository.  Edit the tree, build it (`make -C build-kernel/linux-source-6.1
# bzImage`, or `make kernel` after an export), commit with
#
#   export GIT_DIR=$PWD/build-kernel/series.git GIT_WORK_TREE=$PWD/build-kernel/linux-source-6.1
#   git commit -a --fixup=<commit of the patch>; git rebase -i --autosquash base
#
# (a new file: `git add -f`, as Debian's .gitignore ignores the whole tree;
# a new patch: a new commit, with a `Patch-Name:
# slug` trailer), then export.  A commit's message is its patch's header:
# the subject line, the text, the trailers (Signed-off-by); the author and
# date are the patch's From and Date.  Export numbers the patches in
# commit order ([PATCH n/N], NNNN-slug.patch) and writes the series file, so
# the same commits always give the same files.  Run from the top of the LTT
# repository.  kernel/tools/check-series.sh then proves every prefix builds.
set -eu

TOP=$(pwd)
OUT=${LTT_KERNEL_OUT:-$TOP/build-kernel}
case $OUT in /*) ;; *) OUT=$TOP/$OUT ;; esac
TREE=$OUT/linux-source-6.1
PATCHES=$TOP/kernel/patches
TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
GD=$OUT/series.git
BASE_TAG=base

die() { echo "series.sh: $*" >&2; exit 1; }
g() { git --git-dir="$GD" --work-tree="$TREE" "$@"; }
series() { grep -v '^[[:space:]]*\(#\|$\)' "$1/series"; }
diffs() { sed -n '/^diff --git /,$p' "$1"; }

# The identity of patches that have none: the LTT repository's committer.
ident_name=$(git -C "$TOP" config user.name || echo "Linux Trace Toolkit developers")
ident_mail=$(git -C "$TOP" config user.email || echo "ltt-dev@ltt.invalid")

# header FIELD PATCH: a mail header of the patch (before its first blank line)
header() {
	awk -v f="$1" 'NF == 0 { exit } index($0, f ": ") == 1 { print substr($0, length(f) + 3); exit }' "$2"
}

# message PATCH: the commit message: subject without "[PATCH n/N] ", the
# text up to the "---" line, a Signed-off-by if it had none, and the slug.
message() {
	slug=$(basename "$1" .patch | sed 's/^[0-9]*-//')
	header Subject "$1" | sed 's/^\[PATCH[^]]*\] *//'
	echo
	awk 'body && /^---$/ { exit } body { print } !body && NF == 0 { body = 1 }' "$1" |
		sed -e '/^Patch-Name: /d' >"$OUT/msg.body"
	cat "$OUT/msg.body"
	grep -q '^Signed-off-by: ' "$OUT/msg.body" ||
		printf '\nSigned-off-by: %s <%s>\n' "$ident_name" "$ident_mail"
	printf 'Patch-Name: %s\n' "$slug"
	rm -f "$OUT/msg.body"
}

cmd_git() {
	[ -r "$OUT/applied/series" ] || die "no built tree in $OUT: run make kernel first"
	for p in $(series "$PATCHES"); do	# the diffs: a header may have been reworded
		[ -r "$OUT/applied/$p" ] && [ "$(diffs "$PATCHES/$p")" = "$(diffs "$OUT/applied/$p")" ] ||
			die "$TREE does not carry kernel/patches as they are ($p differs): run make kernel first"
	done
	[ "$(series "$OUT/applied")" = "$(series "$PATCHES")" ] ||
		die "$TREE does not carry kernel/patches/series: run make kernel first"
	if [ -d "$GD" ]; then
		echo "series.sh: replacing $GD (its commits are not kept)"
		rm -rf "$GD"
	fi
	exec 9>"$OUT/.build.lock"
	flock 9
	echo "series.sh: taking the series off the tree"
	for p in $(series "$OUT/applied" | sed -n '1!G;h;$p'); do
		(cd "$TREE" && patch -R -p1 -s --no-backup-if-mismatch <"$OUT/applied/$p") ||
			die "$p does not come off $TREE: rm -rf $OUT and run make kernel"
	done
	git init -q --bare "$GD"
	g config core.bare false
	g config user.name "$ident_name"
	g config user.email "$ident_mail"
	# the patches' "index" lines as they were written: git's automatic
	# length grows with the repository and would rewrite every patch
	g config core.abbrev 7
	# no background gc: it inherited make kernel's lock and held it for
	# minutes while it packed the tree
	g config gc.auto 0
	# Debian's top-level .gitignore ignores everything ("/*"): the tarball's
	# files are added by name, then the files each patch touches.
	echo "series.sh: committing the pristine tree (a minute)"
	tar -tJf "$TARBALL" | sed -n 's|^linux-source-6.1/\(.*[^/]\)$|\1|p' |
		g add -f --pathspec-from-file=-
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		g commit -q -m "linux-source-6.1 as Debian ships it"
	g tag -f "$BASE_TAG" >/dev/null
	for p in $(series "$PATCHES"); do
		echo "series.sh: $p"
		(cd "$TREE" && patch -p1 -s --no-backup-if-mismatch <"$PATCHES/$p") ||
			die "$p does not apply"
		sed -n 's|^+++ b/||p; s|^--- a/||p' "$PATCHES/$p" | sort -u |
			g add -A -f --pathspec-from-file=-
		from=$(header From "$PATCHES/$p")
		date=$(header Date "$PATCHES/$p")
		[ -n "$date" ] || date=$(git -C "$TOP" log -1 --format=%aD -- "kernel/patches/$p")
		[ -n "$from" ] || from="$ident_name <$ident_mail>"
		message "$PATCHES/$p" >"$OUT/msg"
		GIT_AUTHOR_DATE="$date" g commit -q --author="$from" -F "$OUT/msg"
		rm -f "$OUT/msg"
	done
	echo "series.sh: $GD: '$BASE_TAG' and $(g rev-list --count "$BASE_TAG"..HEAD) commits; the tree is as make kernel left it"
	echo "  export GIT_DIR=$GD GIT_WORK_TREE=$TREE"
}

cmd_export() {
	[ -d "$GD" ] || die "no $GD: run kernel/tools/series.sh git first"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		die "the tree has changes that are not committed (git status)"
	commits=$(g rev-list --reverse "$BASE_TAG"..HEAD)
	total=$(echo "$commits" | wc -l)
	tmp=$OUT/export.tmp
	rm -rf "$tmp"; mkdir -p "$tmp"
	echo "# Linux Trace Toolkit on Linux 6.1: apply in order with patch -p1" >"$tmp/series"
	n=0
	for c in $commits; do
		n=$((n + 1))
		slug=$(g log -1 --format=%B "$c" | sed -n 's/^Patch-Name: //p' | tail -n 1)
		[ -n "$slug" ] || die "commit $(g log -1 --format='%h %s' "$c") has no Patch-Name: trailer"
		name=$(printf '%04d-%s.patch' "$n" "$slug")
		{
			g log -1 --format='From: %an <%ae>%nDate: %aD' "$c"
			printf 'Subject: [PATCH %d/%d] %s\n\n' "$n" "$total" "$(g log -1 --format=%s "$c")"
			g log -1 --format=%b "$c" | sed '/^Patch-Name: /d' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
			echo "---"
			g diff --stat=72 "$c~1" "$c"
			echo
			g diff "$c~1" "$c"
		} >"$tmp/$name"
		echo "$name" >>"$tmp/series"
	done
	for old in $(series "$PATCHES"); do rm -f "$PATCHES/$old"; done
	mv "$tmp"/*.patch "$PATCHES/"
	mv "$tmp/series" "$PATCHES/series"
	rmdir "$tmp"
	echo "series.sh: wrote $total patches and the series to kernel/patches/"
}

# Patch 0007's facility files are genevent's output (tests/t08-genevent-stale.sh
# checks): write them again, for every facility header the tree has.  A
# facility of an architecture (a name ending in _arch) is described per
# architecture, in NAME_ARCH.xml (the 2006 reader's rule): the kernel is
# x86_64's, so ltt-facility-kernel_arch.h comes from kernel_arch_x86_64.xml.
xml_of() {
	case $1 in
	*_arch) echo "$1_x86_64.xml" ;;
	*) echo "$1.xml" ;;
	esac
}
cmd_facilities() {
	[ -x "$TOP/build/bin/genevent" ] || die "no build/bin/genevent: run make first"
	n=0
	for h in "$TREE"/include/linux/ltt/ltt-facility-*.h; do
		[ -e "$h" ] || continue
		f=$(basename "$h" .h | sed 's/^ltt-facility-//')
		xml=$TOP/facilities/$(xml_of "$f")
		[ -r "$xml" ] || die "no $xml for $h"
		"$TOP/build/bin/genevent" -o "$OUT/gen.tmp" "$xml"
		cp "$OUT/gen.tmp/ltt-facility-$f.h" "$TREE/include/linux/ltt/"
		cp "$OUT/gen.tmp/ltt-facility-loader-$f.c" "$TREE/kernel/ltt/"
		n=$((n + 1))
	done
	rm -rf "$OUT/gen.tmp"
	echo "series.sh: wrote genevent's files of $n facilities into $TREE"
}

case ${1:-} in
git) cmd_git ;;
export) cmd_export ;;
facilities) cmd_facilities ;;
*) die "usage: kernel/tools/series.sh git|export|facilities" ;;
esac
