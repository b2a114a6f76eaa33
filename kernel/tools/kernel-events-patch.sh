#!/bin/sh
# kernel/tools/kernel-events-patch.sh BASE WORK - write
# kernel/patches/0007-ltt-kernel-events.patch.
#
# BASE: a linux-source-6.1 tree with patches 0001..0006 applied (only the
# files below are read); WORK: the same with the work of 0007 done.  The
# generated facility files are first regenerated into WORK with
# build/bin/genevent (tests/t08-genevent-stale.sh checks that the patch
# carries exactly what genevent writes).  The patch text is
# kernel/patches/headers/0007-ltt-kernel-events.txt followed by the diff.
# Run from the top of the LTT repository.
set -eu
BASE=$(cd "${1:?usage: kernel-events-patch.sh BASE WORK}" && pwd)
WORK=$(cd "${2:?usage: kernel-events-patch.sh BASE WORK}" && pwd)
NAME=0007-ltt-kernel-events
FACS="kernel process fs statedump"

G=$(mktemp -d)
trap 'rm -rf "$G"' EXIT
# shellcheck disable=SC2046
build/bin/genevent -o "$G" $(for f in $FACS; do echo "facilities/$f.xml"; done)
for f in $FACS; do
	cp "$G/ltt-facility-$f.h" "$WORK/include/linux/ltt/"
	cp "$G/ltt-facility-loader-$f.c" "$WORK/kernel/ltt/"
done

FILES="arch/x86/include/asm/trace/exceptions.h
arch/x86/mm/fault.c
include/linux/ltt-core.h
kernel/ltt/Kconfig
kernel/ltt/Makefile
kernel/ltt/ltt-core.c
kernel/ltt/ltt-probes.c
kernel/ltt/ltt-statedump.c"
for f in $FACS; do
	FILES="$FILES
include/linux/ltt/ltt-facility-$f.h
kernel/ltt/ltt-facility-loader-$f.c"
done

# shellcheck disable=SC2086 # FILES: one path per word
kernel/tools/files-patch.sh "$NAME" "$BASE" "$WORK" $FILES
