#!/usr/bin/env python3
"""Checks facility descriptions against the dialect of the 2006 parser.

docs/format.md ("The dialect of the era's parser") lists the rules: a file
that breaks one is refused by the era's LTTV, or is read by it with another
checksum or layout than ours.  Usage: xml-dialect.py FILE...; prints one
line per broken rule ("FILE: line N: what") and exits 1 if there is one.
"""
import re
import sys
import xml.etree.ElementTree as ET

PROLOG = '<?xml version="1.0"?>'
SEQ_LENGTH = {'uint_fixed', 'uchar', 'ushort', 'uint', 'ulong', 'size_t', 'off_t'}
TYPES = {'int', 'uint', 'int_fixed', 'uint_fixed', 'char', 'uchar', 'short',
         'ushort', 'long', 'ulong', 'pointer', 'size_t', 'ssize_t', 'off_t',
         'float', 'string', 'enum', 'array', 'sequence', 'struct', 'union',
         'typeref'}


def line_of(text, pos):
    return text.count('\n', 0, pos) + 1


def check(path):
    errs = []
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return ['%s: cannot read: %s' % (path, e)]

    def bad(pos, what):
        errs.append('%s: line %d: %s' % (path, line_of(text, pos), what))

    first = text.split('\n', 1)[0]
    if first != PROLOG:
        bad(0, 'the first line is not exactly %s' % PROLOG)
    elif not text[len(PROLOG):].lstrip().startswith('<facility'):
        bad(len(PROLOG), 'something other than <facility> follows the prolog')
    for m in re.finditer(r'<!--', text):
        bad(m.start(), 'an XML comment (the era parser stops on "<!")')
    for m in re.finditer(r'/\*|(?<![:"])//', text):
        bad(m.start(), 'a C comment (the era parser skips it, XML reads it as text)')
    for m in re.finditer(r'&', text):
        bad(m.start(), 'an entity (the era parser does not decode them)')
    for m in re.finditer(r'<(enum|int|uint)\b[^>]*\bsize\s*=', text):
        bad(m.start(), '<%s> with a size (it is the facility\'s int_size)' % m.group(1))
    for m in re.finditer(r'\blengthsize\s*=', text):
        bad(m.start(), 'lengthsize (the era parser wants two types in <sequence>)')
    for m in re.finditer(r'<label\b[^>]*\bvalue\s*=\s*"([^"]*)"', text):
        if not re.fullmatch(r'[0-9]+', m.group(1)):
            bad(m.start(), 'label value "%s" is not a non-negative decimal' % m.group(1))
    for m in re.finditer(r'<float\b([^>]*)>', text):
        if not re.search(r'\bsize\s*=\s*"[48]"', m.group(1)):
            bad(m.start(), '<float> without size="4" or size="8"')
    if errs:
        return errs

    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        return ['%s: not well-formed XML: %s' % (path, e)]
    if root.tag != 'facility':
        return ['%s: the root is <%s>, not <facility>' % (path, root.tag)]
    defined = set()

    def desc_first(el, where):
        kids = list(el)
        for i, k in enumerate(kids):
            if k.tag == 'description' and i != 0:
                errs.append('%s: %s: <description> is not its first element' % (path, where))

    def walk_type(t, where):
        if t.tag not in TYPES:
            errs.append('%s: %s: <%s> is not a type' % (path, where, t.tag))
            return
        kids = list(t)
        if t.tag == 'typeref' and t.get('name') not in defined:
            errs.append('%s: %s: typeref "%s" is not defined above it' % (path, where, t.get('name')))
        if t.tag == 'sequence':
            if len(kids) != 2:
                errs.append('%s: %s: <sequence> needs a length type then an element type' % (path, where))
            elif kids[0].tag not in SEQ_LENGTH:
                errs.append('%s: %s: sequence length <%s> is not an unsigned type' % (path, where, kids[0].tag))
        if t.tag == 'array' and len(kids) != 1:
            errs.append('%s: %s: <array> needs one element type' % (path, where))
        if t.tag in ('array', 'sequence'):
            for k in kids:
                walk_type(k, where)
        if t.tag in ('struct', 'union'):
            for f in kids:
                walk_field(f, where)

    def walk_field(f, where):
        where = '%s field %s' % (where, f.get('name'))
        if f.tag != 'field':
            errs.append('%s: %s: <%s> where a <field> is expected' % (path, where, f.tag))
            return
        desc_first(f, where)
        types = [k for k in f if k.tag != 'description']
        if len(types) != 1:
            errs.append('%s: %s: %d types, not one' % (path, where, len(types)))
        for k in types:
            walk_type(k, where)

    desc_first(root, 'facility')
    for el in root:
        if el.tag == 'type':
            kids = list(el)
            if len(kids) == 1:
                walk_type(kids[0], 'type %s' % el.get('name'))
            defined.add(el.get('name'))
        elif el.tag == 'event':
            where = 'event %s' % el.get('name')
            desc_first(el, where)
            for f in el:
                if f.tag != 'description':
                    walk_field(f, where)
    return errs


def main():
    if len(sys.argv) < 2:
        sys.stderr.write('usage: xml-dialect.py FILE...\n')
        return 2
    errs = []
    for p in sys.argv[1:]:
        errs += check(p)
    for e in errs:
        print(e)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
