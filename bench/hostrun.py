"""What the host-side benchmarks (decode.py, viewer.py) share: running a
command while measuring it, and naming the versions they compare."""
import os
import subprocess
import sys
import tempfile
import time


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
