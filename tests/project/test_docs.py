"""The documentation stays honest where that is cheap to check: the README is a quick start
(under 12 KB), every relative link of README.md and docs/*.md reaches a file (and its anchor), every
`rlvr-grade ...` command shown in a code block takes the flags it is shown with, every flag the
README names exists, and the README's tables of exit codes, statuses and output columns (and
fidelity.md's table of flags) are the code's. Nothing here starts a sandbox but the README's
Python quick start, run as a user would."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
README_MAX_BYTES = 12 * 1024
# Pages the README links to that others are writing: absent is tolerated, never wrong.
PENDING: set[str] = set()

LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s")
FLAG = re.compile(r"(?<![\w-])--[a-zA-Z][\w-]*")


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def split_blocks(text: str) -> tuple[list[str], list[str]]:
    """(code lines, prose lines) of a markdown page: fenced blocks and 4-space indented blocks
    after a blank line are code."""
    code: list[str] = []
    prose: list[str] = []
    fenced = False
    indented = False
    previous_blank = True
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            previous_blank = False
            continue
        if fenced:
            code.append(line)
            continue
        blank = not line.strip()
        if line.startswith("    ") and (indented or (previous_blank and not LIST_ITEM.match(line))):
            indented = True
            code.append(line)
        elif indented and blank:
            code.append(line)
        else:
            indented = False
            prose.append(line)
        previous_blank = blank
    return code, prose


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces -> '-'."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    code, prose = split_blocks(text_of(path))
    found: set[str] = set()
    for line in prose:
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n, name = 0, base
            while name in found:  # GitHub numbers repeated headings: x, x-1, x-2
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def links(path: Path) -> list[str]:
    _, prose = split_blocks(text_of(path))
    return [m.group(1) for line in prose for m in LINK.finditer(line)]


def broken_links(path: Path) -> list[str]:
    bad = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        rel = os.path.relpath(dest, ROOT)
        if not dest.exists():
            if rel not in PENDING:
                bad.append(f"{path.name}: {target} (no such file)")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{path.name}: {target} (no heading with that anchor in {rel})")
    return bad


# -- the command line ----------------------------------------------------------------------------
def cli_tree() -> dict[tuple[str, ...], set[str]]:
    """Command path -> the long flags it takes (the app's own under ())."""
    import typer

    from rlvr_grade.cli import app

    root = typer.main.get_command(app)

    def flags(cmd) -> set[str]:
        out = set()
        for p in cmd.params:
            out.update(o for o in [*getattr(p, "opts", []), *getattr(p, "secondary_opts", [])] if o.startswith("--"))
        return out | {"--help"}

    tree = {(): flags(root)}

    def walk(group, path):
        for name, cmd in getattr(group, "commands", {}).items():
            tree[(*path, name)] = flags(cmd)
            walk(cmd, (*path, name))

    walk(root, ())
    return tree


def shown_commands(path: Path) -> list[tuple[str, tuple[str, ...], list[str]]]:
    """(line, command path, long flags) for every `rlvr-grade ...` line of the page's code blocks
    (a trailing backslash continues a line; a `#` comment ends it)."""
    code, _ = split_blocks(text_of(path))
    joined: list[str] = []
    for line in code:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1].rstrip() + " " + line.strip()
        else:
            joined.append(line.strip())
    tree = cli_tree()
    found = []
    for line in joined:
        m = re.search(r"(?:^|[\s/])rlvr-grade\s+(.*)", line)
        if not m or line.startswith(("from ", "import ")):
            continue
        words = re.sub(r"\s#.*$", "", m.group(1)).split()
        command: tuple[str, ...] = ()
        flags = []
        for word in words:
            if word.startswith("-"):
                flags += FLAG.findall(word.split("=", 1)[0])
            elif (*command, word) in tree and (not flags or command):
                command = (*command, word)
        found.append((line, command, flags))
    return found


def unknown_flags(path: Path) -> list[str]:
    tree = cli_tree()
    bad = []
    for line, command, flags in shown_commands(path):
        allowed = tree[command] | tree[()]
        bad += [f"{path.name}: {flag} is not an option of `rlvr-grade {' '.join(command)}`: {line}"
                for flag in flags if flag not in allowed]
    return bad


def table_after(text: str, header: str) -> list[list[str]]:
    """The rows of the table whose header line is `header`."""
    lines = text.splitlines()
    rows = []
    for line in lines[lines.index(header) + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.replace("`", "").strip() for c in line.strip("|").split("|")])
    return rows


# -- the tests -------------------------------------------------------------------------------------
def test_the_readme_is_a_quick_start_under_12_kb():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes; move detail into docs/"
    for must in ("make demo", "make test", "## Quick start: the command line", "## Quick start: Python",
                 "## Exit codes", "## Which backend"):
        assert must in text_of(README)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page):
    assert not broken_links(page)


def test_the_link_check_finds_a_broken_link_and_a_wrong_anchor(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## Real `section`\n")
    page.write_text("[ok](other.md#real-section) [gone](missing.md) [bad](other.md#nope)\n\n"
                    "    [in code](ignored.md)\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert broken_links(page) == ["page.md: missing.md (no such file)",
                                  "page.md: other.md#nope (no heading with that anchor in other.md)"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_commands_shown_take_the_flags_they_are_shown_with(page):
    assert not unknown_flags(page)


def test_the_readme_shows_the_commands_and_the_check_finds_an_invented_flag(tmp_path):
    shown = {command for _, command, _ in shown_commands(README)}
    assert {("score",), ("summary",), ("filter",), ("doctor",)} <= shown
    page = tmp_path / "page.md"
    page.write_text("Run:\n\n    rlvr-grade score in.jsonl -o out.jsonl \\\n        --timeout 5 --frobnicate\n"
                    "    rlvr-grade cache clear --older-than 30d   # --not-checked in a comment\n"
                    "\n```\nrlvr-grade summary s.jsonl --json --max-infra-failures 3\n```\n")
    assert unknown_flags(page) == [
        "page.md: --frobnicate is not an option of `rlvr-grade score`: "
        "rlvr-grade score in.jsonl -o out.jsonl --timeout 5 --frobnicate",
        "page.md: --max-infra-failures is not an option of `rlvr-grade summary`: "
        "rlvr-grade summary s.jsonl --json --max-infra-failures 3",
    ]


def test_every_flag_the_readme_names_exists():
    every = set().union(*cli_tree().values())
    code, prose = split_blocks(text_of(README))
    named = {f for line in prose for f in FLAG.findall(line)}
    assert named, "the README names no flag at all?"
    assert not named - every, sorted(named - every)


def test_the_exit_codes_table_is_the_cli_s():
    from rlvr_grade.api import StrictError
    from rlvr_grade.cache import CacheError
    from rlvr_grade.cli.errors import EXIT_CODES, GateFailed, UsageError, exit_code
    from rlvr_grade.types import BackendUnavailable, InputError, OutputError, SandboxError

    documented = {int(row[0]) for row in table_after(text_of(README), "| code | meaning |")}
    in_help = {int(c) for c in re.findall(r"(?:Exit codes:|;)\s*(\d+)\s", EXIT_CODES)}
    raised = {exit_code(e) for e in (KeyboardInterrupt(), GateFailed(["x"]), UsageError("x"), InputError("x"),
                                     OutputError("x"), CacheError("x"), StrictError("x"), SandboxError("x"),
                                     BackendUnavailable("x"), RuntimeError("x"))}
    assert documented == in_help == raised | {0}


def test_the_status_and_column_tables_are_the_code_s():
    from rlvr_grade.api import outcome_columns
    from rlvr_grade.sandbox import BACKENDS
    from rlvr_grade.types import STATUSES, Outcome

    text = text_of(README)
    statuses = [row[0] for row in table_after(text, "| status | what happened |")]
    assert tuple(statuses) == STATUSES
    columns = [c.strip() for row in table_after(text, "| column | meaning |") for c in row[0].split(",")]
    assert columns == list(outcome_columns(Outcome("pass", 1.0, 1, 1, 1.0)))
    backends = [row[0].split()[0] for row in table_after(text, "| `--backend` | each check runs in | cost per check | pick it when |")]
    assert tuple(backends) == BACKENDS


def test_fidelity_lists_every_flag_the_scan_raises():
    from rlvr_grade.checks.flags import FLAGS

    rows = table_after(text_of(ROOT / "docs" / "fidelity.md"), "| flag | what the scan saw |")
    assert [row[0] for row in rows] == list(FLAGS)


def test_the_corpus_counts_are_the_fixtures():
    """docs/fidelity.md's "The corpus" counts the hack and honest fixtures of tests/hacks: a
    fixture added without the page saying so is stale docs (it said 132 and 81 when there were 158 and 99)."""
    text = " ".join(text_of(ROOT / "docs" / "fidelity.md").split())
    hacks = re.search(r"tests/hacks/: (\d+) hack completions", text)
    honest = re.search(r"(\d+) honest-but-unusual completions", text)
    assert hacks and honest, "fidelity.md no longer counts the corpus"
    folder = ROOT / "tests" / "hacks"
    assert int(hacks.group(1)) == len(list(folder.glob("*.py")))
    assert int(honest.group(1)) == len(list((folder / "honest").glob("*.py")))


def test_the_readme_python_quick_start_runs(tmp_path):
    code = re.search(r"```python\n(.*?)```", text_of(README), re.S).group(1)
    env = {**os.environ, "RLVR_GRADE_CACHE": str(tmp_path / "cache.sqlite")}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Outcome(status='pass', reward=1.0, tests_passed=1, tests_total=1" in res.stdout
    assert res.stdout.rstrip().endswith("1.0")


# -- docs/architecture.md names files and functions that exist ------------------------------------
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGES = ("rlvr_grade", "rlvr_harness")
TICKED = re.compile(r"`([^`\n]+)`")
# `stem.symbol` or `stem:symbol`: a module named by its path's tail (zygote, checks/pytest, rlvr_harness/process)
MODULE_SYMBOL = re.compile(r"([A-Za-z_][\w/]*)[.:]([A-Za-z_]\w*)(?:\(\))?")
FILE_THEN_SYMBOL = re.compile(r"`([\w/]+\.py)` `([A-Za-z_]\w*)`")


@functools.lru_cache(maxsize=1)
def _sources() -> list[Path]:
    return [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]


def _modules(stem: str) -> list[Path]:
    """The package modules whose path, without .py, ends with `stem` at a folder boundary."""
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT).with_suffix("").as_posix()
        rel = rel[: -len("/__init__")] if rel.endswith("/__init__") else rel
        if rel == stem or rel.endswith("/" + stem):
            found.append(path)
    return found


@functools.lru_cache(maxsize=None)
def _names(path: Path) -> set[str]:
    """Every name a module defines (functions, classes, their methods and fields, assignments)."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _file(name: str) -> Path | None:
    """A file the page names: from the repository's root, a package, or tests/; or in a package's
    folder where that folder's table row names it (`_child.c`, `runner.py`)."""
    for base in (ROOT, *(ROOT / pkg for pkg in PACKAGES), ROOT / "tests"):
        if (base / name).exists():
            return base / name
    return next((p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob(name)) if "/" not in name), None)


def stale_names(text: str) -> list[str]:
    """What a page names in backticks that the code does not have: a file (`checks/build.py`), a
    module's function (`zygote._collect`, `checks/pytest.detect`) or a file's (`cache.py` `check_key`)."""
    bad = []
    for token in TICKED.findall(text):
        token = token.strip()
        if re.fullmatch(r"[\w/.-]+\.(py|c|md|txt|json)|[\w-]+/", token):
            if _file(token) is None:
                bad.append(f"no file {token}")
            continue
        m = MODULE_SYMBOL.fullmatch(token)
        if m and _modules(m.group(1)) and not any(m.group(2) in _names(p) for p in _modules(m.group(1))):
            bad.append(f"no {m.group(2)} in {m.group(1)}")
    for name, symbol in FILE_THEN_SYMBOL.findall(text):
        path = _file(name) or next(iter(_modules(name[:-3])), None)
        if path is not None and symbol not in _names(path):
            bad.append(f"no {symbol} in {name}")
    return bad


def test_architecture_names_only_files_and_functions_that_exist():
    assert stale_names(text_of(ARCHITECTURE)) == []


def test_the_four_questions_are_answered_by_one_file_each_and_the_check_finds_a_stale_name():
    # A newcomer opens one file per question (issue 19): the file, and the function named first.
    rows = table_after(text_of(ARCHITECTURE), "| question | file | where in it |")
    asked = [row[0] for row in rows]
    for topic in ("style .*decided", "CPU limit .*enforced", "cache key .*computed", "stdio output .*compared"):
        assert any(re.search(topic, q) for q in asked), f"architecture.md no longer says where the {topic}"
    for question, name, where in rows:
        path = _file(name)
        assert path is not None and path.is_file(), f"{question}: {name} does not exist"
        symbol = re.match(r"\w+", where).group(0)
        assert symbol in _names(path), f"{question}: {name} defines no {symbol}"
    assert stale_names("`sandbox/zygote.py` `_fast_spec`, `zygote.Zygote`, `checks/nowhere.py`, `cache.check_keys`") == [
        "no file checks/nowhere.py", "no check_keys in cache", "no _fast_spec in sandbox/zygote.py"]
