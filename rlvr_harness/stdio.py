"""Runs INSIDE the sandbox child: the stdio test style (and the per-case process runner the
call style shares).

The program is compiled once (C, C++, Java) or syntax-checked once (Python, JavaScript), then
every case runs in its own forked grandchild with the case input on stdin (a file in the
check's private /tmp), its stdout captured, and its own CPU limit. Python programs are not
exec'd: the grandchild is a fork of this warm interpreter that execs the compiled code object
as `__main__`, so a case costs a fork, not an interpreter start-up.

Only the program's output leaves, on the report channel: the expected outputs are not in
this sandbox at all, and the comparison happens outside (rlvr_grade/scoring/cases.py). Each case is
reported as {"ev": "test", "id": "case:<i>", "outcome": "passed"|"error", "output": stdout,
"msg": "<RUN VERDICT>: detail"} where the run verdict is OK, TLE, MLE, RE or OLE."""

from __future__ import annotations

import os
import signal
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from rlvr_harness import process, seeding
from rlvr_harness.languages import COMPILE_CPU_S, LANGUAGES, java_main_class
from rlvr_harness.limits import case_wall_s, limit_hit
from rlvr_harness.wire import CaseOptions, CheckPayload

Report = Callable[[dict[str, Any]], None]
ERR_CAP = 8192
EXTRA_CAP = 16 << 20  # the call style's result pipe
PR_SET_DUMPABLE = 4


@dataclass
class CaseRun:
    """What one process run did (inside the sandbox; never leaves as is)."""

    verdict: str  # OK, TLE, MLE, RE, OLE
    stdout: bytes
    stderr: bytes
    cpu_s: float
    exit_code: int | None
    signal: int | None
    extra: bytes = b""  # the call style's private result pipe
    wall_s: float | None = None  # the wall limit that stopped it, when that (not CPU) did
    output_cap: int = 0  # the stdout cap it ran with (named in an OLE)


def harden_parent() -> None:
    """Make this harness process non-dumpable: a case's process (same uid) can then neither
    ptrace it nor open /proc/<harness>/fd/<channel> or /proc/<harness>/mem.

    Every set-up path of the sandbox has already done so (sandbox/_child.c, isolation.py,
    inner.py), which the kernel shows as this process's /proc files no longer being its own
    uid's. Only where they still are is ctypes loaded to do it: a loaded _ctypes would stay in
    this process and in every case's process forked from it (red team A2: its types read raw
    memory), and importing it cost every check ~4 ms of CPU."""
    try:
        if os.stat("/proc/self/mem").st_uid != os.geteuid():
            return
    except OSError:
        pass
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def run_process(
    target: Callable[[], None] | list[str],
    stdin_path: str | None,
    cpu_s: float,
    wall_s: float,
    output_cap: int,
    memory_mb: int | None = None,
    stack_mb: int | None = None,
    want_extra: bool = False,
    env: dict[str, str] | None = None,
) -> CaseRun:
    """Run one case's process (rlvr_harness/process.py: `target` is a Python callable, or an argv to
    exec) with the given stdin, its stdout capped at `output_cap` (past it: OLE), stderr and, with
    `want_extra`, fd 3 kept up to their own caps, and judge how it ended (limits.limit_hit).
    RLIMIT_CPU on the process is the per-case limit; `wall_s` is a backstop."""
    streams = [(output_cap, True), (ERR_CAP, False)] + ([(EXTRA_CAP, False)] if want_extra else [])
    ended, (out, err, *extra) = process.run(target, stdin_path, cpu_s=cpu_s, wall_s=wall_s, streams=streams,
                                            memory_mb=memory_mb, stack_mb=stack_mb, env=env)
    cpu, code, sig = ended.cpu_s, ended.exit_code, ended.signal
    hit = limit_hit(cpu_s=cpu, cpu_limit=cpu_s, sig=sig, killed_for_output=ended.killed_for_output,
                    killed_for_wall=ended.killed_for_wall, soft_cpu_rlimit=True)
    if hit == "output":
        verdict = "OLE"
    elif hit in ("cpu", "wall"):
        verdict = "TLE"
    elif sig == signal.SIGKILL or b"MemoryError" in err[-400:] or b"OutOfMemoryError" in err or b"std::bad_alloc" in err[-400:]:
        # SIGKILL that is not the CPU limit: the memory cgroup's OOM killer (or the program's
        # own kill -9, which is a runtime error anyway; the memory verdict is refined outside
        # from the check's OOM count).
        verdict = "MLE"
    elif sig is not None or code != 0:
        verdict = "RE"
    else:
        verdict = "OK"
    # Stopped by our wall deadline without spending its CPU limit: it waited (sleep, a blocking
    # read, a full pipe), which the message should say rather than blame the CPU.
    by_wall = wall_s if hit == "wall" else None
    return CaseRun(verdict, out, err, cpu, code, sig, extra[0] if extra else b"", by_wall, output_cap)


def _tail(err: bytes) -> str:
    text = err.decode("utf-8", "replace").strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def describe(run: CaseRun, cpu_limit: float) -> str:
    if run.verdict == "TLE" and run.wall_s is not None:
        return f"TLE: over the {run.wall_s:g}s wall-clock limit per case, with {run.cpu_s:.2f}s of CPU (waiting, not computing)"
    if run.verdict == "TLE":
        return f"TLE: over the {cpu_limit:g}s CPU limit per case"
    if run.verdict == "OLE":
        # The same rule as a whole check's (scoring.output_limit_error), for one case's stdout.
        return f"OLE: output limit exceeded ({run.output_cap} bytes)"
    if run.verdict == "MLE":
        return "MLE: memory limit exceeded" + (f" ({_tail(run.stderr)})" if run.stderr else "")
    if run.verdict == "RE":
        how = f"killed by signal {run.signal}" if run.signal else f"exit code {run.exit_code}"
        tail = _tail(run.stderr)
        return f"RE: {how}" + (f": {tail}" if tail else "")
    return "OK"


# -- building ---------------------------------------------------------------------------------
def _fill(args: tuple[str, ...] | list[str], **values: str) -> list[str]:
    return [a.format(**values) for a in args]


def _which(name: str) -> str:
    import shutil

    return shutil.which(name) or name


def prepare(program: str, language: str, setup: str, memory_mb: int, report: Report,
            workdir: str) -> tuple[Any, dict[str, Any]] | None:
    """Write and compile the program once (`memory_mb`: the compiler's own, where it takes
    one). Returns (python code object | argv list, info) or None after reporting a compile error."""
    lang = LANGUAGES[language]
    if lang.name == "python":
        try:
            code = compile(setup + "\n" + program if setup else program, "solution.py", "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            report({"ev": "phase", "phase": "compile", "msg": "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1][:500]})
            return None
        return code, {}
    main = java_main_class(program) if lang.name == "java" else "Main"
    src = os.path.join(workdir, lang.source.format(main=main))
    exe = os.path.join(workdir, "prog")
    with open(src, "w", encoding="utf-8") as fh:
        fh.write(program)
    values = {"src": src, "exe": exe, "main": main, "mem": str(memory_mb)}
    build = lang.compile or lang.syntax_check
    if build is not None:
        argv = _fill(build, **values)
        argv[0] = _which(argv[0])
        ccpu = COMPILE_CPU_S
        run = run_process(argv, None, ccpu, ccpu * 2 + 10, 1 << 16, stack_mb=None)
        if run.verdict != "OK":
            text = (run.stderr or run.stdout).decode("utf-8", "replace").strip()
            first_err = next((ln for ln in text.splitlines() if "error" in ln.lower()), text.splitlines()[-1] if text else "")
            what = "compiler exceeded its time limit" if run.verdict == "TLE" else first_err or f"compiler {describe(run, ccpu)}"
            report({"ev": "phase", "phase": "compile", "msg": what[:500]})
            return None
    argv = _fill(lang.run, **values)
    argv[0] = _which(argv[0])
    return argv, {"native": lang.name in ("c", "cpp")}


# -- the style -------------------------------------------------------------------------------
def run(payload: CheckPayload, report: Report, workdir: str, testdir: str = "") -> None:
    """Run every stdio case (see the module docstring)."""
    harden_parent()
    opts: CaseOptions = payload.options
    prepared = prepare(payload.program, payload.language, payload.setup,
                       opts.memory_mb, report, workdir)
    if prepared is None:
        return
    target, info = prepared
    program_seed = seeding.seeds(payload).program
    each = RunBudget(opts)
    inputs = opts.inputs
    for i, text in enumerate(inputs):
        path = "/tmp/rlvr_case_input" if os.path.isdir("/tmp") else os.path.join(workdir, ".input")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
        os.chmod(path, 0o444)
        runner: Any = target if isinstance(target, list) else _python_main(target, seeding.case_seed(program_seed, i))
        limit = each.case_cpu()
        res = run_process(
            runner, path, limit, each.case_wall(), each.output_cap,
            # Deep recursion is normal in contest code: the stack may use the run's memory.
            stack_mb=each.memory_mb,
            # Native programs get the run memory as their address-space cap: the check's cgroup
            # is sized for the compiler, and a judge's memory limit is per run.
            memory_mb=each.memory_mb if info.get("native") else None,
        )
        os.unlink(path)
        report({
            "ev": "test", "id": f"case:{i}",
            "outcome": "passed" if res.verdict == "OK" else "error",
            "msg": each.describe(res, limit), "output": pack_output(res.stdout) if res.verdict == "OK" else None,
        })
        if each.spend(res.cpu_s, i, len(inputs), report) or (res.verdict != "OK" and each.stop_on_fail):
            break
    report({"ev": "done"})


PACK_OVER = 64 << 10


def pack_output(data: bytes) -> str | dict[str, str]:
    """A case's stdout for the report channel. Large outputs travel zlib-compressed, so many
    cases of big (and typically repetitive) output fit the channel's cap; see unpack_output."""
    if len(data) <= PACK_OVER:
        return data.decode("utf-8", "surrogateescape")
    import base64
    import zlib

    return {"z": base64.b64encode(zlib.compress(data, 1)).decode("ascii")}


def unpack_output(value: object, cap: int = 64 << 20) -> str | None:
    """Inverse of pack_output (used outside the sandbox); None for anything malformed. The
    decompressed size is capped: a crafted record cannot make the grader inflate a bomb."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("z"), str) and len(value) == 1:
        import base64
        import binascii
        import zlib

        try:
            d = zlib.decompressobj()
            raw = d.decompress(base64.b64decode(value["z"]), cap)
            if d.unconsumed_tail:
                return None
            return raw.decode("utf-8", "surrogateescape")
        except (binascii.Error, zlib.error, ValueError):
            return None
    return None


class RunBudget:
    """Per-case CPU limit and the row's total CPU budget for the cases."""

    def __init__(self, opts: CaseOptions):
        self.case_cpu_s = opts.case_cpu_s
        self.budget_s = opts.budget_cpu_s
        self.stop_on_fail = opts.stop_on_fail
        self.output_cap = opts.output_cap
        self.memory_mb = opts.memory_mb
        self.used = 0.0

    def case_cpu(self) -> float:
        # A case never gets more than what is left of the row's budget (plus a hair, so the
        # case that exhausts it is seen as a TLE rather than cut mid-way without a verdict).
        return max(0.05, min(self.case_cpu_s, self.budget_s - self.used + 0.05))

    def describe(self, run: CaseRun, limit: float) -> str:
        if run.verdict == "TLE" and limit < self.case_cpu_s:
            return f"TLE: the row's CPU budget of {self.budget_s:g}s is used up"
        return describe(run, self.case_cpu_s)

    def case_wall(self) -> float:
        return case_wall_s(self.case_cpu())

    def spend(self, cpu: float, i: int, n: int, report: Report) -> bool:
        """Charge a case; True when the budget is gone (the next case is reported TLE)."""
        self.used += cpu
        if self.used >= self.budget_s and i + 1 < n:
            report({"ev": "test", "id": f"case:{i + 1}", "outcome": "error",
                    "msg": f"TLE: the row's CPU budget of {self.budget_s:g}s is used up"})
            return True
        return False


def _python_main(code: Any, seed: int) -> Callable[[], None]:
    def main() -> None:  # pragma: no cover - the grandchild
        seeding.seed_here(seed)  # this fork's `random` was reseeded from the OS
        import atexit
        import builtins
        import io
        import types

        # sys.__stdout__ & co. too: they are the same objects in `python solution.py`, and a
        # program that puts sys.stdout back from them (or prints to them) writes its answer there;
        # the worker's own would hold it in a buffer nobody flushes.
        sys.stdin = sys.__stdin__ = io.open(0, "r", encoding="utf-8", errors="surrogateescape", closefd=False)
        sys.stdout = sys.__stdout__ = io.open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)
        sys.stderr = sys.__stderr__ = io.open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False,
                                              buffering=1)
        sys.argv = ["solution.py"]
        module = types.ModuleType("__main__")
        module.__dict__["__builtins__"] = builtins
        module.__file__ = os.path.abspath("solution.py")
        sys.modules["__main__"] = module
        atexit._clear()  # the harness's own exit handlers are not the program's
        status = 0
        try:
            exec(code, module.__dict__)
        except SystemExit as exc:
            status = _exit_status(exc)
        except BaseException:  # noqa: BLE001 - the program crashed: a runtime error
            traceback.print_exc()
            status = 1
        # as `python solution.py` ends: non-daemon threads joined, then atexit (docs/test-styles.md)
        threading = sys.modules.get("threading")
        try:
            if threading is not None:
                threading._shutdown()  # type: ignore[attr-defined]
        except SystemExit as exc:
            status = _exit_status(exc)
        except BaseException:  # noqa: BLE001 - reported, the status stands
            traceback.print_exc()
        atexit._run_exitfuncs()
        try:
            sys.stdout.flush()
        except BaseException:  # noqa: BLE001 - EPIPE and friends
            pass
        os._exit(status & 0xFF)

    return main


def _exit_status(exc: SystemExit) -> int:
    """The status `raise SystemExit(code)` exits with (a message: printed, 1)."""
    c = exc.code
    if not isinstance(c, (int, type(None))):
        print(c, file=sys.stderr)
    return 0 if c is None else (c if isinstance(c, int) else 1)
