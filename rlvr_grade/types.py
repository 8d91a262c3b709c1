"""The values that flow between modules: Rollout -> Check -> Execution -> Outcome."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from rlvr_grade.text import safe_text
from rlvr_harness.limits import check_wall_s
from rlvr_harness.wire import OPTIONS_OF, CheckLimits, CheckPayload, CheckRequest, StyleOptions

Status = Literal[
    "pass",
    "fail",
    "timeout",
    "memory_limit",
    "runtime_error",
    "compile_error",
    "invalid_input",
    "sandbox_error",
]
STATUSES: tuple[Status, ...] = get_args(Status)  # the same list, in its order: summaries and --status read it
TestStyle = Literal["asserts", "pytest", "stdio", "call"]
RewardShape = Literal["binary", "fraction", "bonus"]
LimitHit = Literal["cpu", "wall", "memory", "output", "file_size"]


@dataclass(frozen=True)
class Limits:
    """Hard caps for one check. CPU time is the real limit; wall time is a looser backstop."""

    cpu_s: float = 10.0
    wall_s: float | None = None  # None: derived from cpu_s, see effective_wall_s
    memory_mb: int = 512
    processes: int = 64
    output_bytes: int = 1 << 20
    file_bytes: int = 16 << 20
    disk_mb: int = 64

    @property
    def effective_wall_s(self) -> float:
        """The wall backstop: the one given, else rlvr_harness/limits.py's for this CPU limit."""
        return self.wall_s if self.wall_s is not None else check_wall_s(self.cpu_s)


@dataclass(frozen=True)
class Rollout:
    """One input row, kept whole; `index` is its 0-based position in the input."""

    index: int
    row: dict[str, Any]
    line: int | None = None  # 1-based line number for JSONL input
    error: str | None = None  # set when the row itself could not be read (broken JSON line)

    @property
    def where(self) -> str:
        return f"line {self.line}" if self.line is not None else f"row {self.index}"


@dataclass(frozen=True)
class Validator:
    """A Kattis/ICPC output validator: source files, the one to build or run, its language and
    extra arguments. Runs in its own sandbox check, with its own limits (scoring/validator.py)."""

    files: tuple[tuple[str, str], ...]
    main: str
    language: str = "cpp"
    args: tuple[str, ...] = ()
    case_cpu_s: float = 10.0
    limits: Limits = field(default_factory=lambda: Limits(cpu_s=90.0, memory_mb=1024, processes=64))

    @classmethod
    def from_dir(cls, path: str, args: tuple[str, ...] = ()) -> Validator:
        """A validator directory as problem packages ship it (validate.cc + validate.h, or a
        single .py). The main file is the one source with a `main` (or the only .py)."""
        files: dict[str, str] = {}
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if os.path.isfile(full) and name.endswith((".c", ".cc", ".cpp", ".h", ".hpp", ".py", ".java")):
                with open(full, encoding="utf-8", errors="replace") as fh:
                    files[name] = fh.read()
        mains = [n for n, text in files.items() if n.endswith((".c", ".cc", ".cpp", ".py", ".java"))
                 and ("main(" in text or n.endswith(".py"))]
        if len(mains) != 1:
            raise ValueError(f"output validator in {path}: expected one main source, found {mains or 'none'}")
        main = mains[0]
        ext = main.rsplit(".", 1)[1]
        lang = {"c": "c", "cc": "cpp", "cpp": "cpp", "py": "python", "java": "java"}[ext]
        return cls(files=tuple(files.items()), main=main, language=lang, args=tuple(args))


@dataclass(frozen=True)
class Judge:
    """How a stdio or call check's outputs are judged, outside the sandbox (never sent in):
    the comparison (scoring/compare.py: mode and tolerances), whether the first failing case
    decides, how expected values read (call: JSON has no tuples; APPS wraps a return value in a
    one-element list), and the problem's output validator (stdio)."""

    compare: str = "tokens"
    abs_tol: float = 1e-6
    rel_tol: float = 1e-6
    stop_on_fail: bool = True
    json_expected: bool = True
    unwrap_single: bool = False
    validator: Validator | None = None


@dataclass(frozen=True)
class Check:
    """What to run for one rollout.

    `program` is the candidate's code (after extraction), `tests` the test source.
    `expected_tests` is derived from the tests *outside* the sandbox before anything runs:
    every id in it must be reported as passed for a pass. `expected` holds expected outputs
    for styles that compare outside the sandbox, `judge` how they are compared; neither is sent
    to a backend. `options` is what the style's harness needs (rlvr_harness/wire.py: one frozen
    type per style; None: that type's defaults).
    """

    style: TestStyle
    program: str
    tests: str
    expected_tests: tuple[str, ...]
    limits: Limits = field(default_factory=Limits)
    setup: str = ""  # code run before the program (e.g. MBPP test_imports)
    language: str = "python"
    options: StyleOptions | None = None
    expected: tuple[Any, ...] = ()
    judge: Judge = field(default_factory=Judge)
    network: bool = False
    # The environment the check runs in: its id (the hash of its lock, see rlvr_grade/envs);
    # "" is the default environment (the grader's stdlib + pytest). Part of the cache key.
    env: str = ""

    def __post_init__(self) -> None:
        kind = OPTIONS_OF.get(self.style)
        if kind is None:
            raise ValueError(f"unknown test style {self.style!r}")
        if self.options is None:
            object.__setattr__(self, "options", kind())
        elif type(self.options) is not kind:
            raise TypeError(f"a {self.style} check takes {kind.__name__}, not {type(self.options).__name__}")

    @property
    def output_validator(self) -> Validator | None:
        """The output validator this check's outputs go through (scoring/validator.py: a second
        check), else None: a stdio check's alone (a call check's outputs are values)."""
        return self.judge.validator if self.style == "stdio" else None

    def payload(self) -> CheckPayload:
        """The part of the check that enters the sandbox (no expected outputs)."""
        return CheckPayload(style=self.style, program=self.program, tests=self.tests, setup=self.setup,
                            language=self.language, options=self.options)

    def request(self, payload: CheckPayload | None = None) -> CheckRequest:
        """What a backend hands its worker or runner: the payload (`payload`, where the backend
        made its own from payload(), else payload()) and the limits it holds the check to (the
        wall backstop resolved)."""
        lim = self.limits
        return CheckRequest(self.payload() if payload is None else payload, CheckLimits(
            cpu_s=float(lim.cpu_s), wall_s=float(lim.effective_wall_s), memory_mb=int(lim.memory_mb),
            processes=int(lim.processes), output_bytes=int(lim.output_bytes), file_bytes=int(lim.file_bytes),
            disk_mb=int(lim.disk_mb)))


@dataclass(frozen=True)
class TestRecord:
    """One test's result as reported by the harness inside the sandbox."""

    id: str
    # xfailed / skipped_by_mark: pytest style, counted only where the tests' text marks the test
    outcome: Literal["passed", "failed", "error", "skipped", "xfailed", "skipped_by_mark"]
    message: str = ""
    output: Any = None  # serialized return value / stdout for outside comparison


@dataclass(frozen=True)
class Execution:
    """What the sandbox saw for one check."""

    exit_code: int | None
    signal: int | None
    stdout: str
    stderr: str
    cpu_s: float
    wall_s: float
    peak_memory_mb: float
    limit_hit: LimitHit | None
    records: tuple[TestRecord, ...]
    done: bool  # the harness reported that it ran every test to the end
    phase_error: tuple[str, str] | None = None  # ("compile"|"runtime"|"memory", message)
    output_truncated: bool = False
    # Why the result channel cannot be believed (a process other than the harness's wrote on
    # it): the check fails whatever its records say. "" when nothing happened.
    tampered: str = ""


# How a grader bug's sandbox_error starts its error text (read back by `summary` of a file).
GRADER_ERROR_PREFIX = "grader error: "


@dataclass(frozen=True)
class Outcome:
    """The verdict for one rollout: the columns added to the output row."""

    status: Status
    reward: float | None
    tests_passed: int
    tests_total: int
    duration_ms: float
    error: str = ""
    flags: tuple[str, ...] = ()
    cached: bool = False
    case_verdicts: tuple[str, ...] = ()  # stdio/call: AC, WA, TLE, MLE, RE, OLE, CE, "-" per case
    # A sandbox_error caused by a bug in the grader itself (not the backend, not the row);
    # counted apart in the summary (`grader_errors`), not an output column.
    grader_error: bool = False

    def __post_init__(self) -> None:
        # The error text comes from candidates' output and sandbox reports: every sink (SQLite,
        # orjson, Parquet, XML) must be able to store it, whatever built this Outcome.
        if type(self.error) is not str or not self.error.isascii():
            object.__setattr__(self, "error", safe_text(self.error))


class SandboxError(Exception):
    """The infrastructure failed (not the candidate): the row is retried, never scored 0."""


class BackendUnavailable(SandboxError):
    """The backend failed every check for a while (see pool.BackendHealth): the run stops
    instead of writing a sandbox_error per remaining row. Rows graded so far are kept (cache,
    output); the CLI exits 3 with this message."""


class InputError(Exception):
    """The input as a whole is unusable (unreadable file, missing column)."""

    def __init__(self, message: str, tip: str | None = None):
        super().__init__(message)
        self.tip = tip


class OutputError(InputError):
    """An output the grader cannot write (missing or unwritable folder, a directory, a format
    it does not know): found before any row is graded."""
