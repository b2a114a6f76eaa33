#!/usr/bin/env python3
# raw-controls.py FILE... - fails (exit 1) if a file holds what the one rule
# for showing trace text (libltttrace/src/safe-text.c) never lets through:
# a control byte other than newline and tab, DEL, bytes that are not UTF-8,
# or a code point of Unicode's categories Cc, Cf, Zl, Zp (C1 controls,
# bidi and invisible format characters, line separators). Python's own
# Unicode tables, not the library's, judge. Prints the first few findings.
import sys
import unicodedata

bad = 0
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        data = f.read()
    found = []
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        found.append('byte 0x%02x at offset %d is not UTF-8' % (data[e.start], e.start))
        text = data.decode('utf-8', 'replace')
    for i, c in enumerate(text):
        if c in '\n\t':
            continue
        if unicodedata.category(c) in ('Cc', 'Cf', 'Zl', 'Zp'):
            line = text.count('\n', 0, i) + 1
            found.append('U+%04X (%s) on line %d: %r' % (
                ord(c), unicodedata.category(c), line,
                text[max(0, i - 20):i + 20]))
            if len(found) > 3:
                break
    if found:
        bad += 1
        print('%s: %d finding(s)' % (path, len(found)))
        for s in found[:4]:
            print('  ' + s)
sys.exit(1 if bad else 0)
