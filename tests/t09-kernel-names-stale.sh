#!/bin/sh
# The names of system calls and trap vectors the library shows
# (libltttrace/src/kernel-names-x86_64.h) are generated from the kernel the
# tracer is built from: regenerate them from the two files of Debian's
# linux-source 6.1 tarball and fail if the committed table differs.  Not
# from build-kernel/: once built, that tree has patch 0009's two system
# calls (451, 452), and a prefix of the series while check-series.sh runs,
# so the result depended on what was built before (make check's SANITIZE
# pass, after the kernel build, failed).  Then check a few against what
# every x86_64 kernel has always said.
. "$(dirname "$0")/lib.sh"

hdr="$TOP/libltttrace/src/kernel-names-x86_64.h"
gen="$TOP/libltttrace/tools/gen-kernel-names.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
files="arch/x86/entry/syscalls/syscall_64.tbl arch/x86/include/asm/trapnr.h"
tree=""
if [ -r "$tarball" ]; then
	mkdir -p "$TMP/k"
	# shellcheck disable=SC2086
	if tar -xJf "$tarball" -C "$TMP/k" $(for f in $files; do echo "linux-source-6.1/$f"; done) 2>"$TMP/tar.err"; then
		tree="$TMP/k/linux-source-6.1"
	fi
fi
if [ -z "$tree" ]; then
	skip "kernel names are those of the kernel tree" "no kernel tarball $tarball (apt-get install linux-source-6.1)"
else
	sh "$gen" "$tree" >"$TMP/names.h" 2>"$TMP/gen.err"
	_report $? "gen-kernel-names.sh reads the kernel tree"
	if cmp -s "$TMP/names.h" "$hdr"; then
		_report 0 "kernel-names-x86_64.h is what the kernel tree says"
	else
		_report 1 "kernel-names-x86_64.h is stale: regenerate with libltttrace/tools/gen-kernel-names.sh"
		diff "$hdr" "$TMP/names.h" | head -n 10 | sed 's/^/#   /'
	fi
fi
for pair in '0 "read"' '1 "write"' '59 "execve"' '231 "exit_group"' '257 "openat"'; do
	n=${pair%% *} name=${pair#* }
	check "system call $n is $name" grep -q "^	\[$n\] = $name,\$" "$hdr"
done
check "trap 14 is page_fault" grep -q '^	\[14\] = "page_fault",$' "$hdr"
done_testing
