#!/bin/sh
# The man pages (docs/man/): groff reads each without a warning, a tool's
# page names every option its --help lists, and the examples run: each
# "$ command" under EXAMPLES is run with the installed tools (make install
# into a scratch DESTDIR) in a folder holding trace1 (a copy of
# traces/qemu-busybox) and the facility descriptions, must exit 0, and
# must print the lines the page shows after it, in that order ("..." skips
# lines).  A code block that opens with "/* NAME.c" is saved as NAME.c
# first.  lttd and lttctl need an LTT kernel: their examples run against
# the test doubles of t20/t21 (lttd-fakerelay, lttctl-fakekernel), with
# /mnt/relayfs moved into the scratch folder; other commands that need the
# kernel (mount) are skipped and said.
# run-once: it installs the plain build.
. "$(dirname "$0")/lib.sh"

if ! command -v groff >/dev/null 2>&1; then
	skip "man pages" "no groff (groff-base)"
	done_testing
	exit
fi
if ! scratch_install; then
	_report 1 "make install DESTDIR=..."
	sed 's/^/#   /' "$TMP/install.log" | tail -n 20
	done_testing
	exit
fi

# pkg-config and the loader see the scratch installation
mkdir "$TMP/wrap"
cat >"$TMP/wrap/pkg-config" <<EOF
#!/bin/sh
PKG_CONFIG_PATH="$I_LIB/pkgconfig" exec /usr/bin/pkg-config \
	--define-variable=prefix="$ROOT$I_PREFIX" "\$@"
EOF
chmod +x "$TMP/wrap/pkg-config"
export LD_LIBRARY_PATH="$I_LIB"
unset LTT_FACILITIES_DIR

# The examples of a rendered page ($1) as files in $2: cmd.N (one command),
# want.N (the lines shown after it); code blocks as $3/NAME.c.
extract_examples() {
	awk -v dir="$2" -v codedir="$3" '
		/^EXAMPLES?$/ { on = 1; next }
		on && /^[A-Z]/ { exit }
		!on { next }
		code != "" {
			line = substr($0, ind + 1)
			print line >(codedir "/" code)
			if (line == "}") { close(codedir "/" code); code = "" }
			next
		}
		match($0, /^ *\/\* [A-Za-z0-9_.-]+\.c/) {
			ind = match($0, /[^ ]/) - 1
			code = $0; sub(/^ *\/\* /, "", code); sub(/\.c.*/, ".c", code)
			print substr($0, ind + 1) >(codedir "/" code)
			next
		}
		cont { cmd = cmd " " substr($0, match($0, /[^ ]/)); }
		!cont && /^ *\$ / {
			n++; ind = index($0, "$") - 1; out = 1
			cmd = substr($0, ind + 3)
		}
		cont || /^ *\$ / {
			cont = sub(/ *\\$/, "", cmd)
			if (!cont) print cmd >(dir "/cmd." n)
			next
		}
		/^ *$/ { out = 0; next }
		out { print substr($0, ind + 1) >>(dir "/want." n) }
	' "$1"
}

# want ($1) is a subsequence of the lines of got ($2), "..." excluded
in_order() {
	awk 'BEGIN { n = 0; i = 0 }
	     NR == FNR { if ($0 != "...") want[n++] = $0; next }
	     i < n && $0 == want[i] { i++ }
	     END { if (i < n) { print "missing: " want[i]; exit 1 } }' "$1" "$2"
}

kernel_pages="lttd.1 lttctl.1"
for page in "$TOP"/docs/man/*.[0-9]; do
	name=${page##*/}
	tool=${name%.[0-9]}
	groff -man -ww -z "$page" >"$TMP/groff.err" 2>&1
	check "$name: groff reads it without a warning" test ! -s "$TMP/groff.err"
	groff -man -Tutf8 -P-cbou "$page" >"$TMP/$name.txt" 2>/dev/null

	if [ -x "$I_BIN/$tool" ]; then
		missing=""
		for opt in $("$I_BIN/$tool" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
			[ "$opt" = --usage ] && continue	# popt's own
			grep -q -- "$opt" "$TMP/$name.txt" || missing="$missing $opt"
		done
		check "$name: documents every option of $tool --help${missing:+ (missing:$missing)}" \
			test -z "$missing"
	fi

	w=$TMP/work-$name
	mkdir -p "$w" "$w/ex"
	cp "$TOP"/facilities/*.xml "$TOP"/libltt-usertrace/examples/usertrace_example.xml \
		"$TOP"/libltt-usertrace/examples/usertrace-example.c "$w/"
	extract_examples "$TMP/$name.txt" "$w/ex" "$w"
	path="$TMP/wrap:$I_BIN:$PATH"
	case " $kernel_pages " in
	*" $name "*)
		# the test doubles, as lttctl and lttd (lttctl runs the lttd
		# next to it), and a relayfs tree in the scratch folder
		mkdir -p "$w/kbin" "$w/mnt/relayfs/ltt"
		cp "$TOP/$BUILD/tests/lttctl-fakekernel" "$w/kbin/lttctl" &&
		cp "$TOP/$BUILD/tests/lttd-fakerelay" "$w/kbin/lttd" || {
			skip "$name: examples" "the test doubles are not built"
			continue
		}
		path="$w/kbin:$path"
		export LTTCTL_FAKE_RELAYFS="$w/mnt/relayfs/ltt" LTTCTL_FAKE_LOG="$w/klog"
		export LTT_FACILITIES_DIR="$I_DATA/ltt/facilities"
		# lttd's examples copy a trace lttctl created
		[ "$name" = lttd.1 ] &&
			(cd "$w" && PATH=$path lttctl -n trace1 -c >/dev/null 2>&1)
		;;
	*)
		unset LTTCTL_FAKE_RELAYFS LTTCTL_FAKE_LOG LTT_FACILITIES_DIR
		cp -R "$TOP/traces/qemu-busybox" "$w/trace1" ;;
	esac
	i=1
	while [ -f "$w/ex/cmd.$i" ]; do
		cmd=$(cat "$w/ex/cmd.$i")
		first=${cmd%% *}
		case " $kernel_pages " in
		*" $name "*)
			case $first in
			lttctl|lttd) cmd=$(printf '%s' "$cmd" | sed "s|/mnt/relayfs|$w/mnt/relayfs|g") ;;
			*) skip "$name: \$ $cmd" "needs an LTT kernel (q10 runs it in QEMU)"
			   i=$((i + 1)); continue ;;
			esac
		esac
		if ! (cd "$w" && PATH=$path command -v "$first") >/dev/null 2>&1; then
			skip "$name: \$ $cmd" "no $first here"
			i=$((i + 1)); continue
		fi
		(cd "$w" && PATH=$path sh -c "$cmd") >"$w/got.$i" 2>"$w/err.$i"
		rc=$?
		if [ $rc -ne 0 ]; then
			_report 1 "$name: \$ $cmd (exit $rc)"
			sed 's/^/#   /' "$w/err.$i" | head -n 10
		elif [ -f "$w/ex/want.$i" ] && ! in_order "$w/ex/want.$i" "$w/got.$i" >"$w/diff.$i"; then
			_report 1 "$name: \$ $cmd: prints what the page shows"
			sed 's/^/#   /' "$w/diff.$i"
		else
			_report 0 "$name: \$ $cmd"
		fi
		i=$((i + 1))
	done
	check "$name: has examples" test "$i" -gt 1
done
unset LTTCTL_FAKE_RELAYFS LTTCTL_FAKE_LOG LTT_FACILITIES_DIR
done_testing
