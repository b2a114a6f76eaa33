#!/bin/sh
# Hostile files in a trace directory: eventdefs/ entries that are a FIFO,
# a device or a huge file are refused, named, without reading them;
# tracefiles that are not regular files, and a control/ that cannot be
# listed, are reported and the exit status says that something was not
# read. Nothing hangs. Issue 16, "unbounded reads of eventdefs/" and
# "silence".
. "$(dirname "$0")/lib.sh"
GEN="$BIN/ltt-tracegen"
TEXT="$BIN/lttv-text"
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR

if [ ! -x "$GEN" ] || [ ! -x "$TEXT" ]; then
	skip "hostile trace files" "needs $GEN and $TEXT (make all)"
	done_testing
	exit $?
fi

# fresh NAME: a new copy of a small valid trace in $TMP/NAME
"$GEN" --scenario sample -o "$TMP/base" 2>/dev/null
fresh() {
	rm -rf "${TMP:?}/$1"
	cp -r "$TMP/base" "$TMP/$1"
}

# run DIR [tool args]: lttv-text on DIR under a timeout; $rc, $TMP/out, $TMP/err
run() {
	dir=$1; shift
	timeout 20 "$TEXT" -t "$dir" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# refused WHAT PATTERN: the last run failed (1, not a timeout or signal)
# and said PATTERN on stderr
refused() {
	if [ "$rc" -eq 1 ] && grep -Eq -- "$2" "$TMP/err"; then
		_report 0 "$1"
	else
		_report 1 "$1 (exit $rc)"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	fi
}

# reported WHAT PATTERN: the last run read the rest (events printed),
# said PATTERN once on stderr and exited 3
reported() {
	n=$(grep -Ec -- "$2" "$TMP/err")
	if [ "$rc" -eq 3 ] && [ "$n" -eq 1 ] && [ -s "$TMP/out" ]; then
		_report 0 "$1"
	else
		_report 1 "$1 (exit $rc, said $n times)"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	fi
}

run "$TMP/base"
check "the base trace reads with exit 0" test "$rc" -eq 0

# ---- eventdefs/ ----
fresh fifo
rm "$TMP/fifo/eventdefs/process.xml"
mkfifo "$TMP/fifo/eventdefs/process.xml"
run "$TMP/fifo"
refused "an eventdefs/ FIFO is refused, named, without a hang" \
	"eventdefs/process.xml: not a regular file"

fresh zero
rm "$TMP/zero/eventdefs/process.xml"
ln -s /dev/zero "$TMP/zero/eventdefs/process.xml"
run "$TMP/zero"
refused "an eventdefs/ link to /dev/zero is refused, named" \
	"eventdefs/process.xml: not a regular file"

fresh sparse
truncate -s 1G "$TMP/sparse/eventdefs/process.xml"
run "$TMP/sparse"
refused "a 1 GiB eventdefs/ file is refused unread, named" \
	"eventdefs/process.xml: larger than [0-9]+ bytes"

fresh xmldir
mkdir "$TMP/xmldir/eventdefs/extra.xml"
run "$TMP/xmldir"
refused "a directory named eventdefs/*.xml is refused, named" \
	"eventdefs/extra.xml: not a regular file"

# ltt-checksum and genevent read descriptions the same way
mkfifo "$TMP/pipe.xml"
for tool in ltt-checksum genevent; do
	args=
	[ $tool = genevent ] && args="-o $TMP/g"
	# shellcheck disable=SC2086
	timeout 10 "$BIN/$tool" $args "$TMP/pipe.xml" >/dev/null 2>"$TMP/tool-err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "pipe.xml: not a regular file" "$TMP/tool-err"; then
		_report 0 "$tool refuses a FIFO and names it"
	else
		_report 1 "$tool refuses a FIFO and names it (exit $rc)"
		sed 's/^/#   /' "$TMP/tool-err" | head -n 3
	fi
done

# ---- tracefiles that are not regular files ----
fresh tffifo
rm "$TMP/tffifo/cpu_1"
mkfifo "$TMP/tffifo/cpu_1"
run "$TMP/tffifo"
reported "a cpu_1 that is a FIFO is reported, the rest read" "cpu_1: .*not a regular file"

fresh tfdir
rm "$TMP/tfdir/cpu_1"
mkdir "$TMP/tfdir/cpu_1"
run "$TMP/tfdir"
reported "a cpu_1 that is a directory is reported, the rest read" "cpu_1: .*not a regular file"

fresh tfloop
rm "$TMP/tfloop/cpu_1"
ln -s cpu_1 "$TMP/tfloop/cpu_1"
run "$TMP/tfloop"
reported "a cpu_1 that is a symlink loop is reported, the rest read" "cpu_1: .*symbolic links"

fresh tfdangling
rm "$TMP/tfdangling/cpu_1"
ln -s nowhere "$TMP/tfdangling/cpu_1"
run "$TMP/tfdangling"
reported "a cpu_1 that is a dangling link is reported, the rest read" "cpu_1: .*No such file"

# ---- control/ that cannot be listed ----
fresh ctlloop
rm -rf "$TMP/ctlloop/control"
ln -s control "$TMP/ctlloop/control"
run "$TMP/ctlloop"
reported "a control/ that is a symlink loop is reported" "control: .*symbolic links"

fresh ctlfile
rm -rf "$TMP/ctlfile/control"
echo not a folder >"$TMP/ctlfile/control"
run "$TMP/ctlfile"
reported "a control that is a file is reported" "control: .*Not a directory"

# lttv-gtk follows the same policy: the warning, once, and exit 3
GTK="$BIN/lttv-gtk"
if [ -x "$GTK" ]; then
	unset DISPLAY WAYLAND_DISPLAY
	for mode in export filter; do
		if [ $mode = export ]; then
			timeout 60 "$GTK" -t "$TMP/ctlfile" --export "$TMP/c.png" --layout >"$TMP/out" 2>"$TMP/err"
		else
			timeout 60 "$GTK" -t "$TMP/ctlfile" --filter 'cpu = 0' >"$TMP/out" 2>"$TMP/err"
		fi
		rc=$?
		reported "lttv-gtk --$mode reports the control file too" "control: .*Not a directory"
	done
	timeout 60 "$GTK" -t "$TMP/tffifo" --export "$TMP/c.png" --layout >"$TMP/out" 2>"$TMP/err"
	rc=$?
	reported "lttv-gtk --export reports a FIFO cpu_1" "cpu_1: .*not a regular file"
else
	skip "lttv-gtk reports the same problems" "no $GTK (make all)"
fi

if [ "$(id -u)" != 0 ]; then
	fresh ctlperm
	chmod 000 "$TMP/ctlperm/control"
	run "$TMP/ctlperm"
	chmod 755 "$TMP/ctlperm/control"
	reported "an unreadable control/ is reported" "control: .*Permission denied"
else
	skip "an unreadable control/ is reported" "running as root: permissions do not stop root"
fi
done_testing
