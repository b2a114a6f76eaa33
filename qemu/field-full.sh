#!/bin/sh
# qemu/field-full.sh OUT_DIR - the whole field run of issue 28 (`make
# field`, outside make check): one boot of qemu/field-boot.sh with our
# session, LTTng 2.13's and ftrace around the same workload
# (FIELD_LTTNG=1, FIELD_FTRACE=1), then on the host the kernel's books
# against our analyses (qemu/rootfs/books-compare.py) and our events
# against LTTng's and ftrace's one by one (qemu/rootfs/match-events.py).
# Writes OUT_DIR/books.txt and OUT_DIR/match.txt; exit 1 when either
# finds a mismatch, 2 when the run could not be made. FIELD_REUSE=1
# compares an earlier boot's OUT_DIR again without booting.
set -u
OUT=${1:?usage: qemu/field-full.sh OUT_DIR}
BUILD=${BUILD:-build}
BIN=$BUILD/bin
if [ "${FIELD_REUSE:-0}" != 1 ]; then
	start=$(date +%s)
	BUILD=$BUILD FIELD_LTTNG=1 FIELD_FTRACE=1 FIELD_SCALE=${FIELD_SCALE:-1} \
		qemu/field-boot.sh "$OUT" || { echo "qemu/field-full.sh: the field boot failed" >&2; exit 2; }
	echo "the field boot took $(( $(date +%s) - start )) s"
fi
cat "$OUT/results"
grep -v ' 0$' "$OUT/results" && { echo "qemu/field-full.sh: a step in the guest failed" >&2; exit 2; }
# python3-bt2 is for Debian's python3, which may not be the first in PATH
PY=python3
python3 -c 'import bt2' 2>/dev/null || PY=/usr/bin/python3
rc=0
python3 qemu/rootfs/books-compare.py "$OUT" "$BIN/lttv-text" >"$OUT/books.txt" || rc=$?
$PY qemu/rootfs/match-events.py "$OUT" "$BIN/lttv-text" --other lttng --other ftrace \
	>"$OUT/match.txt" || [ $rc != 0 ] || rc=$?
grep -c '^ok ' "$OUT/books.txt" | sed 's/^/books: ok /'
grep '^MISMATCH ' "$OUT/books.txt"
cat "$OUT/match.txt"
exit $rc
