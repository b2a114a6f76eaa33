#!/bin/sh
# The Debian packages: `dpkg-buildpackage -us -uc -b` on a copy of the
# tree gives libltttrace0, libltttrace-dev, lttv, lttd and ltt-facilities;
# lintian finds no error in them; unpacked with `dpkg -x` into a scratch
# root, the installed tools run on a bundled trace (the viewers against
# the packaged libltttrace.so.0, the catalogue found in the root), and
# libltttrace(3)'s example builds with the packaged pkg-config file.
#
# It rebuilds the whole tree (about 2 minutes on 2 cores, lintian
# included): LTT_DEB_TEST=0 skips it, said and counted, for quick runs.
# run-once: it builds its own copy.
. "$(dirname "$0")/lib.sh"

# the changelog's version is the one of ltttrace-version.h (its home)
HV=$(sed -n 's/^#define LTTTRACE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
	"$TOP/libltttrace/include/ltttrace-version.h" | paste -sd.)
CV=$(sed -n '1s/^ltt (\([^)-]*\).*/\1/p' "$TOP/debian/changelog")
check "debian/changelog's version is ltttrace-version.h's ($HV)" test "$CV" = "$HV"

if [ "${LTT_DEB_TEST:-1}" = 0 ]; then
	skip "Debian packages" "LTT_DEB_TEST=0"
	done_testing
	exit
fi
for cmd in dpkg-buildpackage dh lintian; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		skip "Debian packages" "no $cmd (scripts/install-deps.sh installs debhelper and lintian)"
		done_testing
		exit
	fi
done

# a copy of the tree: dpkg-buildpackage writes the packages beside it
S=$TMP/src/ltt
mkdir -p "$S"
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -co --exclude-standard) | grep -v '^traces/' |
		(cd "$TOP" && tar -cf - -T -) | tar -xf - -C "$S"
else
	(cd "$TOP" && tar -cf - --exclude='./build*' --exclude=./traces --exclude=./.git .) |
		tar -xf - -C "$S"
fi
start=$(date +%s)
(cd "$S" && DEB_BUILD_OPTIONS="parallel=2 ${DEB_BUILD_OPTIONS:-}" \
	dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1
rc=$?
check "dpkg-buildpackage -us -uc -b ($(($(date +%s) - start)) s)" test $rc -eq 0
[ $rc -eq 0 ] || tail -n 20 "$TMP/build.log" | sed 's/^/#   /'

D=$TMP/src
V=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
A=$(dpkg-architecture -qDEB_HOST_ARCH)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for p in libltttrace0:$A libltttrace-dev:$A lttv:$A lttd:$A ltt-facilities:all ltt-modules-dkms:all; do
	check "package ${p%%:*} built" test -f "$D/${p%%:*}_${V}_${p#*:}.deb"
done
if [ $rc -ne 0 ]; then
	done_testing
	exit
fi

lintian "$D/ltt_${V}_$A.changes" >"$TMP/lintian" 2>&1
check "lintian: no error" sh -c "! grep '^E:' '$TMP/lintian'"
grep '^[EW]:' "$TMP/lintian" | sed 's/^/#   /'

# what each package holds, and who depends on the shared library
has() { # deb path...
	_deb=$1; shift
	dpkg-deb -c "$_deb" | awk '{ print $6 }' >"$TMP/contents"
	for _f; do grep -qx "./$_f" "$TMP/contents" || { echo "no $_f in $_deb"; return 1; }; done
}
check "libltttrace0: the library and its soname link" \
	has "$D/libltttrace0_${V}_$A.deb" "usr/lib/$MA/libltttrace.so.0" "usr/lib/$MA/libltttrace.so.$V"
check "libltttrace-dev: headers, .so, .a, .pc, libltt-usertrace, man 3" \
	has "$D/libltttrace-dev_${V}_$A.deb" usr/include/ltt/ltttrace.h usr/include/ltt/ltt-usertrace.h \
	"usr/lib/$MA/libltttrace.so" "usr/lib/$MA/libltttrace.a" "usr/lib/$MA/libltt-usertrace.a" \
	"usr/lib/$MA/pkgconfig/ltttrace.pc" usr/share/man/man3/libltttrace.3.gz usr/bin/genevent
check "lttv: the viewers, their man pages, desktop entry, icon, completion" \
	has "$D/lttv_${V}_$A.deb" usr/bin/lttv-text usr/bin/lttv-gtk usr/bin/lttv-convert usr/bin/lttv-diff \
	usr/share/man/man1/lttv-text.1.gz usr/share/applications/lttv-gtk.desktop \
	usr/share/icons/hicolor/scalable/apps/lttv-gtk.svg usr/share/bash-completion/completions/lttv-text
check "lttd: lttd and lttctl" has "$D/lttd_${V}_$A.deb" usr/bin/lttd usr/bin/lttctl usr/share/man/man1/lttctl.1.gz
check "ltt-facilities: the catalogue" has "$D/ltt-facilities_${V}_all.deb" usr/share/ltt/facilities/kernel.xml
check "lttv depends on libltttrace0 (the viewers use the shared library)" \
	sh -c "dpkg-deb -f '$D/lttv_${V}_$A.deb' Depends | grep -q 'libltttrace0'"
check "lttv depends on ltt-facilities" \
	sh -c "dpkg-deb -f '$D/lttv_${V}_$A.deb' Depends | grep -q 'ltt-facilities'"

check "ltt-modules-dkms: the modules' sources and dkms.conf" \
	has "$D/ltt-modules-dkms_${V}_all.deb" "usr/src/ltt-modules-$V/dkms.conf" \
	"usr/src/ltt-modules-$V/Kbuild" "usr/src/ltt-modules-$V/kernel/ltt/ltt-core.c" \
	"usr/src/ltt-modules-$V/ltt-compat.h" "usr/src/ltt-modules-$V/README.md"
check "ltt-modules-dkms depends on dkms (dh_dkms)" \
	sh -c "dpkg-deb -f '$D/ltt-modules-dkms_${V}_all.deb' Depends | grep -q 'dkms'"
check "ltt-modules-dkms's postinst registers it with DKMS" \
	sh -c "dpkg-deb -e '$D/ltt-modules-dkms_${V}_all.deb' '$TMP/dkms-ctl' && grep -q 'dkms' '$TMP/dkms-ctl/postinst'"
# `dkms build` of the package's sources against Debian's headers, in
# private folders: nothing is registered on this machine, nothing loaded
KVER=$(cat "${LTT_STOCK_CACHE:-/var/cache/ltt}/stock-kver" 2>/dev/null)
if ! command -v dkms >/dev/null || [ -z "$KVER" ] || [ ! -d "/usr/src/linux-headers-$KVER" ]; then
	skip "dkms build of ltt-modules-dkms" "no dkms or no pinned linux-headers (scripts/install-deps.sh kernel)"
else
	mkdir -p "$TMP/dkms/src" "$TMP/dkms/tree"
	dpkg -x "$D/ltt-modules-dkms_${V}_all.deb" "$TMP/dkms/pkg"
	cp -R "$TMP/dkms/pkg/usr/src/ltt-modules-$V" "$TMP/dkms/src/"
	dkms build --dkmstree "$TMP/dkms/tree" --sourcetree "$TMP/dkms/src" \
		-m ltt-modules -v "$V" -k "$KVER" >"$TMP/dkms.log" 2>&1
	check "dkms build of the package against linux-headers-$KVER" test $? -eq 0
	built() {
		for m in relayfs ltt_core ltt_relay ltt_control ltt_user; do
			ls "$TMP/dkms/tree/ltt-modules/$V/$KVER"/*/module/$m.ko* >/dev/null 2>&1 ||
				{ echo "no $m.ko"; tail -n 20 "$TMP/dkms.log"; return 1; }
		done
	}
	check "it gives the five modules" built
fi

# unpacked in a scratch root, the tools run
R=$TMP/root
for deb in "$D"/*.deb; do
	case $deb in *-dbgsym_*) continue ;; esac
	dpkg -x "$deb" "$R"
done
export LD_LIBRARY_PATH="$R/usr/lib/$MA"
unset LTT_FACILITIES_DIR
TRACE=$TOP/traces/qemu-busybox
check "lttv-text uses the packaged library" \
	sh -c "ldd '$R/usr/bin/lttv-text' | grep -q 'libltttrace.so.0 => $R/usr/lib/$MA/libltttrace.so.0'"
"$R/usr/bin/lttv-text" -t "$TRACE" >"$TMP/deb.txt" 2>"$TMP/deb.err"
check "lttv-text decodes a bundled trace" test $? -eq 0
"$BIN/lttv-text" -t "$TRACE" >"$TMP/tree.txt" 2>/dev/null
check "as the tree's lttv-text does" cmp "$TMP/deb.txt" "$TMP/tree.txt"
cp -R "$TOP/traces/sample-synthetic" "$TMP/bare" && rm -rf "$TMP/bare/eventdefs"
check "lttv-text decodes a trace without eventdefs/ with the packaged catalogue" \
	"$R/usr/bin/lttv-text" -t "$TMP/bare" -q -S
check "lttv-gtk --export draws it (no display)" \
	env -u DISPLAY -u WAYLAND_DISPLAY "$R/usr/bin/lttv-gtk" -t "$TRACE" --export "$TMP/cf.png"
check "the PNG is one" sh -c "head -c 8 '$TMP/cf.png' | od -c | grep -q 'P   N   G'"
check "lttv-convert writes CTF" "$R/usr/bin/lttv-convert" -t "$TRACE" --ctf "$TMP/ctf"
check "the CTF has its metadata" test -s "$TMP/ctf/metadata"
for t in lttd lttctl genevent ltt-checksum lttv-text lttv-gtk lttv-convert lttv-diff; do
	check "$t --version" sh -c "'$R/usr/bin/$t' --version | grep -qx '$t (Linux Trace Toolkit) $V'"
done
check "lttctl's default catalogue is the packaged one" \
	sh -c "'$R/usr/bin/lttctl' --help | grep -q '$R/usr/share/ltt/facilities)'"
check "ltt-checksum reads the packaged catalogue" \
	sh -c "'$R/usr/bin/ltt-checksum' '$R/usr/share/ltt/facilities/core.xml' | grep -q '^core 0x'"

# a program built with the packaged headers, .pc and library
zcat "$R/usr/share/man/man3/libltttrace.3.gz" | groff -man -Tutf8 -P-cbou 2>/dev/null |
	awk '/^ *\/\* ltt-print\.c/ { on = 1; ind = match($0, /[^ ]/) - 1 }
	     on { print substr($0, ind + 1) }
	     on && substr($0, ind + 1) == "}" { exit }' >"$TMP/ltt-print.c"
PKG="env PKG_CONFIG_PATH=$R/usr/lib/$MA/pkgconfig pkg-config --define-variable=prefix=$R/usr"
check "libltttrace(3)'s example builds with the packaged ltttrace.pc" \
	sh -c "cc -std=c11 -Wall -Werror $($PKG --cflags ltttrace) '$TMP/ltt-print.c' \
		$($PKG --libs ltttrace) -o '$TMP/ltt-print'"
"$TMP/ltt-print" "$TRACE" >"$TMP/print.txt" 2>/dev/null
check "and prints the trace as lttv-text does" cmp "$TMP/print.txt" "$TMP/tree.txt"
done_testing
