#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""seed.py - the starting corpora of the fuzzers (make fuzz, t60).

    tests/fuzz/seed.py OUT_DIR TRACEGEN

writes OUT_DIR/seeds-{trace,ctf,description,genevent,filter}/ from what the
tree holds, so that no fuzzer starts from nothing (issue 16):

  trace, ctf    every bundled trace (traces/*) and every scenario and bad
                kind of the independent writer (TRACEGEN, tests/writer),
                with its layout variants: for each tracefile, an input of
                the form fuzz_trace reads (scratch-trace.h): the
                facilities channel, then that tracefile, each cut to its
                first sub-buffers
  description,  every facility file of the tree, and small hostile ones
  genevent      (a typeref DAG, deep arrays, odd names)
  filter        tests/fuzz/filter.seeds, one expression a line
  all           tests/fuzz/regressions/HARNESS/: what the fuzzers found
                once (t60 also runs each of them on its own)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PART_MAX = 4 * 1024     # bytes of each tracefile kept, whole sub-buffers


def cut(path):
    """The first whole sub-buffers of a tracefile, at most PART_MAX bytes
    (one at least); the whole file if its header cannot be read."""
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 40:
        return data
    buf_size = struct.unpack_from('<I', data, 36)[0]
    if buf_size == 0 or buf_size > len(data):
        return data[:PART_MAX]
    keep = max(buf_size, PART_MAX - PART_MAX % buf_size)
    return data[:keep]


def trace_seeds(trace, out, name):
    fac = os.path.join(trace, 'control', 'facilities_0')
    facilities = cut(fac) if os.path.isfile(fac) else b''
    files = []
    for root, _, names in os.walk(trace):
        for n in sorted(names):
            p = os.path.join(root, n)
            if p != fac and os.path.isfile(p) and '_' in n and \
               n.rsplit('_', 1)[1].isdigit() and os.path.getsize(p) > 0:
                files.append(p)
    for i, p in enumerate(files):
        blob = struct.pack('<I', len(facilities)) + facilities + cut(p)
        with open(os.path.join(out, '%s-%02d' % (name, i)), 'wb') as f:
            f.write(blob)
    if not files and facilities:
        with open(os.path.join(out, name + '-fac'), 'wb') as f:
            f.write(struct.pack('<I', len(facilities)) + facilities)


def writer_traces(tracegen, tmp):
    """(name, folder) of the writer's scenarios and bad kinds."""
    runs = []
    for scen in ('sample', 'types', 'wraps'):
        runs.append(('w-' + scen, ['--scenario', scen]))
    runs.append(('w-busy', ['--scenario', 'busy', '--events', '3000']))
    runs.append(('w-flight', ['--scenario', 'wraps', '--flight']))
    # hostile names (issue 31) and doubles of ARM's FPA
    runs.append(('w-names', ['--scenario', 'names']))
    runs.append(('w-types-fpa', ['--scenario', 'types', '--float-word-order', '4321']))
    for variant, args in (('hb0', ['--heartbeat', '0', '--alignment', '4']),
                          ('a4', ['--arch-size', '4', '--alignment', '0'])):
        for scen in ('sample', 'types'):
            runs.append(('w-%s-%s' % (scen, variant), ['--scenario', scen] + args))
    kinds = subprocess.run([tracegen, '--list-bad'], capture_output=True,
                           text=True, check=True).stdout.split('\n')
    for line in kinds:
        if line.strip():
            kind = line.split()[0]
            runs.append(('bad-' + kind, ['--bad', kind]))
    for name, args in runs:
        d = os.path.join(tmp, name)
        r = subprocess.run([tracegen] + args + ['-o', d], capture_output=True)
        if r.returncode == 0:
            yield name, d
        else:
            print('seed.py: ltt-tracegen %s failed' % ' '.join(args), file=sys.stderr)


HOSTILE_XML = {
    'dag.xml': '<facility name="dag"><type name="T0"><uchar/></type>' +
               ''.join('<type name="T%d"><struct><field name="a"><typeref name="T%d"/>'
                       '</field><field name="b"><typeref name="T%d"/></field></struct>'
                       '</type>' % (i, i - 1, i - 1) for i in range(1, 6)) +
               '<event name="e"><field name="x"><typeref name="T5"/></field></event>'
               '</facility>',
    'arrays.xml': '<facility name="arr"><event name="e"><field name="x"><array size="64">'
                  '<array size="8"><uint_fixed size="2"/></array></array></field>'
                  '<field name="s"><sequence><uchar/><struct><field name="a"><string/>'
                  '</field></struct></sequence></field></event></facility>',
    'enum.xml': '<facility name="en"><event name="e"><field name="x"><enum>'
                '<label name="A" value="9223372036854775806"/><label name="B"/>'
                '<label name="C" value="-9223372036854775808"/><label name="D"/>'
                '</enum></field></event></facility>',
    'names.xml': '<facility name="nm"><description>a */ comment</description>'
                 '<event name="e_1"><description>/* x */</description>'
                 '<field name="_f"><int size="2"/></field>'
                 '<field name="g"><sequence><uint/><ulong/></sequence></field></event>'
                 '</facility>',
}


def metadata_text(data):
    """The TSDL text of packetized metadata (LTTng's), or data as it is."""
    out, off = b'', 0
    while len(data) - off >= 37 and struct.unpack_from('<I', data, off)[0] == 0x75D11D57:
        content, packet = struct.unpack_from('<II', data, off + 24)
        out += data[off + 37:off + content // 8]
        off += max(packet // 8, 37)
    return out if out else data


def lttng_seeds(trace, meta_out, stream_out, name):
    """An LTTng trace's metadata (packetized and as text) and its streams
    (cut to their first 16 KiB)."""
    i = 0
    for root, _, names in os.walk(trace):
        if 'metadata' not in names:
            continue
        with open(os.path.join(root, 'metadata'), 'rb') as f:
            data = f.read()
        for suffix, blob in (('packets', data), ('text', metadata_text(data))):
            with open(os.path.join(meta_out, '%s-%d-%s' % (name, i, suffix)), 'wb') as f:
                f.write(blob)
        for n in sorted(names):
            if n != 'metadata':
                with open(os.path.join(root, n), 'rb') as f:
                    blob = f.read(16384)
                with open(os.path.join(stream_out, '%s-%d-%s' % (name, i, n)), 'wb') as f:
                    f.write(blob)
                with open(os.path.join(stream_out, '%s-%d-%s-4k' % (name, i, n)), 'wb') as f:
                    f.write(blob[:4096])
        i += 1


# small TSDL inputs that reach the parser's refusals
HOSTILE_TSDL = {
    'deep.tsdl': 'typealias integer { size = 8; } := u8;\n' +
                 'typealias struct { ' * 80 + 'u8 x; ' + '} := s;' * 80,
    'seqref.tsdl': 'typealias integer { size = 8; } := u8;\nstream { id = 0; };\n'
                   'event { name = "e"; fields := struct { u8 n; u8 a[n]; u8 b[m]; }; };',
    'variant.tsdl': 'typealias integer { size = 8; } := u8;\nstream { id = 0; };\n'
                    'event { name = "e"; fields := struct { enum : u8 { A, B } t; '
                    'variant <t> { u8 A; string B; } v; }; };',
}


def main():
    out, tracegen = sys.argv[1], sys.argv[2]
    dirs = {k: os.path.join(out, 'seeds-' + k)
            for k in ('trace', 'ctf', 'description', 'genevent', 'filter',
                      'lttng_meta', 'lttng_stream')}
    for d in dirs.values():
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    traces = os.path.join(TOP, 'traces')
    for n in sorted(os.listdir(traces)):
        if os.path.isdir(os.path.join(traces, n)):
            trace_seeds(os.path.join(traces, n), dirs['trace'], n)
            lttng_seeds(os.path.join(traces, n), dirs['lttng_meta'],
                        dirs['lttng_stream'], n)
    for n, text in HOSTILE_TSDL.items():
        with open(os.path.join(dirs['lttng_meta'], 'hostile-' + n), 'w') as f:
            f.write(text)
    with tempfile.TemporaryDirectory() as tmp:
        for name, d in writer_traces(tracegen, tmp):
            trace_seeds(d, dirs['trace'], name)
    for n in os.listdir(dirs['trace']):
        shutil.copy(os.path.join(dirs['trace'], n), dirs['ctf'])
    xml = []
    for d in ('facilities', 'tests/facilities', 'libltt-usertrace/examples'):
        for n in sorted(os.listdir(os.path.join(TOP, d))):
            if n.endswith('.xml'):
                xml.append(os.path.join(TOP, d, n))
    for p in xml:
        for k in ('description', 'genevent'):
            shutil.copy(p, dirs[k])
    for n, text in HOSTILE_XML.items():
        for k in ('description', 'genevent'):
            with open(os.path.join(dirs[k], 'hostile-' + n), 'w') as f:
                f.write(text)
    with open(os.path.join(TOP, 'tests', 'fuzz', 'filter.seeds')) as f:
        for i, line in enumerate(l.rstrip('\n') for l in f):
            if line and not line.startswith('#'):
                with open(os.path.join(dirs['filter'], 'f%03d' % i), 'w') as g:
                    g.write(line)
    for k, d in dirs.items():
        found = os.path.join(TOP, 'tests', 'fuzz', 'regressions', k)
        for n in sorted(os.listdir(found)) if os.path.isdir(found) else ():
            shutil.copy(os.path.join(found, n), os.path.join(d, 'regression-' + n))
    for k, d in sorted(dirs.items()):
        print('seeds-%s: %d files' % (k, len(os.listdir(d))))


if __name__ == '__main__':
    main()
