#!/bin/sh
# lttd on the host: everything it must refuse, and how it says so.  The
# copy loop itself is tests/unit/test_lttd_copy.c; the real relayfs path runs
# in QEMU.
. "$(dirname "$0")/lib.sh"
LTTD="$BIN/lttd"

if [ ! -x "$LTTD" ]; then
	skip "lttd tests" "$LTTD is not built"
	done_testing
	exit
fi

check "--help exits 0" "$LTTD" --help
cp "$TMP/out" "$TMP/help"
check "--help documents -N and -D" grep -q -- '-D, --daemon' "$TMP/help"
fails_with "no argument: usage error" 2 'missing -t' "$LTTD"
fails_with "no -d: usage error" 2 'missing -d' "$LTTD" -t "$TMP"
fails_with "unknown option" 2 'bogus' "$LTTD" --bogus -t "$TMP" -d "$TMP/o"
fails_with "stray argument" 2 "unexpected argument 'extra'" \
	"$LTTD" -t "$TMP" -d "$TMP/o" extra
fails_with "-N 0 refused" 2 'threads from 1 to 256' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -N 0
fails_with "-N 257 refused" 2 'threads from 1 to 256' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -N 257
fails_with "-N not a number" 2 "-N 'x': want a number" "$LTTD" -t "$TMP" -d "$TMP/o" -N x
fails_with "-f and -n together" 2 'exclude each other' \
	"$LTTD" -t "$TMP" -d "$TMP/o" -f -n
# the 2006 command line, as the 2006 lttctl -d runs it: -t OUT -c CHANNELS -d
check "--help documents the 2006 form" grep -q -- '-t OUT_DIR -c TRACE_DIR \[-d\]' "$TMP/help"
fails_with "2006 form: no -t: usage error" 2 'missing -t OUT_DIR' "$LTTD" -c "$TMP"
fails_with "2006 form: -d takes no argument" 2 "unexpected argument '$TMP/o'" \
	"$LTTD" -c "$TMP" -t "$TMP/x" -d "$TMP/o"
fails_with "2006 form: the channels are read from -c" 1 'nope: No such file' \
	"$LTTD" -t "$TMP/o" -c "$TMP/nope" -d -N 1

fails_with "missing trace dir" 1 'nope: No such file or directory' \
	"$LTTD" -t "$TMP/nope" -d "$TMP/o"
: >"$TMP/plain"
fails_with "trace dir is a file" 1 'not a directory' \
	"$LTTD" -t "$TMP/plain" -d "$TMP/o"
mkdir "$TMP/empty"
fails_with "empty trace dir" 1 'no channel found' \
	"$LTTD" -t "$TMP/empty" -d "$TMP/o"

# a tree that looks right but holds plain files
mkdir -p "$TMP/tr/control"
: >"$TMP/tr/cpu_0"
: >"$TMP/tr/control/facilities_0"
fails_with "regular file: not a relayfs channel" 1 \
	'tr/control/facilities_0: not a relayfs channel' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1"
check "one line of error" test "$(wc -l <"$TMP/err")" -eq 1
check "nothing written when a channel is refused" test ! -e "$TMP/o1"
fails_with "-n: still checks the normal channels" 1 'not a relayfs channel' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1" -n
fails_with "-f: no flight channel" 1 'no flight channel found' \
	"$LTTD" -t "$TMP/tr" -d "$TMP/o1" -f

# a FIFO must be refused, not waited on
mkdir "$TMP/fifo"
if mkfifo "$TMP/fifo/cpu_0" 2>/dev/null; then
	fails_with "FIFO: not a relayfs channel, no hang" 1 \
		'not a relayfs channel' timeout 10 "$LTTD" -t "$TMP/fifo" -d "$TMP/o2"
else
	skip "FIFO channel" "mkfifo failed"
fi
mkdir -p "$TMP/fl"
: >"$TMP/fl/flight-cpu_0"
fails_with "-f: a flight file is checked too" 1 \
	'flight-cpu_0: not a relayfs channel' "$LTTD" -t "$TMP/fl" -d "$TMP/o3" -f

# ---- the whole lttd over fake channels (build/tests/lttd-fakerelay) ------
# Channels are files of whole 4096-byte sub-buffers, fed one per poll into
# a ring of 4 (lttd/fake-relay.c).
FAKE="$TOP/$BUILD/tests/lttd-fakerelay"
if [ ! -x "$FAKE" ]; then
	skip "lttd over fake channels" "$FAKE is not built"
else
	T="$TMP/ft"
	mkdir -p "$T/control"
	head -c 40960 /dev/urandom >"$T/cpu_0"		# 10 sub-buffers
	head -c 8192 /dev/urandom >"$T/cpu_1"		# 2
	: >"$T/control/facilities_0"			# none
	head -c 16384 /dev/urandom >"$T/flight-cpu_0"	# 4
	same_tree() { # out: every channel copied byte for byte
		for f in cpu_0 cpu_1 control/facilities_0 flight-cpu_0; do
			cmp -s "$T/$f" "$1/$f" || return 1
		done
	}
	check "fake: a copy with 2 threads" timeout 30 "$FAKE" -t "$T" -d "$TMP/c1" -N 2
	cp "$TMP/err" "$TMP/rep"
	check "fake: the report counts cpu_0's 10 sub-buffers" \
		grep -q '^lttd: cpu_0: sub-buffers written 10, lost to the writer (EIO) 0;' "$TMP/rep"
	check "fake: the total" grep -q 'total: 4 channels, sub-buffers written 16' "$TMP/rep"
	check "fake: the tree is mirrored byte for byte" same_tree "$TMP/c1"
	fails_with "fake: a second run refuses to overwrite" 1 'already exists \(use -a' \
		timeout 30 "$FAKE" -t "$T" -d "$TMP/c1"
	check "fake: -a appends" timeout 30 "$FAKE" -t "$T" -d "$TMP/c1" -a
	cat "$T/cpu_0" "$T/cpu_0" >"$TMP/twice"
	check "fake: -a: old data then new" cmp "$TMP/twice" "$TMP/c1/cpu_0"

	check "fake: PUT_SUBBUF EIO is not an error" \
		env LTTD_FAKE_EIO=2 timeout 30 "$FAKE" -t "$T" -d "$TMP/c2"
	cp "$TMP/err" "$TMP/rep"
	check "fake: EIO: counted per channel" \
		grep -q '^lttd: cpu_0: sub-buffers written 9, lost to the writer (EIO) 1;' "$TMP/rep"
	{ head -c 4096 "$T/cpu_0"; tail -c +8193 "$T/cpu_0"; } >"$TMP/no2"
	check "fake: EIO: the pushed sub-buffer is not in the file" \
		cmp "$TMP/no2" "$TMP/c2/cpu_0"

	check "fake: -f" timeout 30 "$FAKE" -t "$T" -d "$TMP/c3" -f
	check "fake: -f copies only the flight channels" \
		sh -c "cmp -s '$T/flight-cpu_0' '$TMP/c3/flight-cpu_0' && [ ! -e '$TMP/c3/cpu_0' ]"
	check "fake: -n" timeout 30 "$FAKE" -t "$T" -d "$TMP/c4" -n
	check "fake: -n copies only the normal channels" \
		sh -c "cmp -s '$T/cpu_0' '$TMP/c4/cpu_0' && [ ! -e '$TMP/c4/flight-cpu_0' ]"

	# SIGTERM: channels that never end; lttd waits, then drains and exits 0
	LTTD_FAKE_HOLD=1 "$FAKE" -t "$T" -d "$TMP/c5" -N 2 2>"$TMP/err5" &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! cmp -s "$T/cpu_0" "$TMP/c5/cpu_0" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.3
	check "fake: a running trace keeps lttd waiting" kill -0 $pid
	kill -TERM $pid 2>/dev/null
	i=0
	while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		_report 1 "fake: SIGTERM ends lttd (still running after 10 s)"
	else
		_report 0 "fake: SIGTERM ends lttd"
	fi
	wait $pid
	rc=$?
	check "fake: SIGTERM: exit status 0 (was $rc)" test $rc -eq 0
	check "fake: SIGTERM: everything copied, flight dumped" same_tree "$TMP/c5"
	check "fake: SIGTERM: the report is printed" grep -q 'total: 4 channels' "$TMP/err5"

	# -D: back at once, the daemon finishes the copy
	check "fake: -D returns" timeout 10 "$FAKE" -t "$T" -d "$TMP/c6" -D
	i=0
	while [ $i -lt 100 ] && ! same_tree "$TMP/c6"; do
		sleep 0.1; i=$((i + 1))
	done
	check "fake: -D: the daemon copies everything" same_tree "$TMP/c6"

	# the 2006 command line: -t OUT -c CHANNELS, -d detaches
	check "fake: 2006 form: -t OUT -c CHANNELS -N 2" \
		timeout 30 "$FAKE" -t "$TMP/e1" -c "$T" -N 2
	check "fake: 2006 form: the tree is mirrored byte for byte" same_tree "$TMP/e1"
	fails_with "fake: 2006 form: a second run refuses to overwrite" 1 \
		'already exists \(use -a' timeout 30 "$FAKE" -t "$TMP/e1" -c "$T" -N 1
	# what the 2006 lttctl -d -a runs, but in the foreground
	check "fake: 2006 form: -a appends" \
		timeout 30 "$FAKE" -t "$TMP/e1" -c "$T" -a -N 1
	check "fake: 2006 form: -a: old data then new" cmp "$TMP/twice" "$TMP/e1/cpu_0"
	check "fake: 2006 form: -d returns" timeout 10 "$FAKE" -t "$TMP/e2" -c "$T" -d -N 1
	i=0
	while [ $i -lt 100 ] && ! same_tree "$TMP/e2"; do
		sleep 0.1; i=$((i + 1))
	done
	check "fake: 2006 form: -d: the daemon copies everything" same_tree "$TMP/e2"

	# an output error: a file size limit of 2 sub-buffers (16 x 512 bytes)
	fails_with "fake: write error: exit 1 and the reason" 1 \
		'cpu_0: cannot write the tracefile: File too large' \
		sh -c "ulimit -f 16 && exec timeout 30 '$FAKE' -t '$T' -d '$TMP/c7'"
	cp "$TMP/err" "$TMP/rep"
	check "fake: write error: only whole sub-buffers in the file" \
		test "$(wc -c <"$TMP/c7/cpu_0")" -eq 8192
	check "fake: write error: the channel is marked FAILED" grep -q 'cpu_0: .*FAILED' "$TMP/rep"

	# the kernel's loss counters, from a trace of the independent writer
	GEN="$BIN/ltt-tracegen"
	if [ -x "$GEN" ] && "$GEN" -s types -o "$TMP/gen" -b 4096 >/dev/null 2>&1; then
		rm -rf "$TMP/gen/eventdefs"	# not a channel
		check "fake: copy of a generated trace" \
			env LTTD_FAKE_SUBBUF_SIZE=4096 timeout 30 "$FAKE" -t "$TMP/gen" -d "$TMP/c8" -N 3
		cp "$TMP/err" "$TMP/rep"
		check "fake: buffer_stats: 5 events lost, 1 corrupted on cpu_0" \
			grep -q '^lttd: cpu_0: .*kernel: 5 events lost, 1 corrupted sub-buffers$' "$TMP/rep"
		check "fake: buffer_stats: none on cpu_1" \
			grep -q '^lttd: cpu_1: .*kernel: no loss' "$TMP/rep"
		check "fake: the generated trace is copied unchanged" diff -r "$TMP/gen" "$TMP/c8"
		# -a checks the block header of an existing file (cpu_0 of the
		# generated trace has 4096-byte sub-buffers)
		mkdir "$TMP/gen0"
		cp "$TMP/gen/cpu_0" "$TMP/gen0/"
		check "fake: -a onto a tracefile of the same geometry" \
			env LTTD_FAKE_SUBBUF_SIZE=4096 timeout 30 "$FAKE" -t "$TMP/gen0" -d "$TMP/c8" -a
		fails_with "fake: -a onto a tracefile of another geometry is refused" 1 \
			'cpu_0: holds 4096-byte sub-buffers, this channel has 2048' \
			env LTTD_FAKE_SUBBUF_SIZE=2048 timeout 30 "$FAKE" -t "$TMP/gen0" -d "$TMP/c8" -a
	else
		skip "fake: buffer_stats from a generated trace" "ltt-tracegen is not built"
	fi
fi

# the QEMU guest (busybox, no libc) needs static binaries
if [ "${SANITIZE:-}" = 1 ] || [ "${BUILD%-san}" != "$BUILD" ]; then
	skip "lttd is static" "SANITIZE=1 links dynamically"
elif command -v readelf >/dev/null; then
	check "lttd is static (no program interpreter)" \
		sh -c "! readelf -l '$LTTD' | grep -q 'INTERP'"
else
	skip "lttd is static" "no readelf"
fi

done_testing
