"""Running the references: unsandboxed, each in a subprocess of the fidelity venv's Python, in a
throwaway directory, with resource limits and a wall timeout that kills the whole process group.
Their verdicts are cached on disk (they do not depend on rlvr-grade's code), so a rerun after a
grader change only grades with rlvr-grade again."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from fidelity.core import Verdict

# Limits of one reference run. The address-space cap is evalplus's own default (4 GiB);
# the file-size cap keeps a runaway writer from filling the disk.
ADDRESS_SPACE = 4 << 30
FILE_SIZE = 256 << 20
TAIL = 2000  # characters of stdout/stderr kept
# Run as root (as here), a reference could write read-only files and read any file: ClassEval
# tests that expect a write to a read-only file to fail would fail the correct solution. The
# venv's interpreter lives under /root (0700), so another user cannot run it; root without the
# capabilities that override file permissions behaves like an owner. Where setpriv is missing
# or we are not root, the program runs as we are.
DROP_CAPS = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


# Part of the cache key of every verdict run_python produced: a change here reruns them.
RUNNER = "run_python/2: setpriv without DAC override"


def _privilege_prefix() -> list[str]:
    return DROP_CAPS if os.geteuid() == 0 and shutil.which("setpriv") else []


@dataclass(frozen=True)
class Proc:
    returncode: int | None  # None: killed at the wall timeout
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def _limit(pid: int, cpu_s: float) -> None:
    # prlimit on the started child rather than a preexec_fn: the references run from a thread
    # pool, and a preexec_fn is not safe with threads. The child is still starting Python
    # when these apply; what it runs comes after.
    cpu = int(cpu_s) + 1
    for what, value in ((resource.RLIMIT_AS, ADDRESS_SPACE), (resource.RLIMIT_FSIZE, FILE_SIZE),
                        (resource.RLIMIT_CORE, 0), (resource.RLIMIT_CPU, cpu)):
        try:
            resource.prlimit(pid, what, (value, value))
        except ProcessLookupError:
            return


def run_python(python: str, files: dict[str, str], argv: list[str], timeout_s: float,
               extra_env: dict[str, str] | None = None) -> Proc:
    """Write `files` into a fresh directory and run `python *argv` there, unsandboxed. Killed
    (the whole session) after `timeout_s` seconds of wall time; the CPU rlimit is the same
    number, so a load spike is not what ends it first."""
    work = tempfile.mkdtemp(prefix="rlvr-fidelity-ref.")
    try:
        for name, text in files.items():
            with open(os.path.join(work, name), "w") as fh:
                fh.write(text)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "TMPDIR": work,
            "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        }
        env.update(extra_env or {})
        proc = subprocess.Popen([*_privilege_prefix(), python, *argv], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        _limit(proc.pid, timeout_s)
        try:
            out, err = proc.communicate(timeout=timeout_s)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            out, err = proc.communicate()
            code = None
        finally:
            _kill_group(proc.pid)  # whatever it left running in its session
        return Proc(code, out.decode(errors="replace")[-TAIL:], err.decode(errors="replace")[-TAIL:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def last_line(text: str) -> str:
    lines = [x for x in (text or "").strip().splitlines() if x.strip()]
    return lines[-1].strip() if lines else ""


def exit_verdict(p: Proc) -> Verdict:
    """The plain-subprocess verdict: exit 0 is a pass (the program is the solution plus its
    asserts), anything else a failure with the traceback's last line as the error."""
    if p.timed_out:
        return Verdict(False, "timeout", "killed at the wall timeout")
    if p.returncode == 0:
        return Verdict(True, "passed")
    if p.returncode < 0:
        return Verdict(False, "failed", f"killed by signal {-p.returncode}")
    return Verdict(False, "failed", last_line(p.stderr) or f"exit {p.returncode}")


class RefCache:
    """Reference verdicts by content hash, one JSON line each, appended as they come in (an
    interrupted run keeps what it finished). The hash covers the reference's name and version,
    its settings and everything the program and tests consist of."""

    def __init__(self, path: str | None):
        self.path = path
        self._lock = threading.Lock()
        self._known: dict[str, Verdict] = {}
        if path and os.path.exists(path):
            with open(path) as fh:
                for line in fh:
                    try:
                        d = json.loads(line)
                        self._known[d["h"]] = Verdict(**d["v"])
                    except (ValueError, KeyError, TypeError):
                        continue  # a torn last line from an interrupted run

    @staticmethod
    def key(*parts: object) -> str:
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()

    def get(self, h: str) -> Verdict | None:
        return self._known.get(h)

    def put(self, h: str, v: Verdict) -> None:
        with self._lock:
            self._known[h] = v
            if self.path:
                os.makedirs(os.path.dirname(self.path), exist_ok=True)
                with open(self.path, "a") as fh:
                    fh.write(json.dumps({"h": h, "v": asdict(v)}) + "\n")


def run_cached(items: Iterable[tuple[str, str]], run: Callable[[str], Verdict], cache: RefCache, jobs: int,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Verdict]:
    """`items` are (row key, content hash); `run(key)` computes a verdict. Cached ones are
    taken as they are, the rest run `jobs` at a time."""
    out: dict[str, Verdict] = {}
    todo = []
    for key, h in items:
        v = cache.get(h)
        if v is None:
            todo.append((key, h))
        else:
            out[key] = v
    done = [0]
    lock = threading.Lock()

    def one(item: tuple[str, str]) -> None:
        key, h = item
        v = run(key)
        cache.put(h, v)
        with lock:
            out[key] = v
            done[0] += 1
            if progress:
                progress(done[0], len(todo))

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        list(pool.map(one, todo))
    return out
