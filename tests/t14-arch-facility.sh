#!/bin/sh
# A facility of an architecture (a name ending in _arch: kernel_arch, the
# system calls) is described by the file NAME_ARCH.xml, ARCH named from the
# trace header's arch_type, as the 2006 reader looks it up
# (docs/format.md): the reader takes kernel_arch's description from
# eventdefs/kernel_arch_x86_64.xml in an x86_64 trace, from
# kernel_arch_i386.xml in an i386 one, and from no other file.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
# only the trace's eventdefs/ count (not the installed or in-tree folder)
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR

# set_arch DIR N: every sub-buffer's trace header says arch_type N
set_arch() {
	python3 - "$1" "$2" <<'EOF'
import os, struct, sys
d, arch = sys.argv[1], int(sys.argv[2])
for root, _, files in os.walk(d):
    if os.path.basename(root) == 'eventdefs':
        continue
    for f in files:
        p = os.path.join(root, f)
        b = bytearray(open(p, 'rb').read())
        if len(b) < 106:
            continue
        size = struct.unpack_from('<I', b, 36)[0]
        for off in range(0, len(b), size):
            struct.pack_into('<I', b, off + 44, arch)
        open(p, 'wb').write(b)
EOF
}

# text DIR: lttv-text's syscall events and its warnings
text() {
	"$TEXT" -t "$1" -e 'kernel_arch.*' >"$TMP/t.out" 2>"$TMP/t.err"
}

cp -R "$TOP/traces/sample-synthetic" "$TMP/x86_64"
text "$TMP/x86_64"
check "x86_64: kernel_arch from eventdefs/kernel_arch_x86_64.xml" \
	grep -q '^kernel_arch.syscall_entry: .*{ 59 \[execve\], 0x' "$TMP/t.out"
check "   ... without a warning" test ! -s "$TMP/t.err"

cp -R "$TOP/traces/sample-synthetic" "$TMP/renamed"
mv "$TMP/renamed/eventdefs/kernel_arch_x86_64.xml" "$TMP/renamed/eventdefs/kernel_arch.xml"
text "$TMP/renamed"
check "another file name is not kernel_arch's description: its events are raw" \
	sh -c '! grep -q "execve" "$1"' sh "$TMP/t.out"
check "   ... and the warning names the file looked for" \
	grep -q 'facility kernel_arch .*the file kernel_arch_x86_64.xml, for the trace.s architecture' "$TMP/t.err"

cp -R "$TOP/traces/sample-synthetic" "$TMP/i386"
set_arch "$TMP/i386" 1
text "$TMP/i386"
check "i386: kernel_arch_x86_64.xml does not describe kernel_arch" \
	grep -q 'the file kernel_arch_i386.xml' "$TMP/t.err"
mv "$TMP/i386/eventdefs/kernel_arch_x86_64.xml" "$TMP/i386/eventdefs/kernel_arch_i386.xml"
text "$TMP/i386"
check "i386: kernel_arch_i386.xml does" \
	grep -q '^kernel_arch.syscall_entry: .*{ 59 \[execve\], 0x' "$TMP/t.out"

cp -R "$TOP/traces/sample-synthetic" "$TMP/noname"
set_arch "$TMP/noname" 99
text "$TMP/noname"
check "an architecture without a name: no file describes kernel_arch, said" \
	grep -q "architecture, 99, has no name" "$TMP/t.err"
check "   ... and the other facilities are read" \
	sh -c '"$1" -t "$2" -e process.fork 2>/dev/null | grep -q "^process.fork: "' sh "$TEXT" "$TMP/noname"
done_testing
