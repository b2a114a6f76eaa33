#!/bin/sh
# LTTng traces crafted apart from the library (tests/lttng-craft.py):
# what the bundled user-space trace lacks (27-bit timestamps that wrap,
# the extended event header, bit fields, a variant, a big-endian stream,
# a 500 MHz clock with an offset, a lost packet) read as babeltrace2
# reads it; then lies in the metadata and in the streams, each refused
# with the file and the offset (or line), exit 1, never a crash or hang.
. "$(dirname "$0")/lib.sh"
TEXT="$BIN/lttv-text"
CRAFT="$TOP/tests/lttng-craft.py"

if ! command -v python3 >/dev/null 2>&1; then
	skip "crafted LTTng traces" "python3 is not installed (scripts/install-deps.sh installs it)"
	done_testing; exit
fi
python3 "$CRAFT" "$TMP/good/le" good
"$TEXT" -t "$TMP/good" --field-names >"$TMP/good.lt" 2>"$TMP/good.err"
rc=$?
check "the crafted trace reads (exit $rc: 3, the losses' warnings)" test "$rc" -eq 3
check "the lost packet is said" grep -q "1 packets lost before it" "$TMP/good.err"
check "the discarded events are counted" grep -q "lost 5 events" "$TMP/good.err"
if command -v babeltrace2 >/dev/null 2>&1; then
	babeltrace2 --clock-seconds "$TMP/good" >"$TMP/good.bt" 2>/dev/null
	check "babeltrace2 reads it (9 events)" test "$(wc -l <"$TMP/good.bt")" -eq 9
	check "every event and field equals babeltrace2's" \
		python3 "$TOP/tests/ctf-compare.py" --lttng "$TMP/good.lt" "$TMP/good.bt"
	tail -1 "$TMP/out" | sed 's/^/# /'
else
	skip "the crafted trace equals babeltrace2's reading" "babeltrace2 is not installed"
fi

# hostile: CASE, then the pattern the error must match
hostile() {
	case=$1 pat=$2
	rm -rf "$TMP/h"
	python3 "$CRAFT" "$TMP/h" "$case"
	fails_with "$case: refused, exit 1: $pat" 1 "$pat" timeout 20 "$TEXT" -t "$TMP/h"
}
hostile magic "channel0_0: packet at offset 0x1000: bad magic 0x12345678"
hostile stream "channel0_0: packet at offset 0x1000: stream id 7 is not in the metadata"
hostile content "channel0_0: packet 1 at offset 0x1000: packet size 32768 bits, content size 32832 bits"
hostile size "channel0_0: packet 1 at offset 0x1000: packet size 12345 bits"
hostile truncated "channel0_0: packet 1 at offset 0x1000: .*a truncated stream"
hostile huge_seq "channel0_0: packet 1 at offset 0x1000: event at offset 0x10[0-9a-f]{2}: 4294967280 elements cannot fit"
hostile bad_id "channel0_0: packet 1 at offset 0x1000: event at offset 0x10[0-9a-f]{2}: event id 9 is not in stream 0"
hostile bad_tag "event at offset 0x10[0-9a-f]{2}: variant tag _tag = 9 selects no option"
hostile cut "event at offset 0x10[0-9a-f]{2}: a 64-bit value past the end of the packet's content"
hostile bad_meta_type "h/metadata:[0-9]+: unknown type 'bogus_t'"
hostile bad_meta_seq "h/metadata:[0-9]+: sequence length '_nothing': no integer field"

# hostile metadata, each beside a good stream
meta() {
	what=$1 pat=$2 text=$3
	rm -rf "$TMP/m" && python3 "$CRAFT" "$TMP/m" good
	printf '%s\n' "$text" >"$TMP/m/metadata"
	fails_with "metadata, $what: refused: $pat" 1 "$pat" timeout 20 "$TEXT" -t "$TMP/m"
}
meta "not TSDL" "m/metadata:1: unknown construct 'hello'" "hello world"
meta "an unknown attribute" "metadata:2: integer: unknown attribute 'colour'" \
	"/* CTF 1.8 */
typealias integer { size = 8; colour = red; } := u8;"
meta "an unclosed comment" "metadata:1: comment: no end" "/* CTF 1.8"
meta "a string without its quote" "string: no closing quote" 'env { a = "x; };'
meta "a float of 16 bits" "floating_point: exp_dig 5, mant_dig 11" \
	"typealias floating_point { exp_dig = 5; mant_dig = 11; } := half;"
meta "a 65-bit integer" "integer: size 65" "typealias integer { size = 65; } := big;"
meta "a variant without its tag" "metadata:[0-9]+: a variant without its tag" \
	'typealias integer { size = 8; } := u8; stream { id = 0; };
event { name = "e"; fields := struct { enum : u8 { A, B } t; variant map { string B; } v; }; };'
deep=$(python3 -c "print('typealias integer { size = 8; } := u8; stream { id = 0; }; event { name = \"e\"; fields := ' + 'struct { ' * 100 + 'u8 x; ' + '} y; ' * 99 + '}; };')")
meta "types nested 100 deep" "types nested deeper than 64" "$deep"
wide=$(python3 -c "print('typealias integer { size = 8; } := u8; typealias struct { u8 a; u8 b; } := s0; ' + ''.join('typealias struct { s%d a; s%d b; } := s%d; ' % (i, i, i + 1) for i in range(40)) + 'stream { id = 0; }; event { name = \"e\"; fields := struct { s40 x; }; };')")
rm -rf "$TMP/w" && python3 "$CRAFT" "$TMP/w" good && printf '%s\n' "$wide" >"$TMP/w/metadata"
# 2^41 bytes described by sharing: opened at once, its event refused
fails_with "a description of 2^41 values: its event refused, no hang" 1 \
	"more values in one event|bits left|past the end" timeout 20 "$TEXT" -t "$TMP/w"
# 300 enums of 2^32 values each in 30 KB of metadata: their ranges are
# named within a budget (it took 5 minutes and 1.7 GB before)
mkdir -p "$TMP/enums"
python3 -c "
print('typealias integer { size = 32; align = 8; signed = false; } := u32;')
print('stream { id = 0; event.header := struct { u32 id; }; };')
for i in range(300):
    print('event { name = \"p:e%d\"; id = %d; fields := struct { enum : u32 { A = 0 ... 4294967295 } _x; }; };' % (i, i))
" >"$TMP/enums/metadata"
: >"$TMP/enums/s_0"
check "300 enums of 2^32 values each: opened within 20 s" \
	sh -c "timeout 20 '$TEXT' -t '$TMP/enums' >/dev/null 2>&1; test \$? -eq 0"
packets=$(dd if="$TOP/traces/lttng-ust-sample/ust/uid/0/64-bit/metadata" bs=5000 count=1 2>/dev/null | base64 -w0)
rm -rf "$TMP/p" && python3 "$CRAFT" "$TMP/p" good && printf '%s' "$packets" | base64 -d >"$TMP/p/metadata"
fails_with "packetized metadata cut short: refused" 1 \
	"p/metadata: metadata packet at offset 0x1000: content size" timeout 20 "$TEXT" -t "$TMP/p"
done_testing
