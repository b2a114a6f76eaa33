#!/bin/sh
# Every facility description we ship, and every one a trace carries in
# eventdefs/, is written in the dialect the 2006 parser reads (docs/format.md,
# "The dialect of the era's parser"): no comments, int/uint/enum without a
# size (they are int_size), and so on; tests/xml-dialect.py checks the rules.
# Our reader keeps the same rule: an enum is int_size, a size on it refused.
. "$(dirname "$0")/lib.sh"
D="python3 $TOP/tests/xml-dialect.py"

# shellcheck disable=SC2086
check "the shipped descriptions are in the era's dialect" \
	$D "$TOP"/facilities/*.xml "$TOP"/tests/facilities/*.xml "$TOP"/libltt-usertrace/examples/*.xml
for t in "$TOP"/traces/*/; do
	[ -d "$t/eventdefs" ] || continue
	# shellcheck disable=SC2086
	check "$(basename "$t")/eventdefs is in the era's dialect" $D "$t"eventdefs/*.xml
done

# What a writer puts into a new trace: ltt-tracegen's eventdefs, and
# lttctl's copy of facilities/ (it copies the files as they are, so the
# shipped files are the ones to keep clean, not the writers).
if "$BIN/ltt-tracegen" --scenario sample --seed 3 -o "$TMP/gen" >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	check "ltt-tracegen's eventdefs are in the era's dialect" $D "$TMP"/gen/eventdefs/*.xml
else
	check "ltt-tracegen writes a sample trace" false
fi
for f in "$TOP"/traces/qemu-*/eventdefs/*.xml; do
	s="$TOP/facilities/$(basename "$f")"
	[ -r "$s" ] || continue
	t=$(basename "$(dirname "$(dirname "$f")")")
	case $(basename "$f") in
	kernel_arch_x86_64.xml)
		# recorded before patch 0009's system calls left the table: the
		# trace's copy has their two labels, 451 and 452, and only them more
		# (make record-traces records them again; the viewers' tests that
		# name the recording's times and pids must follow it)
		grep -v '<label name="ltt_\(register\|trace\)_generic" value="45[12]"/>' "$f" >"$TMP/arch.xml"
		check "$t: eventdefs/kernel_arch_x86_64.xml is facilities/'s but for 451 and 452 of the old table" \
			cmp "$TMP/arch.xml" "$s" ;;
	*)
		check "$t: eventdefs/$(basename "$f") is facilities/$(basename "$f")" cmp "$f" "$s" ;;
	esac
done

# Each rule, broken once, is caught.
good='<?xml version="1.0"?>
<facility name="f">
  <description>d</description>
  <type name="e"><enum><label name="A" value="0"/><label name="B"/></enum></type>
  <event name="x">
    <description>d</description>
    <field name="a"><description>d</description><uint/></field>
    <field name="b"><typeref name="e"/></field>
    <field name="c"><sequence><uint/><uchar/></sequence></field>
    <field name="d"><float size="8"/></field>
  </event>
</facility>'
printf '%s\n' "$good" >"$TMP/good.xml"
check "a file that keeps the rules passes" $D "$TMP/good.xml"
n=0
broken() { # what sed-expression
	n=$((n + 1))
	sed "$2" "$TMP/good.xml" >"$TMP/bad$n.xml"
	if cmp -s "$TMP/good.xml" "$TMP/bad$n.xml"; then
		check "broken: $1 (the edit changed nothing)" false
	else
		check_fails "broken: $1" $D "$TMP/bad$n.xml"
	fi
}
broken "an XML comment" 's|<facility name="f">|&<!-- c -->|'
broken "a C comment" 's|<facility name="f">|& /* c */|'
broken "another prolog" '1s|.*|<?xml version="1.0" encoding="UTF-8"?>|'
broken "a size on an enum" 's|<enum>|<enum size="1">|'
broken "a size on a uint" 's|<uint/></field>|<uint size="2"/></field>|'
broken "a size on an int" 's|<field name="a"><description>d</description><uint/>|<field name="a"><int size="4"/>|'
broken "a negative label value" 's|value="0"|value="-1"|'
broken "a hexadecimal label value" 's|value="0"|value="0x0"|'
broken "a float without size" 's|<float size="8"/>|<float/>|'
broken "an old sequence with lengthsize" 's|<sequence><uint/><uchar/></sequence>|<sequence lengthsize="4"><uchar/></sequence>|'
broken "a signed sequence length" 's|<sequence><uint/>|<sequence><int/>|'
broken "a typeref above its type" 's|<typeref name="e"/>|<typeref name="later"/>|'
broken "an entity" 's|<description>d</description>|<description>a \&amp; b</description>|'
broken "a description after a field's type" 's|<description>d</description><uint/>|<uint/><description>d</description>|'

# Our reader: an enum is int_size, a size on it refused with the reason.
sed 's|<enum>|<enum size="1">|' "$TMP/good.xml" >"$TMP/enum-size.xml"
fails_with "ltt-checksum refuses a size on an enum, and says why" 1 'enum.*size.*int_size' \
	"$BIN/ltt-checksum" "$TMP/enum-size.xml"
check "ltt-checksum reads the same file without it" "$BIN/ltt-checksum" "$TMP/good.xml"
sed 's|<uint/></field>|<uint size="2"/></field>|' "$TMP/good.xml" >"$TMP/uint-size.xml"
a=$("$BIN/ltt-checksum" "$TMP/good.xml" | cut -d' ' -f2)
b=$("$BIN/ltt-checksum" "$TMP/uint-size.xml" | cut -d' ' -f2)
check "a size on a uint changes nothing in the checksum ($a, $b)" test -n "$a" -a "$a" = "$b"

# The layout: kernel.irq_entry's mode is an enum of int_size (4 bytes after
# the 4-byte irq_id), as the kernel writes it; the independent writer's
# rules (ltt-reencode, int/uint/enum are int_size) agree byte for byte.
for t in "$TOP"/traces/qemu-*/ "$TOP"/traces/*-synthetic/; do
	[ -d "$t" ] || continue
	check "$(basename "$t"): the writer's rules give the trace's bytes (ltt-reencode)" \
		"$BIN/ltt-reencode" "$t"
done
"$BIN/lttv-text" -t "$TOP/traces/qemu-busybox" -n -e kernel.irq_entry >"$TMP/irq" 2>"$TMP/irq.err"
check "qemu-busybox: every kernel.irq_entry has mode = user or kernel" \
	sh -c "test -s '$TMP/irq' && ! grep -v 'mode = \(user\|kernel\) }' '$TMP/irq'"

done_testing
