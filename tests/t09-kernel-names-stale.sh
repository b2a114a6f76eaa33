#!/bin/sh
# The names the kernel tree gives, generated and committed:
#  - the trap vectors the library shows (libltttrace/src/kernel-names-x86_64.h,
#    libltttrace/tools/gen-kernel-names.sh, from trapnr.h);
#  - the system calls: the enum syscall_name of facilities/kernel_arch_x86_64.xml
#    (libltttrace/tools/gen-kernel-arch.sh, from syscall_64.tbl as our kernel
#    has it: the tarball's, with the series' changes to that file alone).
# Both are made again from Debian's linux-source 6.1 tarball (never from
# build-kernel/, which may hold a prefix of the series while check-series.sh
# runs) and must be what is committed.  Then a few names are checked against
# what every x86_64 kernel has always said, and the labels against the 2006
# reader's rule: dense, 0 to n-1.
. "$(dirname "$0")/lib.sh"

hdr="$TOP/libltttrace/src/kernel-names-x86_64.h"
gen="$TOP/libltttrace/tools/gen-kernel-names.sh"
xml="$TOP/facilities/kernel_arch_x86_64.xml"
genarch="$TOP/libltttrace/tools/gen-kernel-arch.sh"
tarball=/usr/src/linux-source-6.1.tar.xz
files="arch/x86/include/asm/trapnr.h"
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
	(cd "$TOP" && sh "$genarch" "$tarball" kernel/patches) >"$TMP/arch.xml" 2>"$TMP/genarch.err"
	_report $? "gen-kernel-arch.sh reads syscall_64.tbl and the series"
	sed 's/^/#   /' "$TMP/genarch.err"
	if cmp -s "$TMP/arch.xml" "$xml"; then
		_report 0 "kernel_arch_x86_64.xml is what syscall_64.tbl says"
	else
		_report 1 "kernel_arch_x86_64.xml is stale: regenerate with libltttrace/tools/gen-kernel-arch.sh > facilities/kernel_arch_x86_64.xml"
		diff "$xml" "$TMP/arch.xml" | head -n 10 | sed 's/^/#   /'
	fi
	# the comparison can fail: a series without 0009's two system calls
	mkdir -p "$TMP/p"
	cp "$TOP"/kernel/patches/*.patch "$TMP/p/"
	grep -v 0009 "$TOP/kernel/patches/series" >"$TMP/p/series"
	(cd "$TOP" && sh "$genarch" "$tarball" "$TMP/p") >"$TMP/arch0.xml" 2>/dev/null
	check_fails "   ... a table without the series' system calls differs" cmp -s "$TMP/arch0.xml" "$xml"
fi
check "trap 14 is page_fault" grep -q '^	\[14\] = "page_fault",$' "$hdr"
for pair in '0 read' '1 write' '59 execve' '231 exit_group' '257 openat' \
	'451 ltt_register_generic' '452 ltt_trace_generic'; do
	n=${pair%% *} name=${pair#* }
	check "system call $n is $name" grep -q "^      <label name=\"$name\" value=\"$n\"/>\$" "$xml"
done
# the 2006 reader takes the enum's labels as the values 0 to n-1
check "syscall_name's labels are the values 0 to n-1, in order" \
	awk -F'"' '/<label / { if ($4 != n++) exit 1 } END { exit n < 400 }' "$xml"
check "the facility is kernel_arch, for x86_64" \
	grep -qx '<facility name="kernel_arch" arch="x86_64">' "$xml"
done_testing
