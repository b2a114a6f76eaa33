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
tbl_dir=arch/x86/entry/syscalls
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
	# the comparison can fail: a series whose last patch adds a number to
	# the table (as 0009 once did with 451 and 452, upstream's since)
	mkdir -p "$TMP/p" "$TMP/tbl/a/$tbl_dir" "$TMP/tbl/b/$tbl_dir"
	cp "$TOP"/kernel/patches/*.patch "$TOP/kernel/patches/series" "$TMP/p/"
	tar -xJf "$tarball" -O "linux-source-6.1/$tbl_dir/syscall_64.tbl" >"$TMP/tbl/a/$tbl_dir/syscall_64.tbl"
	sed 's/^450\t.*/&\n451\tcommon\tcachestat\t\t\tsys_cachestat/' \
		"$TMP/tbl/a/$tbl_dir/syscall_64.tbl" >"$TMP/tbl/b/$tbl_dir/syscall_64.tbl"
	{ echo "diff --git a/$tbl_dir/syscall_64.tbl b/$tbl_dir/syscall_64.tbl"
	  (cd "$TMP/tbl" && diff -u "a/$tbl_dir/syscall_64.tbl" "b/$tbl_dir/syscall_64.tbl"); } >"$TMP/p/9999-table.patch"
	echo 9999-table.patch >>"$TMP/p/series"
	(cd "$TOP" && sh "$genarch" "$tarball" "$TMP/p") >"$TMP/arch0.xml" 2>/dev/null
	check "   ... a patch adding a number to the table is read (451 cachestat)" \
		grep -q '<label name="cachestat" value="451"/>' "$TMP/arch0.xml"
	check_fails "   ... and the committed file then differs" cmp -s "$TMP/arch0.xml" "$xml"
fi
check "trap 14 is page_fault" grep -q '^	\[14\] = "page_fault",$' "$hdr"
for pair in '0 read' '1 write' '59 execve' '231 exit_group' '257 openat' \
	'450 set_mempolicy_home_node'; do
	n=${pair%% *} name=${pair#* }
	check "system call $n is $name" grep -q "^      <label name=\"$name\" value=\"$n\"/>\$" "$xml"
done
# no number past 6.1's last: upstream's (cachestat 451, ...) are not ours
check "no system call number past 450 (the series adds none to the table)" \
	sh -c "! grep -q 'value=\"45[1-9]\"' '$xml'"
# the 2006 reader takes the enum's labels as the values 0 to n-1
check "syscall_name's labels are the values 0 to n-1, in order" \
	awk -F'"' '/<label / { if ($4 != n++) exit 1 } END { exit n < 400 }' "$xml"
check "the facility is kernel_arch, for x86_64" \
	grep -qx '<facility name="kernel_arch" arch="x86_64">' "$xml"
done_testing
