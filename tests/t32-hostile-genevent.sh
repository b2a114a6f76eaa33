#!/bin/sh
# Hostile facility XML given to genevent (kernel and --user output): a name
# that is not a C identifier is refused with the file and line before
# anything is generated; free text (descriptions) can never leave the
# comment it is written into. Issue 16, "code injection through genevent".
. "$(dirname "$0")/lib.sh"
GEN="$BIN/genevent"
CC=${CC:-cc}

if [ ! -x "$GEN" ]; then
	skip "hostile genevent input" "needs $GEN (make all)"
	done_testing
	exit $?
fi

# refused FILE LINE WHAT: both outputs refuse FILE, naming FILE:LINE, and
# write nothing
refused() {
	for mode in kernel user; do
		out="$TMP/out-$mode"
		rm -rf "$out"
		if [ $mode = user ]; then
			"$GEN" --user -o "$out" "$1" >"$TMP/o" 2>"$TMP/e"
		else
			"$GEN" -o "$out" "$1" >"$TMP/o" 2>"$TMP/e"
		fi
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q -- "$1:$2: " "$TMP/e" &&
		   [ -z "$(ls -A "$out" 2>/dev/null)" ]; then
			_report 0 "$3 ($mode): refused at $(basename "$1"):$2"
		else
			_report 1 "$3 ($mode): refused at $(basename "$1"):$2 (exit $rc)"
			sed 's/^/#   /' "$TMP/e" | head -n 5
			ls "$out" 2>/dev/null | sed 's/^/#   wrote /'
		fi
	done
}

# the reproducer of the issue: an event name that closes the comment and
# defines a constructor
cat >"$TMP/inject-event.xml" <<'EOF'
<facility name="evil">
  <event name="e */ __attribute__((constructor)) static void pwn(void) { __builtin_trap(); } /* ">
    <field name="a"><int/></field>
  </event>
</facility>
EOF
refused "$TMP/inject-event.xml" 2 "an event name closing the comment"

cat >"$TMP/inject-field.xml" <<'EOF'
<facility name="evil">
  <event name="e">
    <field name="a) { } int b(int x"><int/></field>
  </event>
</facility>
EOF
refused "$TMP/inject-field.xml" 3 "a field name with C in it"

printf '<facility\n  name="../../escape">\n<event name="e"/></facility>\n' >"$TMP/path.xml"
refused "$TMP/path.xml" 1 "a facility name that is a path"

cat >"$TMP/dash.xml" <<'EOF'
<facility name="evil">
  <type name="not-an-identifier"><struct><field name="x"><int/></field></struct></type>
  <event name="e"/>
</facility>
EOF
refused "$TMP/dash.xml" 2 "a type name with a dash"

cat >"$TMP/label.xml" <<'EOF'
<facility name="evil">
  <type name="k"><enum>
    <label name="OK"/>
    <label name="A B"/>
  </enum></type>
  <event name="e"/>
</facility>
EOF
refused "$TMP/label.xml" 4 "an enum label with a space"

cat >"$TMP/keyword.xml" <<'EOF'
<facility name="evil">
  <event name="e">
    <field name="int"><int/></field>
  </event>
</facility>
EOF
refused "$TMP/keyword.xml" 3 "a C keyword as a field name"

cat >"$TMP/digit.xml" <<'EOF'
<facility name="evil">

  <event name="9lives"/>
</facility>
EOF
refused "$TMP/digit.xml" 3 "a name starting with a digit"

cat >"$TMP/dup.xml" <<'EOF'
<facility name="evil">
  <event name="e">
    <field name="a"><int/></field>
    <field name="a"><int/></field>
  </event>
</facility>
EOF
refused "$TMP/dup.xml" 4 "two fields of one event with the same name"

cat >"$TMP/dupev.xml" <<'EOF'
<facility name="evil">
  <event name="open"/>
  <event name="OPEN"/>
</facility>
EOF
refused "$TMP/dupev.xml" 3 "two events whose constants collide"

# free text is kept, but cannot end the comment it is in: the generated
# header compiles and the constructor in the description never runs
cat >"$TMP/desc.xml" <<'EOF'
<facility name="desc">
  <description>*/ int injected_facility; /*</description>
  <event name="e">
    <description>*/ __attribute__((constructor)) static void pwn(void) { __builtin_trap(); } /*</description>
    <field name="a"><int/></field>
  </event>
</facility>
EOF
check "descriptions with */ are accepted (kernel)" "$GEN" -o "$TMP/dk" "$TMP/desc.xml"
check "descriptions with */ are accepted (--user)" "$GEN" --user -o "$TMP/du" "$TMP/desc.xml"
if command -v "$CC" >/dev/null 2>&1; then
	cat >"$TMP/main.c" <<'EOF2'
#include "ltt-user-facility-desc.h"
int main(void) { return 0; }
EOF2
	check "   ... the --user header compiles into a program" \
		"$CC" -I"$TOP/include" -I"$TOP/libltt-usertrace/include" -I"$TMP/du" \
		-o "$TMP/prog" "$TMP/main.c"
	check "   ... which runs no code from the description" "$TMP/prog"
	# comments are gone after preprocessing: nothing of the text may stay
	"$CC" -E -I"$TOP/include" -I"$TOP/libltt-usertrace/include" -I"$TMP/du" \
		"$TMP/main.c" >"$TMP/user.i" 2>"$TMP/e"
	check "   ... the --user header has the description only in comments" \
		sh -c '! grep -E "pwn|injected_facility" "$1"' sh "$TMP/user.i"
	"$CC" -E -I"$TOP/tests/genevent-shim" -I"$TMP/dk" -DCONFIG_LTT_FACILITY_DESC \
		-x c "$TMP/dk/ltt-facility-desc.h" >"$TMP/kernel.i" 2>"$TMP/e"
	check "   ... and so has the kernel header" \
		sh -c 'test -s "$1" && ! grep -E "pwn|injected_facility" "$1"' sh "$TMP/kernel.i"
else
	skip "the generated headers keep descriptions in comments" "no C compiler ($CC)"
fi

# what genevent accepts today still generates the same
check "every bundled facility is still accepted" \
	"$GEN" -o "$TMP/all" "$TOP"/facilities/fs.xml "$TOP"/facilities/kernel.xml \
	"$TOP"/facilities/kernel_arch_x86_64.xml "$TOP"/facilities/process.xml "$TOP"/facilities/statedump.xml \
	"$TOP"/facilities/user_generic.xml
check "the usertrace example is still accepted" \
	"$GEN" --user -o "$TMP/ex" "$TOP/libltt-usertrace/examples/usertrace_example.xml"
done_testing
