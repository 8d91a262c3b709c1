"""The stdio style: a program (Python, C, C++, Java, JavaScript) reads each case's input on
stdin; what it prints is compared with the expected output outside the sandbox.

Detection and check building: checks/cases.py (the case layouts datasets ship; a case set of
stdin cases is this style). Harness entry: HARNESS, one process per case (rlvr_harness/stdio.py).
Verdict: scoring/cases.py per case, each output compared here (`compare_output`, by the row's
mode: scoring/compare.outputs_equal), or by the problem's output validator (scoring/validator.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from rlvr_grade.scoring.base import Verdict
from rlvr_grade.scoring.cases import judge_cases, short, spec_of
from rlvr_grade.scoring.compare import outputs_equal
from rlvr_grade.types import Check, Execution, Limits
from rlvr_harness.stdio import unpack_output

NAME = "stdio"
HARNESS = "rlvr_harness.stdio.run"


def compare_output(check: Check, i: int, out: Any) -> tuple[str, str]:
    """Case i's verdict from the text the program printed (packed by the harness)."""
    got = unpack_output(out)
    if got is None:
        return "WA", f"case {i}: no output"
    expected = check.expected[i]
    if outputs_equal(got, expected, spec_of(check.judge)):
        return "AC", ""
    return "WA", f"case {i}: wrong answer: got {short(got)!r}, expected {short(expected)!r}"


def verdict(check: Check, ex: Execution) -> Verdict:
    return judge_cases(check, ex, compare_output)


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
    def from_dir(cls, path: str, args: tuple[str, ...] = ()) -> "Validator":
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
