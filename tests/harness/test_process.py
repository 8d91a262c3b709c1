"""The one process runner (harness/process.py) and the limits policy (harness/limits.py), on
real processes: the collector every style and backend runs untrusted code through."""

from __future__ import annotations

import os
import platform
import resource
import signal
import sys
import time

import pytest

from rlvr_harness import limits, process
from rlvr_harness.wire import CheckLimits
from tests.conftest import ROOT

PY = sys.executable


def _run(code: str, *, cap: int = 1 << 16, wall_s: float = 20.0, lazy_s: float | None = None, **kw):
    out_r, out_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.setpgid(0, 0)
        os.dup2(out_w, 1)
        os.closerange(3, 256)
        os.execv(PY, [PY, "-c", code])
    os.close(out_w)
    out = process.Stream(out_r, cap)
    ended = process.collect(pid, [out], t0=time.monotonic(), wall_s=wall_s, kill=lambda: process.kill_group(pid),
                            lazy_s=lazy_s, **kw)
    return ended, bytes(out.data)


@pytest.mark.parametrize("lazy_s", [None, 0.05])
def test_output_past_the_cap_stops_the_process_at_once(lazy_s):
    ended, out = _run("import os, time\nwhile True: os.write(1, b'x' * 65536)", cap=100_000, lazy_s=lazy_s)
    assert ended.killed_for_output and ended.signal == signal.SIGKILL and len(out) == 100_000
    assert limits.limit_hit(cpu_s=ended.cpu_s, cpu_limit=10, sig=ended.signal, killed_for_output=True) == "output"


def test_a_process_that_closes_its_output_is_collected_at_its_exit_not_at_eof():
    # Stopping at EOF would SIGKILL a running program (C's fclose(stdout), then more work) and
    # judge it on that kill of ours.
    ended, out = _run("import os, time\nos.write(1, b'done')\nos.close(1)\ntime.sleep(0.3)\nraise SystemExit(3)")
    assert (out, ended.exit_code, ended.signal, ended.killed_for_wall) == (b"done", 3, None, False)


def test_the_wall_deadline_kills_a_sleeper():
    ended, _ = _run("import time\ntime.sleep(30)", wall_s=0.3)
    assert ended.killed_for_wall and ended.signal == signal.SIGKILL
    assert limits.limit_hit(cpu_s=ended.cpu_s, cpu_limit=5, sig=ended.signal, killed_for_wall=True) == "wall"


def test_the_wall_deadline_moves_by_the_time_the_run_waited_for_a_cpu():
    # `waited` is what the zygote reads from the slot cgroup's CPU pressure (or the threads' run
    # delay): a sleeper that "waited" 0.6 s is stopped for wall 0.6 s later than its limit.
    ended, _ = _run("import time\ntime.sleep(30)", wall_s=0.3, waited=lambda: 0.6)
    assert ended.killed_for_wall and ended.signal == signal.SIGKILL
    assert ended.waited_s == pytest.approx(0.6) and ended.wall_s >= 0.9


def test_the_moved_wall_deadline_is_capped_so_a_starved_run_still_ends():
    ended, _ = _run("import time\ntime.sleep(30)", wall_s=0.2, waited=lambda: 1000.0)
    assert ended.killed_for_wall
    assert ended.waited_s == pytest.approx((process.WALL_STRETCH - 1) * 0.2) and ended.wall_s >= process.WALL_STRETCH * 0.2


def test_a_run_that_waited_nothing_or_cannot_be_read_stops_at_its_wall_limit():
    for waited in (lambda: None, lambda: 0.0):
        ended, _ = _run("import time\ntime.sleep(30)", wall_s=0.3, waited=waited)
        assert ended.killed_for_wall and ended.waited_s == 0.0


def test_threads_waited_reads_the_run_delay_of_a_process_kept_off_the_cpu():
    # Three busy loops on one CPU, each in its own session (autogroup: a session is one group on
    # the CPU): each waits about two thirds of the time, whatever else the machine runs.
    if not os.path.exists("/proc/self/schedstat"):
        pytest.skip("this kernel keeps no sched_info (/proc/<pid>/schedstat)")
    cpu = min(os.sched_getaffinity(0))
    code = f"import os\nos.setsid()\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"
    procs = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # pragma: no cover
            os.execv(PY, [PY, "-c", code])
        procs.append(pid)
    try:
        time.sleep(1.5)
        waited = process.threads_waited(procs[:1])
        both = process.threads_waited(procs)
    finally:
        for pid in procs:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    assert waited is not None and waited > 0.2
    assert both is not None and both > waited
    assert process.threads_waited([]) is None


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/proc/self/schedstat"), reason="needs root and sched_info")
def test_threads_waited_reads_the_child_of_a_worker_that_is_pid_1_of_its_own_namespace():
    # userns mode's worker is pid 1 of a pid namespace of its own, under the host's /proc: its
    # child's pid there (2) is another process's number in /proc (the host's pid 2).
    from rlvr_grade.sandbox import linux

    cpu = min(os.sched_getaffinity(0))
    r, w = os.pipe()
    done_r, done_w = os.pipe()
    outer = os.fork()
    if outer == 0:  # pragma: no cover - the "worker"'s parent
        linux.unshare(linux.CLONE_NEWPID)
        worker = os.fork()
        if worker == 0:  # pid 1 of the new namespace
            os.sched_setaffinity(0, {cpu})
            spun_r, spun_w = os.pipe()
            child = os.fork()
            if child == 0:  # spins 0.5 s beside three busy loops on its CPU, then sleeps
                hogs = [os.fork() for _ in range(3)]
                if 0 in hogs:
                    while True:
                        pass
                t = time.process_time()
                while time.process_time() - t < 0.5:
                    pass
                for h in hogs:
                    os.kill(h, signal.SIGKILL)
                os.write(spun_w, b"x")
                time.sleep(30)
                os._exit(0)
            os.read(spun_r, 1)
            time.sleep(0.2)
            host = process._proc_pid(child)
            os.write(w, f"{child} {host} {process.threads_waited([child])}\n".encode())
            os.read(done_r, 1)
            os.kill(child, signal.SIGKILL)
            os._exit(0)
        os.waitpid(worker, 0)
        os._exit(0)
    os.close(w)
    try:
        with os.fdopen(r) as fh:
            child, host, waited = fh.readline().split()
        # What the host reads for the same process, from the host's own pid namespace.
        with open(f"/proc/{host}/schedstat") as fh:
            want = int(fh.read().split()[1]) / 1e9
    finally:
        os.write(done_w, b"x")
        os.waitpid(outer, 0)
    assert child == "2" and host != "2"
    assert float(waited) == pytest.approx(want, abs=0.01) and want > 0.1


def test_the_cpu_watcher_stops_the_process_at_its_limit():
    # cpu_used is what the zygote reads from the slot cgroup; here the process's own clock.
    pid_box = []

    def used():
        try:
            with open(f"/proc/{pid_box[0]}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            return None

    out_r, out_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover
        os.dup2(out_w, 1)
        os.closerange(3, 256)
        os.execv(PY, [PY, "-c", "while True: pass"])
    os.close(out_w)
    pid_box.append(pid)
    ended = process.collect(pid, [process.Stream(out_r, 100)], t0=time.monotonic(), wall_s=60, cpu_limit=0.3,
                            cpu_used=used, kill=lambda: process.kill_group(pid))
    assert ended.killed_for_cpu and not ended.killed_for_wall and ended.signal == signal.SIGKILL
    assert limits.limit_hit(cpu_s=max(ended.cpu_s, 0.3), cpu_limit=0.3, sig=ended.signal) == "cpu"


def test_bytes_a_reader_names_foreign_count_toward_the_cap_and_are_never_kept():
    r, w = os.pipe()
    os.write(w, b"mine|theirs")
    os.close(w)
    parts = iter([(b"mine|", True), (b"theirs", False), (b"", True)])
    stream = process.Stream(r, 8, read=lambda _fd: next(parts))
    got, over = stream.drain()
    os.close(r)
    assert (bytes(stream.data), stream.foreign, got, over, stream.eof) == (b"mine|", 6, 11, True, True)


def test_spawn_sets_the_case_rlimits_and_closes_every_other_descriptor():
    keep = os.open("/dev/null", os.O_RDONLY)  # must not reach the process
    code = ("import os, resource\n"
            "print(resource.getrlimit(resource.RLIMIT_CPU), resource.getrlimit(resource.RLIMIT_STACK)[0] >> 20,"
            f" sorted(int(x) for x in os.listdir('/proc/self/fd') if int(x) > 2 and x != str({keep})),"
            f" os.path.exists('/proc/self/fd/{keep}'))")
    try:
        ended, (out, err) = process.run([PY, "-c", code], None, cpu_s=1.5, wall_s=20, streams=[(4096, True), (4096, False)],
                                        stack_mb=64)
    finally:
        os.close(keep)
    assert ended.exit_code == 0, err
    assert out.split(b" [")[0] == b"(2, 3) 64"  # whole seconds rounded up; hard a second later
    assert out.rstrip().endswith(b"False")


# Runs in a process of its own (a seccomp filter stays for good): the sandbox's channel guard
# for descriptor CH, then a rule that kills the process at any close() of a descriptor past
# 4096, then one case spawned through process.run, which reports the descriptors it holds.
GUARDED_SPAWN = """
import json, os, platform, struct, sys
from rlvr_grade.sandbox import linux, seccomp
from rlvr_harness import process

CH = 517
ARCH, NUMBERS = {"x86_64": (0xC000003E, {"dup2": 33, "dup3": 292, "close": 3, "close_range": 436}),
                 "aarch64": (0xC00000B7, {"dup3": 24, "close": 57, "close_range": 436})}[platform.machine()]
r, w = os.pipe()
os.dup2(w, CH)
low, high = os.dup2(r, 40), os.dup2(r, 3000)  # neither may reach the case
S = seccomp
kill_far_close = b"".join(struct.pack("=HBBI", *i) for i in (
    (S.BPF_LD_W_ABS, 0, 0, S.NR_AT), (S.BPF_JEQ_K, 0, 2, NUMBERS["close"]),
    (S.BPF_LD_W_ABS, 0, 0, S._arg_low(0)), (S.BPF_JGE_K, 1, 0, 4096),
    (S.BPF_RET_K, 0, 0, 0x7FFF0000), (S.BPF_RET_K, 0, 0, 0x80000000)))  # allow; kill the process
linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
S.Filter(program=S.channel_guard(CH, ARCH, NUMBERS) + kill_far_close, allowed=()).load()
process.CHANNEL[0] = CH

def case():
    held = []
    for fd in (3, 39, 40, CH - 1, CH, CH + 1, 3000):
        try:
            os.fstat(fd)
            held.append(fd)
        except OSError:
            pass
    os.write(1, json.dumps(held).encode())

ended, (out, err) = process.run(case, None, cpu_s=5, wall_s=30, streams=[(4096, True), (4096, False)])
print(json.dumps({"signal": ended.signal, "exit": ended.exit_code, "out": out.decode(), "err": err.decode()[-500:]}))
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"), reason="call numbers known for x86_64 and aarch64")
def test_a_case_process_is_spawned_around_the_guarded_result_channel():
    """spawn closes every descriptor but the case's own in a few calls, around the result
    channel: the sandbox's guard refuses a close_range spanning it, and CPython's os.closerange
    then closes each number in turn, 65,536 close() calls per case process through the filter
    (the stdio style's CPU per check tripled). The kill rule here ends such a process at its
    first close() past 4096; the channel is the one descriptor the guard keeps."""
    import json
    import subprocess

    res = subprocess.run([PY, "-c", GUARDED_SPAWN], capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    assert (got["signal"], got["exit"], got["out"]) == (None, 0, "[517]"), got


def test_case_rlimits_only_go_down_from_the_callers_own():
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    (res, s, h), = limits.case_rlimits(0.2)
    assert res == resource.RLIMIT_CPU and s == 1 and (h == 2 or h <= hard)


@pytest.mark.parametrize(("facts", "hit"), [
    ({"cpu_s": 0.1, "sig": None}, None),
    ({"cpu_s": 0.1, "sig": signal.SIGSEGV}, None),
    ({"cpu_s": 2.0, "sig": None}, "cpu"),
    ({"cpu_s": 1.92, "sig": signal.SIGKILL}, "cpu"),
    ({"cpu_s": 0.5, "sig": signal.SIGKILL}, None),
    ({"cpu_s": 0.5, "sig": signal.SIGXCPU}, None),  # a check's own SIGXCPU: soft = hard sends SIGKILL
    ({"cpu_s": 0.5, "sig": signal.SIGXCPU, "soft_cpu_rlimit": True}, "cpu"),
    ({"cpu_s": 0.5, "sig": signal.SIGKILL, "killed_for_wall": True}, "wall"),
    ({"cpu_s": 3.0, "sig": signal.SIGKILL, "killed_for_wall": True}, "cpu"),
    ({"cpu_s": 0.1, "sig": signal.SIGXFSZ}, "file_size"),
    ({"cpu_s": 3.0, "sig": signal.SIGKILL, "memory": True}, "memory"),
    ({"cpu_s": 3.0, "sig": signal.SIGKILL, "memory": True, "killed_for_output": True}, "output"),
])
def test_which_limit_stopped_a_run(facts, hit):
    assert limits.limit_hit(cpu_limit=2.0, **facts) == hit


def test_a_check_without_a_cgroup_is_stopped_by_its_rlimit():
    assert limits.cpu_rlimit_stopped(signal.SIGKILL, 1.6, 2.0, killed_for_wall=False)
    assert not limits.cpu_rlimit_stopped(signal.SIGKILL, 1.6, 2.0, killed_for_wall=True)
    assert not limits.cpu_rlimit_stopped(signal.SIGKILL, 0.2, 2.0, killed_for_wall=False)
    cpu = dict(limits.check_rlimits(CheckLimits(cpu_s=1.2, processes=64, file_bytes=1 << 20, memory_mb=256),
                                    has_cgroup=True))[resource.RLIMIT_CPU]
    assert cpu == 3  # a backstop a second past the whole-second limit the cgroup watcher enforces
