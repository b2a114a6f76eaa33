"""Shared by bench/tracer.py and bench/lttd.py: boot the benchmark kernel
(build-kernel-bench/, `make bench-kernel`) in QEMU with a guest script and
the extra programs it needs, through qemu/run.sh.

The extras go into the initramfs as a gen_init_cpio list (run.sh's
INITRAMFS_EXTRA): our static ltt-bench-tool, the parameters file,
dynamically linked host programs (trace-cmd, perf) with the shared
libraries ldd names, at the same paths, and with LTTNG=1 in the
parameters LTTng 2.13's modules and tools (qemu/lttng-initramfs.sh) and
ltt-ust-bench (LTTng-UST's user-space load, linked with liblttng-ust).
"""
import os
import platform
import shutil
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, 'build')
KTREE = os.path.join(TOP, 'build-kernel-bench', 'linux-source-6.1')
KERNEL = os.path.join(KTREE, 'arch', 'x86', 'boot', 'bzImage')
# The facility ltt-bench-tool's generic mode registers (libltt-usertrace's example)
EXAMPLE_XML = os.path.join(TOP, 'libltt-usertrace', 'examples', 'usertrace_example.xml')


def example_checksum():
    """The checksum of EXAMPLE_XML, as ltt-checksum computes it."""
    out = subprocess.run([os.path.join(BUILD, 'bin', 'ltt-checksum'), EXAMPLE_XML],
                         capture_output=True, text=True, check=True).stdout
    return out.split()[1]


# Which kernel the guest benchmarks boot: 'bench' (build-kernel-bench, our
# series without debug options) or 'stock' (Debian's own image with the
# tracer's modules, qemu/modules-boot.sh); bench/tracer.py --kernel sets it.
WHICH = {'kernel': 'bench'}
STOCK_CACHE = os.environ.get('LTT_STOCK_CACHE', '/var/cache/ltt')


def stock_kver():
    """The ABI scripts/install-deps.sh kernel pinned, or None."""
    try:
        with open(os.path.join(STOCK_CACHE, 'stock-kver')) as f:
            return f.read().strip() or None
    except OSError:
        return None


def missing():
    """Why the guest benchmarks cannot run here, or None."""
    if WHICH['kernel'] == 'stock':
        kver = stock_kver()
        if not kver or not os.path.isdir('/usr/src/linux-headers-%s' % kver):
            return 'no pinned stock kernel and its headers (scripts/install-deps.sh kernel)'
    elif not os.path.exists(KERNEL):
        return 'no benchmark kernel %s (make bench-kernel)' % os.path.relpath(KERNEL, TOP)
    if not shutil.which('qemu-system-x86_64'):
        return 'no qemu-system-x86_64 (scripts/install-deps.sh kernel)'
    for b in ('lttctl', 'lttd', 'ltt-checksum'):
        if not os.path.exists(os.path.join(BUILD, 'bin', b)):
            return 'no build/bin/%s (make)' % b
    return None


def shared_libs(binary):
    """The absolute paths of the libraries (and loader) ldd lists for binary."""
    out = subprocess.run(['ldd', binary], capture_output=True, text=True, check=True).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split()
        if '=>' in parts:
            p = parts[parts.index('=>') + 1]
            if p.startswith('/'):
                libs.append(p)
        elif parts and parts[0].startswith('/'):
            libs.append(parts[0])
    return libs


def cpio_list(work, params, programs):
    """Writes the extra gen_init_cpio list; programs maps guest path -> host
    path (dynamic ones bring their libraries)."""
    tool = os.path.join(work, 'ltt-bench-tool')
    os.makedirs(work, exist_ok=True)
    subprocess.run([os.environ.get('CC', 'cc'), '-static', '-O2', '-Wall', '-Wextra', '-std=c11',
                    '-I' + os.path.join(TOP, 'include'), '-I' + os.path.join(TOP, 'libltt-usertrace', 'include'),
                    '-o', tool, os.path.join(TOP, 'bench', 'ltt-bench-tool.c'),
                    os.path.join(BUILD, 'lib', 'libltt-usertrace.a')], check=True)
    pfile = os.path.join(work, 'params')
    with open(pfile, 'w') as f:
        for k, v in params.items():
            f.write('%s=%s\n' % (k, v))
    entries = ['file /usr/bin/ltt-bench-tool %s 0755 0 0' % tool,
               'file /ltt/params %s 0644 0 0' % pfile,
               'file /usr/share/ltt/facilities/usertrace_example.xml %s 0644 0 0' % EXAMPLE_XML]
    if params.get('LTTNG'):
        # LTTng-UST's load: linked with liblttng-ust (liblttng-ust-dev on the host)
        ust = os.path.join(work, 'ltt-ust-bench')
        if subprocess.run([os.environ.get('CC', 'cc'), '-O2', '-Wall', '-Wextra',
                           '-I' + os.path.join(TOP, 'bench'), '-o', ust,
                           os.path.join(TOP, 'bench', 'ltt-ust-bench.c'), '-llttng-ust',
                           '-ldl']).returncode != 0:
            raise SystemExit('LTTng-UST for the guest: bench/ltt-ust-bench.c does not build '
                             '(liblttng-ust-dev?)')
        programs = dict(programs, **{'/usr/bin/ltt-ust-bench': ust})
    dirs, files = set(), {}
    for guest, host in programs.items():
        files[guest] = host
        for lib in shared_libs(host):
            files[lib] = os.path.realpath(lib)
    for guest in files:
        d = os.path.dirname(guest)
        while d not in ('/', '') and d not in ('/usr', '/usr/bin', '/bin', '/ltt'):
            dirs.add(d)
            d = os.path.dirname(d)
    for d in sorted(dirs, key=len):
        entries.append('dir %s 0755 0 0' % d)
    for guest, host in sorted(files.items()):
        entries.append('file %s %s 0755 0 0' % (guest, host))
    lst = os.path.join(work, 'extra.list')
    with open(lst, 'w') as f:
        f.write('\n'.join(entries) + '\n')
    if params.get('LTTNG'):
        # LTTng 2.13's modules and tools (stock kernel only)
        # (it says why on stderr when it cannot: no network, no root...)
        if subprocess.run([os.path.join(TOP, 'qemu', 'lttng-initramfs.sh'), lst], cwd=TOP,
                          env=dict(os.environ, BUILD='build')).returncode != 0:
            raise SystemExit('LTTng 2.13 for the guest: qemu/lttng-initramfs.sh failed')
    return lst


def boot(out, script, params, programs, mem=2048, timeout=1200):
    """Boots the benchmark kernel with script as the guest scenario; the
    guest's files end up in out.  Raises on failure."""
    work = out + '.extra'
    lst = cpio_list(work, params, programs)
    env = dict(os.environ, BUILD='build', KERNEL_TREE=KTREE, GUEST_SCRIPT=script,
               INITRAMFS_EXTRA=lst, QEMU_MEM=str(mem), QEMU_TIMEOUT=str(timeout))
    runner = 'run.sh'
    # Under TCG the kernel, Debian's and ours alike ("tsc: Marking TSC
    # unstable due to TSCs unsynchronized" in the console), finds the vCPUs'
    # TSCs unsynchronized and marks the TSC unstable (qemu/field-boot.sh):
    # its clock source is then HPET, an emulated device read per clock
    # read, which LTTng (kernel: ktime_get_mono_fast_ns; UST: clock_gettime,
    # a system call then) pays on every event, and ftrace switches to its
    # "global" clock. Ours reads the TSC itself. On hardware the TSC is
    # stable: so here too, or the comparison would measure QEMU's HPET.
    env['QEMU_APPEND'] = ' '.join(x for x in (os.environ.get('QEMU_APPEND'), 'tsc=reliable')
                                  if x)
    if WHICH['kernel'] == 'stock':
        del env['KERNEL_TREE']
        env['LTT_MODULES_KERNEL'] = 'stock'
        runner = 'modules-boot.sh'
    subprocess.run([os.path.join(TOP, 'qemu', runner), out], env=env, cwd=TOP, check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(out, 'guest.rc')) as f:
        rc = f.read().strip()
    if rc != '0':
        raise RuntimeError('the guest script failed (%s): see %s/guest.log' % (rc, out))
    with open(os.path.join(out, 'results')) as f:
        bad = [ln.strip() for ln in f if ln.split()[1:2] != ['0']]
    return bad


def machine(out):
    """One line: host CPU, QEMU, guest kernel."""
    cpu = 'unknown CPU'
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next(ln.split(':', 1)[1].strip() for ln in f if ln.startswith('model name'))
    except (OSError, StopIteration):
        pass
    qemu = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                          text=True).stdout.splitlines()[0]
    try:
        with open(os.path.join(out, 'versions')) as f:
            kernel = f.readline().strip()
    except OSError:
        kernel = '?'
    what = ("Debian's own image with the tracer's modules" if WHICH['kernel'] == 'stock'
            else 'build-kernel-bench, no debug options')
    return ('host %s %s, %d CPUs; %s, TCG, 2 vCPUs; guest Linux %s (%s)'
            % (platform.machine(), cpu, os.cpu_count(), qemu, kernel, what))


def count_events(trace):
    """(events on CPU 0, events lost on CPU 0, total events, total lost) of
    one of our traces, by lttv-text's per-CPU statistics."""
    out = subprocess.run([os.path.join(BUILD, 'bin', 'lttv-text'), '-t', trace, '-q', '-c'],
                         capture_output=True, text=True, check=True).stdout
    cpu0 = lost0 = total = lost = 0
    for line in out.splitlines():
        w = line.split()
        if line.startswith('cpu ') and len(w) >= 4:
            n, lo = int(w[2]), int(w[-2])
            if w[1] == '0:':
                cpu0, lost0 = n, lo
            total += n
            lost += lo
    return cpu0, lost0, total, lost
