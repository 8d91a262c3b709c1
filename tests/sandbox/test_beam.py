"""The Beam backend specifically: the real beam-client against the fake gateway in
tests/fake_beam (behaviour every backend shares is in test_conformance.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr_grade.api import Grader, ScoreOptions, score_file
from rlvr_grade.checks import CheckOptions, build_check
from rlvr_grade.types import Limits, Rollout, SandboxError
from tests.conftest import ROOT, read_jsonl, write_jsonl

LIMITS = Limits(cpu_s=5.0, wall_s=10.0, memory_mb=256, processes=32, output_bytes=4096)
ADD = "def add(a, b):\n    return a + b\n"
PASS_ROW = {"completion": ADD, "tests": "assert add(1, 2) == 3\n"}
FAIL_ROW = {"completion": "def add(a, b):\n    return 0\n", "tests": "assert add(1, 2) == 3\n"}

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("beam") is None, reason="beam-client is not installed: pip install 'rlvr-grade[beam]'"),
    pytest.mark.skipif(os.geteuid() != 0, reason="the runner inside the fake's sandboxes isolates checks as root"),
]


@pytest.fixture
def gateway():
    from tests.fake_beam import FakeGateway

    gw = FakeGateway().start()
    yield gw
    gw.stop()


def backend_for(gw, **kw):
    from rlvr_grade.sandbox.beam import BeamBackend

    kw.setdefault("rpc_timeout", 5)
    kw.setdefault("grace_s", 10)
    kw.setdefault("poll_s", 0.05)
    b = BeamBackend(concurrency=4, context=gw.context(), **kw)
    b.start()
    return b


def check_of(row: dict, limits: Limits = LIMITS):
    return build_check(Rollout(index=0, row=row), CheckOptions(limits=limits))


def env_for(gw, **extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BEAM_TOKEN", "BETA9_TOKEN")}
    env.update(
        BEAM_TOKEN=gw.token, GATEWAY_HOST="127.0.0.1", GATEWAY_PORT=str(gw.port),
        CONFIG_PATH=str(Path(env.get("TMPDIR", "/tmp")) / "rlvr-no-such-beam-config.ini"),
    )
    env.update(extra)
    return env


def cli(args: list[str], env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rlvr_grade", "score", *args], cwd=ROOT, env=env,
        input=stdin, capture_output=True, text=True, timeout=240,
    )


def test_one_fresh_sandbox_per_check_configured_from_the_limits(gateway):
    be = backend_for(gateway)
    try:
        for _ in range(3):
            ex = be.run(check_of(PASS_ROW))
            assert ex.done and [r.outcome for r in ex.records] == ["passed"]
    finally:
        be.close()
    containers = list(gateway.containers.values())
    assert len(containers) == 3  # a fresh sandbox per check, never reused
    assert all(c.stopped for c in containers)  # and always terminated
    assert all(c.uploads == 1 for c in containers)  # the files travel in ONE transfer
    (stub,) = gateway.stubs.values()
    assert stub["block_network"] is True
    assert stub["memory"] >= LIMITS.memory_mb
    assert stub["cpu"] == 1000


def test_sandbox_is_terminated_when_the_check_fails_and_when_the_runner_breaks(gateway, tmp_path):
    be = backend_for(gateway)
    try:
        be.run(check_of(FAIL_ROW))
        # A runner that prints no result (an image without a working python3) is an infrastructure error.
        gateway.python = "/bin/true"
        with pytest.raises(SandboxError, match="without a result"):
            be.run(check_of(PASS_ROW))
    finally:
        be.close()
    assert len(gateway.containers) == 2
    assert all(c.stopped for c in gateway.containers.values())


def test_a_hung_runner_is_killed_at_our_deadline(gateway, tmp_path):
    hang = tmp_path / "hang.sh"
    hang.write_text("#!/bin/sh\nexec sleep 60\n")
    hang.chmod(0o755)
    gateway.python = str(hang)
    be = backend_for(gateway, grace_s=1.0)
    try:
        with pytest.raises(SandboxError, match="did not finish"):
            be.run(check_of(PASS_ROW, Limits(cpu_s=1.0, wall_s=1.0)))
    finally:
        be.close()
    assert gateway.calls.get("/pod.PodService/SandboxKill") == 1  # the client's wait never kills: we do
    assert all(c.stopped for c in gateway.containers.values())


def test_transient_create_errors_are_retried_with_backoff(gateway):
    gateway.fail_creates = 2
    be = backend_for(gateway)
    try:
        ex = be.run(check_of(PASS_ROW))
    finally:
        be.close()
    assert ex.done
    assert be.stats["create_retries"] == 2


def test_creates_in_flight_are_bounded_whatever_the_concurrency(gateway):
    gateway.create_delay = 0.3
    be = backend_for(gateway, max_creates=2)
    # Distinct rows: identical ones would be graded once (in-run dedupe) and never overlap.
    rows = [Rollout(index=i, row={**PASS_ROW, "completion": PASS_ROW["completion"] + f"\n# {i}\n"}) for i in range(8)]
    opts = ScoreOptions(checks=CheckOptions(limits=LIMITS), concurrency=8)
    with Grader(opts, backend=be) as grader:
        outcomes = [o for _, o in grader.iter_grade(rows)]
    assert [o.status for o in outcomes] == ["pass"] * 8
    assert gateway.max_creates_in_flight == 2


def test_cache_key_names_the_image_and_the_runner(gateway):
    from rlvr_grade.sandbox.beam import BeamBackend

    a = BeamBackend(image="python3.11").fingerprint()
    b = BeamBackend(image="im-0123abcd").fingerprint()
    assert a["image"] == "python3.11" and b["image"] == "im-0123abcd" and a != b
    assert a["harness"] and a["harness"] == b["harness"]


def test_unreachable_gateway_fails_at_start_not_row_by_row():
    import socket

    from beta9.config import ConfigContext

    from rlvr_grade.sandbox.beam import BeamBackend, BeamConfigError

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    be = BeamBackend(context=ConfigContext(token="t", gateway_host="127.0.0.1", gateway_port=port), rpc_timeout=1.0)
    with pytest.raises(BeamConfigError, match="cannot reach the Beam gateway"):
        be.start()


def test_stdout_is_pure_jsonl_with_the_beam_backend(gateway, tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [PASS_ROW, FAIL_ROW])
    res = cli([str(src), "-o", "-", "--backend", "beam", "--timeout", "5"], env_for(gateway))
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in res.stdout.splitlines()]  # every line is a row, nothing else
    assert [(r["status"], r["reward"]) for r in rows] == [("pass", 1.0), ("fail", 0.0)]


def test_token_and_gateway_come_from_the_beam_config_file(gateway, tmp_path):
    config = tmp_path / "config.ini"
    config.write_text(f"[default]\ntoken = {gateway.token}\ngateway_host = 127.0.0.1\ngateway_port = {gateway.port}\n")
    env = env_for(gateway, CONFIG_PATH=str(config))
    for key in ("BEAM_TOKEN", "GATEWAY_HOST", "GATEWAY_PORT"):
        del env[key]
    src = write_jsonl(tmp_path / "in.jsonl", [PASS_ROW])
    res = cli([str(src), "-o", "-", "--backend", "beam", "-q"], env)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["status"] == "pass"


def test_missing_token_is_a_clear_error_before_any_work(gateway, tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [PASS_ROW])
    out = tmp_path / "out.jsonl"
    env = env_for(gateway)
    del env["BEAM_TOKEN"]
    res = cli([str(src), "-o", str(out), "--backend", "beam"], env)
    assert res.returncode == 3
    assert "no Beam token" in res.stderr and "BEAM_TOKEN" in res.stderr
    assert not out.exists()
    assert gateway.calls == {}  # nothing was sent


def test_missing_beam_client_names_the_install_command(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [PASS_ROW])
    code = (
        "import sys; sys.modules['beam'] = None\n"  # as if beam-client were not installed
        "from rlvr_grade.cli import main\n"
        f"sys.argv = ['rlvr-grade', 'score', {str(src)!r}, '-o', {str(tmp_path / 'o.jsonl')!r}, '--backend', 'beam']\n"
        "main()\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 3
    assert "pip install 'rlvr-grade[beam]'" in res.stderr


def test_other_backends_never_import_beam_client():
    code = (
        "import sys\n"
        "from rlvr_grade.sandbox import make_backend\n"
        "make_backend('local', 1); make_backend('gvisor', 1); make_backend('beam', 1)\n"
        "print(sorted(m for m in ('beam', 'beta9', 'grpc') if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "[]", res.stderr


def test_gateway_dying_mid_run_gives_sandbox_errors_that_a_rerun_completes(tmp_path):
    from tests.fake_beam import FakeGateway

    rows = [{**PASS_ROW, "n": i, "completion": PASS_ROW["completion"] + f"\n# {i}\n"} for i in range(6)]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out.jsonl"
    opts = ScoreOptions(
        checks=CheckOptions(limits=LIMITS), backend="beam", concurrency=1, retries=2, retry_delay=0.05,
    )
    dying = FakeGateway()
    dying.die_after_creates = 3
    dying.start()
    try:
        ctx_opts = (("context", dying.context()), ("create_attempts", 2), ("rpc_timeout", 3.0), ("poll_s", 0.05))
        from dataclasses import replace

        summary = score_file(str(src), str(out), replace(opts, backend_options=ctx_opts))
    finally:
        dying.stop()
    first = read_jsonl(out)
    assert [(r["status"], r["reward"]) for r in first] == [("pass", 1.0)] * 3 + [("sandbox_error", None)] * 3
    assert summary.to_dict()["statuses"]["sandbox_error"] == 3
    fresh = FakeGateway().start()
    try:
        ctx_opts = (("context", fresh.context()), ("rpc_timeout", 3.0), ("poll_s", 0.05))
        score_file(str(src), str(out), replace(opts, backend_options=ctx_opts))
    finally:
        fresh.stop()
    assert [(r["status"], r["reward"]) for r in read_jsonl(out)] == [("pass", 1.0)] * 6


def test_cgroups_of_killed_runners_are_swept(gateway):
    """A sandbox stopped mid-check SIGKILLs its runner before it can remove its cgroup; the
    next runner on that host removes such leftovers (their pid is gone; see test_hygiene)."""
    from rlvr_grade.sandbox.cgroups import SlotCgroup, cgroup_version

    if cgroup_version() is None:
        pytest.skip("no cgroup hierarchy here")
    stale = SlotCgroup("inner-4999999-deadbeef")  # above any pid_max: that runner is gone
    be = backend_for(gateway)
    try:
        assert be.run(check_of(PASS_ROW)).done
    finally:
        be.close()
    assert not any(os.path.exists(d) for d in stale.dirs)


# -- environments: one Beam image per lock hash -----------------------------------------------


def test_an_environment_runs_in_a_beam_image_built_once_and_remembered(wheelhouse, tmp_path):
    """A row's environment becomes a Beam image built from its lock (the fake builds it as a
    real venv from the wheels), once however many rows use it, and remembered beside the
    environment: the next run only checks that the gateway still has it. The same rows under
    another environment run again and see that environment's packages."""
    from dataclasses import replace

    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec
    from tests.fake_beam import FakeGateway

    index = ("--no-index", "--find-links", str(wheelhouse))
    two = envs.build(EnvSpec.parse(packages=["tinyint==2.0"], index=index), name="two")
    one = envs.build(EnvSpec.parse(packages=["tinyint==1.0"], index=index), name="one")
    program = "import tinyint\nV = tinyint.VALUE\n"
    rows = [{"completion": program + f"# {i}\n", "tests": "assert V == 2\n", "env": "two"} for i in range(4)]
    rows += [{"completion": program, "tests": "assert V == 2\n", "env": "one"}, {"completion": program, "tests": "assert V == 2\n"}]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    out = tmp_path / "out.jsonl"
    opts = ScoreOptions(checks=CheckOptions(limits=LIMITS), backend="beam", concurrency=4, cache=str(tmp_path / "c.sqlite"))
    gw = FakeGateway(wheelhouse=str(wheelhouse)).start()
    try:
        ctx = (("context", gw.context()), ("rpc_timeout", 30.0), ("poll_s", 0.05))
        score_file(str(src), str(out), replace(opts, backend_options=ctx))
        got = read_jsonl(out)
        assert [r["status"] for r in got] == ["pass"] * 4 + ["fail", "runtime_error"], [r["error"] for r in got]
        assert "AssertionError" in got[4]["error"]  # tinyint 1.0: V == 1
        assert "No module named 'tinyint'" in got[5]["error"]  # the default image has no tinyint
        assert got[5]["error"].endswith("(environment one or two provides tinyint: --env one)")
        assert sorted(map(sorted, gw.image_builds)) == sorted([sorted(two.lock.pins()), sorted(one.lock.pins())])
        remembered = envs.read_note(two, "beam-images")[f"127.0.0.1:{gw.port}"]
        assert remembered in gw.images
        # A new run (new backend, no cache): the images are reused, not rebuilt.
        score_file(str(src), str(out), replace(opts, cache=None, backend_options=ctx))
        assert len(gw.image_builds) == 2
        assert [r["status"] for r in read_jsonl(out)] == ["pass"] * 4 + ["fail", "runtime_error"]
        # The same rows with `env` switched: executed again (no cached reward crosses), and right.
        flipped = [{**r, "env": {"two": "one", "one": "two"}.get(r.get("env"), r.get("env"))} for r in rows]
        write_jsonl(src, flipped)
        score_file(str(src), str(out), replace(opts, backend_options=ctx))
        again = read_jsonl(out)
        assert [r["status"] for r in again] == ["fail"] * 4 + ["pass", "runtime_error"]
        assert [r["cached"] for r in again] == [False] * 5 + [True]
    finally:
        gw.stop()


def test_an_image_the_gateway_lost_is_built_again(wheelhouse, tmp_path):
    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec
    from tests.fake_beam import FakeGateway

    env = envs.build(EnvSpec.parse(packages=["tinyint==2.0"], index=("--no-index", "--find-links", str(wheelhouse))))
    gw = FakeGateway(wheelhouse=str(wheelhouse)).start()
    try:
        envs.write_note(env, "beam-images", {f"127.0.0.1:{gw.port}": "img-0000000000000000"})
        be = backend_for(gw)
        try:
            check = check_of({"completion": "import tinyint\nV = tinyint.VALUE\n", "tests": "assert V == 2\n"})
            from dataclasses import replace

            ex = be.run(replace(check, env=env.id))
            assert ex.done and [r.outcome for r in ex.records] == ["passed"], ex.stderr
        finally:
            be.close()
        assert len(gw.image_builds) == 1 and be.stats["images_built"] == 1
        assert envs.read_note(env, "beam-images")[f"127.0.0.1:{gw.port}"] in gw.images
    finally:
        gw.stop()


def test_a_gateway_killed_mid_run_stops_it_within_a_minute_and_the_rerun_completes(tmp_path, humaneval_problems):
    """HumanEval's 164 at --concurrency 4; the gateway goes away after 20 sandboxes. The run
    ends with exit 3 naming the gateway, well before the remaining rows would have crawled
    through their retries (it took ~8 minutes before BackendHealth); what it wrote is graded
    rows only, never an infrastructure failure scored 0; the rerun against a gateway that is
    back completes every row, from the cache where it can."""
    import threading
    import time

    from tests.fake_beam import FakeGateway

    rows = [{"task_id": p["task_id"], "prompt": p["prompt"], "completion": p["canonical_solution"],
             "test": p["test"], "entry_point": p["entry_point"]} for p in humaneval_problems]
    src = write_jsonl(tmp_path / "he.jsonl", rows)
    out = tmp_path / "out.jsonl"
    args = [str(src), "-o", str(out), "--backend", "beam", "--preset", "humaneval", "-j", "4", "-q"]
    dying = FakeGateway()
    dying.die_after_creates = 20
    dying.start()
    died: list[float] = []

    def watch() -> None:
        while not dying.dead:
            time.sleep(0.05)
        died.append(time.monotonic())

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        res = cli(args, env_for(dying))
        ended = time.monotonic()
    finally:
        dying.stop()
    assert res.returncode == 3, res.stderr
    assert died, "the gateway never died: the run finished first"
    assert ended - died[0] < 60, f"the run went on {ended - died[0]:.0f} s after the gateway died"
    line = next(x for x in res.stderr.splitlines() if x.startswith("Error:"))
    assert f"beam gateway 127.0.0.1:{dying.port} unreachable" in line
    written = read_jsonl(out)
    assert 0 < len(written) < 164
    assert [r["task_id"] for r in written] == [r["task_id"] for r in rows[: len(written)]]  # a prefix, in order
    assert all((r["status"], r["reward"]) in (("pass", 1.0), ("sandbox_error", None)) for r in written)

    back = FakeGateway().start()
    try:
        res = cli([*args, "--summary-json", str(tmp_path / "s.json")], env_for(back))
    finally:
        back.stop()
    assert res.returncode == 0, res.stderr
    assert [(r["status"], r["reward"]) for r in read_jsonl(out)] == [("pass", 1.0)] * 164
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["cached"] >= sum(r["status"] == "pass" for r in written)


# -- memory snapshots: a warm seed per environment, restored per check ------------------------


def _restored(gw) -> list:
    return [c for c in gw.containers.values() if c.checkpoint]


def _knocks(c) -> int:
    from rlvr_grade.sandbox import warm

    return sum(1 for argv in c.execs if warm.KNOCK in argv)


def _runners(c) -> int:
    from rlvr_grade.sandbox import bundle

    return sum(1 for argv in c.execs if bundle.BOOTSTRAP in argv)


ROWS = [PASS_ROW, FAIL_ROW, {"completion": ADD, "tests": "from solution import add\n\ndef test_a():\n    assert add(2, 2) == 4\n"}]


def _verdicts(be) -> list:
    out = []
    for row in ROWS:
        ex = be.run(check_of(row))
        out.append((ex.done, [r.outcome for r in ex.records]))
    return out


def test_with_processes_restored_each_check_runs_in_the_restored_warm_seed(gateway):
    """The gateway restores processes (the fake re-runs them to where they waited): one
    warm-up sandbox, one snapshot, then every check in a sandbox restored from it, run by the
    seed (the knock found it and never ran the runner itself), with the plain path's verdicts.
    The snapshot holds nothing of any check: taken before the first request existed."""
    plain = backend_for(gateway, snapshot=False)
    try:
        expected = _verdicts(plain)
    finally:
        plain.close()
    assert not gateway.calls.get("/pod.PodService/SandboxSnapshotMemory")
    be = backend_for(gateway, snapshot=True)
    try:
        got = _verdicts(be)
    finally:
        be.close()
    assert got == expected and expected[0] == (True, ["passed"]) and expected[1][1] == ["failed"]
    # Two kinds of seed, as the local backend's two kinds of worker: lean and pytest-warm.
    assert be.stats["snapshots_taken"] == 2 and be.stats["snapshot_checks"] == len(ROWS)
    assert be.stats["snapshot_fallbacks"] == 0 and "restored warm seed" in be.snapshot_state()
    restored = _restored(gateway)
    assert len(restored) == len(ROWS) and all(c.stopped for c in gateway.containers.values())
    assert all(_knocks(c) == 1 and _runners(c) == 0 for c in restored)
    assert len(gateway.checkpoints) == 2
    for ckpt in gateway.checkpoints.values():
        warm_box = gateway.containers[ckpt.container]
        pythons = [argv for argv in warm_box.execs if argv[0] == "python3"]
        assert _knocks(warm_box) == 0 and _runners(warm_box) == 0 and len(pythons) == 1  # the seed only
        snapshotted = {os.path.relpath(os.path.join(d, f), ckpt.files) for d, _, fs in os.walk(ckpt.files) for f in fs}
        assert not [f for f in snapshotted if "request" in f or f.endswith("rlvr-check.tgz")], snapshotted
        assert len(ckpt.processes) == 1  # the seed, waiting


@pytest.mark.parametrize("mode", ["filesystem", "error"])
def test_where_snapshots_do_not_work_the_plain_path_gives_the_same_verdicts(gateway, mode, capsys):
    """"filesystem": the restore brings files back but no process (what the client's
    docstring says): the knock finds a socket nobody listens on, runs the check itself in that
    sandbox, and the rest of the run uses plain sandboxes, said once on stderr. "error": the
    snapshot call fails; plain sandboxes from the start."""
    plain = backend_for(gateway, snapshot=False)
    try:
        expected = _verdicts(plain)
    finally:
        plain.close()
    gateway.snapshot_mode = mode
    be = backend_for(gateway, snapshot=True)
    try:
        got = _verdicts(be)
    finally:
        be.close()
    assert got == expected
    assert be.stats["snapshot_checks"] == 0
    restored = _restored(gateway)
    if mode == "filesystem":
        assert be.stats["snapshot_fallbacks"] == 1 and len(restored) == 1
        assert _knocks(restored[0]) == 1  # the knock ran the check: no second sandbox for it
        assert "does not restore processes" in capsys.readouterr().err
        assert "restored no processes" in be.snapshot_state()
    else:
        assert be.stats["snapshots_taken"] == 0 and restored == []
        assert "not available on this gateway" in capsys.readouterr().err
    assert all(c.stopped for c in gateway.containers.values())


def test_a_restore_that_fails_runs_the_check_in_a_plain_sandbox(gateway):
    gateway.restore_error = True
    be = backend_for(gateway, snapshot=True)
    try:
        got = _verdicts(be)
    finally:
        be.close()
    assert got[0] == (True, ["passed"]) and got[1][1] == ["failed"]
    assert be.stats["snapshots_taken"] == 2 and be.stats["snapshot_checks"] == 0
    # per kind (lean, pytest): a warm-up and one failed restore; then every check plain
    assert gateway.calls["/pod.PodService/CreatePod"] == 2 * 2 + len(ROWS)


def test_the_knock_trusts_only_a_live_seed_that_echoes_its_nonce(tmp_path):
    """A socket file restored without its process, or a listener that answers without our
    nonce, is not the seed: the request is never sent to it."""
    import socket
    import threading

    from rlvr_grade.sandbox import warm

    path = tmp_path / warm.SOCKET
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # the file stays, nobody listens
    conn, _, why = warm._hand_over(b"{}", str(tmp_path), "lean")
    assert conn is None and "no seed listening" in why
    path.unlink()
    impostor = socket.socket(socket.AF_UNIX)
    impostor.bind(str(path))
    impostor.listen(1)
    got = []

    def answer() -> None:
        c, _ = impostor.accept()
        c.recv(100)
        c.sendall(f"{warm.SEED_MARK} 00ff {os.getpid()}\n".encode())
        got.append(c.recv(100))
        c.close()

    t = threading.Thread(target=answer)
    t.start()
    conn, _, why = warm._hand_over(b'{"secret": 1}', str(tmp_path), "lean")
    t.join(10)
    impostor.close()
    assert conn is None and "did not echo our nonce" in why
    assert got == [b""]  # the request never reached it


def test_the_seed_preloads_its_environment_and_the_checkpoint_is_remembered(wheelhouse, tmp_path):
    """An environment with a preload gets a snapshot by default: its checks find the
    preloaded module imported by the seed (another process than theirs), the checkpoint is
    remembered beside the image, and a second run restores it without a new warm-up. An
    environment whose preload starts a thread gets no snapshot (the seed refuses) and runs
    plain, with the same verdicts."""
    from dataclasses import replace

    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec
    from tests.fake_beam import FakeGateway

    index = ("--no-index", "--find-links", str(wheelhouse))
    probe = envs.build(EnvSpec.parse(packages=["importprobe==1.0"], index=index), name="probe")
    spin = envs.build(EnvSpec.parse(packages=["spinner==1.0"], index=index), name="spin")
    gw = FakeGateway(wheelhouse=str(wheelhouse)).start()
    seeded = {"completion": "import os, importprobe\nPRE = importprobe.PID != os.getpid()\n", "tests": "assert PRE\n"}
    fresh = {"completion": "import os, importprobe\nPRE = importprobe.PID != os.getpid()\n", "tests": "assert not PRE\n"}
    spun = {"completion": "import spinner\n", "tests": "assert True\n"}
    try:
        for run in range(2):
            be = backend_for(gw, rpc_timeout=30.0)
            try:
                ex = be.run(replace(check_of(seeded), env=probe.id))
                assert ex.done and [r.outcome for r in ex.records] == ["passed"], ex.stderr
                ex = be.run(replace(check_of(spun), env=spin.id))
                assert ex.done and [r.outcome for r in ex.records] == ["passed"], ex.stderr
            finally:
                be.close()
            assert be.stats["snapshot_checks"] == 1
            assert be.stats["snapshots_taken"] == (1 if run == 0 else 0)
            assert "left 1 thread(s) running" in be.snapshot_state()
        assert gw.calls["/pod.PodService/SandboxSnapshotMemory"] == 1
        note = envs.read_note(probe, "beam-images")
        (remembered,) = note["memory-snapshots"][f"127.0.0.1:{gw.port}"]["checkpoints"].values()
        assert remembered in gw.checkpoints
        # --no-beam-snapshot: the same row in a plain sandbox imports the module itself.
        be = backend_for(gw, rpc_timeout=30.0, snapshot=False)
        try:
            ex = be.run(replace(check_of(fresh), env=probe.id))
            assert ex.done and [r.outcome for r in ex.records] == ["passed"], ex.stderr
        finally:
            be.close()
    finally:
        gw.stop()


def test_the_cli_turns_snapshots_on_and_off_and_the_summary_says_what_ran(gateway, tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [PASS_ROW, FAIL_ROW])
    for flag, expect in (("--beam-snapshot", "check(s) ran in a restored warm seed"), ("--no-beam-snapshot", "off")):
        summary = tmp_path / f"s{flag}.json"
        res = cli([str(src), "-o", "-", "--backend", "beam", "--no-cache", flag, "--summary-json", str(summary)], env_for(gateway))
        assert res.returncode == 0, res.stderr
        assert [json.loads(line)["status"] for line in res.stdout.splitlines()] == ["pass", "fail"]
        assert expect in json.loads(summary.read_text())["isolation"]["memory snapshots"]
    assert gateway.calls["/pod.PodService/SandboxSnapshotMemory"] == 1


def _archive_altered(archive: bytes, name: str, how: str) -> bytes:
    """`archive` with the harness extension `name` as an image that cannot load it has it:
    built for another Python (a file name this interpreter does not load), broken, or missing."""
    import io
    import tarfile

    out = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(archive)) as src, tarfile.open(fileobj=out, mode="w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read()
            if member.name.startswith(f"rlvr_harness/{name}."):
                if how == "missing":
                    continue
                if how == "another_python":
                    member.name = f"rlvr_harness/{name}.cpython-39-x86_64-linux-gnu.so"
                if how == "broken":
                    data = b"\x7fELF" + bytes(60)  # a header and nothing else
                    member.size = len(data)
            dst.addfile(member, io.BytesIO(data))
    return out.getvalue()


@pytest.mark.parametrize("name", ["_dictver", "_arrays"])
@pytest.mark.parametrize("how", ["another_python", "broken", "missing"])
def test_a_runner_that_cannot_load_a_harness_extension_refuses_the_check(gateway, tmp_path, name, how):
    # The harness's C extensions carry defences (the frame fence, the array and mmap seals,
    # numpy's checks). A runner on an image that cannot load them (another Python, a broken or
    # missing file) grades nothing: the check is an error that names the extension and the
    # image's Python, never a verdict with the defence off. Run as Beam runs it: the archive
    # unpacked by BOOTSTRAP, by the managed image's python (which has no rlvr-grade of its own).
    import platform
    from dataclasses import replace

    from rlvr_grade.sandbox import bundle
    from rlvr_grade.sandbox.inner import parse_result

    check = check_of({"completion": "def f(x):\n    return 0\n", "tests": "assert f(1) == 2\n"})
    message = replace(check.request(), token="a" * 32)
    archive = _archive_altered(bundle.build_archive(message.to_wire()), name, how)
    (tmp_path / bundle.ARCHIVE).write_bytes(archive)
    p = subprocess.run([gateway.python, "-s", "-c", bundle.BOOTSTRAP, bundle.ARCHIVE], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    resp = parse_result(p.stdout, message.token)
    assert resp is not None and set(resp) == {"sandbox_error"}, (p.stdout[-2000:], p.stderr[-2000:])
    assert f"rlvr_harness.{name}" in resp["sandbox_error"] and f"Python {platform.python_version()}" in resp["sandbox_error"]


def test_the_archive_brings_the_harness_extensions_and_the_runner_loads_them_from_it(gateway, tmp_path):
    # The unaltered archive, as above: the check runs (a wrong program fails), the extensions
    # came from the unpacked archive, not from this checkout (the managed image cannot see it).
    from dataclasses import replace

    from rlvr_grade.sandbox import bundle
    from rlvr_grade.sandbox.inner import EXTENSIONS, parse_result

    shipped = {rel.split("/")[1].split(".")[0] for rel, _ in bundle.shipped_extensions()}
    assert shipped == set(EXTENSIONS)
    check = check_of({"completion": "def f(x):\n    return 0\n", "tests": "assert f(1) == 2\n"})
    message = replace(check.request(), token="b" * 32)
    (tmp_path / bundle.ARCHIVE).write_bytes(bundle.build_archive(message.to_wire()))
    p = subprocess.run([gateway.python, "-s", "-c", bundle.BOOTSTRAP, bundle.ARCHIVE], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    resp = parse_result(p.stdout, message.token)
    assert resp is not None and "sandbox_error" not in resp, (p.stdout[-2000:], p.stderr[-2000:])
    assert [r["outcome"] for r in resp["records"]] == ["failed"], resp
