#!/bin/sh
# The guest side of tests/q40-qemu-markers.sh: the markers' self-test
# (kernel/marker-test.c, patch 0008) ran at boot and left its lines in the
# kernel log, which /init copies out as dmesg.txt; this adds the kernel's
# symbol table (where a marker must not add a symbol, and where the host
# finds the functions the markers' sites lie in) and /proc/markers.
R=/mnt/host
cat /proc/kallsyms >$R/kallsyms.txt
echo "kallsyms $?" >$R/results
# the KPROBE and JPROBE sites (absent in the PRINT and FPROBE kernels)
[ -e /proc/markers ] && cat /proc/markers >$R/markers.txt
