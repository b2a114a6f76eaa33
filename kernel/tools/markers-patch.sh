#!/bin/sh
# kernel/tools/markers-patch.sh BASE WORK - write
# kernel/patches/0008-kernel-markers.patch.
#
# BASE: a linux-source-6.1 tree with patches 0001..0007 applied (only the
# files below are read); WORK: a directory holding the same files with
# the markers work done (a full tree or just these files).  The patch
# text is kernel/patches/headers/0008-kernel-markers.txt followed by the
# diff of the files below, in a fixed order, so the same inputs give the
# same patch.  Run from the top of the LTT repository.
set -eu
BASE=$(cd "${1:?usage: markers-patch.sh BASE WORK}" && pwd)
WORK=$(cd "${2:?usage: markers-patch.sh BASE WORK}" && pwd)
NAME=0008-kernel-markers

FILES="arch/Kconfig
arch/x86/include/asm/marker.h
include/asm-generic/vmlinux.lds.h
include/linux/marker.h
kernel/Kconfig.marker
kernel/Makefile
kernel/marker-test.c
kernel/marker.c"

for f in $FILES; do
	[ -r "$WORK/$f" ] || { echo "markers-patch.sh: no $WORK/$f" >&2; exit 1; }
done

# shellcheck disable=SC2086 # FILES: one path per word
kernel/tools/files-patch.sh "$NAME" "$BASE" "$WORK" $FILES
