"""The checks' seccomp filter (sandbox/seccomp.py) is an allowlist: what it lets through must be
enough for ordinary programs. Each snippet below is honest code of a kind tests and solutions
contain (threads, processes, sqlite with its locks, asyncio, mmap, sockets between the check's
own processes...); every one must pass in the real sandbox with the filter, on both set-up
paths. The refusals themselves are attacks: tests/adversarial and test_adversarial.py."""

from __future__ import annotations

import dataclasses
import functools

import pytest

from rlvr_grade.checks.styles import score
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Check, Limits
from rlvr_harness.splitting import assert_ids
from tests.conftest import requires_root

pytestmark = requires_root

ORDINARY = {
    "sqlite_wal_with_locks": """
import sqlite3
c = sqlite3.connect('/tmp/x.db')
c.execute('PRAGMA journal_mode=WAL')
c.execute('create table t(a)')
c.executemany('insert into t values (?)', [(i,) for i in range(100)])
c.commit()
d = sqlite3.connect('/tmp/x.db')
ok = d.execute('select count(*) from t').fetchone() == (100,)
""",
    "file_locks_on_own_files": """
import fcntl, os
fh = open('/tmp/lock', 'w')
fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
fcntl.lockf(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
fcntl.flock(fh, fcntl.LOCK_UN)
ok = fcntl.fcntl(fh, fcntl.F_GETFD) & fcntl.FD_CLOEXEC == fcntl.FD_CLOEXEC
""",
    "multiprocessing_pool_queue_shared_memory": """
import multiprocessing as mp
from multiprocessing import shared_memory
def sq(x):
    return x * x
with mp.Pool(2) as p:
    r = p.map(sq, range(10))
q = mp.Queue()
pr = mp.Process(target=q.put, args=(42,))
pr.start(); pr.join()
shm = shared_memory.SharedMemory(create=True, size=64)
shm.buf[0] = 7
other = shared_memory.SharedMemory(name=shm.name)
v = other.buf[0]
other.close(); shm.close(); shm.unlink()
ok = r[3] == 9 and q.get(timeout=5) == 42 and v == 7
""",
    "threads_and_executors": """
import threading, concurrent.futures as cf
lock, ev, out = threading.Lock(), threading.Event(), []
def work(i):
    with lock:
        out.append(i)
    return i
with cf.ThreadPoolExecutor(4) as ex:
    r = sum(ex.map(work, range(20)))
with cf.ProcessPoolExecutor(2) as ex:
    p = sum(ex.map(abs, range(-5, 0)))
t = threading.Timer(0.01, ev.set); t.start(); ev.wait(5)
ok = r == 190 and p == 15 and ev.is_set() and len(out) == 20
""",
    "asyncio_tasks_streams_subprocess": """
import asyncio, sys, socket
async def main():
    r = await asyncio.gather(*(asyncio.sleep(0.01, result=i) for i in range(5)))
    proc = await asyncio.create_subprocess_exec(sys.executable, '-c', 'print(6 * 7)', stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    a, b = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=a)
    b.sendall(b'hi\\n')
    line = await reader.readline()
    writer.close()
    b.close()
    x = await asyncio.get_running_loop().run_in_executor(None, sum, [1, 2])
    return r, out, line, x
r, out, line, x = asyncio.run(main())
ok = r == [0, 1, 2, 3, 4] and out.strip() == b'42' and line == b'hi\\n' and x == 3
""",
    "subprocess_pipes": """
import subprocess, sys
p = subprocess.run([sys.executable, '-c', 'import sys; print(sys.stdin.read().upper())'], input='abc',
                   capture_output=True, text=True, timeout=30)
ok = p.returncode == 0 and p.stdout.strip() == 'ABC'
""",
    "files_dirs_links_and_copies": """
import os, shutil, tempfile, pathlib, gzip, zipfile, tarfile
d = tempfile.mkdtemp()
p = pathlib.Path(d, 'a.txt'); p.write_text('x' * 1000)
os.link(p, pathlib.Path(d, 'hard')); os.symlink(p, pathlib.Path(d, 'soft'))
shutil.copy(p, pathlib.Path(d, 'b.txt')); shutil.copytree(d, d + '2', symlinks=True)
os.rename(pathlib.Path(d, 'b.txt'), pathlib.Path(d, 'c.txt')); os.chmod(pathlib.Path(d, 'c.txt'), 0o600)
os.utime(p, (1e9, 1e9)); os.truncate(pathlib.Path(d, 'c.txt'), 10)
with gzip.open(pathlib.Path(d, 'z.gz'), 'wt') as fh:
    fh.write('hi')
with zipfile.ZipFile(pathlib.Path(d, 'z.zip'), 'w') as z:
    z.write(p, 'a.txt')
with tarfile.open(pathlib.Path(d, 't.tar'), 'w') as t:
    t.add(p, 'a.txt')
with tempfile.NamedTemporaryFile() as f:
    f.write(b'1'); f.flush(); os.fsync(f.fileno())
st = os.statvfs('/tmp')
names = sorted(x.name for x in pathlib.Path(d).iterdir())
shutil.rmtree(d + '2')
ok = os.readlink(pathlib.Path(d, 'soft')) == str(p) and st.f_bsize > 0 and 'hard' in names and os.path.getsize(pathlib.Path(d, 'c.txt')) == 10
""",
    "fifo_select_poll_epoll": """
import os, select, fcntl
os.mkfifo('/tmp/f')
r = os.open('/tmp/f', os.O_RDONLY | os.O_NONBLOCK)
w = os.open('/tmp/f', os.O_WRONLY)
os.write(w, b'x')
a = select.select([r], [], [], 1)[0]
p = select.poll(); p.register(r, select.POLLIN)
e = select.epoll(); e.register(r, select.EPOLLIN)
pr, pw = os.pipe(); os.set_blocking(pr, False)
flags = fcntl.fcntl(pr, fcntl.F_GETFL)
ok = a == [r] and p.poll(1000) and e.poll(1) and os.read(r, 1) == b'x' and flags & os.O_NONBLOCK
""",
    "mmap_anonymous_and_file": """
import mmap
m = mmap.mmap(-1, 1 << 20); m[:5] = b'hello'; m.madvise(mmap.MADV_DONTNEED) if hasattr(m, 'madvise') else None
with open('/tmp/m', 'wb') as fh:
    fh.write(b'\\0' * 4096)
with open('/tmp/m', 'r+b') as fh:
    mm = mmap.mmap(fh.fileno(), 4096); mm[0:3] = b'abc'; mm.flush(); mm.resize(8192); mm.close()
ok = open('/tmp/m', 'rb').read(3) == b'abc'
""",
    "signals_timers_sleep": """
import signal, time, os
hits = []
signal.signal(signal.SIGALRM, lambda *a: hits.append(1))
signal.setitimer(signal.ITIMER_REAL, 0.01)
time.sleep(0.1)
signal.alarm(0)
os.kill(os.getpid(), signal.SIGUSR1) if signal.signal(signal.SIGUSR1, lambda *a: hits.append(2)) is not None else None
t0 = time.process_time(); sum(range(10 ** 5)); cpu = time.process_time() - t0
ok = 1 in hits and 2 in hits and cpu >= 0 and time.thread_time() >= 0 and time.monotonic() > 0
""",
    "unix_sockets_between_own_processes": """
import socket, os, threading
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); srv.bind('/tmp/s.sock'); srv.listen(1)
def serve():
    c, _ = srv.accept(); c.sendall(c.recv(10).upper()); c.close()
t = threading.Thread(target=serve); t.start()
cl = socket.socket(socket.AF_UNIX); cl.connect('/tmp/s.sock'); cl.sendall(b'ping'); got = cl.recv(10); t.join()
ab = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); ab.bind('\\0rlvr-abstract-' + str(os.getpid()))
ok = got == b'PING'
""",
    "identity_time_random_and_resources": """
import os, pwd, getpass, resource, random, secrets, uuid, hashlib, datetime, zoneinfo, locale, platform
u = getpass.getuser(); home = pwd.getpwuid(os.getuid()).pw_dir
ru = resource.getrusage(resource.RUSAGE_SELF); t = os.times()
tz = datetime.datetime(2024, 1, 1, tzinfo=zoneinfo.ZoneInfo('Europe/Paris')).utcoffset()
locale.setlocale(locale.LC_ALL, '')
ok = (u == 'rlvr' and home == '/tmp/w' and ru.ru_maxrss > 0 and t.user >= 0 and len(os.urandom(8)) == 8
      and len(secrets.token_hex(4)) == 8 and uuid.uuid4().version == 4 and tz.total_seconds() == 3600
      and os.cpu_count() >= 1 and len(os.sched_getaffinity(0)) >= 1 and platform.system() == 'Linux'
      and hashlib.sha256(b'').hexdigest().startswith('e3b0') and random.random() < 1)
""",
    "fork_wait_and_process_groups": """
import os, signal
pid = os.fork()
if pid == 0:
    os.setsid()
    os._exit(3)
_, status = os.waitpid(pid, 0)
os.kill(os.getpid(), 0)
ok = os.waitstatus_to_exitcode(status) == 3 and os.getpgid(0) > 0 and os.getsid(0) > 0
""",
    "numpy_with_threads": """
import numpy as np
a = np.arange(40000, dtype=np.float64).reshape(200, 200)
b = a @ a.T
ok = b.shape == (200, 200) and float(np.linalg.norm(np.eye(3))) > 1.7
""",
}


def _check(source: str) -> Check:
    tests = "assert ok\n"
    return Check(style="asserts", program=source, tests=tests, expected_tests=tuple(assert_ids(tests)),
                 limits=Limits(cpu_s=20.0, wall_s=60.0, memory_mb=1024, processes=64))


@pytest.fixture(scope="module", params=["c", "python"])
def backend(request):
    from rlvr_grade.sandbox.local import LocalBackend
    from rlvr_grade.sandbox.zygote import _c_setup

    if request.param == "c" and _c_setup() is None:
        pytest.skip("sandbox/_child.c is not built here")
    b = LocalBackend(concurrency=2, c_setup=request.param == "c")
    b.start()
    yield b
    b.close()


@pytest.mark.parametrize("name", sorted(ORDINARY))
def test_ordinary_programs_run_under_the_filter(backend, name, numpy_env):
    check = _check(ORDINARY[name])
    if "numpy" in name:  # in an environment that has it (the default one is stdlib + pytest)
        backend.add_environment(numpy_env)
        check = dataclasses.replace(check, env=numpy_env.id)
    ex = backend.run(check)
    out = score(check, ex, RewardConfig(), 0.0)
    assert (out.status, out.reward) == ("pass", 1.0), (out, ex.stdout[-1000:], ex.stderr[-1500:])


ARGUMENT_PROBE = r"""
import ctypes, errno, fcntl, os, socket, json, sys
libc = ctypes.CDLL(None, use_errno=True)

def call(fn, *args):
    r = fn(*args)
    return 0 if r >= 0 else ctypes.get_errno()

out = {}
out["dumpable_0"] = call(libc.prctl, 4, 0, 0, 0, 0)
out["dumpable_1"] = call(libc.prctl, 4, 1, 0, 0, 0)
out["set_name"] = call(libc.prctl, 15, ctypes.c_char_p(b"x"), 0, 0, 0)
out["set_ptracer"] = call(libc.prctl, 0x59616d61, 0, 0, 0, 0)
out["set_mm"] = call(libc.prctl, 35, 0, 0, 0, 0)
r, w = os.pipe()
out["tcgets"] = call(libc.ioctl, r, ctypes.c_ulong(0x5401), ctypes.create_string_buffer(64))
out["tiocsti"] = call(libc.ioctl, r, ctypes.c_ulong(0x5412), ctypes.c_char_p(b"x"))
out["fionread"] = call(libc.ioctl, r, ctypes.c_ulong(0x541B), ctypes.byref(ctypes.c_int()))
out["f_getfl"] = call(libc.fcntl, r, 3, 0)
out["f_setpipe_sz"] = call(libc.fcntl, r, 1031, 1 << 20)
out["f_notify"] = call(libc.fcntl, r, 1026, 1)
out["f_setown"] = call(libc.fcntl, r, 8, os.getpid())
out["clone_newuser"] = call(libc.syscall, 56, ctypes.c_long(0x10000000 | 17), 0, 0, 0, 0)
out["socket_inet"] = call(libc.socket, 2, 1, 0)
out["socket_unix"] = call(libc.socket, 1, 1, 0)
out["mkfifo"] = call(libc.mknod, b"/tmp/rlvr-seccomp-fifo-%d" % os.getpid(), 0o010600, 0)
out["mknod_char"] = call(libc.mknod, b"/tmp/rlvr-seccomp-char-%d" % os.getpid(), 0o020600, os.makedev(1, 3))
out["inotify"] = call(libc.inotify_init1, 0)
out["mincore"] = call(libc.syscall, 27, 0, 0, 0)
out["unknown_new_call"] = call(libc.syscall, 461, 0, 0, 0)
fd = os.open(os.__file__, os.O_RDONLY)
for name, flags in (("preadv2_dsync", os.RWF_DSYNC), ("preadv2_nowait", os.RWF_NOWAIT)):
    try:
        os.preadv(fd, [bytearray(16)], 0, flags)
        out[name] = 0
    except OSError as exc:
        out[name] = exc.errno
pid = os.fork()
if pid == 0:
    os._exit(7)
out["fork"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
for p in ("fifo", "char"):
    try:
        os.unlink("/tmp/rlvr-seccomp-%s-%d" % (p, os.getpid()))
    except OSError:
        pass
print(json.dumps(out))
"""


def test_the_filter_checks_arguments_where_a_call_is_needed_but_not_every_use():
    """Loaded in a plain child process (no sandbox around it), so what answers is the filter."""
    import errno
    import json
    import os
    import subprocess
    import sys

    from rlvr_grade.sandbox import seccomp

    prog = seccomp.compile_filter().program
    loader = (f"import ctypes, sys\nfrom rlvr_grade.sandbox import seccomp, linux\n"
              f"linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)\n"
              f"seccomp.Filter(program=bytes.fromhex({prog.hex()!r}), allowed=()).load()\n"
              f"exec(compile({ARGUMENT_PROBE!r}, 'probe', 'exec'))\n")
    res = subprocess.run([sys.executable, "-c", loader], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(seccomp.__file__)) + "/.."})
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    allowed = ("dumpable_0", "set_name", "f_getfl", "socket_unix", "mkfifo")
    assert {k: out[k] for k in allowed} == dict.fromkeys(allowed, 0), out
    assert out["tcgets"] == errno.ENOTTY and out["fionread"] == 0  # reached the kernel: a pipe is no tty
    assert out["fork"] == 7
    for name in ("dumpable_1", "set_ptracer", "set_mm", "tiocsti", "f_setpipe_sz", "f_notify", "f_setown",
                 "mknod_char", "inotify", "mincore", "unknown_new_call"):
        assert out[name] in (errno.ENOSYS, errno.EPERM), (name, out[name])
    assert out["clone_newuser"] == errno.EPERM
    assert out["socket_inet"] == errno.EAFNOSUPPORT
    # Page-cache residency: the kernel answers RWF_NOWAIT on this file (checked unfiltered
    # here); under the filter the flag is refused, plain reads are not.
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(16)], 0, os.RWF_NOWAIT)
    except BlockingIOError:
        pass  # "not cached" is an answer too
    finally:
        os.close(fd)
    assert out["preadv2_dsync"] == 0 and out["preadv2_nowait"] == errno.EOPNOTSUPP, out


def test_the_channel_guard_keeps_the_result_channel_in_place():
    """seccomp.channel_guard in front of the allowlist: dup2/dup3 onto the channel, close of it,
    close_range over it are refused (upper argument bits set too: the kernel reads an unsigned
    int); the same calls on other descriptors and writes to the channel still work."""
    import errno
    import json
    import os
    import subprocess
    import sys

    from rlvr_grade.sandbox import seccomp

    chan = 517
    prog = seccomp.compile_filter(channel_fd=chan).program
    probe = (
        "import ctypes, json, os\n"
        "from rlvr_grade.sandbox import seccomp, linux\n"
        f"CH = {chan}\n"
        "r, w = os.pipe(); os.dup2(w, CH)\n"
        "linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)\n"
        f"seccomp.Filter(program=bytes.fromhex({prog.hex()!r}), allowed=()).load()\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def call(nr, *a):\n"
        "    ret = libc.syscall(nr, *[ctypes.c_long(x) for x in a])\n"
        "    return 0 if ret >= 0 else ctypes.get_errno()\n"
        "a, b = os.pipe()\n"
        "hi = 1 << 32\n"
        "out = {'dup2': call(33, a, CH), 'dup2_hi': call(33, a, CH | hi), 'dup3': call(292, a, CH, 0),\n"
        "       'close': call(3, CH), 'close_hi': call(3, CH | 7 * hi), 'range_over': call(436, 3, 1 << 20, 0),\n"
        "       'range_hi': call(436, 3 | 2 * hi, 0xffffffff, 0), 'range_exact': call(436, CH, CH, 0),\n"
        "       'range_after': call(436, CH + 1, CH + 9, 0), 'range_below': call(436, a + 50, CH - 1, 0),\n"
        "       'dup2_other': call(33, a, CH + 5), 'close_other': call(3, CH + 5), 'dup': call(32, CH)}\n"
        "os.write(CH, b'kept')\n"
        "print(json.dumps(out))\n"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(seccomp.__file__)) + "/.."})
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    refused = ("dup2", "dup2_hi", "dup3", "close", "close_hi", "range_over", "range_hi", "range_exact")
    assert {k: out[k] for k in refused} == dict.fromkeys(refused, errno.EPERM), out
    assert {k: v for k, v in out.items() if k not in refused} == dict.fromkeys(set(out) - set(refused), 0), out


@functools.lru_cache(maxsize=4)
def _decoded(program: bytes) -> list[tuple[int, int, int, int]]:
    import struct

    return [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]


def _run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...]) -> tuple[int, int, bool]:
    """What a classic BPF seccomp program answers for one call (struct seccomp_data), how many
    instructions it ran and whether it read an argument. Only the opcodes libseccomp emits; any
    other fails the test."""
    import struct

    data = struct.pack("=IIQ6Q", nr & 0xFFFFFFFF, arch, 0, *args)
    code = _decoded(program)
    pc = acc = steps = 0
    read_args = False
    while True:
        op, jt, jf, k = code[pc]
        pc, steps = pc + 1, steps + 1
        if op == 0x20:  # ld [k]
            acc = struct.unpack_from("=I", data, k)[0]
            read_args = read_args or k >= 16
        elif op == 0x54:  # and #k
            acc &= k
        elif op in (0x15, 0x25, 0x35):  # jeq, jgt, jge #k
            pc += jt if (acc == k, acc > k, acc >= k)[(0x15, 0x25, 0x35).index(op)] else jf
        elif op == 0x05:  # ja
            pc += k
        elif op == 0x06:  # ret #k
            return k, steps, read_args
        else:
            raise AssertionError(f"opcode {op:#x} at {pc - 1}")


# -- the program, against libseccomp's ---------------------------------------------------------
# seccomp.assemble writes the BPF itself (no library in the worker). libseccomp, given the same
# rules (seccomp.rules()), is the reference: both programs run in _run_bpf on every call number
# and on arguments around every boundary the rules compare, for each architecture.
ARCHS = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
AUDIT_ARCH_I386 = 0x40000003
SCMP_FLTATR_CTL_OPTIMIZE, LAYOUT_LIST, LAYOUT_TREE = 8, 1, 2


@functools.lru_cache(maxsize=1)
def _libseccomp():
    import ctypes

    try:
        lib = ctypes.CDLL("libseccomp.so.2")
    except OSError as exc:
        pytest.skip(f"libseccomp, the reference, is not installed here ({exc})")
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_arch_add.argtypes = lib.seccomp_arch_remove.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lib.seccomp_arch_native.restype = ctypes.c_uint32
    lib.seccomp_syscall_resolve_name_arch.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_exact_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                                 ctypes.c_void_p]
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_attr_set.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32]
    return lib


@functools.lru_cache(maxsize=8)
def _reference(arch: int, layout: int = LAYOUT_TREE, channel_fd: int | None = None) -> bytes:
    """libseccomp's program for seccomp.rules() on `arch` (its only architecture), the channel's
    guard in front as compile_filter puts it."""
    import ctypes
    import errno
    import os

    from rlvr_grade.sandbox import seccomp

    lib = _libseccomp()

    class ArgCmp(ctypes.Structure):
        _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                    ("datum_b", ctypes.c_uint64)]

    ctx = lib.seccomp_init(seccomp.SCMP_ACT_ERRNO_BASE | errno.ENOSYS)
    try:
        if arch != lib.seccomp_arch_native():
            assert lib.seccomp_arch_add(ctx, arch) == 0 and lib.seccomp_arch_remove(ctx, lib.seccomp_arch_native()) == 0
        lib.seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, layout)
        for r in seccomp.rules():
            if lib.seccomp_syscall_resolve_name_arch(arch, r.name.encode()) < 0:
                continue  # not a call of this architecture
            # libseccomp takes the native number (or its pseudo number for a call the native
            # architecture lacks) and translates it by name into each architecture of the filter
            nr = lib.seccomp_syscall_resolve_name(r.name.encode())
            cmps = (ArgCmp * max(1, len(r.cmps)))(*[ArgCmp(*c) for c in r.cmps])
            assert lib.seccomp_rule_add_exact_array(ctx, r.action, nr, len(r.cmps), cmps) == 0, r
        fd = os.memfd_create("rlvr-seccomp-reference", 0)
        try:
            assert lib.seccomp_export_bpf(ctx, fd) == 0
            program = os.pread(fd, os.lseek(fd, 0, os.SEEK_END), 0)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)
    if channel_fd is not None:
        machine = next(m for m, a in ARCHS.items() if a == arch)
        program = seccomp.channel_guard(channel_fd, arch, seccomp.arch_of(machine)[1]) + program
    return program


@pytest.mark.parametrize("machine", sorted(ARCHS))
def test_the_call_numbers_are_the_kernels(machine):
    """Each architecture's table names every call of the policy that exists there, with the
    number libseccomp (from the kernel's unistd tables) gives it."""
    from rlvr_grade.sandbox import seccomp

    lib = _libseccomp()
    arch, numbers = seccomp.arch_of(machine)
    assert arch == ARCHS[machine]
    names = {r.name for r in seccomp.rules()} | {"dup2", "dup3", "close", "close_range"}
    theirs = {n: nr for n in names if (nr := lib.seccomp_syscall_resolve_name_arch(arch, n.encode())) >= 0}
    assert numbers == theirs


def _boundaries() -> list[int]:
    """Every value a rule compares, and its neighbours: one below and above, with the upper
    word set, with every bit of a mask, and the plain corner values."""
    from rlvr_grade.sandbox import seccomp

    out = {0, 1, 2, 517, 518, (1 << 32) | 517, 0xFFFFFFFF, 1 << 32, 1 << 63, (1 << 64) - 1}
    for r in seccomp.rules():
        for _, _, a, b in r.cmps:
            for v in (a, b, a | b, a & ~b):
                out |= {v, v - 1, v + 1, v | 1 << 32, v | 0xFFFFFFFF00000000, v ^ 0x80000000}
    out |= {1 << b for b in range(64)}
    return sorted(v & ((1 << 64) - 1) for v in out)


def _programs(machine: str) -> tuple[bytes, bytes]:
    from rlvr_grade.sandbox import seccomp

    return seccomp.compile_filter(channel_fd=517, machine=machine).program, _reference(ARCHS[machine], channel_fd=517)


# Call numbers past every table, the x32 ABI's (bit 30) and -1 (a tracer's skipped call).
ODD_NUMBERS = (0x3FFFFFFF, 0x40000000, 0x40000001, 0x40000000 + 257, 0x40000000 + 0x200, 0x7FFFFFFF, 0x80000000,
               0xFFFFFFFE, 0xFFFFFFFF)


@pytest.mark.parametrize("machine", sorted(ARCHS))
def test_the_filter_decides_every_call_as_libseccomp_does(machine):
    """For every call number 0..1100 and the odd ones, under the program's architecture, the
    other one, i386's and none: the same action as libseccomp's program for the same rules; for
    each call whose action reads an argument, the same on every boundary value in every
    argument. And a search on the call number, as short as libseccomp's (~22 instructions a
    number with the channel's guard: the kernel runs the program for each when it is loaded, to
    fill its action cache; a plain list ran ~170)."""
    import struct

    ours, theirs = _programs(machine)
    bounds = _boundaries()
    steps, their_steps = [], []
    for nr in [*range(1100), *ODD_NUMBERS]:
        for arch in (*ARCHS.values(), AUDIT_ARCH_I386, 0):
            got, ran, read_args = _run_bpf(ours, nr, arch, (0,) * 6)
            want, _, their_read = _run_bpf(theirs, nr, arch, (0,) * 6)
            assert got == want, (nr, hex(arch), hex(got), hex(want))
            if arch == ARCHS[machine] and nr < 1100:
                steps.append(ran)
                their_steps.append(_run_bpf(theirs, nr, arch, (0,) * 6)[1])
            if not (read_args or their_read):
                continue
            for i in range(6):
                for v in bounds:
                    args = tuple(v if j == i else 0 for j in range(6))
                    got, want = _run_bpf(ours, nr, arch, args)[0], _run_bpf(theirs, nr, arch, args)[0]
                    assert got == want, (nr, hex(arch), i, hex(v), hex(got), hex(want))
    mean, their_mean = sum(steps) / len(steps), sum(their_steps) / len(their_steps)
    assert mean < their_mean + 1 < 30, f"{mean:.1f} instructions per call number on average, libseccomp's {their_mean:.1f}"
    assert struct.calcsize("=HBBI") == 8 and len(ours) % 8 == 0 and len(ours) // 8 < 700


def _argument_cases():
    from hypothesis import strategies as st

    from rlvr_grade.sandbox import seccomp

    filtered = sorted({r.name for r in seccomp.rules() if r.cmps} | {"dup2", "dup3", "close", "close_range"})
    near = st.builds(lambda v, d, hi: (v + d) & 0xFFFFFFFF | hi << 32, st.sampled_from(_boundaries()),
                     st.integers(-2, 2), st.sampled_from([0, 0, 0, 1, 0xFFFFFFFF]) | st.integers(0, 0xFFFFFFFF))
    word = near | st.integers(0, (1 << 64) - 1)
    return st.sampled_from(sorted(ARCHS)), st.sampled_from(filtered), st.tuples(*[word] * 6)


def test_the_filter_decides_every_argument_as_libseccomp_does():
    """The calls whose arguments decide, with all six arguments drawn at once: near every value
    a rule compares (+-2, any upper word) or anything."""
    from hypothesis import given, settings

    from rlvr_grade.sandbox import seccomp

    machines, names, argss = _argument_cases()

    @settings(max_examples=3000, deadline=None, derandomize=True)
    @given(machines, names, argss)
    def check(machine, name, args):
        numbers = seccomp.arch_of(machine)[1]
        if name not in numbers:
            return
        ours, theirs = _programs(machine)
        got, want = _run_bpf(ours, numbers[name], ARCHS[machine], args)[0], _run_bpf(theirs, numbers[name], ARCHS[machine], args)[0]
        assert got == want, (name, [hex(a) for a in args], hex(got), hex(want))

    check()


def test_no_worker_needs_a_library_to_build_its_filter():
    """The filter is written in pure Python: building it loads neither libseccomp nor ctypes (a
    process a check is forked from must not hold _ctypes: red team A2)."""
    import subprocess
    import sys

    probe = ("import sys\nfrom rlvr_grade.sandbox import seccomp\nf = seccomp.compile_filter(517)\n"
             "maps = open('/proc/self/maps').read()\n"
             "print(len(f.program), '_ctypes' in sys.modules, 'libseccomp' in maps)\n")
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr[-2000:]
    size, ctypes_loaded, lib_mapped = res.stdout.split()
    assert int(size) > 0 and (ctypes_loaded, lib_mapped) == ("False", "False"), res.stdout


# -- no filter, no checks ----------------------------------------------------------------------
def test_a_machine_without_a_filter_refuses_to_grade_unless_asked(tmp_path):
    """Where no filter can be built, checks do not run without one: the local backend refuses
    (NoSeccomp: the CLI exits 3 with a tip naming --no-seccomp-UNSAFE) unless asked. The machine is
    made one without a table by `setarch linux32` (uname says i686, or armv8l on arm64: a real
    personality, no stub);
    the opt-out itself is the no_seccomp layer of test_adversarial.py, whose report names it."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    if shutil.which("setarch") is None:
        pytest.skip("setarch (util-linux) is not installed")
    probe = ("import json, platform\nfrom rlvr_grade.sandbox.local import LocalBackend, NoSeccomp\n"
             "b = LocalBackend(concurrency=1)\nout = {'machine': platform.machine()}\n"
             "try:\n    b.start()\n    out['started'] = b.isolation()\nexcept NoSeccomp as exc:\n"
             "    out['refused'] = [str(exc), exc.tip]\nfinally:\n    b.close()\nprint(json.dumps(out))\n")
    res = subprocess.run(["setarch", "linux32", sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["machine"] not in ("x86_64", "aarch64", "arm64") and "started" not in out, out  # i686, armv8l
    assert "no syscall table" in out["refused"][0] and "--no-seccomp-UNSAFE" in out["refused"][1], out
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"completion": "def f(x):\n    return x\n", "tests": "assert f(1) == 1\n"}) + "\n")
    cli = os.path.join(os.path.dirname(sys.executable), "rlvr-grade")
    res = subprocess.run(["setarch", "linux32", cli, "score", str(rows), "-o", str(tmp_path / "out.jsonl"), "--no-cache"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 3 and "--no-seccomp-UNSAFE" in res.stderr, (res.returncode, res.stderr[-1500:])
    assert not (tmp_path / "out.jsonl").exists() or (tmp_path / "out.jsonl").read_text() == ""
