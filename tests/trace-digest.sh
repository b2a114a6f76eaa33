#!/bin/sh
# tests/trace-digest.sh TRACE LTTV_TEXT - a compact expected output for a
# trace too big to keep its whole dump (traces/NAME.digest, compared by
# tests/t11-regression.sh as NAME.expected is): the line count and SHA-256
# of `lttv-text --field-names` (every event, time and field: any change
# to the decoding changes it, but says nothing of where), then tables
# that do say where: events per CPU and per type, CPU time per process,
# interrupts and softirqs, file I/O. Written by
# qemu/record-field-trace.sh with the trace; to accept a deliberate change
# of the output, run this again into traces/NAME.digest and commit it with
# the change that explains it.
set -eu
[ $# = 2 ] || { echo "usage: tests/trace-digest.sh TRACE LTTV_TEXT" >&2; exit 2; }
T=$1 X=$2
[ -d "$T" ] || { echo "tests/trace-digest.sh: $T: no trace there" >&2; exit 1; }
# a pipe hides the status of its first command: the dump goes to a file
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$X" -t "$T" --field-names >"$tmp"
echo "dump (lttv-text --field-names): $(wc -l <"$tmp") lines, sha256 $(sha256sum <"$tmp" | cut -d' ' -f1)"
rm -f "$tmp"
echo "== lttv-text -q -c -S"
"$X" -t "$T" -q -c -S
echo "== lttv-text -q --process-stats"
"$X" -t "$T" -q --process-stats
echo "== lttv-text -q --irqs --file-io --worst 0"
"$X" -t "$T" -q --irqs --file-io --worst 0
