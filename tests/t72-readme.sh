#!/bin/sh
# README.md agrees with the tools: its lttv-text commands run on the
# bundled traces and print something, the line it shows as an example is
# one lttv-text prints, its option table has every option of
# lttv-text --help, and the user-space example compiles with its compile
# line, as C11, without a warning.
# run-once: its compile line links the plain build's libltt-usertrace.
. "$(dirname "$0")/lib.sh"
R=$TOP/README.md

# the command lines of the ```sh blocks that run an in-tree lttv-text
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && /^build\/bin\/lttv-text /' "$R" |
	sed 's/ *#.*//' >"$TMP/cmds"
check "README has lttv-text examples" test -s "$TMP/cmds"
while IFS= read -r cmd; do
	(cd "$TOP" && PATH="$BIN:$PATH" sh -c "${cmd#build/bin/}") >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$TMP/out" ]; then
		_report 0 "README: \$ $cmd"
	else
		_report 1 "README: \$ $cmd (exit $rc, $(wc -l <"$TMP/out") lines)"
		sed 's/^/#   /' "$TMP/err" | head -n 5
	fi
done <"$TMP/cmds"

# the example line after "One line per event"
line=$(awk '/^One line per event/ { on = 1; next } on && /^```$/ { if (in_) exit; in_ = 1; next } in_' "$R")
check "README's example line is one lttv-text prints" \
	sh -c "'$BIN/lttv-text' -t '$TOP/traces/qemu-busybox' | grep -qxF '$line'"

# the option table of lttv-text
missing=""
for opt in $("$BIN/lttv-text" --help | grep -oE -- '(^| )(-[a-zA-Z]|--[a-z][a-z0-9-]*)' | sort -u); do
	case $opt in --help|--usage|-\?) continue ;; esac
	grep -q -- "| \`$opt\( \|\`\)\|, \`$opt\( \|\`\)" "$R" || missing="$missing $opt"
done
check "README's option table has every lttv-text option${missing:+ (missing:$missing)}" test -z "$missing"

# the user-space compile line, in-tree form, on the example program
ccline=$(grep -m1 '^cc -std=c11 .*-Iinclude .*prog\.c build/lib/libltt-usertrace\.a' "$R")
check "README has the in-tree compile line of libltt-usertrace" test -n "$ccline"
if [ -n "$ccline" ]; then
	cp "$TOP/libltt-usertrace/examples/usertrace-example.c" "$TMP/prog.c"
	ccline=$(printf '%s' "$ccline" | sed "s|-Igen|-I$BUILD/gen/usertrace|; s|prog\.c|$TMP/prog.c|; s|build/lib/|$BUILD/lib/|")
	check "it compiles the example as C11 without a warning (-Werror)" \
		sh -c "cd '$TOP' && $ccline -Werror -o '$TMP/prog'"
fi
done_testing
