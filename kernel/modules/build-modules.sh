#!/bin/sh
# build-modules.sh KERNEL_BUILD_DIR SRC OUT - the modules of SRC (the tree
# make-source.sh wrote) built in OUT, a copy of it, against the kernel
# whose build folder is KERNEL_BUILD_DIR (headers or a built tree).  One
# build at a time per OUT (make check and a benchmark may ask at once);
# OUT/.built is written last.
set -eu
kdir=${1:?usage: build-modules.sh KERNEL_BUILD_DIR SRC OUT}
src=${2:?}
out=${3:?}
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -e "$out/.built" ] && [ "$out/.built" -nt "$src/Kbuild" ]; then
	exit 0	# made meanwhile by the one we waited for
fi
rm -rf "$out"
cp -r "$src" "$out"
make -C "$kdir" M="$(cd "$out" && pwd)" modules
touch "$out/.built"
