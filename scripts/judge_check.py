#!/usr/bin/env python3
"""Grade the example problems' own submissions (Kattis problemtools and BAPCtools problem
packages) and the LeetCode reference solutions, and print how each verdict folder scored.

    .venv/bin/python scripts/judge_check.py [/work/shared/data]

Expected: accepted -> pass (reward 1); wrong_answer -> fail; time_limit_exceeded -> timeout;
run_time_error -> runtime_error (a submission there that runs out of memory may show as
memory_limit: judges fold MLE into RTE, we keep it apart) — all reward 0. Interactive and
multi-pass problems are out of scope and listed as skipped. Problems whose data is generated
(data/secret empty) are skipped. LeetCode: reference `Solution` classes -> pass, the same
classes with every method body replaced by `pass` -> fail."""

from __future__ import annotations

import collections
import json
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rlvr_grade.api import Grader, ScoreOptions  # noqa: E402
from rlvr_grade.checks import CheckOptions  # noqa: E402
from rlvr_harness import languages  # noqa: E402
from rlvr_grade.types import Limits, Validator  # noqa: E402

FOLDERS = {"accepted": {"pass"}, "wrong_answer": {"fail"}, "time_limit_exceeded": {"timeout"},
           "run_time_error": {"runtime_error", "memory_limit"}}
EXT = {".py": "python", ".py3": "python", ".c": "c", ".cc": "cpp", ".cpp": "cpp", ".java": "java", ".js": "javascript"}
SKIP_PROBLEMS = {
    "testexpectations": "tests BAPCtools' own expectation config (folders redefined)",
    "constants": "its validator includes BAPCtools' validation.h (not in the snapshot) and {{constants}} templating",
}


def yaml_get(text: str, key: str) -> str | None:
    m = re.search(rf"^\s*{key}\s*:\s*(.+?)\s*$", text, re.M)
    return m.group(1).strip().strip("'\"") if m else None


def read(path: Path) -> str:
    """File text, following symlinks that this data snapshot stores as one-line text files."""
    text = path.read_text(errors="surrogateescape")
    for _ in range(5):
        target = text.strip()
        if "\n" in target or not target or len(target) > 300 or not (path.parent / target).is_file():
            break
        path = (path.parent / target).resolve()
        text = path.read_text(errors="surrogateescape")
    return text


def problem_cases(pdir: Path) -> list[tuple[str, str]]:
    cases = []
    for sub in ("sample", "secret"):
        for f in sorted((pdir / "data" / sub).rglob("*.in")) if (pdir / "data" / sub).is_dir() else []:
            ans = f.with_suffix(".ans")
            if ans.exists():
                cases.append((read(f), read(ans)))
    return cases


def validator_for(pdir: Path) -> Validator | None:
    for d in [pdir / "output_validator", *sorted((pdir / "output_validators").glob("*"))]:
        if d.is_dir() and any(d.iterdir()):
            from dataclasses import replace

            v = Validator.from_dir(str(d))
            return replace(v, files=tuple((n, read(d / n)) for n, _ in v.files))
    return None


def compare_for(pdir: Path) -> str | None:
    for f in [pdir / "problem.yaml", *pdir.glob("data/**/*.yaml")]:
        text = f.read_text(errors="replace")
        m = re.search(r"(?:validator_flags|output_validator_args)\s*:\s*\[?\s*float_tolerance\s*,?\s*[\"']?([0-9.eE+-]+)", text)
        if m:
            return f"float:{m.group(1)}:{m.group(1)}"
    return None


def submissions(pdir: Path):
    avail = languages.available()
    for folder in FOLDERS:
        d = pdir / "submissions" / folder
        if not d.is_dir():
            continue
        for f in sorted(d.iterdir()):
            if not f.is_file() or ".bad." in f.name or "py2" in f.name:
                continue
            lang = EXT.get(f.suffix)
            if lang is None:
                continue
            if not avail.get(lang):
                yield folder, f, lang, "toolchain missing"
                continue
            yield folder, f, lang, None


def judge_problems(root: Path, workers: int) -> list[dict]:
    results = []
    problems = sorted((root / "judge" / "kattis" / "examples").iterdir()) + sorted((root / "judge" / "bapctools" / "test" / "problems").iterdir())
    for pdir in problems:
        if not pdir.is_dir():
            continue
        name = f"{pdir.parent.parent.name if 'bapctools' in str(pdir) else 'kattis'}/{pdir.name}"
        name = ("bapc/" if "bapctools" in str(pdir) else "kattis/") + pdir.name
        yaml = (pdir / "problem.yaml").read_text(errors="replace") if (pdir / "problem.yaml").exists() else ""
        ptype = yaml_get(yaml, "type") or ""
        if pdir.name in SKIP_PROBLEMS:
            results.append({"problem": name, "skipped": SKIP_PROBLEMS[pdir.name]})
            continue
        if "interactive" in ptype or "multi-pass" in ptype:
            results.append({"problem": name, "skipped": f"{ptype} (out of scope)"})
            continue
        cases = problem_cases(pdir)
        subs = list(submissions(pdir))
        if not cases or not subs:
            results.append({"problem": name, "skipped": "no test data (generated by BAPCtools)" if not cases else "no gradable submissions"})
            continue
        tl = float(yaml_get(yaml, "time_limit") or 1.0)
        case_tl = max(2.0, tl)
        validator = validator_for(pdir)
        opts = CheckOptions(test_style="stdio", case_timeout=case_tl, compare=compare_for(pdir),
                            limits=Limits(cpu_s=min(120.0, case_tl * len(cases) + 2), memory_mb=512), validator=validator)
        rows = []
        for folder, f, lang, why in subs:
            rows.append({"folder": folder, "file": f.name, "language": lang, "why": why,
                         "completion": f.read_text(errors="replace"),
                         "tests": [{"input": i, "output": o} for i, o in cases]})
        t0 = time.perf_counter()
        with Grader(ScoreOptions(checks=opts, concurrency=workers)) as g:
            outs = g.grade([r for r in rows if r["why"] is None])
        it = iter(outs)
        for r in rows:
            o = None if r["why"] else next(it)
            results.append({
                "problem": name, "folder": r["folder"], "file": r["file"], "language": r["language"],
                "status": o.status if o else None, "reward": o.reward if o else None,
                "cases": "".join(v[0] if v != "-" else "." for v in o.case_verdicts) if o else "",
                "ok": (o.status in FOLDERS[r["folder"]]) if o else None, "error": (o.error if o else r["why"])[:100],
                "validator": validator is not None, "compare": opts.compare or "tokens",
            })
        print(f"  {name}: {len(rows)} submissions x {len(cases)} cases in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return results


def stub(solution: str) -> str:
    """Every method body of the reference's classes replaced by `pass` (returns None)."""
    import ast

    tree = ast.parse(solution)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for fn in node.body:
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    fn.body = [ast.Pass()]
    return ast.unparse(tree) + "\n"


def leetcode(root: Path, workers: int) -> dict:
    data = json.loads((root / "leetcode" / "test_code_leetcode.json").read_text())
    rows = [{"completion": d["solutions"], "tests": d["tests"], "kind": "reference"} for d in data]
    rows += [{"completion": stub(d["solutions"]), "tests": d["tests"], "kind": "stubbed"} for d in data]
    opts = CheckOptions(preset="leetcode", limits=Limits(cpu_s=10.0))
    t0 = time.perf_counter()
    with Grader(ScoreOptions(checks=opts, concurrency=workers)) as g:
        outs = g.grade(rows)
    from rlvr_grade.checks.build import build_check
    from rlvr_grade.types import Rollout

    styles = collections.Counter(build_check(Rollout(i, r), opts).style for i, r in enumerate(rows[:len(data)]))
    table: dict = {}
    for r, o in zip(rows, outs, strict=True):
        table.setdefault(r["kind"], collections.Counter())[o.status] += 1
    bad = [(i, o.status, o.error[:120]) for i, (r, o) in enumerate(zip(rows, outs, strict=True)) if r["kind"] == "reference" and o.status != "pass"]
    return {"table": table, "styles": styles, "seconds": time.perf_counter() - t0, "bad_references": bad[:10]}


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data")
    workers = int(os.environ.get("WORKERS", "2"))
    print("languages:", {k: bool(v) for k, v in languages.available().items()})
    res = judge_problems(root, workers)
    print(f"\n{'problem':24} {'folder':20} {'submission':34} {'lang':10} {'status':14} {'cases':14} ok")
    for r in res:
        if "skipped" in r:
            print(f"{r['problem']:24} skipped: {r['skipped']}")
            continue
        print(f"{r['problem']:24} {r['folder']:20} {r['file'][:34]:34} {r['language']:10} {str(r['status']):14} {r['cases'][:14]:14} "
              f"{'yes' if r['ok'] else 'NO ' + r['error'] if r['ok'] is False else '-'}")
    graded = [r for r in res if "skipped" not in r and r["ok"] is not None]
    by = collections.defaultdict(lambda: [0, 0])
    for r in graded:
        by[(r["folder"], r["language"])][0] += r["ok"]
        by[(r["folder"], r["language"])][1] += 1
    print("\nmatching verdict by folder and language:")
    for (folder, lang), (ok, n) in sorted(by.items()):
        print(f"  {folder:20} {lang:10} {ok}/{n}")
    print(f"  total {sum(r['ok'] for r in graded)}/{len(graded)}; validator used on: "
          f"{sorted({r['problem'] for r in graded if r['validator']})}")
    lc = leetcode(root, workers)
    print(f"\nLeetCode ({lc['seconds']:.1f}s): styles {dict(lc['styles'])}")
    for kind, counts in lc["table"].items():
        print(f"  {kind:10} {dict(counts)}")
    for b in lc["bad_references"]:
        print("  reference not passing:", b)


if __name__ == "__main__":
    main()
