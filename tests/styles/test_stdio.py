"""The stdio style end to end through the real local sandbox: every verdict in every language
whose toolchain is installed, comparison modes, dataset layouts, output validators, and the
expected output staying out of the candidate's reach."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, InvalidRow, build_check
from rlvr_grade.checks.cases import CaseError, parse_cases
from rlvr_grade.cli import app
from rlvr_grade.scoring.compare import CompareSpec, outputs_equal, parse_mode
from rlvr_grade.types import Limits, Rollout, Validator
from rlvr_harness import languages
from tests.conftest import read_jsonl, requires_root, write_jsonl
from tests.judge_fixtures import JUDGE, STATUS, cases, submissions

pytestmark = requires_root
AVAILABLE = {k for k, v in languages.available().items() if v}
OPTS = CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=4.0, memory_mb=256))


# Tests using this shared grader come first in the file: a second Grader in the same process
# reuses the slot cgroup names (<pid>-slot<i>) and removes them when it closes (a LocalBackend
# issue reported to the sandbox owner), which would break this one for later tests.
@pytest.fixture(scope="module")
def grader():
    with Grader(ScoreOptions(checks=OPTS, concurrency=2)) as g:
        yield g


# -- the judge fixture: every verdict, every installed language --------------------------------
def test_every_submission_gets_its_folders_status_in_every_language(grader):
    subs = [s for s in submissions("sum") if s[1] in AVAILABLE]
    assert {lang for _, lang, _ in subs} == AVAILABLE & {"python", "c", "cpp", "java", "javascript"}
    rows = [{"completion": src, "language": lang, "tests": cases("sum")} for _, lang, src in subs]
    outcomes = grader.grade(rows)
    got = [(folder, lang, o.status, o.case_verdicts) for (folder, lang, _), o in zip(subs, outcomes, strict=True)]
    for (folder, lang, _), o in zip(subs, outcomes, strict=True):
        assert o.status == STATUS[folder], (folder, lang, o)
        assert o.reward == (1.0 if folder == "accepted" else 0.0)
    verdicts = {(f, lang): v for f, lang, _, v in got}
    for lang in AVAILABLE & {"python", "c", "cpp", "java", "javascript"}:
        assert verdicts[("accepted", lang)] == ("AC", "AC", "AC")
        assert verdicts[("time_limit_exceeded", lang)][0] == "TLE"
        assert verdicts[("run_time_error", lang)][0] == "RE"
        assert set(verdicts[("compile_error", lang)]) == {"CE"}
        wa = verdicts[("wrong_answer", lang)]
        assert "WA" in wa and wa[wa.index("WA") + 1:] == ("-",) * (2 - wa.index("WA")), wa  # stop at first failure


def test_memory_hog_is_memory_limit(grader):
    rows = [
        {"completion": "x = bytearray(1 << 30)\nprint(len(x))", "tests": cases("sum")},
        {"completion": "#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\nint main(){char*p=malloc(1u<<30);"
                       "if(!p){fputs(\"MemoryError\\n\",stderr);return 1;}memset(p,1,1u<<30);printf(\"%d\\n\",p[5]);}",
         "language": "c", "tests": cases("sum")},
    ]
    rows = [r for r in rows if r.get("language", "python") in AVAILABLE]
    for o in grader.grade(rows):
        assert o.status == "memory_limit", o
        assert o.case_verdicts[0] == "MLE"


def test_output_flood_is_cut_and_fails(grader):
    o = grader.grade([{"completion": "while True: print('y' * 1000)", "tests": cases("sum")}])[0]
    assert o.status == "fail" and o.case_verdicts[0] == "OLE", o


# -- a case that closes its stdout/stderr is still running: closed pipes end its output, not it --
# The answer is written and flushed, fd 1 and fd 2 are closed (C's fclose(stdout) does the
# same), and the program goes on. The harness used to stop at EOF on every pipe and SIGKILL
# the still-running case, which came out as MLE (a SIGKILL under the CPU limit).
CLOSE_PY = "import os, sys, time\na, b = map(int, input().split())\nprint(a + b, flush=True)\nos.close(1)\nos.close(2)\n"
CLOSE_C = ("#include <stdio.h>\n#include <unistd.h>\nint main(void){long long a,b; if(scanf(\"%lld %lld\",&a,&b)!=2) return 1;"
           " printf(\"%lld\\n\",a+b); fclose(stdout); fclose(stderr); %s }\n")


def test_a_case_that_closes_its_pipes_then_exits_is_judged_on_its_output(grader):
    rows = [{"completion": CLOSE_PY + "time.sleep(0.2)\n", "tests": cases("sum")}]
    if "c" in AVAILABLE:
        rows.append({"completion": CLOSE_C.replace("%s", "usleep(200000); return 0;"), "language": "c", "tests": cases("sum")})
    for o in grader.grade(rows):
        assert o.status == "pass" and o.case_verdicts == ("AC", "AC", "AC"), o


def test_a_case_that_closes_its_pipes_then_spins_is_a_time_limit(grader):
    rows = [{"completion": CLOSE_PY + "while True: pass\n", "tests": cases("sum")}]
    if "c" in AVAILABLE:
        rows.append({"completion": CLOSE_C.replace("%s", "volatile unsigned long n = 0; for (;;) n++;"),
                     "language": "c", "tests": cases("sum")})
    for o in grader.grade(rows):
        assert o.status == "timeout" and o.case_verdicts == ("TLE", "-", "-"), o


def test_a_case_that_closes_its_pipes_then_sleeps_forever_hits_the_wall_deadline(grader):
    # No CPU is spent, so only the wall-clock backstop ends it: with no pipe left open the loop
    # must still wait on the process (and time it out), not on the pipes.
    o = grader.grade([{"completion": CLOSE_PY + "time.sleep(3600)\n", "tests": cases("sum")}])[0]
    assert o.status == "timeout" and o.case_verdicts == ("TLE", "-", "-"), o
    # ...and the message says what ran out: the wall clock, not the CPU it never used
    assert "wall-clock limit" in o.error and "CPU limit" not in o.error, o.error


# -- the program's own exit: threads waited for, atexit handlers run, as `python solution.py` ----
# The Codeforces idiom for deep recursion runs main() in a thread with a bigger stack and lets
# the module end; fast-output code writes its buffer from an atexit handler. Both printed
# nothing here (the case process left as soon as the module did) and scored a wrong answer.
THREAD_MAIN = """import sys, threading
sys.setrecursionlimit(1 << 16)
threading.stack_size(1 << 26)
def depth(k):
    return 0 if k == 0 else 1 + depth(k - 1)
def main():
    a, b = map(int, sys.stdin.readline().split())
    print(a + b + depth(5000) - 5000)
threading.Thread(target=main).start()
"""
ATEXIT_OUTPUT = """import atexit, io, sys
buf = io.StringIO()
atexit.register(lambda: sys.stdout.write(buf.getvalue()))
a, b = map(int, input().split())
buf.write(f"{a + b}\\n")
"""
EXIT_IN_THREAD = "import threading\nthreading.Thread(target=lambda: print(sum(map(int, input().split())))).start()\nraise SystemExit(3)\n"


def test_a_python_program_ends_as_python_ends_it_threads_joined_then_atexit(grader):
    rows = [{"completion": THREAD_MAIN, "tests": cases("sum")}, {"completion": ATEXIT_OUTPUT, "tests": cases("sum")},
            {"completion": EXIT_IN_THREAD, "tests": cases("sum")}]
    threads, at_exit, status = grader.grade(rows)
    assert threads.status == "pass" and threads.case_verdicts == ("AC", "AC", "AC"), threads
    assert at_exit.status == "pass" and at_exit.case_verdicts == ("AC", "AC", "AC"), at_exit
    # the thread's output counts, and so does the status the module exited with
    assert status.status == "runtime_error" and status.case_verdicts[0] == "RE", status


def test_many_large_outputs_fit_the_report_channel(grader):
    # 24 cases x 600-900 KB = ~19 MB of output: more than the 16 MiB report channel holds raw, so
    # without compression the last cases would go missing and a correct program would fail.
    n = 300_000
    tests = [{"input": f"{i}\n", "output": f"{i}\n" * n} for i in range(24)]
    code = f"import sys\nx = input()\nsys.stdout.write((x + '\\n') * {n})\n"
    o = grader.grade([{"completion": code, "tests": tests}])[0]
    assert o.status == "pass" and o.case_verdicts == ("AC",) * 24, (o.status, o.error[:300])


# sys.__stdout__ is sys.stdout in `python solution.py`: a program that silences its prints with a
# StringIO and puts stdout back from sys.__stdout__, or prints there, wrote its answer into the
# warm worker's own buffer, which nobody flushed: a wrong answer for correct code.
DUNDER_RESTORE = """import io, sys
sys.stdout = io.StringIO()
print("noise")
sys.stdout = sys.__stdout__
a, b = map(int, sys.__stdin__.readline().split())
print(a + b)
"""
DUNDER_PRINT = "import sys\nprint(sum(map(int, input().split())), file=sys.__stdout__)\n"


def test_sys_dunder_streams_are_the_cases_own(grader):
    rows = [{"completion": DUNDER_RESTORE, "tests": cases("sum")}, {"completion": DUNDER_PRINT, "tests": cases("sum")}]
    for o in grader.grade(rows):
        assert o.status == "pass" and o.case_verdicts == ("AC", "AC", "AC"), o


def test_an_expected_output_past_the_digit_limit_is_its_digits(grader):
    """An expected stdout given as a number past 4,300 digits: from a Python row (str() raised
    in the grader: sandbox_error) or from JSON text (read as the tagged int: invalid_input,
    "is dict, expected text"). Either is its decimal digits now."""
    import decimal

    big = 10 ** 5000 + 7
    prog = "import sys\nsys.set_int_max_str_digits(0)\nprint(10 ** int(input()) + %d)\n"
    rows = [
        {"completion": prog % 7, "tests": {"inputs": ["5000\n"], "outputs": [big]}},
        {"completion": prog % 7, "tests": '{"inputs": ["5000\\n"], "outputs": [%s]}' % decimal.Decimal(big)},
        {"completion": prog % 8, "tests": {"inputs": ["5000\n"], "outputs": [big]}},
    ]
    python_row, json_row, wrong = grader.grade(rows)
    for o in (python_row, json_row):
        assert o.status == "pass" and o.case_verdicts == ("AC",), (o.status, o.error[:300])
    assert wrong.status == "fail" and wrong.case_verdicts == ("WA",), (wrong.status, wrong.error[:300])


# -- the expected output never enters the sandbox ------------------------------------------------
SNOOP = r'''
import gc, os, sys
SECRET = "zq" + "9-expected-7k"
found = None
def look(text):
    global found
    if found is None and isinstance(text, str) and text is not SECRET and SECRET in text:
        found = text[text.index(SECRET):].split()[0]
for obj in gc.get_objects():              # every object in this process (frames' locals too)
    if isinstance(obj, dict):
        for v in list(obj.values()):
            look(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            look(v)
    else:
        look(obj)
f = sys._getframe()
while f is not None:                      # the callers' frames, as in the known reward hack
    for v in list(f.f_locals.values()) + list(f.f_globals.values()):
        look(v)
    f = f.f_back
for k, v in os.environ.items():
    look(v)
# The interpreter's own install is read-only host code (bound into the check's /tmp when the
# venv lives there, as in a CI clone): nothing per-check can be in it, and walking it is slow.
installed = tuple(p.rstrip("/") + "/" for p in {sys.prefix, sys.base_prefix})
for root in ("/tmp", os.getcwd(), "/proc"):
    for dirpath, dirs, files in os.walk(root):
        if dirpath.startswith("/proc/") and dirpath.count("/") > 2:
            dirs[:] = []
        if (dirpath + "/").startswith(installed):
            dirs[:] = []
            continue
        for name in files:
            if root == "/proc" and name not in ("cmdline", "environ"):
                continue
            try:
                with open(os.path.join(dirpath, name), "rb") as fh:
                    look(fh.read(1 << 20).decode("utf-8", "replace"))
            except OSError:
                pass
for pid in os.listdir("/proc"):           # other processes' memory (the harness above us)
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/mem", "rb") as fh:
                pass
        except OSError:
            pass
print(found if found else "not-found")
'''


def test_a_candidate_cannot_read_the_expected_output(grader):
    secret = "zq9-expected-7k"
    o = grader.grade([{"completion": SNOOP, "tests": [{"input": "x\n", "output": secret + "\n"}]}])[0]
    assert o.status == "fail", o
    assert "not-found" in o.error  # the program ran everything and found nothing
    check = build_check(Rollout(0, {"completion": "print(1)", "tests": [{"input": "x", "output": secret}]}), OPTS)
    assert secret not in json.dumps(check.payload().to_wire())
    assert check.expected == (secret,)


def test_the_snooper_would_find_an_expected_output_that_was_in_the_sandbox(grader):
    # Control for the test above: the same search finds the secret when it *is* inside (here
    # in the case's input, which does enter), so "not-found" there is a real result.
    secret = "zq9-expected-7k"
    o = grader.grade([{"completion": SNOOP, "tests": [{"input": secret + "\n", "output": secret + "\n"}]}])[0]
    assert o.status == "pass", o


NATIVE_IN_A_CASE = """import sys
print(sorted(m for m in ("ctypes", "_ctypes", "cffi", "_cffi_backend") if m in sys.modules))
"""


def test_a_case_process_holds_no_raw_memory_module(grader):
    """A Python case is a fork of the harness process: whatever that holds, every case holds.
    The harness's process is already not dumpable when it starts (every set-up path makes it
    so), so it loads no ctypes to make it so again: a loaded _ctypes would hand its types to
    every case through object.__subclasses__() (red team A2), and cost each check its import."""
    o = grader.grade([{"completion": NATIVE_IN_A_CASE, "tests": [{"input": "", "output": "[]\n"}]}])[0]
    assert o.status == "pass", o.error


# -- comparison modes --------------------------------------------------------------------------
def test_compare_modes():
    tok = CompareSpec("tokens")
    assert outputs_equal("1  2\n3\n", "1 2 3", tok)
    assert not outputs_equal("1 2", "1 2 3", tok)  # a prefix is not an answer
    assert not outputs_equal("Yes", "YES", tok)  # case matters
    assert not outputs_equal("1 2\n", "1 2", CompareSpec("exact"))
    fl = parse_mode("float")
    assert (fl.abs_tol, fl.rel_tol) == (1e-6, 1e-6)
    assert outputs_equal("0.3333333", "0.333333333", fl)
    assert outputs_equal("1e6", "1000000.0000001", fl)
    assert not outputs_equal("0.334", "0.333333", fl)
    assert not outputs_equal("nan", "nan", fl) and not outputs_equal("NaN", "nan", fl)
    assert outputs_equal("inf", "Infinity", fl) and not outputs_equal("inf", "-inf", fl)
    assert not outputs_equal("0.5", "nan", fl)
    assert outputs_equal("abc 1.0", "abc 1", fl) and not outputs_equal("abd 1.0", "abc 1", fl)
    assert outputs_equal("1.05", "1", parse_mode("float:0.1"))
    assert not outputs_equal("1.05", "1", parse_mode("float:0.01:0"))
    lu = CompareSpec("lines-unordered")
    assert outputs_equal("b 2\na  1\n\n", "a 1\nb 2\n", lu)
    assert not outputs_equal("a 1\na 1\n", "a 1\nb 2\n", lu)
    with pytest.raises(ValueError, match="unknown compare mode"):
        parse_mode("fuzzy")
    with pytest.raises(ValueError, match="not a number"):
        parse_mode("float:x")


def test_float_nan_is_never_equal():
    fl = parse_mode("float:1")
    assert not outputs_equal("NaN", "NaN", fl)
    assert outputs_equal("NaN", "NaN", CompareSpec("tokens"))  # outside float mode it is a word
    from rlvr_grade.scoring.compare import _float_token_equal

    assert not _float_token_equal("1e999", "1", fl)  # a huge number vs a small one
    assert _float_token_equal("inf", "Infinity", fl) and not _float_token_equal("inf", "1e999", fl)


def test_float_numbers_past_a_floats_range_keep_their_value():
    """As floats, any two tokens past 1.8e308 were the same infinity: a wrong 401-digit
    answer passed against the right one."""
    from rlvr_grade.scoring.compare import _float_token_equal

    fl = parse_mode("float")
    big = "1" + "0" * 400
    assert not _float_token_equal("9" * 401, big, fl) and not _float_token_equal("-" + "7" * 330, "-" + big, fl)
    assert not _float_token_equal("1e999", "2e999", fl) and _float_token_equal("1.0000001e999", "1e999", fl)
    assert _float_token_equal(big, big, fl) and _float_token_equal(big[:-1] + "1", big, fl)  # within 1e-6 relative
    assert not _float_token_equal("9" * 100000, "9" * 99999 + "8", parse_mode("float:0:0"))  # digits are not rounded away


@given(st.integers(min_value=10 ** 309, max_value=10 ** 330), st.integers(min_value=-10 ** 6, max_value=10 ** 6))
def test_float_compare_of_huge_integers_is_exact_at_zero_tolerance(n, d):
    from rlvr_grade.scoring.compare import _float_token_equal

    assert _float_token_equal(str(n + d), str(n), parse_mode("float:0:0")) == (d == 0)


def test_compare_column_per_row_and_tokens_default(grader):
    rows = [
        {"completion": "print('0.3333334')", "tests": [{"input": "", "output": "0.333333333"}], "compare": "float"},
        {"completion": "print('0.3333334')", "tests": [{"input": "", "output": "0.333333333"}]},
        {"completion": "print('b'); print('a')", "tests": [{"input": "", "output": "a\nb\n"}], "compare": "lines-unordered"},
        {"completion": "print('a  b')", "tests": [{"input": "", "output": "a b\n"}]},
        {"completion": "print('a  b')", "tests": [{"input": "", "output": "a b\n"}], "compare": "exact"},
        {"completion": "print(1)", "tests": [{"input": "", "output": "1"}], "compare": "bogus"},
    ]
    assert [o.status for o in grader.grade(rows)] == ["pass", "fail", "pass", "pass", "fail", "invalid_input"]


# -- dataset layouts ------------------------------------------------------------------------------
def test_layouts_parse():
    apps = parse_cases(json.dumps({"inputs": ["1 2\n", "3 4\n"], "outputs": ["3\n", "7\n"]}))
    assert (apps.kind, apps.layout, apps.inputs, apps.outputs) == ("stdio", "apps", ("1 2\n", "3 4\n"), ("3\n", "7\n"))
    cc = parse_cases({"input": ["5\n"], "output": ["25\n"]})
    assert (cc.kind, cc.layout) == ("stdio", "codecontests")
    lcb = parse_cases(json.dumps([{"input": "2\n", "output": "4\n", "testtype": "stdin"}]))
    assert (lcb.kind, lcb.layout, lcb.outputs) == ("stdio", "livecodebench", ("4\n",))
    lcbf = parse_cases([{"input": "[1, 2]\n3", "output": "[1, 2, 3]", "testtype": "functional"}], fn_name="push")
    assert lcbf.kind == "call" and lcbf.inputs[0]["args"] == [[1, 2], 3] and lcbf.outputs == ([1, 2, 3],)
    call = parse_cases({"inputs": [[1, 2]], "outputs": [[3]], "fn_name": "add"})
    assert call.kind == "call" and call.unwrap_single and call.fn_name == "add"
    for bad, msg in [("{not json", "not valid JSON"), ([], "no cases"), ({"inputs": ["1"], "outputs": []}, "1 inputs but 0 outputs"),
                     ([{"input": "1"}], "no 'output'"), ([{"args": [1], "output": 1}], "no function name")]:
        with pytest.raises(CaseError, match=msg):
            parse_cases(bad)


def test_codecontests_public_and_private_columns_and_bad_rows():
    opts = CheckOptions(tests_col="public_tests+private_tests", limits=Limits(cpu_s=4.0))
    row = {"completion": "print(int(input()) ** 2)", "public_tests": {"input": ["3\n"], "output": ["9\n"]},
           "private_tests": {"input": ["5\n", "6\n"], "output": ["25\n", "36\n"]}}
    check = build_check(Rollout(0, row), opts)
    assert check.style == "stdio" and check.expected == ("9\n", "25\n", "36\n")
    with Grader(ScoreOptions(checks=opts, concurrency=1)) as g:
        o = g.grade([row, {**row, "private_tests": {"input": ["5\n"], "output": ["26\n"]}}])
    assert [x.status for x in o] == ["pass", "fail"]
    assert o[1].case_verdicts == ("AC", "WA")
    with pytest.raises(InvalidRow, match="language"):
        build_check(Rollout(0, {"completion": "x", "tests": [{"input": "", "output": ""}], "language": "cobol"}), OPTS)
    with pytest.raises(InvalidRow, match="tests column 'tests'.*not valid JSON"):
        build_check(Rollout(0, {"completion": "x", "tests": "[{broken"}), OPTS)


# -- stop at first failure vs run all; budgets -------------------------------------------------
def test_run_all_cases_gives_fraction(tmp_path):
    tests = [{"input": "1\n", "output": "1\n"}, {"input": "2\n", "output": "3\n"}, {"input": "3\n", "output": "3\n"}]
    row = {"completion": "print(input())", "tests": tests}
    from rlvr_grade.scoring import RewardConfig

    with Grader(ScoreOptions(checks=OPTS, reward=RewardConfig(shape="fraction"), concurrency=1)) as g:
        stop = g.grade([row])[0]
    all_opts = CheckOptions(test_style="stdio", case_timeout=1.0, run_all=True, limits=Limits(cpu_s=4.0))
    with Grader(ScoreOptions(checks=all_opts, reward=RewardConfig(shape="fraction"), concurrency=1)) as g:
        every = g.grade([row])[0]
    assert stop.case_verdicts == ("AC", "WA", "-") and stop.tests_passed == 1 and stop.reward == pytest.approx(1 / 3)
    assert every.case_verdicts == ("AC", "WA", "AC") and every.tests_passed == 2 and every.reward == pytest.approx(2 / 3)
    assert stop.status == every.status == "fail"


def test_row_budget_stops_slow_cases():
    # Each case burns ~0.4 s of CPU, under the 1 s case limit; the row's 1 s budget runs out.
    slow = "import time\nt=time.process_time()\nwhile time.process_time()-t<0.4: pass\nprint(input())"
    tests = [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(6)]
    opts = CheckOptions(test_style="stdio", case_timeout=1.0, run_all=True, limits=Limits(cpu_s=1.0))
    with Grader(ScoreOptions(checks=opts, concurrency=1)) as g:
        o = g.grade([{"completion": slow, "tests": tests}])[0]
    assert o.status == "timeout", o
    assert "budget" in o.error
    assert o.case_verdicts[:2] == ("AC", "AC") and "TLE" in o.case_verdicts


# -- output validators -----------------------------------------------------------------------------
def test_kattis_output_validator_runs_in_its_own_sandbox():
    v = Validator.from_dir(str(JUDGE / "shout" / "output_validators" / "caseless"))
    assert v.language == "python" and v.main == "validate.py"
    opts = CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=4.0), validator=v)
    subs = submissions("shout")
    with Grader(ScoreOptions(checks=opts, concurrency=2)) as g:
        outs = g.grade([{"completion": src, "tests": cases("shout")} for _, _, src in subs])
    for (folder, _, _), o in zip(subs, outs, strict=True):
        assert o.status == STATUS[folder], (folder, o)
    wa = outs[[f for f, _, _ in subs].index("wrong_answer")]
    assert "any case" in wa.error  # the validator's judgemessage.txt comes back as the reason
    # Without the validator, `lower.py` is a wrong answer under tokens: the validator decided.
    lower = next(src for f, _, src in subs if "lower" in src)
    check = build_check(Rollout(0, {"completion": lower, "tests": cases("shout")}), opts)
    assert "HELLO" not in json.dumps(check.payload().to_wire())  # answers stay out of the candidate's sandbox


def test_validator_verdicts_cannot_be_forged_through_the_channel():
    from rlvr_grade.checks.stdio import compare_output
    from rlvr_grade.scoring.cases import ValidatorResult, case_verdict
    from rlvr_grade.types import TestRecord

    check = build_check(Rollout(0, {"completion": "", "tests": [{"input": "", "output": "x"}]}), OPTS)
    forged = TestRecord("case:0", "passed", "", {"accepted": True})  # what JSON could carry
    assert case_verdict(check, 0, forged, compare_output)[0] == "WA"
    assert case_verdict(check, 0, TestRecord("case:0", "passed", "", ValidatorResult(True)), compare_output)[0] == "AC"


# -- the CLI and the output column ---------------------------------------------------------------
def test_cli_writes_case_verdicts_in_jsonl_and_parquet(tmp_path):
    rows = [
        {"completion": "print(int(input())*2)", "tests": json.dumps([{"input": "2", "output": "4"}, {"input": "3", "output": "6"}])},
        {"completion": "print(5)", "tests": json.dumps([{"input": "2", "output": "4"}, {"input": "3", "output": "6"}])},
        {"completion": "def f():\n    return 1\n", "tests": "assert f() == 1"},
    ]
    src = write_jsonl(tmp_path / "in.jsonl", rows)
    runner = CliRunner()
    for out in (tmp_path / "o.jsonl", tmp_path / "o.parquet"):
        res = runner.invoke(app, ["score", str(src), "-o", str(out), "--quiet", "--case-timeout", "1", "--timeout", "3"])
        assert res.exit_code == 0, res.output
        got = read_jsonl(out) if out.suffix == ".jsonl" else pq.read_table(out).to_pylist()
        assert [r["status"] for r in got] == ["pass", "fail", "pass"]
        assert [r["case_verdicts"] for r in got] == [["AC", "AC"], ["WA", "-"], []]
    schema = pq.read_schema(tmp_path / "o.parquet")
    assert str(schema.field("case_verdicts").type) == "list<element: string>"
    res = runner.invoke(app, ["score", str(src), "-o", str(tmp_path / "x.jsonl"), "--compare", "fuzzy"])
    assert res.exit_code == 2 and "unknown compare mode" in res.output


def test_pack_output_round_trip_and_bomb_cap():
    from rlvr_harness.stdio import pack_output, unpack_output

    big = b"7 " * 100_000
    assert isinstance(pack_output(big), dict) and unpack_output(pack_output(big)) == big.decode()
    assert unpack_output(pack_output(b"ok\n")) == "ok\n"
    assert unpack_output(pack_output(b"0" * (1 << 21)), cap=1 << 20) is None
    assert unpack_output({"z": "!!not base64"}) is None and unpack_output(42) is None


def test_a_broken_validator_is_not_the_candidates_fault(tmp_path):
    (tmp_path / "crash.py").write_text("import sys\nsys.exit(1)\n")
    opts = CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=4.0),
                        validator=Validator.from_dir(str(tmp_path)))
    with Grader(ScoreOptions(checks=opts, concurrency=1)) as g:
        o = g.grade([{"completion": "print(input().upper())", "tests": cases("shout")}])[0]
    assert o.status == "invalid_input" and "output validator failed" in o.error, o
    assert o.case_verdicts[0] == "JE"


def test_verdict_mapping_is_pure_and_first_failure_decides():
    from rlvr_grade.checks.styles import verdict as judge
    from rlvr_grade.types import Execution, TestRecord

    check = build_check(Rollout(0, {"completion": "", "tests": [{"input": "", "output": "1"}] * 3}), OPTS)

    def ex(*recs, limit=None, done=True, phase=None):
        return Execution(0, None, "", "", 0.1, 0.1, 1.0, limit, tuple(TestRecord(*r) for r in recs), done, phase)

    ok = ("case:0", "passed", "", "1\n")
    assert judge(check, ex(ok, ("case:1", "passed", "", "1"), ("case:2", "passed", "", " 1 ")))[0] == "pass"
    assert judge(check, ex(ok, ("case:1", "error", "TLE: x"), ("case:2", "passed", "", "2")))[:2] == ("timeout", 1)
    assert judge(check, ex(ok, ("case:1", "error", "RE: exit code 1")))[0] == "runtime_error"
    assert judge(check, ex(ok, ("case:1", "error", "RE: killed by signal 9"), limit="memory"))[4] == ("AC", "MLE", "-")
    assert judge(check, ex(ok, ("case:1", "passed", "", "2"), ("case:2", "error", "TLE: x")))[0] == "fail"
    assert judge(check, ex(phase=("compile", "boom")))[:1] == ("compile_error",)
    assert judge(check, ex(ok, done=False))[0] == "fail"  # the harness died quietly: not a pass
    assert judge(check, ex(ok, ok, ok))[0] == "fail"  # a duplicate id never stands in for case 1
    forged = ("case:1", "passed", "", {"value": "1"})  # a call-style payload on a stdio case
    assert judge(check, ex(ok, forged, ("case:2", "passed", "", "1")))[0] == "fail"


@pytest.mark.skipif("c" not in AVAILABLE, reason="gcc is not installed")
def test_a_compiled_validator_is_built_once_and_reused(tmp_path):
    from rlvr_grade.scoring import validator

    (tmp_path / "caseless.c").write_text(r'''
#include <stdio.h>
#include <strings.h>
int main(int argc, char **argv) {
    FILE *ans = fopen(argv[2], "r");
    char a[256], t[256];
    while (fscanf(ans, "%255s", a) == 1) {
        if (scanf("%255s", t) != 1 || strcasecmp(a, t) != 0) return 43;
    }
    return scanf("%255s", t) == 1 ? 43 : 42;
}
''')
    v = Validator.from_dir(str(tmp_path))
    assert v.language == "c"
    opts = CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=4.0), validator=v)
    rows = [{"completion": c, "tests": cases("shout")} for c in
            ("print(input().lower())", "print(input()[::-1])", "print(input().upper())", "print('x')")]
    validator._BINARIES.clear()
    with Grader(ScoreOptions(checks=opts, concurrency=1)) as g:
        first = g.grade(rows[:1])
        assert len(validator._BINARIES) == 1  # built by the first row's validator check
        rest = g.grade(rows[1:])  # these use the cached binary
    assert [o.status for o in first + rest] == ["pass", "fail", "pass", "fail"]
