#!/bin/sh
# libltttrace.so exports exactly the functions its public headers declare
# (libltttrace/include/*.h): no internal function, no data symbol,
# and nothing declared that is not there.  The library is compiled with
# hidden visibility; ltttrace.h makes its declarations visible.
. "$(dirname "$0")/lib.sh"
SO=$(ls "$TOP/$BUILD"/lib/libltttrace.so.*.*.* 2>/dev/null | head -n 1)

if [ -z "$SO" ] || ! command -v nm >/dev/null 2>&1; then
	skip "exported symbols" "no $BUILD/lib/libltttrace.so.X.Y.Z or no nm"
	done_testing
	exit
fi

# The functions the headers declare: statements outside typedefs, with a
# parameter list; the name is the identifier before the first "(".
declared() {
	python3 - "$@" <<'EOF'
import re, sys
names = set()
for path in sys.argv[1:]:
    text = open(path).read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    text = text.replace('extern "C" {', ' ')
    depth, stmt = 0, ''
    for c in text:
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
        elif c == ';' and depth == 0:
            s = ' '.join(stmt.split())
            stmt = ''
            if s.startswith(('typedef', 'enum', 'struct', 'union')) or '(' not in s:
                continue
            m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(', s)
            if m:
                names.add(m.group(1))
            continue
        if depth == 0 and c not in '{}':
            stmt += c
for n in sorted(names):
    print(n)
EOF
}
declared "$TOP"/libltttrace/include/*.h >"$TMP/declared"
check "the headers declare functions ($(wc -l <"$TMP/declared"))" test "$(wc -l <"$TMP/declared")" -gt 100
nm -D --defined-only "$SO" | awk '{ print $2, $3 }' >"$TMP/nm"
awk '$1 == "T" { print $2 }' "$TMP/nm" | sort >"$TMP/exported"
check "no exported data symbol" sh -c "! awk '\$1 != \"T\"' '$TMP/nm' | grep ."
comm -13 "$TMP/declared" "$TMP/exported" >"$TMP/extra"
comm -23 "$TMP/declared" "$TMP/exported" >"$TMP/missing"
check "every exported function is declared in the public headers" test ! -s "$TMP/extra"
sed 's/^/#   exported, not declared: /' "$TMP/extra"
check "every declared function is exported" test ! -s "$TMP/missing"
sed 's/^/#   declared, not exported: /' "$TMP/missing"

# The sized-struct rules of ltttrace.h ("Sized structs") that a compiler
# does not check: every *_sized function has the macro of its name without
# _sized (which passes the caller's sizeof), and no public struct holds
# another public struct by value (neither could grow then).
python3 - "$TOP"/libltttrace/include/*.h >"$TMP/sized" <<'EOF'
import re, sys
text = ''
for path in sys.argv[1:]:
    text += open(path).read() + '\n'
code = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
sized = sorted(set(re.findall(r'\b(\w+)_sized\s*\(', code)))
macros = set(re.findall(r'^\s*#\s*define\s+(\w+)\(', code, flags=re.M))
print('sized %d' % len(sized))
for f in sized:
    if f not in macros:
        print('no macro for %s_sized' % f)
structs = {}
for m in re.finditer(r'typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;', code, flags=re.S):
    structs[m.group(2)] = m.group(1)
print('structs %d' % len(structs))
for name, body in sorted(structs.items()):
    for member in body.split(';'):
        words = member.replace('const', ' ').split()
        if len(words) >= 2 and words[0] in structs and '*' not in member:
            print('%s holds %s by value' % (name, words[0]))
EOF
n_sized=$(sed -n 's/^sized //p' "$TMP/sized")
n_structs=$(sed -n 's/^structs //p' "$TMP/sized")
check "the headers have sized calls ($n_sized) and public structs ($n_structs)" \
	test "${n_sized:-0}" -ge 10 -a "${n_structs:-0}" -ge 10
grep -v '^sized \|^structs ' "$TMP/sized" >"$TMP/sized-bad"
check "every *_sized call has its macro; no public struct holds another by value" \
	test ! -s "$TMP/sized-bad"
sed 's/^/#   /' "$TMP/sized-bad"
done_testing
