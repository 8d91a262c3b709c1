"""What a grader leaves behind and what it depends on: a SIGKILLed run's `.part` file and slot
cgroups are swept by the next run (never a live run's), toolchain versions are part of a
non-Python row's cache key, paths kept under /tmp reach a check read-only, and local workers
outlive the thread that started them."""

from __future__ import annotations

import dataclasses
import fcntl
import glob
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from rlvr_grade.api import Grader
from rlvr_grade.io.writers import sweep_parts
from rlvr_grade.sandbox import cgroups
from rlvr_grade.sandbox.local import CHECK_PATH, LocalBackend
from rlvr_grade.types import Rollout, SandboxError
from rlvr_harness import languages
from tests.conftest import requires_root, write_jsonl
from tests.pipeline.test_cache import ROOT, _cli, _db, _kill_when, _reap_slot_cgroups, _resume_rows


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _slot_cgroups(pid: int) -> set[str]:
    """Every slot cgroup directory named after grader `pid`, in every hierarchy."""
    found = set()
    for parent in glob.glob(os.path.join(cgroups.ROOT, "rlvr-grade")) + glob.glob(os.path.join(cgroups.ROOT, "*", "rlvr-grade")):
        found.update(glob.glob(os.path.join(parent, f"{pid}-*slot*")))
    return found


def _parts(directory, pid: int) -> set[str]:
    return set(glob.glob(os.path.join(directory, f".out.jsonl.{pid}.*.part")))


def test_sweep_parts_takes_only_a_dead_unlocked_writers_file_of_that_name(tmp_path):
    dead = _dead_pid()
    ours = tmp_path / f".out.jsonl.{dead}.abc_1234.part"
    locked = tmp_path / f".out.jsonl.{_dead_pid()}.zzzzzzzz.part"
    live = tmp_path / f".out.jsonl.{os.getppid()}.abcdefgh.part"
    others = [
        tmp_path / f".other.jsonl.{dead}.abcdefgh.part",  # another output's
        tmp_path / f".out.jsonl.{dead}.part",  # not our shape
        tmp_path / f".out.jsonl.{dead}.abcdefgh.part.bak",
        tmp_path / f"out.jsonl.{dead}.abcdefgh.part",
        tmp_path / ".out.jsonl.abcdefgh.part",  # an older grader's: no pid, cannot tell
    ]
    for f in (ours, locked, live, *others):
        f.write_text("x")
    # A writer whose pid means nothing here (another pid namespace) still holds its lock.
    fd = os.open(locked, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert sweep_parts(str(tmp_path), "out.jsonl") == [str(ours)]
    finally:
        os.close(fd)
    assert not ours.exists()
    assert all(f.exists() for f in (locked, live, *others))
    assert sweep_parts(str(tmp_path), "out.jsonl") == [str(locked)]


@requires_root
@pytest.mark.skipif(cgroups.cgroup_version() is None, reason="no cgroup hierarchy here")
def test_a_sigkilled_runs_part_file_and_cgroups_are_swept_and_a_live_runs_kept(tmp_path):
    """A live run (waiting on more rows from a pipe) and a run SIGKILLed half way both write
    out.jsonl; a third run to the same output removes the dead run's `.part` and slot cgroups
    (its pytest twin's too) and leaves the live run's, which then finishes normally."""
    out = tmp_path / "out.jsonl"
    row = {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}
    live_cache = tmp_path / "live.sqlite"
    live = subprocess.Popen(_cli("-", "-o", str(out), "--cache", str(live_cache)), cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killed = None
    try:
        live.stdin.write((json.dumps(row) + "\n").encode())
        live.stdin.flush()
        deadline = time.monotonic() + 120
        while len(_db(live_cache)) < 1:  # graded: its slots and its .part exist
            assert live.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        live_left = (_parts(tmp_path, live.pid), _slot_cgroups(live.pid))
        assert live_left[0] and live_left[1]

        pytest_row = {"completion": "def f():\n    return 1\n", "tests": "from solution import f\n\ndef test_a():\n    assert f() == 1\n"}
        src = write_jsonl(tmp_path / "in.jsonl", [pytest_row, *_resume_rows()])
        killed_cache = tmp_path / "killed.sqlite"
        killed = subprocess.Popen(_cli(str(src), "-o", str(out), "--cache", str(killed_cache)), cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pid = killed.pid
        _kill_when(killed, lambda: len(_db(killed_cache)) >= 2 and any(d.endswith("-py") for d in _slot_cgroups(pid)),
                   reap=False)
        assert _parts(tmp_path, pid) and _slot_cgroups(pid)

        small = write_jsonl(tmp_path / "small.jsonl", [{"completion": "def f():\n    return 2\n", "tests": "assert f() == 2"}])
        proc = subprocess.run(_cli(str(small), "-o", str(out), "--cache", str(tmp_path / "third.sqlite")),
                              cwd=ROOT, capture_output=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert not _parts(tmp_path, pid)
        assert not _slot_cgroups(pid)
        assert live.poll() is None
        assert (_parts(tmp_path, live.pid), _slot_cgroups(live.pid)) == live_left

        live.stdin.close()  # the live run now ends: its own .part still there to os.replace
        assert live.wait(timeout=300) == 0
        assert [json.loads(line)["status"] for line in out.read_text().splitlines()] == ["pass"]
        assert not _parts(tmp_path, live.pid) and not _slot_cgroups(live.pid)
    finally:
        if live.poll() is None:
            live.kill()
            live.wait()
        _reap_slot_cgroups(live.pid)
        if killed is not None:
            _reap_slot_cgroups(killed.pid)


def _cgroup_dirs(name: str) -> list[str]:
    """The directories of cgroup `name` under rlvr-grade/, in every hierarchy."""
    return glob.glob(os.path.join(cgroups.ROOT, "rlvr-grade", name)) + glob.glob(os.path.join(cgroups.ROOT, "*", "rlvr-grade", name))


def _zombie() -> subprocess.Popen:
    """A child that has exited and is not reaped yet: its pid still has a /proc entry."""
    proc = subprocess.Popen(["true"])
    for _ in range(1000):
        try:
            with open(f"/proc/{proc.pid}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    return proc
        except (FileNotFoundError, IndexError):
            break
        time.sleep(0.01)
    raise AssertionError(f"pid {proc.pid} never showed as a zombie")


@requires_root  # creating cgroups, and the runner's full mode
@pytest.mark.skipif(cgroups.cgroup_version() is None, reason="no cgroup hierarchy here")
def test_the_inner_runner_sweeps_dead_runners_cgroups_kills_what_is_left_in_them_and_keeps_the_rest(tmp_path):
    """The one-check runner (Beam's and gVisor's, here in its full mode on this host) removes
    the cgroups that runners SIGKILLed mid-check left behind: a dead runner's (the check child
    still inside is killed first), a zombie runner's (exited, not yet reaped: dead). A live
    process's cgroup and names that are not the runner's shape stay."""

    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.sandbox.inner import parse_result
    from rlvr_grade.types import Limits

    dead, zombie = _dead_pid(), _zombie()
    swept = {"with_child": f"inner-{dead}-0a1b2c3d", "zombie": f"inner-{zombie.pid}-deadbeef"}
    kept = {"live": f"inner-{os.getpid()}-cafef00d", "no_token": f"inner-{dead}", "not_hex": f"inner-{dead}-notours"}
    sleeper = subprocess.Popen(["sleep", "600"])
    try:
        for name in [*swept.values(), *kept.values()]:
            cgroups.SlotCgroup(name)
        cgroups.SlotCgroup(swept["with_child"]).join(sleeper.pid)

        limits = Limits(cpu_s=5.0, wall_s=10.0, memory_mb=256, processes=32, output_bytes=4096)
        check = build_check(Rollout(index=0, row={"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}),
                            CheckOptions(limits=limits))
        request = tmp_path / "request.json"
        request.write_text(json.dumps(dataclasses.replace(check.request(), token="t0k").to_wire()))
        proc = subprocess.run([sys.executable, "-s", "-m", "rlvr_grade.sandbox.inner", "--request", str(request), "--mode", "full"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        resp = parse_result(proc.stdout, "t0k")
        assert resp is not None and "sandbox_error" not in resp, (proc.stdout, proc.stderr)

        assert sleeper.wait(timeout=10) == -9  # killed by the sweep, not left running
        assert {k: _cgroup_dirs(n) for k, n in swept.items()} == {k: [] for k in swept}
        assert all(_cgroup_dirs(n) for n in kept.values()), {k: _cgroup_dirs(n) for k, n in kept.items()}
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()
        zombie.wait()
        deadline = time.monotonic() + 5
        for name in [*swept.values(), *kept.values()]:
            for d in _cgroup_dirs(name):
                cgroups._rmdir_by(d, deadline)


C_DOUBLE = '#include <stdio.h>\nint main(void){int x; if(scanf("%d",&x)!=1) return 1; printf("%d\\n", 2*x); return 0;}\n'
CASES = [{"input": "2\n", "output": "4\n"}]


@requires_root
@pytest.mark.skipif(not languages.available()["c"], reason="gcc is not installed")
def test_a_toolchain_version_is_part_of_a_c_rows_key_and_a_rerun_hits_the_cache(tmp_path):
    """The checks' PATH with a `gcc` first on it that reports another version: a C row's key
    changes, a Python row's does not; with the same toolchain a rerun is served from the cache."""
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "gcc").write_text("#!/bin/sh\necho 'gcc (Fake) 99.0.0'\n")
    (fake / "gcc").chmod(0o755)
    c_row = {"completion": C_DOUBLE, "tests": CASES, "language": "c"}
    py_row = {"completion": "print(2 * int(input()))", "tests": CASES}
    cache = str(tmp_path / "cache.sqlite")

    def grader(path: str) -> Grader:
        return Grader(cache=cache, concurrency=1, test_style="stdio", backend_options=(("check_path", path),))

    def keys(g: Grader) -> list[str | None]:
        return [g.cache_key(Rollout(index=i, row=r)) for i, r in enumerate([c_row, py_row])]

    with grader(CHECK_PATH) as g:
        first = g.grade([c_row, py_row])
        real = keys(g)
    assert [(o.status, o.cached) for o in first] == [("pass", False), ("pass", False)], first
    with grader(CHECK_PATH) as g:
        assert keys(g) == real
        assert [(o.status, o.cached) for o in g.grade([c_row, py_row])] == [("pass", True), ("pass", True)]
    other = grader(f"{fake}:{CHECK_PATH}")
    try:
        faked = keys(other)
    finally:
        other.close()
    assert faked[0] != real[0]  # another gcc: the C row would run again
    assert faked[1] == real[1]  # Python rows do not depend on gcc

    # A Python-only run never asks a toolchain its version.
    py_only = f"{tmp_path / 'nothing-here'}:{CHECK_PATH}"
    g = grader(py_only)
    try:
        g.cache_key(Rollout(index=0, row=py_row))
    finally:
        g.close()
    assert not [k for k in languages._VERSIONS if k[1] == py_only]


KEEP_PROBE = '''
import errno
import os

def read(path):
    with open(os.path.join(path, "data.txt")) as fh:
        return fh.read()

def write_error(path):
    try:
        with open(os.path.join(path, "new.txt"), "w") as fh:
            fh.write("x")
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return None

def visible(path):
    return os.path.exists(path)
'''


@requires_root
@pytest.mark.parametrize("c_setup", [True, False], ids=["c", "python"])
def test_a_kept_tmp_path_is_readable_and_read_only_in_a_check_and_nothing_else_of_tmp_is(tmp_path, c_setup):
    """An interpreter under /tmp must stay reachable in each check's fresh /tmp: a directory
    kept through the same binding (mounts.tmp_resident_paths + isolation.enter_filesystem, or
    sandbox/_child.c) can be read, cannot be written even though its mode allows it, and its
    sibling is gone."""
    keep, other = tmp_path / "keep", tmp_path / "other"
    for d in (keep, other):
        d.mkdir()
        (d / "data.txt").write_text("planted")
    keep.chmod(0o777)  # only the read-only mount can refuse the write
    other.chmod(0o755)  # only the fresh /tmp can hide it
    tests = (f"assert read({str(keep)!r}) == 'planted'\n"
             f"assert write_error({str(keep)!r}) == 'EROFS'\n"
             f"assert not visible({str(other)!r})\n"
             f"assert not visible({str(tmp_path / 'in-the-grader')!r})\n")
    (tmp_path / "in-the-grader").write_text("x")
    with Grader(backend=LocalBackend(concurrency=1, tmp_keep=[str(keep)], c_setup=c_setup), concurrency=1) as g:
        [outcome] = g.grade([{"completion": KEEP_PROBE, "tests": tests}])
    assert (outcome.status, outcome.tests_passed) == ("pass", 4), outcome.error
    assert not (keep / "new.txt").exists()


@requires_root
def test_local_workers_outlive_the_short_lived_thread_that_started_them():
    """PR_SET_PDEATHSIG fires when the *thread* that forked a worker exits. A backend started,
    and its pytest twin spawned, from a thread that then ends keeps every worker (they are
    forked by the backend's launcher thread), and the next check on the main thread runs."""
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.checks.styles import verdict
    from rlvr_grade.leftovers import pid_alive
    from tests.pipeline.test_api import zygotes

    opts = CheckOptions().resolved()
    lean = build_check(Rollout(0, {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}), opts)
    warm = build_check(Rollout(1, {"completion": "def f():\n    return 1\n", "tests": "from solution import f\n\ndef test_a():\n    assert f() == 1\n"}), opts)
    assert (lean.style, warm.style) == ("asserts", "pytest")
    backend = LocalBackend(concurrency=2)
    before = zygotes()
    ran: list = []

    def short_lived() -> None:
        try:
            backend.start()
            ran.extend([backend.run(lean), backend.run(warm)])  # the second starts a pytest twin
        except BaseException as exc:  # reported on the main thread
            ran.append(exc)

    t = threading.Thread(target=short_lived)
    t.start()
    t.join()
    try:
        assert not [r for r in ran if isinstance(r, BaseException)], ran
        assert [verdict(c, ex)[0] for c, ex in zip((lean, warm), ran, strict=True)] == ["pass", "pass"]
        workers = zygotes() - before
        assert len(workers) == 3  # two lean workers and one pytest twin
        # The signal is sent as the thread exits; give a killed worker time to show as dead.
        for _ in range(25):
            assert all(pid_alive(p) for p in workers), "a worker died with the thread that started it"
            time.sleep(0.02)
        assert verdict(lean, backend.run(lean))[0] == "pass"
        assert verdict(warm, backend.run(warm))[0] == "pass"
        assert zygotes() - before == workers  # the same workers: none had to be restarted
    finally:
        backend.close()


@requires_root
def test_slots_beyond_one_per_core_start_on_their_first_check_and_grade_like_the_others():
    """start() spawns one worker per core; the extra slots (the default has two) start when a
    check first takes them. Every slot then grades, with the same verdicts."""
    cores = os.cpu_count() or 1
    rows = [{"completion": f"def f():\n    return {i}\n", "tests": f"assert f() == {i if i % 2 else -1}\n"}
            for i in range(4 * (cores + 2))]
    backend = LocalBackend(concurrency=cores + 2)
    with Grader(backend=backend, concurrency=cores + 2) as g:
        started = [s.proc is not None for s in backend._slots]
        assert started == [True] * cores + [False] * 2
        outcomes = g.grade(rows)
        assert all(s.proc is not None for s in backend._slots)  # every slot took checks
    assert [o.status for o in outcomes] == ["fail" if i % 2 == 0 else "pass" for i in range(len(rows))]


def _comm(pid: int) -> str:
    with open(f"/proc/{pid}/comm") as fh:
        return fh.read().strip()


def _ppid(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[1])


@requires_root
def test_workers_are_forked_by_one_warm_seed_per_kind():
    """One interpreter start and warm-up per backend and kind of worker: every slot's lean
    worker, and one that replaces a killed worker, is forked by the backend's lean seed; a
    pytest twin by its pytest seed; close() ends the seeds."""
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.checks.styles import verdict

    opts = CheckOptions().resolved()
    quick = build_check(Rollout(0, {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}), opts)
    warm = build_check(Rollout(1, {"completion": "def f():\n    return 1\n", "tests": "from solution import f\n\ndef test_a():\n    assert f() == 1\n"}), opts)
    backend = LocalBackend(concurrency=2)
    backend.start()
    try:
        seed = backend._seeds["lean"].proc.pid
        assert _ppid(seed) == os.getpid()
        assert [_ppid(s.proc.pid) for s in backend._slots] == [seed, seed]
        # One command line for a seed and its workers: their names tell them apart in ps/top.
        assert [_comm(p) for p in (seed, *(s.proc.pid for s in backend._slots))] == ["rlvr-seed-lean", "rlvr-slot0", "rlvr-slot1"]
        victim = backend._slots[0].proc.pid
        os.kill(victim, 9)
        backend._slots[0].proc.wait(10)
        with pytest.raises(SandboxError):  # the dead worker's slot fails its next check once...
            backend.run(quick)
        for _ in range(2):  # ...then a new worker takes it (the free-slot queue is FIFO)
            assert verdict(quick, backend.run(quick))[0] == "pass"
        assert victim not in [s.proc.pid for s in backend._slots]
        assert [_ppid(s.proc.pid) for s in backend._slots] == [seed, seed]
        assert verdict(warm, backend.run(warm))[0] == "pass"
        twin = next(s.twin for s in backend._slots if s.twin is not None)
        pytest_seed = backend._seeds["pytest"].proc.pid
        assert _ppid(twin.proc.pid) == pytest_seed != seed and _ppid(pytest_seed) == os.getpid()
        assert (_comm(pytest_seed), _comm(twin.proc.pid)) == ("rlvr-seed-pytes", f"rlvr-slot{twin.index}-py")  # comm holds 15 bytes
        # A dead seed takes its workers with it (PDEATHSIG); the next spawn starts a new seed.
        os.kill(seed, 9)
        for slot in backend._slots:
            slot.proc.wait(10)
        failed = 0
        for _ in range(4):
            try:
                assert verdict(quick, backend.run(quick))[0] == "pass"
            except SandboxError:
                failed += 1
        assert failed == 2
        seed2 = backend._seeds["lean"].proc.pid
        assert seed2 != seed and [_ppid(s.proc.pid) for s in backend._slots] == [seed2, seed2]
    finally:
        backend.close()
    assert backend._seeds == {}
    for pid in (seed, seed2, pytest_seed):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@requires_root
def test_cpu_of_checks_run_by_seed_forked_workers_reaches_the_graders_rusage():
    """The seed reaps its workers and close() waits for the seed, so the CPU time checks spent
    reaches the grader's children rusage (what the benchmark counts). A seed that let the
    kernel reap its workers would lose it: what is counted then is the seed's own start-up
    (~0.2 s), under the 1 s this check burns."""
    import resource

    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.checks.styles import verdict

    burn = "import time\n_t = time.process_time()\nwhile time.process_time() - _t < 1.0:\n    pass\ndef f():\n    return 1\n"
    check = build_check(Rollout(0, {"completion": burn, "tests": "assert f() == 1"}), CheckOptions().resolved())

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    before = cpu()
    backend = LocalBackend(concurrency=1)
    backend.start()
    try:
        assert verdict(check, backend.run(check))[0] == "pass"
    finally:
        backend.close()
    assert cpu() - before >= 1.0


def test_the_command_starts_a_seed_early_only_for_local_grading():
    from rlvr_grade.entry import grades_locally

    assert grades_locally(["score", "in.jsonl", "-o", "out.jsonl"])
    assert grades_locally(["filter", "in.jsonl", "-o", "out.jsonl", "--backend", "local"])
    assert grades_locally(["score", "in.jsonl", "--backend=local"])
    assert not grades_locally(["score", "in.jsonl", "--backend", "beam"])
    assert not grades_locally(["score", "in.jsonl", "--backend=gvisor"])
    assert not grades_locally(["score", "--help"])
    assert not grades_locally(["doctor"])
    assert not grades_locally(["--version"])
    assert not grades_locally([])


@requires_root
def test_a_seed_started_early_is_adopted_by_the_first_backend():
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.checks.styles import verdict
    from rlvr_grade.sandbox import local

    local.start_seed_early()
    early = local._EARLY[-1][1].proc.pid
    backend = LocalBackend(concurrency=1)
    backend.start()
    try:
        assert local._EARLY == []
        assert backend._seeds["lean"].proc.pid == early
        assert _ppid(backend._slots[0].proc.pid) == early
        check = build_check(Rollout(0, {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"}), CheckOptions().resolved())
        assert verdict(check, backend.run(check))[0] == "pass"
    finally:
        backend.close()
    with pytest.raises(ProcessLookupError):
        os.kill(early, 0)


def test_a_seed_started_early_and_never_adopted_dies_with_its_process():
    out = subprocess.run(
        [sys.executable, "-c", "from rlvr_grade.sandbox import local; local.start_seed_early(); print(local._EARLY[0][1].proc.pid)"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    seed = int(out.stdout)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with open(f"/proc/{seed}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break  # dead, waiting for whoever adopted it to reap it
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the early seed outlived the process that started it")


def test_the_lean_worker_does_not_load_threading_or_shutil():
    """Every check child runs the at-fork hooks of what its worker imported (threading's cost
    ~25 copy-on-write faults a check) and copies its mappings (shutil brings bz2 and lzma, two
    C libraries each): the lean worker's warm-up imports neither."""
    code = ("import sys; from rlvr_grade.sandbox import zygote; zygote.warm_up(False); "
            "print(sorted(m for m in ('threading', 'shutil', 'bz2', 'lzma') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-s", "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_a_checks_peak_memory_is_its_own_never_an_earlier_checks_of_the_slot(tmp_path):
    """cgroup v2's memory.peak is the slot's since it was made (no reset on every kernel): a
    check is reported with it only when it raised it (SlotCgroup.peak_mark/peak_since)."""
    from rlvr_grade.sandbox.cgroups import SlotCgroup

    cg = SlotCgroup.__new__(SlotCgroup)
    cg.version, cg.memory_dir = 2, str(tmp_path)
    (tmp_path / "memory.peak").write_text(str(500 << 20))  # an earlier check's 500 MiB
    mark = cg.peak_mark()
    assert cg.peak_since(mark) == 0  # this check used less: its own rusage tells
    (tmp_path / "memory.peak").write_text(str(600 << 20))
    assert cg.peak_since(mark) == 600 << 20
    cg.version = 1  # v1: configure() resets max_usage_in_bytes before each check
    (tmp_path / "memory.max_usage_in_bytes").write_text(str(7 << 20))
    assert cg.peak_mark() == 0 and cg.peak_since(0) == 7 << 20


@requires_root
def test_the_cgroup_files_read_around_every_check_are_held_open_and_read_fresh_each_time():
    """SlotCgroup holds the files a worker reads around every check (CPU used, PSI, OOM kills,
    peak) open instead of walking /sys/fs/cgroup for each: a read through a held descriptor must
    see the value now, not the first read's (a process that burnt CPU and raised the peak since
    is counted; a reset peak reads low again), and remove() closes them."""
    cg = cgroups.SlotCgroup(f"perf-held-{os.getpid()}")
    try:
        cpu0, peak0, oom0 = cg.cpu_ns(), cg.peak_bytes(), cg.oom_kills()
        waited0 = cg.cpu_waited_us()
        held = {os.readlink(f"/proc/self/fd/{fd}") for fd in cg.__dict__.get("_fds", {}).values()}
        assert cg.cpu_file is None or cg.cpu_file in held, held
        burn = ("import os, time\n"
                "open(os.path.join(os.environ['CG'], 'cgroup.procs'), 'w').write('0')\n"
                "b = bytearray(48 << 20)\nb[::4096] = b'x' * len(b[::4096])\n"
                "t = time.process_time()\nwhile time.process_time() - t < 0.2: pass\n")
        dirs = cg.dirs + ([cg.pressure_dir] if cg.pressure_dir else [])
        for d in dirs:  # one process per hierarchy would do; every hierarchy's files are read
            subprocess.run([sys.executable, "-c", burn], env={**os.environ, "CG": d}, check=True, timeout=60)
        if cg.cpu_file is not None:
            assert cg.cpu_ns() >= cpu0 + 150_000_000, (cpu0, cg.cpu_ns())
        if cg.version == 1:
            assert cg.peak_bytes() >= peak0 + (40 << 20), (peak0, cg.peak_bytes())
            cg.configure(256 << 20, 16)  # resets the peak before the next check
            cg.configure(256 << 20, 16)
            assert cg.peak_bytes() < 8 << 20, cg.peak_bytes()
        else:
            assert cg.peak_bytes() >= peak0 + (40 << 20), (peak0, cg.peak_bytes())
        assert cg.oom_kills() == oom0
        if waited0 is not None:
            assert cg.cpu_waited_us() >= waited0
        assert [fd for fd in cg.__dict__["_fds"].values()], "nothing held"
        fds = list(cg.__dict__["_fds"].values())
    finally:
        cg.kill_all()
        cg.remove()
    assert "_fds" not in cg.__dict__
    for fd in fds:  # closed (or its number taken since by something else)
        try:
            assert not os.readlink(f"/proc/self/fd/{fd}").startswith(cgroups.ROOT), fd
        except FileNotFoundError:
            pass


_FORGET_CHECK = r'''
import os, sys
from rlvr_grade.sandbox import zygote


class SeedFinder:  # stands for the seed's finder of the two packages (local.boot_code)
    host_of = staticmethod(lambda path: path)
    find_spec = staticmethod(lambda *a: None)


def child(after_note=lambda: None):
    """forget_grader in a forked child, as a check's child runs it: what is left of the grader."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        after_note()
        zygote.forget_grader()
        left = [n for n in sys.modules if n == "rlvr_grade" or n.startswith("rlvr_grade.")]
        finders = [f for f in sys.meta_path if hasattr(f, "host_of")]
        os.write(w, repr((left, len(finders))).encode())
        os._exit(0)
    os.close(w)
    out = os.read(r, 1 << 16).decode()
    os.waitpid(pid, 0)
    return out


sys.meta_path.insert(0, SeedFinder)
zygote.note_modules()  # the worker, before its first check
assert zygote._MODULES_NOTED, "the worker noted no names for its checks to start from"
assert child() == "([], 0)", child()  # nothing imported since: the noted names and finders
assert child(lambda: __import__("rlvr_grade.summary")) == "([], 0)"  # imported in the child before it forgets
sys.meta_path.insert(1, type("Other", (SeedFinder,), {}))  # a finder added after the note
assert child() == "([], 0)", child()
import rlvr_grade.reports  # a grader module imported after the worker noted its names
assert child() == "([], 0)", child()
zygote.renote_modules()  # the worker, before its next fork
assert "rlvr_grade.reports" in zygote._MODULES_NOTED[0][1]
assert child() == "([], 0)", child()
zygote.forget_grader()  # in this process, without a fork
left = [n for n in sys.modules if n == "rlvr_grade" or n.startswith("rlvr_grade.")]
assert left == [], left
print("ok")
'''


def test_a_check_forgets_the_graders_modules_from_the_workers_names_and_those_imported_since():
    """A check's child takes the grader's package out of sys.modules (issue 18) from the names
    the worker noted before its first check, plus any imported since (found by name in C):
    walking sys.modules in every child increfed all its names (~190 copied pages a check).
    Where nothing moved since the worker's last note (it notes again before each fork), the
    child takes the noted names and finders as they are; a module imported or a finder added
    since is still found."""
    out = subprocess.run([sys.executable, "-c", _FORGET_CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
