"""What the host-side benchmarks (decode.py, viewer.py) share: running a
command while measuring it, naming the versions they compare, and writing
their tables into docs/performance.md."""
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(TOP, 'docs', 'performance.md')


def run_timed(cmd, env=None, keep_output=True):
    """Runs cmd; exits with its error if it fails.  Returns (stdout, wall
    seconds, CPU seconds: user + system, peak RSS in MiB).  Without
    keep_output the output goes to /dev/null and stdout is '' (a text dump
    of millions of events must not be written anywhere)."""
    with tempfile.TemporaryFile() as err, \
            (tempfile.TemporaryFile() if keep_output else open(os.devnull, 'wb')) as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit('%s failed: %s' % (' '.join(cmd),
                                        err.read().decode(errors='replace').strip()[:300]))
        text = ''
        if keep_output:
            out.seek(0)
            text = out.read().decode()
        return (text, dt, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0)


def version(cmd):
    """The first line cmd prints, or 'unknown'."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return 'unknown'


def now_utc():
    """'2026-12-03 13:06 UTC'"""
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')


def load():
    """The 1-minute load average."""
    return os.getloadavg()[0]


class Report:
    """What a benchmark prints, kept to be written into docs/performance.md
    as well: print it as it comes (the run is long), then update()."""

    def __init__(self):
        self.lines = []

    def __call__(self, text=''):
        print(text, flush=True)
        self.lines.append(text)

    def text(self):
        return '\n'.join(self.lines).strip('\n') + '\n'


def update_doc(name, text, doc=DOC):
    """Replaces what lies between '<!-- NAME: begin -->' and
    '<!-- NAME: end -->' in docs/performance.md with text: the tables are
    the script's, never written by hand.  False (and a message) if the
    markers are missing."""
    begin, end = '<!-- %s: begin -->' % name, '<!-- %s: end -->' % name
    with open(doc) as f:
        old = f.read()
    m = re.search(re.escape(begin) + r'\n.*?' + re.escape(end), old, re.S)
    if not m:
        print('%s: no "%s" ... "%s" markers: not updated' % (doc, begin, end))
        return False
    new = old[:m.start()] + begin + '\n' + text + end + old[m.end():]
    with open(doc + '.tmp', 'w') as f:
        f.write(new)
    os.replace(doc + '.tmp', doc)
    print('(written into %s, between the "%s" markers)' % (os.path.relpath(doc), name))
    return True


def stamp(folder, write=True):
    """The date and the load averages of a run whose output is kept in
    folder: written there when the run starts (write=True), read back by a
    later `--from` (write=False) so that the tables it writes say when and
    on what kind of host they were measured, not when they were printed
    again."""
    path = os.path.join(folder, 'when')
    if write:
        os.makedirs(folder, exist_ok=True)
        with open(path, 'w') as f:
            f.write('%s, load average %.2f %.2f %.2f at the start\n' % ((now_utc(),) + os.getloadavg()))
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return 'date and load not recorded'
