#!/bin/sh
# qemu/lttng-initramfs.sh LIST - appends to the gen_init_cpio list LIST
# what a stock-kernel guest needs to record with LTTng 2.13: its kernel
# modules (qemu/lttng-modules.sh, built against the stock headers) and
# Debian's lttng-tools (lttng, lttng-sessiond, lttng-consumerd) with every
# library they load, at the paths they were built for, the session
# schema the daemon validates against, and a passwd/group with the
# "tracing" group it looks up. For tests/lttng-kernel/record.sh and
# bench/guest.py (bench/tracer.py --kernel stock with LTTng beside ours).
# Debian's packages are unpacked once, not installed, into
# $LTTNG_KERNEL_WORK/root (default $BUILD/lttng-kernel); the first time
# needs root (dpkg -x) and Debian's archive (apt-get download).
# Exit 2 with the reason when a prerequisite is missing (as lttng-modules.sh).
set -eu
LIST=${1:?usage: qemu/lttng-initramfs.sh LIST}
BUILD=${BUILD:-build}
W=${LTTNG_KERNEL_WORK:-$BUILD/lttng-kernel}
export LTTNG_KERNEL_WORK="$W"
cant() { echo "qemu/lttng-initramfs.sh: $*" >&2; exit 2; }
mods=$(BUILD=$BUILD qemu/lttng-modules.sh) || exit $?

root=$W/root
libs="liblttng-ctl0 liblttng-ust-common1 liblttng-ust-ctl5 liburcu8"
if [ ! -e "$root/.unpacked" ]; then
	rm -rf "$W/debs" "$root"; mkdir -p "$W/debs" "$root"
	(cd "$W/debs" && apt-get download lttng-tools $libs >/dev/null) ||
		cant "apt-get download of Debian's LTTng packages failed"
	for d in "$W"/debs/*.deb; do dpkg -x "$d" "$root"; done
	touch "$root/.unpacked"
fi

{
	echo "dir /lib 0755 0 0"
	echo "dir /lib64 0755 0 0"
	(cd "$mods" && find lib/modules -type d | sed 's|^|dir /|; s|$| 0755 0 0|')
	(cd "$mods" && find lib/modules -type f) | while read -r f; do
		echo "file /$f $mods/$f 0644 0 0"
	done
} >>"$LIST"
ml=/usr/lib/x86_64-linux-gnu
bins="usr/bin/lttng usr/bin/lttng-sessiond ${ml#/}/lttng/libexec/lttng-consumerd"
for d in /usr /usr/bin /usr/lib /usr/lib/x86_64-linux-gnu $ml/lttng $ml/lttng/libexec \
	 /lib/x86_64-linux-gnu /var /var/run /run /etc; do
	echo "dir $d 0755 0 0"
done >>"$LIST"
for b in $bins; do
	echo "file /$b $root/$b 0755 0 0" >>"$LIST"
done
for b in $bins; do
	LD_LIBRARY_PATH="$root$ml" ldd "$root/$b"
done | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/lib64\// { print $1 }' | sort -u |
while read -r l; do
	# a file at the path the loader asks for (gen_init_cpio follows links)
	echo "file ${l#"$root"} $l 0755 0 0"
done >>"$LIST"
{
	echo "dir /usr/share 0755 0 0"
	echo "dir /usr/share/xml 0755 0 0"
	echo "dir /usr/share/xml/lttng 0755 0 0"
	echo "file /usr/share/xml/lttng/session.xsd $root/usr/share/xml/lttng/session.xsd 0644 0 0"
	echo "file /etc/passwd tests/lttng-kernel/passwd 0644 0 0"
	echo "file /etc/group tests/lttng-kernel/group 0644 0 0"
} >>"$LIST"
