#!/bin/sh
# qemu/stock-modules.sh IMAGE_DIR KVER LIST LOAD MODULE... - the modules of
# Debian's kernel image (unpacked in IMAGE_DIR) that a guest needs, with
# every module they depend on, in the order modprobe would load them:
# appends to the gen_init_cpio LIST a line per module (under
# /lib/modules/stock) and to the shell script LOAD an insmod of each.
# For qemu/modules-boot.sh (9p and its transport, plus what a caller adds)
# and tests/lttng-kernel/record.sh.
set -eu
[ $# -ge 5 ] || { echo "usage: qemu/stock-modules.sh IMAGE_DIR KVER LIST LOAD MODULE..." >&2; exit 2; }
img=$1 kver=$2 list=$3 load=$4
shift 4
for m in "$@"; do
	modprobe -d "$img" -S "$kver" --show-depends "$m"
done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
	b=$(basename "$ko")
	echo "file /lib/modules/stock/$b $ko 0644 0 0" >>"$list"
	echo "insmod /lib/modules/stock/$b" >>"$load"
done
