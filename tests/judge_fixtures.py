"""Load the small Kattis-style problems in tests/fixtures/judge/ (data/secret/*.in/.ans,
submissions/<verdict>/<file>, optional output_validators/<name>/)."""

from __future__ import annotations

from tests.conftest import TESTS

JUDGE = TESTS / "fixtures" / "judge"
EXT = {".py": "python", ".c": "c", ".cpp": "cpp", ".java": "java", ".js": "javascript"}
STATUS = {"accepted": "pass", "wrong_answer": "fail", "time_limit_exceeded": "timeout",
          "run_time_error": "runtime_error", "compile_error": "compile_error"}
VERDICT = {"accepted": "A", "wrong_answer": "WA", "time_limit_exceeded": "TLE", "run_time_error": "RE", "compile_error": "CE"}


def cases(problem: str) -> list[dict[str, str]]:
    d = JUDGE / problem / "data" / "secret"
    return [{"input": f.read_text(), "output": f.with_suffix(".ans").read_text()} for f in sorted(d.glob("*.in"))]


def submissions(problem: str) -> list[tuple[str, str, str]]:
    """(folder, language, source) for every submission of `problem`."""
    out = []
    for folder in sorted((JUDGE / problem / "submissions").iterdir()):
        for f in sorted(folder.iterdir()):
            out.append((folder.name, EXT[f.suffix], f.read_text()))
    return out
