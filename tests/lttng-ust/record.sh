#!/bin/sh
# Re-records traces/lttng-ust-sample: ltt-ust-sample's tracepoints
# (ltt-ust-sample.c, ltt_sample_tp.h) under LTTng 2.13, in two channels
# (integers and floats in "numbers", the rest in "texts") with small
# sub-buffers so that each stream holds several packets, and the vpid,
# vtid and procname contexts.  Needs lttng-tools and liblttng-ust-dev (not
# installed by scripts/install-deps.sh: the tests read the bundled trace)
# and root (lttng-sessiond); no kernel module is involved.  The session
# daemon runs with a private LTTNG_HOME and is stopped at the end.
#
#     sh tests/lttng-ust/record.sh [OUTPUT_DIR [ROUNDS [SUBBUF_SIZE]]]
#
# (default traces/lttng-ust-sample, 1 round of 720 events, 4 KiB
# sub-buffers; bench/decode.py records 1400 rounds in 1 MiB sub-buffers
# in blocking mode, which loses nothing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/traces/lttng-ust-sample}
rounds=${2:-1}
subbuf=${3:-4096}
blocking=
[ "$subbuf" -gt 4096 ] && blocking=--blocking-timeout=inf
work=$(mktemp -d)
trap 'kill "$(cat "$work/home/sessiond.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
export LTTNG_HOME="$work/home"
mkdir -p "$LTTNG_HOME"
cc -O1 -Wall -I"$here" -o "$work/ltt-ust-sample" "$here/ltt-ust-sample.c" -llttng-ust -ldl -lpthread
lttng-sessiond --daemonize --no-kernel --pidfile "$work/home/sessiond.pid"
lttng create ltt-sample --output="$work/trace" >/dev/null
lttng enable-channel -u --subbuf-size="$subbuf" --num-subbuf=8 $blocking numbers >/dev/null
lttng enable-channel -u --subbuf-size="$subbuf" --num-subbuf=8 $blocking texts >/dev/null
lttng enable-event -u -c numbers 'ltt_sample:integers,ltt_sample:floats' >/dev/null
lttng enable-event -u -c texts 'ltt_sample:texts,ltt_sample:arrays,ltt_sample:enums,ltt_sample:empty' >/dev/null
for c in numbers texts; do
	lttng add-context -u -c $c -t vpid -t vtid -t procname >/dev/null
done
lttng start >/dev/null
LTTNG_UST_ALLOW_BLOCKING=1 "$work/ltt-ust-sample" "$rounds"
lttng stop >/dev/null
lttng destroy >/dev/null
rm -rf "$out"
mkdir -p "$out"
# only the streams and metadata: the index/ folders are babeltrace's
# seek aid, which our reader does not need
(cd "$work/trace" && find . -type f ! -path '*/index/*' | while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	cp "$f" "$out/$f"
done)
echo "recorded $(find "$out" -type f | wc -l) files into $out"
