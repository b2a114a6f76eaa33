#!/usr/bin/env python3
"""Writes a trace as lttd does while it records, for the live tests
(t55-live.sh, t68-live-waits.sh):

    live-writer.py SRC DST SYNC [--worst]

SRC is a finished trace of 8 KiB sub-buffers; DST gets eventdefs/ at once,
then the sub-buffers of every tracefile (the control channels too) in the
order lttd gets them, by the time they end: as many as there are CPU files
every 150 ms (twice that at the start). SYNC/.started is made after the
first step, SYNC/.finished at the end.

--worst writes DST as lttd leaves it at its worst, each state held until
the window has said it: nothing until SYNC/waiting.png exists (the window
waits for the trace); then cpu_0 always ends in half a sub-buffer (the
other half comes with the next step), cpu_1's first sub-buffer is
unreadable (all 0xff) and the facility table is held back, until
SYNC/leftout.png exists: then cpu_1 is written right and the table comes.
"""
import os
import shutil
import struct
import sys
import time

SUB = 8192
src, dst, sync = sys.argv[1:4]
worst = '--worst' in sys.argv[4:]


def wait_for(name):
    for _ in range(900):
        if os.path.exists(os.path.join(sync, name)):
            return
        time.sleep(0.1)
    print('live-writer: no ' + name + ' after 90 s, going on', file=sys.stderr)


if worst:
    wait_for('waiting.png')
    os.mkdir(dst)
shutil.copytree(os.path.join(src, 'eventdefs'), os.path.join(dst, 'eventdefs'))
os.mkdir(os.path.join(dst, 'control'))
files = sorted(f for f in os.listdir(src) if f.startswith('cpu_')) + \
    sorted(os.path.join('control', f) for f in os.listdir(os.path.join(src, 'control')))
ncpu = sum(1 for f in files if f.startswith('cpu_'))
subs = []
for f in files:
    data = open(os.path.join(src, f), 'rb').read()
    for off in range(0, len(data), SUB):
        end = struct.unpack_from('<Q', data, off + 16)[0]
        subs.append((end, f, off, data[off:off + SUB]))
subs.sort(key=lambda x: (x[0], x[1], x[2]))
held = [s for s in subs if worst and 'facilities' in s[1]]
subs = [s for s in subs if not (worst and 'facilities' in s[1])]
written = {}       # file -> its right bytes so far
tail = b''         # --worst: cpu_0's half sub-buffer still to write
bad_cpu1 = worst


def put(f, chunk):
    with open(os.path.join(dst, f), 'ab') as out:
        out.write(chunk)


def step(n):
    global subs, tail
    if tail:
        put('cpu_0', tail)
        tail = b''
    for _, f, _, chunk in subs[:n]:
        first = f not in written
        written[f] = written.get(f, b'') + chunk
        if worst and f == 'cpu_0':
            put(f, chunk[:SUB // 2])
            tail = chunk[SUB // 2:]
        elif f == 'cpu_1' and bad_cpu1 and first:
            put(f, b'\xff' * SUB)
        else:
            put(f, chunk)
    subs = subs[n:]


step(2 * ncpu)
open(os.path.join(sync, '.started'), 'w').close()
if worst:
    while subs and not os.path.exists(os.path.join(sync, 'leftout.png')):
        time.sleep(0.15)
        step(ncpu)
    wait_for('leftout.png')
    bad_cpu1 = False
    with open(os.path.join(dst, 'cpu_1'), 'wb') as out:
        out.write(written.get('cpu_1', b''))
    for _, f, _, chunk in held:
        put(f, chunk)
while subs:
    time.sleep(0.15)
    step(ncpu)
step(0)
open(os.path.join(sync, '.finished'), 'w').close()
