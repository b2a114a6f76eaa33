#!/bin/sh
# kernel/tools/commit-patch.sh NAME GIT_DIR - write kernel/patches/NAME.patch
# from the last commit of a git repository of the kernel source.
#
# GIT_DIR: the git directory (.git of a work tree, or a separate one) of a
# linux-source-6.1 tree whose HEAD~1 is the tree with the series before
# NAME applied and whose HEAD is the work of NAME (see kernel/README.md,
# "Patches after 0007").  The patch text is
# kernel/patches/headers/NAME.txt followed by the diff HEAD~1..HEAD, so
# the same commit always gives the same patch.  Run from the top of the
# LTT repository.
set -eu
NAME=${1:?usage: commit-patch.sh NAME GIT_DIR}
GD=$(cd "${2:?usage: commit-patch.sh NAME GIT_DIR}" && pwd)
H=kernel/patches/headers/$NAME.txt
[ -r "$H" ] || { echo "commit-patch.sh: no $H (the patch's header)" >&2; exit 1; }
g() { git --git-dir="$GD" "$@"; }
g rev-parse -q --verify HEAD~1 >/dev/null ||
	{ echo "commit-patch.sh: $GD has no HEAD~1 (base commit, then the work)" >&2; exit 1; }
OUT=kernel/patches/$NAME.patch
{
	sed -e '$a\' "$H"
	echo "---"
	g diff --stat=72 HEAD~1 HEAD
	echo
	g diff HEAD~1 HEAD
} >"$OUT"
echo "wrote $OUT"
