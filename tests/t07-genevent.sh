#!/bin/sh
# genevent: generates for every kernel facility, deterministically, with the
# library's checksum; refuses what it cannot generate with a clear error.
. "$(dirname "$0")/lib.sh"
GEN="$BIN/genevent"
XML="$TOP/facilities/process.xml $TOP/facilities/kernel.xml $TOP/facilities/kernel_arch_x86_64.xml $TOP/facilities/fs.xml $TOP/facilities/statedump.xml $TOP/facilities/user_generic.xml"

# shellcheck disable=SC2086
check "generates the six kernel facilities" "$GEN" -o "$TMP/a" $XML
# shellcheck disable=SC2086
"$GEN" -o "$TMP/b" $XML
check "the output is the same every time" diff -r "$TMP/a" "$TMP/b"
for f in process kernel kernel_arch fs statedump user_generic; do
	xml=$TOP/facilities/$f.xml
	[ "$f" = kernel_arch ] && xml=$TOP/facilities/kernel_arch_x86_64.xml
	sum=$("$BIN/ltt-checksum" "$xml" | awk '{ print $2 }')
	up=$(echo "$f" | tr a-z A-Z)
	check "$f: header carries the checksum $sum" \
		grep -q "^#define LTT_FACILITY_${up}_CHECKSUM	${sum}U$" "$TMP/a/ltt-facility-$f.h"
	n=$(grep -c '<event ' "$xml")
	# per event: trace_F_E_to(trace, ...) and trace_F_E(...) calling it
	check "$f: two trace functions per event ($n events)" \
		test "$(grep -c "^static inline void trace_${f}_" "$TMP/a/ltt-facility-$f.h")" -eq $((2 * n))
	check "$f: one of them writes into a given trace" \
		test "$(grep -c "^static inline void trace_${f}_.*_to(struct ltt_trace \*only" "$TMP/a/ltt-facility-$f.h")" -eq "$n"
	check "$f: a loader" grep -q "ltt_facility_register(&ltt_facility_$f)" "$TMP/a/ltt-facility-loader-$f.c"
done
sed -n '/^static inline void trace_statedump_enumerate_process_state_to(/,/^}/p' \
	"$TMP/a/ltt-facility-statedump.h" >"$TMP/sd"
check "the state dump goes to the processes channel (channel= in the XML)" \
	grep -q LTT_CHANNEL_PROCESSES "$TMP/sd"

check_fails "no arguments: usage error" "$GEN"
check_fails "no -o: usage error" "$GEN" "$TOP/facilities/fs.xml"
check_fails "a missing file: error" "$GEN" -o "$TMP/c" "$TMP/none.xml"
check_fails "floats are refused (no FPU in the kernel)" "$GEN" -o "$TMP/c" "$TOP/tests/facilities/types.xml"
"$GEN" -o "$TMP/c" "$TOP/tests/facilities/types.xml" 2>"$TMP/e"
check "   ... and the error names the field" grep -q 'types.all_types field f32: floating point' "$TMP/e"
printf '<facility name="x" channel="nowhere"><event name="e"/></facility>' >"$TMP/x.xml"
check_fails "an unknown channel is refused" "$GEN" -o "$TMP/c" "$TMP/x.xml"
printf '<facility name="x"><event name="e">' >"$TMP/y.xml"
check_fails "malformed XML is refused" "$GEN" -o "$TMP/c" "$TMP/y.xml"
done_testing
