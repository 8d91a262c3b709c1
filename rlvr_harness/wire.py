"""Typed messages across the sandbox boundary: frozen dataclasses with explicit to/from-wire
functions. The grader writes them, a worker or runner it does not fully trust reads them (and
the other way round), so every `from_wire` checks each field's type and fails closed: anything
else raises WireError naming the field, never a half-built message, never a crash.

- WorkerInit: what the local backend tells a worker it starts (sandbox/local.py -> zygote.main).
- CheckRequest: one check as the grader hands it to a worker (sandbox/local.py -> zygote.execute)
  or to the one-shot runner (sandbox/remote.py -> sandbox/inner.py): its CheckPayload (what the
  check's harness is given), its CheckLimits, and what only the runner reads.
- CheckReport: what a worker (or the runner inside gVisor/Beam) reports of one check; the grader
  turns it into an Execution (boundary.execution_from_wire). Fields the grader's own worker
  writes must have their types; the parts a candidate can reach (records, stdout, stderr, the
  phase) keep their raw JSON here and are made safe, failing closed, by the grader.

Sealed: the standard library only (both sides import it)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Union

MODES = ("root", "userns", "none")
WARM = ("lean", "pytest")


class WireError(ValueError):
    """A message that is not what its type says: named, never half-read."""


def _check(obj: Any, what: str) -> dict[str, Any]:
    if type(obj) is not dict:
        raise WireError(f"malformed {what}: a {type(obj).__name__}, not an object")
    return obj


def _message(cls: type, obj: Any, what: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """`obj` as the wire form of the message `cls`: an object with none but `cls`'s fields and
    every one of `required`, else a WireError naming `what` and the field."""
    o = _check(obj, what)
    _no_unknown(cls, what, o)
    for key in required:
        if key not in o:
            raise WireError(f"malformed {what}: no {key}")
    return o


def _int(what: str, key: str, v: Any, *, minimum: int | None = None) -> int:
    if type(v) is not int or (minimum is not None and v < minimum):
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return v


def _bool(what: str, key: str, v: Any) -> bool:
    if type(v) is not bool:
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return v


def _str(what: str, key: str, v: Any, *, choices: tuple[str, ...] | None = None) -> str:
    if type(v) is not str or (choices is not None and v not in choices):
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return v


def _strs(what: str, key: str, v: Any) -> tuple[str, ...]:
    if type(v) not in (list, tuple) or any(type(x) is not str for x in v):
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return tuple(v)


def _show(v: Any) -> str:
    text = repr(v) if type(v) in (int, float, bool, str) or v is None else f"a {type(v).__name__}"
    return text[:80]


# A message class's field names, read once: fields() made a tuple of its Field objects for each
# message read, and a worker reads one request a check, after the fork of the previous one, so
# every object it touches is a page written again (~20 of the ~75 page faults a request cost).
_FIELD_NAMES: dict[type, frozenset[str]] = {}
_FIELD_ORDER: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """`cls`'s field names, in order."""
    names = _FIELD_ORDER.get(cls)
    if names is None:
        names = _FIELD_ORDER[cls] = tuple(f.name for f in fields(cls))
    return names


def _no_unknown(cls: type, what: str, obj: dict[str, Any]) -> None:
    known = _FIELD_NAMES.get(cls)
    if known is None:
        known = _FIELD_NAMES[cls] = frozenset(_field_names(cls))
    extra = sorted(k for k in obj if k not in known)
    if extra:
        raise WireError(f"malformed {what}: unknown field {_show(extra[0])}")


@dataclass(frozen=True)
class Packed:
    """Code marshalled by one interpreter for another of the same build (rlvr_harness/prepared.py):
    the candidate the grader compiled, or the tests a first check prepared. `tag` names the
    interpreter; a reader with another tag ignores it."""

    tag: str
    blob: str  # base64 of marshal.dumps

    def to_wire(self) -> dict[str, Any]:
        return {"tag": self.tag, "blob": self.blob}

    @classmethod
    def from_wire(cls, obj: Any, what: str = "packed code") -> Packed:
        o = _message(cls, obj, what)
        return cls(tag=_str(what, "tag", o.get("tag")), blob=_str(what, "blob", o.get("blob")))


def _packed(what: str, key: str, v: Any) -> Packed | None:
    return None if v is None else Packed.from_wire(v, f"{what}: {key}")


@dataclass(frozen=True)
class WorkerInit:
    """How one local worker isolates the checks it forks (sandbox/zygote.py Zygote)."""

    slot: int
    uid: int
    isolate: bool
    # "root": real root drops to a per-slot uid. "userns": an unprivileged grader gets the same
    # namespaces through user namespaces (zygote.become_userns_init). "none": nothing.
    mode: str = ""
    warm: str = "pytest"  # the seed kind it was forked from (its process name says which)
    cgroup: str | None = None
    # Paths the grader names as its own (root.grader_paths): masked where a root shows them.
    hide: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    seccomp: bool = True
    nproc_base: int = 0  # userns: RLIMIT_NPROC counts the grader's own processes too
    # Directories added to every check's root (tests: one under /tmp reaches the binding of
    # root directories into each check's fresh /tmp, as a venv in a CI checkout needs).
    tmp_keep: tuple[str, ...] = ()
    # The check child's set-up in C (sandbox/_child.c) where it is built; False (tests) keeps
    # the Python path.
    c_setup: bool = True

    def __post_init__(self) -> None:
        if not self.mode:
            object.__setattr__(self, "mode", "root" if self.isolate else "none")

    def to_wire(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_wire(cls, obj: Any) -> WorkerInit:
        what = "worker init"
        o = _message(cls, obj, what, ("slot", "uid", "isolate"))
        env = o.get("env", {})
        if type(env) is not dict or any(type(k) is not str or type(v) is not str for k, v in env.items()):
            raise WireError(f"malformed {what}: env is {_show(env)}")
        cgroup = o.get("cgroup")
        isolate = _bool(what, "isolate", o["isolate"])
        return cls(
            slot=_int(what, "slot", o["slot"], minimum=0),
            uid=_int(what, "uid", o["uid"], minimum=0),
            isolate=isolate,
            mode=_str(what, "mode", o.get("mode", "root" if isolate else "none"), choices=MODES),
            warm=_str(what, "warm", o.get("warm", "pytest"), choices=WARM),
            cgroup=None if cgroup is None else _str(what, "cgroup", cgroup),
            hide=_strs(what, "hide", o.get("hide", ())),
            env=dict(env),
            seccomp=_bool(what, "seccomp", o.get("seccomp", True)),
            nproc_base=_int(what, "nproc_base", o.get("nproc_base", 0), minimum=0),
            tmp_keep=_strs(what, "tmp_keep", o.get("tmp_keep", ())),
            c_setup=_bool(what, "c_setup", o.get("c_setup", True)),
        )


@dataclass(frozen=True)
class CheckReport:
    """One check as its worker saw it. `records` and `phase` are the harness's channel events
    (parsed by the worker, made safe by the grader); `prepared` the tests a first check sent
    back (rlvr_harness/prepared.py); `inner` what a remote runner says of its own isolation."""

    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    cpu_s: float = 0.0
    wall_s: float = 0.0
    peak_memory_mb: float = 0.0
    killed_for_wall: bool = False
    killed_for_cpu: bool = False
    killed_for_output: bool = False
    output_truncated: bool = False
    oom: bool = False
    done: bool = False
    records: tuple[Any, ...] = ()
    phase: Any = None
    channel_tampered: str = ""
    prepared: Packed | None = None
    inner: Any = None

    def to_wire(self) -> dict[str, Any]:
        # Field by field, values as they are: asdict deep-copied every record, the phase and
        # `inner` (copy.deepcopy of each JSON value) for a copy encoded once and dropped, ~0.2-0.5
        # ms of the worker's CPU a check (the encoded JSON is the same).
        out = {name: getattr(self, name) for name in _field_names(CheckReport)}
        out["records"] = list(self.records)
        if self.prepared is not None:
            out["prepared"] = self.prepared.to_wire()
        for key in ("channel_tampered", "prepared", "inner"):
            if not out[key]:
                del out[key]  # absent unless said
        return out

    @classmethod
    def from_wire(cls, obj: Any) -> CheckReport:
        what = "sandbox report"
        o = _message(cls, obj, what)
        ints = {k: _int_or_none(what, k, o.get(k)) for k in ("exit_code", "signal")}
        nums = {k: _number(what, k, o.get(k, 0.0)) for k in ("cpu_s", "wall_s", "peak_memory_mb")}
        texts = {k: _text(what, k, o.get(k, "")) for k in ("stdout", "stderr", "channel_tampered")}
        flags = {k: _flag(what, k, o.get(k, False))
                 for k in ("killed_for_wall", "killed_for_cpu", "killed_for_output", "output_truncated", "oom", "done")}
        records = o.get("records", [])
        if type(records) is not list:
            raise WireError(f"malformed {what}: records is a {type(records).__name__}")
        return cls(**ints, **nums, **texts, **flags, records=tuple(records), phase=o.get("phase"),
                   prepared=_packed(what, "prepared", o.get("prepared")), inner=o.get("inner"))

    @classmethod
    def from_bytes(cls, data: bytes) -> CheckReport:
        """A report as it travels (one JSON object), decoded and checked."""
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise WireError(f"malformed sandbox report: not JSON ({type(exc).__name__})") from None
        return cls.from_wire(obj)


# -- what a test record's output may be ---------------------------------------------------------
# A call's tagged return value or a stdio case's output, as the harness reports it: checked by the
# worker as it reads the channel (sandbox/zygote.parse_channel) and by the grader
# (boundary.execution_from_wire), so neither side's json.loads meets what no honest run writes.
# The harness encodes at most 200 levels of Python nesting (rlvr_harness/call.py MAX_DEPTH), which tagged
# JSON (a tuple is {"$tuple": [...]}) at most doubles.
MAX_OUTPUT_DEPTH = 450
MAX_OUTPUT_NODES = 2_000_000


def plain_json_problem(value: Any, max_depth: int = MAX_OUTPUT_DEPTH, max_nodes: int = MAX_OUTPUT_NODES) -> str | None:
    """Why `value` is not a bounded plain JSON value (None, bool, int, finite-or-not float, str,
    list, dict with str keys), or None when it is. Iterative: depth costs no recursion."""
    stack = [(value, 0)]
    nodes = 0
    while stack:
        v, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            return f"more than {max_nodes} values"
        t = type(v)
        if v is None or t is bool or t is int or t is float or t is str:
            continue
        if depth >= max_depth:
            return f"nested deeper than {max_depth}"
        if t is list:
            stack.extend((x, depth + 1) for x in v)
        elif t is dict:
            for k, x in v.items():
                if type(k) is not str:
                    return "an object key that is not a string"
                stack.append((x, depth + 1))
        else:
            return f"a {t.__name__}, not a JSON value"
    return None


def _int_or_none(what: str, key: str, v: Any) -> int | None:
    return None if v is None else _int(what, key, v)


def _number(what: str, key: str, v: Any) -> float:
    if type(v) in (int, float) and math.isfinite(v) and v >= 0:
        return float(v)
    raise WireError(f"malformed {what}: {key} is {_show(v)}")


def _text(what: str, key: str, v: Any) -> str:
    if type(v) is not str:
        raise WireError(f"malformed {what}: {key} is a {type(v).__name__}")
    return v


def _flag(what: str, key: str, v: Any) -> bool:
    # The worker writes booleans; anything else is read as what it is worth to the candidate:
    # only `True` itself counts (a flag that would excuse nothing is never set by a forgery).
    if type(v) is bool:
        return v
    if v is None or type(v) in (int, float, str, list, dict):
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return False


# -- a check's options: what its harness needs besides the program and the tests --------------
# Per style one frozen type (Check.options on the grader's side, payload["options"] on the wire).
# The worker reads them before any candidate code runs (sandbox/zygote.run_candidate), so a
# malformed one is the check's set-up failure (sandbox_error, naming the field), never a verdict.


def _float(what: str, key: str, v: Any) -> float:
    if type(v) in (int, float) and math.isfinite(v) and v > 0:
        return float(v)
    raise WireError(f"malformed {what}: {key} is {_show(v)}")


def _json_list(what: str, key: str, v: Any) -> tuple[Any, ...]:
    if type(v) is not list:
        raise WireError(f"malformed {what}: {key} is {_show(v)}")
    return tuple(v)


@dataclass(frozen=True)
class SuiteOptions:
    """An asserts or pytest check's options."""

    # False: the in-process guard is off (rlvr-grade doctor's own probe, which tests the layers
    # under it); a candidate's check always has it.
    guard: bool = True
    # True: an asserts check runs the program in a process of its own, and the tests' process
    # never runs a line of it (rlvr_harness/program.py, proxies.py; docs/fidelity.md)
    split: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {"guard": self.guard, "split": True} if self.split else {"guard": self.guard}

    @classmethod
    def from_wire(cls, obj: Any) -> SuiteOptions:
        what = "check options"
        o = _message(cls, obj, what)
        return cls(guard=_bool(what, "guard", o.get("guard", True)), split=_bool(what, "split", o.get("split", False)))


@dataclass(frozen=True)
class CallCase:
    """One call case's arguments, as tagged JSON (rlvr_harness/values.py `decode`)."""

    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {"args": list(self.args), "kwargs": dict(self.kwargs)}

    @classmethod
    def from_wire(cls, obj: Any, what: str = "call case") -> CallCase:
        o = _message(cls, obj, what)
        kwargs = o.get("kwargs", {})
        if type(kwargs) is not dict:
            raise WireError(f"malformed {what}: kwargs is {_show(kwargs)}")
        return cls(args=_json_list(what, "args", o.get("args", [])), kwargs=tuple(kwargs.items()))


@dataclass(frozen=True)
class CaseOptions:
    """A stdio or call check's options: its cases' inputs (stdio: each case's stdin; call: each
    case's arguments and the function) and how each case runs. The expected outputs and how they
    are compared never enter the sandbox (Check.expected, Check.judge)."""

    case_cpu_s: float = 10.0  # one case's CPU limit
    budget_cpu_s: float = 10.0  # the row's CPU for all its cases
    stop_on_fail: bool = True  # stop at the first case that does not run cleanly
    output_cap: int = 1 << 20  # bytes of one case's stdout
    memory_mb: int = 512  # one run's memory (native programs' address space; the stack)
    inputs: tuple[str, ...] = ()  # stdio
    calls: tuple[CallCase, ...] = ()  # call
    fn_name: str = ""  # call

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"case_cpu_s": self.case_cpu_s, "budget_cpu_s": self.budget_cpu_s,
                               "stop_on_fail": self.stop_on_fail, "output_cap": self.output_cap,
                               "memory_mb": self.memory_mb}
        if self.inputs:
            out["inputs"] = list(self.inputs)
        if self.calls or self.fn_name:
            out["calls"] = [c.to_wire() for c in self.calls]
            out["fn_name"] = self.fn_name
        return out

    @classmethod
    def from_wire(cls, obj: Any) -> CaseOptions:
        what = "check options"
        o = _message(cls, obj, what)
        calls = _json_list(what, "calls", o.get("calls", []))
        return cls(
            case_cpu_s=_float(what, "case_cpu_s", o.get("case_cpu_s", 10.0)),
            budget_cpu_s=_float(what, "budget_cpu_s", o.get("budget_cpu_s", 10.0)),
            stop_on_fail=_bool(what, "stop_on_fail", o.get("stop_on_fail", True)),
            output_cap=_int(what, "output_cap", o.get("output_cap", 1 << 20), minimum=1),
            memory_mb=_int(what, "memory_mb", o.get("memory_mb", 512), minimum=1),
            inputs=_strs(what, "inputs", o.get("inputs", [])),
            calls=tuple(CallCase.from_wire(c, f"{what}: call {i}") for i, c in enumerate(calls)),
            fn_name=_str(what, "fn_name", o.get("fn_name", "")),
        )


@dataclass(frozen=True)
class ValidatedCase:
    """One case an output validator judges: its input, the expected answer, the team's output."""

    i: int
    input: str
    answer: str
    output: str

    def to_wire(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_wire(cls, obj: Any, what: str = "validated case") -> ValidatedCase:
        o = _message(cls, obj, what, ("i", "input", "answer", "output"))
        return cls(i=_int(what, "i", o["i"], minimum=0), input=_str(what, "input", o["input"]),
                   answer=_str(what, "answer", o["answer"]), output=_str(what, "output", o["output"]))


@dataclass(frozen=True)
class ValidateOptions:
    """An output validator's check (scoring/validator.py; runs no candidate code): the
    validator's sources, the one to build or run, its language and arguments, the cases, and a
    binary an earlier check of the run built (base64) or the request to send one back."""

    language: str = "cpp"
    main: str = ""
    files: tuple[tuple[str, str], ...] = ()
    args: tuple[str, ...] = ()
    cases: tuple[ValidatedCase, ...] = ()
    case_cpu_s: float = 10.0
    binary: str = ""
    send_binary: bool = False

    def to_wire(self) -> dict[str, Any]:
        return {"language": self.language, "main": self.main, "files": dict(self.files), "args": list(self.args),
                "cases": [c.to_wire() for c in self.cases], "case_cpu_s": self.case_cpu_s,
                "binary": self.binary, "send_binary": self.send_binary}

    @classmethod
    def from_wire(cls, obj: Any) -> ValidateOptions:
        what = "check options"
        o = _message(cls, obj, what)
        files = o.get("files", {})
        if type(files) is not dict or any(type(v) is not str for v in files.values()):
            raise WireError(f"malformed {what}: files is {_show(files)}")
        cases = _json_list(what, "cases", o.get("cases", []))
        return cls(
            language=_str(what, "language", o.get("language", "cpp")),
            main=_str(what, "main", o.get("main", "")),
            files=tuple(files.items()),
            args=_strs(what, "args", o.get("args", [])),
            cases=tuple(ValidatedCase.from_wire(c, f"{what}: case {i}") for i, c in enumerate(cases)),
            case_cpu_s=_float(what, "case_cpu_s", o.get("case_cpu_s", 10.0)),
            binary=_str(what, "binary", o.get("binary", "")),
            send_binary=_bool(what, "send_binary", o.get("send_binary", False)),
        )


StyleOptions = Union[SuiteOptions, CaseOptions, ValidateOptions]


@dataclass(frozen=True)
class HarnessStyle:
    """What a style is to the harness and the sandbox: its options type; its entry, the
    function rlvr_harness/runner.py `run` calls for it with (payload, report, workdir, testdir);
    the kind of worker it runs in (WARM: "pytest" imports pytest before the worker's snapshots,
    and its tests are a module pytest collects by path; "lean" the harness only); whether its
    tests and program can be prepared by the grader (rlvr_harness/prepared.py: split, rewritten
    and compiled once, then shipped to the local backend's workers)."""

    options: type[SuiteOptions] | type[CaseOptions] | type[ValidateOptions]
    entry: str
    worker: str = "lean"
    prepared: bool = False


# The harness's styles, the one list of them: the grader's four (rlvr_grade/checks/<style>.py,
# each naming its HARNESS entry from here) and the validator's check. A style absent here is
# refused on the wire and runs nothing. The sandbox asks a style only these properties (the
# payload's `worker` and `prepared`), never its name.
HARNESS_STYLES: dict[str, HarnessStyle] = {
    "asserts": HarnessStyle(SuiteOptions, "rlvr_harness.runner.run_asserts", prepared=True),
    "pytest": HarnessStyle(SuiteOptions, "rlvr_harness.runner.run_pytest", worker="pytest"),
    "stdio": HarnessStyle(CaseOptions, "rlvr_harness.stdio.run"),
    "call": HarnessStyle(CaseOptions, "rlvr_harness.call.run"),
    "validate": HarnessStyle(ValidateOptions, "rlvr_harness.validate.run"),
}
OPTIONS_OF = {style: s.options for style, s in HARNESS_STYLES.items()}
ENTRY_OF = {style: s.entry for style, s in HARNESS_STYLES.items()}


def options_from_wire(style: Any, obj: Any) -> StyleOptions:
    """A payload's options as the type its style takes; WireError naming the field otherwise
    (an unknown style included)."""
    if type(style) is not str or style not in OPTIONS_OF:
        raise WireError(f"malformed check: style is {_show(style)}")
    return OPTIONS_OF[style].from_wire(obj)


# -- one check's request -----------------------------------------------------------------------


@dataclass(frozen=True)
class CheckPayload:
    """What a check's harness is given (rlvr_harness/runner.py `run`): the part of a Check that
    enters the sandbox, never its expected outputs. `prepared`, `send_prepared` and
    `program_code` are the local backend's alone (its workers run the grader's interpreter):
    the tests an earlier check prepared, the ask to send them back, the candidate the grader
    compiled (rlvr_harness/prepared.py)."""

    style: str
    program: str
    tests: str = ""
    setup: str = ""  # code run before the program (e.g. MBPP test_imports)
    language: str = "python"
    options: StyleOptions | None = None  # None: the style's defaults
    prepared: Packed | None = None
    send_prepared: bool = False
    program_code: Packed | None = None

    def __post_init__(self) -> None:
        kind = OPTIONS_OF.get(self.style)
        if kind is None:
            raise WireError(f"malformed check: style is {_show(self.style)}")
        if self.options is None:
            object.__setattr__(self, "options", kind())
        elif type(self.options) is not kind:
            raise WireError(f"malformed check: a {self.style} check's options are not {type(self.options).__name__}")

    @property
    def worker(self) -> str:
        """The kind of worker this check runs in (HarnessStyle.worker: one of WARM)."""
        return HARNESS_STYLES[self.style].worker

    @property
    def preparable(self) -> bool:
        """Whether the grader may prepare this check's tests and program (HarnessStyle.prepared:
        Python only, the workers run the grader's interpreter)."""
        return HARNESS_STYLES[self.style].prepared and self.language == "python"

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"style": self.style, "program": self.program, "tests": self.tests,
                               "setup": self.setup, "language": self.language,
                               "options": self.options.to_wire()}  # type: ignore[union-attr] - set in __post_init__
        if self.prepared is not None:
            out["prepared"] = self.prepared.to_wire()
        if self.send_prepared:
            out["send_prepared"] = True
        if self.program_code is not None:
            out["program_code"] = self.program_code.to_wire()
        return out

    @classmethod
    def from_wire(cls, obj: Any) -> CheckPayload:
        what = "check"
        o = _message(cls, obj, what)
        style = o.get("style")
        if type(style) is not str or style not in OPTIONS_OF:
            raise WireError(f"malformed {what}: style is {_show(style)}")
        return cls(
            style=style,
            program=_str(what, "program", o.get("program")),
            tests=_str(what, "tests", o.get("tests", "")),
            setup=_str(what, "setup", o.get("setup", "")),
            language=_str(what, "language", o.get("language", "python")),
            options=options_from_wire(style, o.get("options", {})),
            prepared=_packed(what, "prepared", o.get("prepared")),
            send_prepared=_bool(what, "send_prepared", o.get("send_prepared", False)),
            program_code=_packed(what, "program_code", o.get("program_code")),
        )


@dataclass(frozen=True)
class CheckLimits:
    """What the worker holds one check to (the grader's types.Limits, the wall backstop
    resolved): the collector's CPU limit, wall deadline and output cap, the cgroup's memory and
    processes, the rlimits (rlvr_harness/limits.py check_rlimits), the size of its /tmp."""

    cpu_s: float = 10.0
    wall_s: float = 25.0
    memory_mb: int = 512
    processes: int = 64
    output_bytes: int = 1 << 20
    file_bytes: int = 16 << 20
    disk_mb: int = 64

    def to_wire(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _field_names(CheckLimits)}  # asdict: ~10x the time

    @classmethod
    def from_wire(cls, obj: Any) -> CheckLimits:
        what = "check limits"
        o = _message(cls, obj, what)
        d = cls()
        return cls(
            cpu_s=_float(what, "cpu_s", o.get("cpu_s", d.cpu_s)),
            wall_s=_float(what, "wall_s", o.get("wall_s", d.wall_s)),
            # An int, not checked for a minimum: the set-up refuses what it cannot apply (a
            # negative /tmp size fails the child's mount: the check's sandbox_error).
            **{k: _int(what, k, o.get(k, getattr(d, k)))
               for k in ("memory_mb", "processes", "output_bytes", "file_bytes", "disk_mb")},
        )


@dataclass(frozen=True)
class CheckRequest:
    """One check's request. `token`, `seccomp`, `uid` and `announce` are the
    one-shot runner's (sandbox/inner.py; sandbox/remote.py sets them): the token its result
    line carries, the grader's compiled syscall filter (seccomp.Filter.portable), the uid to
    run the check as, whether to mark the check's start on stdout (inner.STARTS_MARK)."""

    payload: CheckPayload
    limits: CheckLimits = field(default_factory=CheckLimits)
    token: str = ""
    seccomp: dict[str, Any] | None = None
    uid: int | None = None
    announce: bool = False

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payload": self.payload.to_wire(), "limits": self.limits.to_wire()}
        if self.token:
            out["token"] = self.token
        if self.seccomp is not None:
            out["seccomp"] = self.seccomp
        if self.uid is not None:
            out["uid"] = self.uid
        if self.announce:
            out["announce"] = True
        return out

    @classmethod
    def from_wire(cls, obj: Any) -> CheckRequest:
        what = "check request"
        o = _message(cls, obj, what, ("payload",))
        seccomp, uid = o.get("seccomp"), o.get("uid")
        if seccomp is not None and type(seccomp) is not dict:
            raise WireError(f"malformed {what}: seccomp is {_show(seccomp)}")
        return cls(
            payload=CheckPayload.from_wire(o["payload"]),
            limits=CheckLimits.from_wire(o.get("limits", {})),
            token=_str(what, "token", o.get("token", "")),
            seccomp=seccomp,
            uid=None if uid is None else _int(what, "uid", uid, minimum=0),
            announce=_bool(what, "announce", o.get("announce", False)),
        )
