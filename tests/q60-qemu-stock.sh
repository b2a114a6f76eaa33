#!/bin/sh
# The tracer on Debian's own kernel: q10's, q20's and q30's scenarios
# (create, start, stop, destroy in every mode, every channel drained by
# lttd, the kernel's events beside ftrace's, user-space events through
# libltt-usertrace's door, non-root refused) on the unmodified
# vmlinuz of linux-image-KVER-amd64, with the modules of kernel/modules/
# built against the matching headers and loaded by the guest's /init
# (qemu/stock.sh).  Their checks that only the patched kernel can pass
# are skipped, each saying why.  One TAP stream, each check named by its
# scenario.
#
# Needs what scripts/install-deps.sh kernel installs and downloads (the
# headers, the image package); skips loudly without.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 2
cache=${LTT_STOCK_CACHE:-/var/cache/ltt}
kver=${LTT_STOCK_KVER:-$(cat "$cache/stock-kver" 2>/dev/null)}
why=
if [ -z "$kver" ]; then
	why="no stock kernel pinned ($cache/stock-kver: scripts/install-deps.sh kernel)"
elif [ ! -d "/usr/src/linux-headers-$kver" ]; then
	why="no linux-headers-$kver (scripts/install-deps.sh kernel)"
elif ! ls "$cache"/linux-image-"$kver"_*.deb >/dev/null 2>&1; then
	why="no linux-image-$kver package in $cache (scripts/install-deps.sh kernel)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="no qemu-system-x86_64 (scripts/install-deps.sh kernel)"
fi
if [ -n "$why" ]; then
	skip "the tracer's modules on Debian's kernel" "$why"
	done_testing
	exit 0
fi
echo "# q60: Debian's kernel $kver with kernel/modules" >&2
rc=0
for t in q10-qemu-trace q20-qemu-instrumentation q30-qemu-usertrace; do
	LTT_PLATFORM=stock LTT_STOCK_KVER=$kver sh "tests/$t.sh" >"$TMP/$t.tap" || rc=1
	# renumbered into this script's stream
	while IFS= read -r line; do
		case $line in
		'ok '*' # SKIP '*)
			what=${line#ok * - }; _n=$((_n + 1))
			echo "ok $_n - stock ${t%%-*}: $what"
			echo "SKIPPED: stock ${t%%-*}: ${what%% # SKIP *}: ${what#* # SKIP }" >&2 ;;
		'ok '*) _report 0 "stock ${t%%-*}: ${line#ok * - }" ;;
		'not ok '*) _report 1 "stock ${t%%-*}: ${line#not ok * - }" ;;
		'1..'*) ;;
		*) echo "$line" ;;
		esac
	done <"$TMP/$t.tap"
done
check "every scenario's script exited 0" test "$rc" = 0
done_testing
