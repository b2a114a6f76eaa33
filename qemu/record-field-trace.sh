#!/bin/sh
# qemu/record-field-trace.sh - record again traces/field-workload (`make
# record-field-trace`): one boot of the field guest (qemu/field-boot.sh:
# Debian's own kernel with our modules, lttd with its default settings,
# the Debian 12 root of qemu/rootfs/build-rootfs.sh) running the workload
# of qemu/rootfs/workload.sh at FIELD_SCALE 0 (its short run), ours
# the only tracer; then, when every step in the guest passed, no event
# was lost and the kernel's books agree with the trace
# (qemu/rootfs/books-compare.py), writes
#
#   traces/field-workload             the trace (lttd's folder)
#   traces/field-workload.books.json  the kernel's books of that run
#                                     (qemu/rootfs/books.py), for tests/t80
#   traces/field-workload.digest      its compact expected output, for
#                                     tests/t11 (tests/trace-digest.sh)
#
# A new recording is a new trace (times, pids, counts): commit the three
# together with traces/README's and docs/field.md's figures, and run the
# whole suite (the tests that read every trace in traces/ read it).
# Environment: BUILD, FIELD_SCALE (0), FIELD_JOBS (2), QEMU_TIMEOUT.
# Exit 1 when the run is not fit to keep (the boot's folder is kept and
# named), 2 when it could not be made. Run from the top directory.
set -u
BUILD=${BUILD:-build}
NAME=field-workload
X=$BUILD/bin/lttv-text
out=$BUILD/record-field.$$
fail() { echo "record-field-trace: $* (kept $out)" >&2; exit 1; }
[ -x "$X" ] || { echo "record-field-trace: no $X (make)" >&2; exit 2; }
start=$(date +%s)
BUILD=$BUILD FIELD_LTTNG=0 FIELD_FTRACE=0 FIELD_SCALE=${FIELD_SCALE:-0} \
	FIELD_JOBS=${FIELD_JOBS:-2} qemu/field-boot.sh "$out" || {
	echo "record-field-trace: the field boot failed (kept $out)" >&2
	exit 2
}
echo "record-field-trace: the boot took $(( $(date +%s) - start )) s"
grep -v ' 0$' "$out/results" && fail "a step in the guest failed"
"$X" -t "$out/field" -q -c >"$out/cpus" || fail "lttv-text cannot read the trace"
grep -q '[1-9][0-9]* lost' "$out/cpus" && fail "the trace lost events"
python3 qemu/rootfs/books-compare.py "$out" "$X" >"$out/books.txt" ||
	fail "the kernel's books and the trace disagree ($out/books.txt)"
rm -rf "traces/$NAME"
cp -R "$out/field" "traces/$NAME"
# indented: a new recording diffs line by line
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), sys.stdout, indent=1, sort_keys=True); print()' \
	"$out/books.json" >"traces/$NAME.books.json"
tests/trace-digest.sh "traces/$NAME" "$X" >"traces/$NAME.digest" || fail "tests/trace-digest.sh failed"
sed 's/^/record-field-trace: /' "$out/cpus" "$out/workload.log"
grep -c '^ok ' "$out/books.txt" | sed 's/^/record-field-trace: books: ok /'
echo "record-field-trace: $(du -sk "traces/$NAME" | cut -f1) KiB;" \
	"$(sed -n 's/^ *\([0-9]*\)  process.fork$/\1/p' "traces/$NAME.digest") forks"
rm -rf "$out" "$out.console" "$out.work" "$out.modules" "$out.field"
echo "record-field-trace: traces/$NAME, $NAME.books.json and $NAME.digest written"
