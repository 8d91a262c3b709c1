"""The command line's shape: options declared once and shared, grouped in --help panels by
what a user decides, validated by their groups, and one error handler whose exit code follows
the exception's type (never its text), with tracebacks only under --verbose."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rlvr_grade.cli import app
from tests.conftest import write_jsonl

runner = CliRunner()
ROWS = [{"completion": "def f():\n    return 1\n", "tests": "assert f() == 1\n"}]


def help_of(*args: str) -> str:
    res = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert res.exit_code == 0, res.output
    return res.output


def panels(text: str) -> list[str]:
    return re.findall(r"╭─ (.+?) ─", text)


def test_the_app_help_is_for_users_and_documents_the_exit_codes():
    text = help_of()
    assert "Typer commands only" not in text and "No grading logic" not in text
    assert "Batch grader for RL with verifiable rewards" in text
    for code in ("0 ok", "1 a CI gate failed", "2 bad usage", "3 the sandbox backend", "130 interrupted"):
        assert code in " ".join(text.split())


def test_score_help_groups_its_options_by_what_a_user_decides():
    text = help_of("score")
    assert panels(text) == ["Arguments", "Options", "Input", "Grading", "Limits", "Backend", "Output and CI"]
    assert "Exit codes:" in text
    limits = text[text.index("╭─ Limits"):text.index("╭─ Backend")]
    assert "--timeout" in limits and "--memory" in limits and "--concurrency" in limits and "--reward" not in limits


def _all_commands(group, path=()):
    """(path, click command) for every command and subcommand of the app."""
    for name, cmd in group.commands.items():
        yield (*path, name), cmd
        if hasattr(cmd, "commands"):
            yield from _all_commands(cmd, (*path, name))


def test_help_texts_reflow_a_line_break_only_ends_a_paragraph():
    # rich prints a help text's line breaks as they are: a sentence broken across source lines
    # comes out ragged ("per-group histogram —\n the same numbers"). One line per paragraph.
    import inspect

    import typer

    root = typer.main.get_command(app)
    texts = [("rlvr-grade", root.help or "")]
    for path, cmd in _all_commands(root):
        texts += [(" ".join(path), cmd.help or ""), (" ".join(path) + " epilog", cmd.epilog or "")]
        texts += [(f"{' '.join(path)} {p.name}", getattr(p, "help", None) or "") for p in cmd.params]
    ragged = [(where, para) for where, text in texts for para in inspect.cleandoc(text).split("\n\n") if "\n" in para]
    assert not ragged, ragged
    flow = " ".join(help_of("summary").split())
    assert "per-group histogram — the same numbers `score` reports" in flow


def test_options_shared_by_commands_are_declared_once():
    def line(text: str, flag: str) -> str:
        return " ".join(next(x for x in text.splitlines() if x.startswith("│") and re.search(rf"{flag}\b", x)).split())

    score, summary, filt = help_of("score"), help_of("summary"), help_of("filter")
    for flag in ("--group-col", "--preset"):
        assert line(score, flag) == line(summary, flag) == line(filt, flag)
    for flag in ("--timeout", "--memory", "--completion-col"):
        assert line(score, flag) == line(filt, flag)
    for flag in ("--summary-json", "--fail-under", "--junit-xml", "--baseline"):
        assert line(score, flag) == line(summary, flag)
    assert "--backend" not in filt and "--id-col" not in filt  # filter takes what it took before


@pytest.mark.parametrize("args,message", [
    (["--timeout", "0"], "--timeout and --memory must be positive"),
    (["--memory", "-1"], "--timeout and --memory must be positive"),
    (["--case-timeout", "0"], "--case-timeout must be positive"),
    (["--fail-on-regression"], "--fail-on-regression needs --baseline"),
    (["--compare", "fuzzy"], "unknown compare mode 'fuzzy'"),
    (["--language", "cobol"], "cobol"),
    (["--max-infra-failures", "-1"], "must be >= 0"),
])
def test_values_are_validated_by_their_group_before_any_work(tmp_path, args, message):
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", *args])
    assert res.exit_code == 2, res.output
    assert res.output.startswith("Error: ") and message in res.output
    assert not (tmp_path / "o.jsonl").exists()


def test_summary_and_filter_validate_the_same_way(tmp_path):
    src = write_jsonl(tmp_path / "in.jsonl", [{**ROWS[0], "status": "pass", "reward": 1.0}])
    res = runner.invoke(app, ["summary", str(src), "--fail-on-regression"])
    assert res.exit_code == 2 and "needs --baseline" in res.output
    res = runner.invoke(app, ["filter", str(src), "-o", str(tmp_path / "o.jsonl"), "--group-pass-rate", "nonsense"])
    assert res.exit_code == 2 and res.output.startswith("Error: ")


class Boom(Exception):
    pass


def raising(exc: BaseException):
    def score_file(*args, **kwargs):
        raise exc

    return score_file


def _errors():
    from rlvr_grade.api import StrictError
    from rlvr_grade.cache import CacheError
    from rlvr_grade.sandbox.local import CannotIsolate
    from rlvr_grade.types import BackendUnavailable, InputError, OutputError, SandboxError

    return [
        (InputError("no column 'x'", tip="map it"), 2, "Error: no column 'x'", "Tip: map it"),
        (OutputError("cannot write o.csv"), 2, "Error: cannot write o.csv", None),
        (CacheError("locked"), 2, "Error: locked", "Tip: pass another --cache PATH, or --no-cache"),
        (StrictError("line 2: bad"), 2, "Error: malformed row (line 2: bad); nothing was written", "Tip: drop --strict"),
        (SandboxError("worker died"), 3, "Error: worker died", "Tip: run `rlvr-grade doctor`"),
        # The tip follows the type: this message says what CannotIsolate's does, and gets no
        # unsafe-flag tip.
        (SandboxError("refusing to run untrusted code"), 3, "Error: refusing", "Tip: run `rlvr-grade doctor`"),
        (CannotIsolate("cannot isolate checks here"), 3, "Error: cannot isolate", "--allow-network-and-writable-fs-UNSAFE"),
        (BackendUnavailable("beam gateway 1.2.3.4:5 unreachable"), 3, "Error: beam gateway 1.2.3.4:5 unreachable", "rerun the same command"),
        (Boom("bug"), 1, "Error: Boom: bug", "Tip: rerun with --verbose"),
        (KeyboardInterrupt(), 130, "Error: interrupted", None),
    ]


@pytest.mark.parametrize("exc,code,line,tip", _errors(), ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else None)
def test_one_handler_maps_each_exception_type_to_its_exit_code_and_message(tmp_path, monkeypatch, exc, code, line, tip):
    import rlvr_grade.api as api

    monkeypatch.setattr(api, "score_file", raising(exc))
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "o.jsonl"), "-q"])
    assert res.exit_code == code, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith(line) and "Traceback" not in res.output
    if tip:
        assert lines[1].startswith("Tip: ") and tip in lines[1]
    else:
        assert len(lines) == 1


@pytest.mark.parametrize("where", [["-v", "score"], ["score", "-v"], ["--verbose", "score"]])
@pytest.mark.parametrize("exc,code,line,tip", _errors()[::3], ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else None)
def test_verbose_shows_the_traceback_for_every_type_and_keeps_the_exit_code(tmp_path, monkeypatch, where, exc, code, line, tip):
    import rlvr_grade.api as api
    from rlvr_grade.cli import errors

    monkeypatch.setattr(errors, "VERBOSE", [False])
    monkeypatch.setattr(api, "score_file", raising(exc))
    src = write_jsonl(tmp_path / "in.jsonl", ROWS)
    res = runner.invoke(app, [*where, str(src), "-o", str(tmp_path / "o.jsonl"), "-q"])
    assert res.exit_code == code, res.output
    if not isinstance(exc, KeyboardInterrupt):
        assert "Traceback (most recent call last)" in res.output and line in res.output


def test_doctor_and_cache_errors_go_through_the_same_handler(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not sqlite at all" * 100)
    res = runner.invoke(app, ["cache", "stats", "--cache", str(bad)])
    assert res.exit_code == 2 and res.output.startswith("Error: ") and "Tip: pass another --cache" not in res.output
    res = runner.invoke(app, ["cache", "clear", "--cache", str(bad), "--older-than", "soon"])
    assert res.exit_code == 2 and "cannot read 'soon' as an age" in res.output


def test_the_command_starts_the_seed_for_a_global_verbose_too():
    from rlvr_grade.entry import grades_locally

    assert grades_locally(["-v", "score", "in.jsonl", "-o", "o.jsonl"])
    assert not grades_locally(["-v", "doctor"])
    assert not grades_locally(["score", "-h"])


def test_the_cli_imports_neither_the_grader_nor_pyarrow_to_parse_its_arguments():
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom rlvr_grade.cli import app\n"
            "r = CliRunner().invoke(app, ['score', '--help'])\nassert r.exit_code == 0, r.output\n"
            "print(sorted(m for m in ('rlvr_grade.api', 'pyarrow', 'rlvr_grade.sandbox.local') if m in sys.modules))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == "[]", res.stderr
