#!/bin/sh
# The field workload's trace (traces/field-workload: Debian's own kernel,
# our modules, lttd's default settings, the short run of
# qemu/rootfs/workload.sh; qemu/record-field-trace.sh records it) against
# the kernel's own books of the same run (traces/field-workload.books.json,
# read from /proc in the guest by qemu/rootfs/books.py):
# qemu/rootfs/books-compare.py on every make check, without QEMU, one test
# per figure, as tests/q62 does on a fresh boot. Then the comparison is
# shown one figure of the books changed (/proc/stat's ctxt at the end, one
# switch more) and must fail on that figure and on no other.
# (traces/field-workload.digest, its expected output, is tests/t11's.)
. "$(dirname "$0")/lib.sh"
T=$TOP/traces/field-workload
B=$T.books.json
CMP=$TOP/qemu/rootfs/books-compare.py
if ! command -v python3 >/dev/null; then
	skip "the field trace against the kernel's books" "needs python3"
	done_testing
	exit
fi
check "the trace and its books are there" test -d "$T" -a -s "$B"
"$BIN/lttv-text" -q -c -t "$T" >"$TMP/cpus" 2>"$TMP/cpus.err"
check "the trace reads, no event lost" \
	sh -c "grep -q '^total: ' '$TMP/cpus' && ! grep -q '[1-9][0-9]* lost' '$TMP/cpus' && test ! -s '$TMP/cpus.err'"
# the workload's programs ran while it was traced (what makes it a field trace)
"$BIN/lttv-text" -q --process-stats -t "$T" >"$TMP/ps" 2>/dev/null
for p in make cc1 as ld sqlite3 dd gzip curl python3; do
	check "$p ran in the trace" awk -v p="$p" '$3 == p { n++ } END { exit !n }' "$TMP/ps"
done

python3 "$CMP" --books "$B" --trace "$T" "$BIN/lttv-text" >"$TMP/books" 2>"$TMP/books.err"
rc=$?
check "books-compare.py finds no mismatch (exit $rc)" sh -c "test $rc = 0 && grep -q ' 0 mismatches$' '$TMP/books'"
sed 's/^/# /' "$TMP/books.err" | head -n 5
sed -n 's/^# /# books: /p' "$TMP/books" >&2
books_report "$TMP/books"
# every kind of figure was there to check
for what in "/proc/stat ctxt" "/proc/stat processes" "/proc/interrupts LOC" "/proc/softirqs" \
	"--irqs" "tree CPU time" "tree switches out" "tree wchar" "tree rchar" ": switches out" ": switches in"; do
	check "the books checked $what" sh -c 'grep "^ok " "$1" | grep -qF -- "$2"' sh "$TMP/books" "$what"
done

# the same books, one context switch more at B: that figure, and only it
python3 - "$B" "$TMP/bad.json" <<'EOF'
import json, re, sys
b = json.load(open(sys.argv[1]))
st = b["B_machine"]["stat"]
n = int(re.search(r"^ctxt (\d+)$", st, re.M).group(1))
b["B_machine"]["stat"] = re.sub(r"^ctxt \d+$", f"ctxt {n + 1}", st, flags=re.M)
json.dump(b, open(sys.argv[2], "w"))
EOF
python3 "$CMP" --books "$TMP/bad.json" --trace "$T" "$BIN/lttv-text" >"$TMP/bad" 2>&1
rc=$?
check "one switch more in the books: exit 1 (exit $rc)" test $rc = 1
check "   ... a MISMATCH on /proc/stat ctxt and on nothing else" \
	sh -c "grep -q '^MISMATCH */proc/stat ctxt ' '$TMP/bad' && test \$(grep -c '^MISMATCH' '$TMP/bad') = 1"
check_fails "books-compare.py without its books: an error" python3 "$CMP" --books "$TMP/none.json" --trace "$T" "$BIN/lttv-text"
done_testing
