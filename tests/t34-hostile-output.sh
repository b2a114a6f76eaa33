#!/bin/sh
# No tool writes over its input (issue 16): an output that is a file of a
# trace, under any name (a symbolic or hard link), or anywhere inside a
# trace directory, is refused (exit 2) before anything is written; the
# trace is left as it was. lttv-convert --ctf into the trace used to die
# of SIGBUS, lttv-text -o TRACE/cpu_0 to truncate its input with exit 0.
# Issue 31: a dangling symbolic link into the trace (the output would
# create TRACE/cpu_9 or an eventdefs file, and the trace no longer opens),
# a chain of links, and a bind mount of the trace (seen by device and
# inode: its paths differ) are refused too. On a full disk, -o and
# --export fail (exit 1) and leave an existing file as it was, with no
# partial file beside it (they write a new file and rename it).
. "$(dirname "$0")/lib.sh"
GEN="$BIN/ltt-tracegen"
TEXT="$BIN/lttv-text"
CONVERT="$BIN/lttv-convert"
GTK="$BIN/lttv-gtk"
mkdir -p "$TMP/nofacilities"
LTT_FACILITIES_DIR="$TMP/nofacilities"
export LTT_FACILITIES_DIR
unset DISPLAY WAYLAND_DISPLAY

if [ ! -x "$GEN" ] || [ ! -x "$TEXT" ] || [ ! -x "$CONVERT" ]; then
	skip "outputs that are inputs" "needs $GEN, $TEXT and $CONVERT (make all)"
	done_testing; exit
fi
"$GEN" --scenario sample -o "$TMP/t" 2>/dev/null
"$GEN" --scenario wraps -o "$TMP/u" 2>/dev/null
cp -r "$TMP/t" "$TMP/t.orig"

# refused WHAT CMD...: exit 2, a message that names the output, the
# trace unchanged
refused() {
	what=$1; shift
	timeout 60 "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "is an input\|inside the trace" "$TMP/err" &&
	   diff -r "$TMP/t" "$TMP/t.orig" >/dev/null; then
		_report 0 "$what: refused, the trace untouched"
	else
		_report 1 "$what: refused, the trace untouched (exit $rc)"
		sed 's/^/#   /' "$TMP/err" | head -n 3
		diff -r "$TMP/t" "$TMP/t.orig" 2>&1 | head -n 3 | sed 's/^/#   /'
		rm -rf "$TMP/t" && cp -r "$TMP/t.orig" "$TMP/t"
	fi
}

refused "lttv-text -o TRACE/cpu_0" "$TEXT" -t "$TMP/t" -o "$TMP/t/cpu_0"
refused "lttv-text -o TRACE/control/facilities_0" "$TEXT" -t "$TMP/t" -o "$TMP/t/control/facilities_0"
refused "lttv-text -o TRACE/eventdefs/process.xml" "$TEXT" -t "$TMP/t" -o "$TMP/t/eventdefs/process.xml"
refused "lttv-text -o a new file inside the trace" "$TEXT" -t "$TMP/t" -o "$TMP/t/dump.txt"
refused "lttv-text -o the second trace's cpu_1" "$TEXT" -t "$TMP/u" -t "$TMP/t" -o "$TMP/t/cpu_1"
ln -s "$TMP/t/cpu_0" "$TMP/symlink"
refused "lttv-text -o a symbolic link to cpu_0" "$TEXT" -t "$TMP/t" -o "$TMP/symlink"
ln "$TMP/t/cpu_0" "$TMP/hardlink"
refused "lttv-text -o a hard link to cpu_0" "$TEXT" -t "$TMP/t" -o "$TMP/hardlink"
rm -f "$TMP/hardlink"
ln -s "$TMP/t" "$TMP/tracelink"
refused "lttv-text -o through a link to the trace" "$TEXT" -t "$TMP/t" -o "$TMP/tracelink/cpu_1"
ln -s "$TMP/t/cpu_9" "$TMP/dangling"
refused "lttv-text -o a dangling link to TRACE/cpu_9" "$TEXT" -t "$TMP/t" -o "$TMP/dangling"
ln -s "$TMP/t/eventdefs/zz.xml" "$TMP/dangling-xml"
ln -s "$TMP/dangling-xml" "$TMP/chain"
refused "lttv-text -o a link to a dangling link into eventdefs/" "$TEXT" -t "$TMP/t" -o "$TMP/chain"
check "lttv-text -o a file beside the trace is written" "$TEXT" -t "$TMP/t" -o "$TMP/dump.txt"
check "   ... with the events" test -s "$TMP/dump.txt"
check "lttv-text -o /dev/null is fine" "$TEXT" -t "$TMP/t" -o /dev/null

refused "lttv-convert --ctf TRACE (over the trace)" "$CONVERT" --ctf "$TMP/t" -t "$TMP/t"
refused "lttv-convert --ctf TRACE/ctf (into the trace)" "$CONVERT" --ctf "$TMP/t/ctf" -t "$TMP/t"
refused "lttv-convert --ctf TRACE/control (into the trace)" "$CONVERT" --ctf "$TMP/t/control" -t "$TMP/t"
refused "lttv-convert --ctf a link to the trace" "$CONVERT" --ctf "$TMP/tracelink" -t "$TMP/t"
ln -s "$TMP/t/ctf-new" "$TMP/dangling-ctf"
refused "lttv-convert --ctf a dangling link into the trace" "$CONVERT" --ctf "$TMP/dangling-ctf" -t "$TMP/t"
check "lttv-convert --ctf beside the trace is written" "$CONVERT" --ctf "$TMP/ctf" -t "$TMP/t"
check "   ... with its metadata" test -s "$TMP/ctf/metadata"

if [ -x "$GTK" ]; then
	refused "lttv-gtk --export into the trace" "$GTK" -t "$TMP/t" --export "$TMP/t/view.png"
	ln "$TMP/t/cpu_0" "$TMP/cpu.png"
	refused "lttv-gtk --export over a hard link to cpu_0" "$GTK" -t "$TMP/t" --export "$TMP/cpu.png"
	rm -f "$TMP/cpu.png"
	ln -s "$TMP/t/cpu_9" "$TMP/dangling.png"
	refused "lttv-gtk --export a dangling link to TRACE/cpu_9" "$GTK" -t "$TMP/t" --export "$TMP/dangling.png"
	ln -s "$TMP/t/eventdefs/zz.svg" "$TMP/dangling.svg"
	refused "lttv-gtk --export a dangling link into eventdefs/" "$GTK" -t "$TMP/t" --export "$TMP/dangling.svg"
	check "lttv-gtk --export beside the trace is written" "$GTK" -t "$TMP/t" --export "$TMP/view.png"
	# the self-test's screenshots: the same rule (they went anywhere)
	if command -v xvfb-run >/dev/null; then
		for shot in "$TMP/dangling.png" "$TMP/t/shot.png"; do
			GSETTINGS_BACKEND=memory xvfb-run -a -s "-screen 0 1400x900x24" timeout 60 \
				"$GTK" -t "$TMP/t" --self-test "wait-index" --screenshot "$shot" \
				>"$TMP/out" 2>"$TMP/err"
			rc=$?
			[ $rc -ne 0 ] && grep -q "is an input" "$TMP/err" &&
				grep -q "^not ok - final screenshot saved" "$TMP/out" &&
				diff -r "$TMP/t" "$TMP/t.orig" >/dev/null
			_report $? "lttv-gtk --screenshot ${shot#$TMP/}: refused, the trace untouched (exit $rc)"
			rm -rf "$TMP/t" && cp -r "$TMP/t.orig" "$TMP/t"
		done
	else
		skip "lttv-gtk --screenshot into the trace" "xvfb-run is missing (scripts/install-deps.sh)"
	fi
else
	skip "lttv-gtk --export into the trace" "no $GTK (make all)"
fi

# can_mount WHAT: root and a mount namespace of its own (unshare -m), so
# that a mount is seen by nothing outside; else WHAT is skipped, said
can_mount() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "$1" "needs root (a mount)"
	elif ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
		skip "$1" "unshare -m is not available here"
	else
		return 0
	fi
	return 1
}

# a bind mount of the trace: another path to the same folders
if can_mount "outputs into a bind mount of the trace"; then
	mkdir "$TMP/bind"
	bound() { # WHAT CMD...: CMD run with TRACE bound on $TMP/bind
		what=$1; shift
		refused "$what" unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			sh "$TMP/t" "$TMP/bind" "$@"
	}
	bound "lttv-convert --ctf a bind mount of the trace" "$CONVERT" --ctf "$TMP/bind" -t "$TMP/t"
	bound "lttv-convert --ctf a folder inside a bind mount of the trace" \
		"$CONVERT" --ctf "$TMP/bind/control/ctf" -t "$TMP/t"
	bound "lttv-text -o a new file in a bind mount of the trace" \
		"$TEXT" -t "$TMP/t" -o "$TMP/bind/eventdefs/dump.txt"
	if [ -x "$GTK" ]; then
		bound "lttv-gtk --export into a bind mount of the trace" \
			"$GTK" -t "$TMP/t" --export "$TMP/bind/view.svg"
	fi
fi

# a full disk: a small tmpfs
if can_mount "outputs on a full disk"; then
	mkdir "$TMP/full"
	ERR="$TMP/full.err"	# outside the full disk
	export ERR
	on_full() { # WHAT FILE CMD...: CMD fails, FILE (there before) unchanged, nothing beside it
		what=$1 f=$2; shift 2
		unshare -m sh -c 'mount -t tmpfs -o size=128k tmpfs "$1" && f=$1/$2 && shift 2 &&
			echo precious >"$f" && "$@" >/dev/null 2>"$ERR"; rc=$?;
			test $rc -eq 1 && test "$(cat "$f")" = precious &&
			test "$(ls -A "${f%/*}" | wc -l)" -eq 1 && grep -q "write" "$ERR"' \
			sh "$TMP/full" "$f" "$@"
		_report $? "$what on a full disk: exit 1, said, the old file kept, nothing left"
	}
	on_full "lttv-text -o" out.txt "$TEXT" -t "$TMP/t" -n -s -o "$TMP/full/out.txt"
	if [ -x "$GTK" ]; then
		on_full "lttv-gtk --export (SVG)" out.svg "$GTK" -t "$TMP/t" --export "$TMP/full/out.svg" --size 4000x20000
		on_full "lttv-gtk --export (PNG)" out.png "$GTK" -t "$TMP/t" --export "$TMP/full/out.png" --size 8000x8000
		on_full "lttv-gtk --export --view analyses" out.svg "$GTK" -t "$TMP/t" --view analyses \
			--export "$TMP/full/out.svg" --size 8000x20000
	fi
fi
ln -s "$TMP/kept.txt" "$TMP/kept-link.txt"
echo old >"$TMP/kept.txt"
check "lttv-text -o through a link to a file: written" "$TEXT" -t "$TMP/t" -o "$TMP/kept-link.txt"
check "   ... into the file, the link kept" sh -c 'test -L "$1" && test "$(wc -l <"$2")" -gt 100' \
	sh "$TMP/kept-link.txt" "$TMP/kept.txt"
done_testing
