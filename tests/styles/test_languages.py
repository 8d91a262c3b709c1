"""Languages: names and aliases, toolchain detection, Java's class name, per-language limit
adjustments, and compilation kept apart from the run budget."""

from __future__ import annotations

import sys

import pytest

from rlvr_grade.api import Grader, ScoreOptions
from rlvr_grade.checks import CheckOptions, InvalidRow, build_check
from rlvr_grade.types import Limits, Rollout
from rlvr_harness import languages
from tests.conftest import requires_root

TESTS = [{"input": "2\n", "output": "4\n"}]


def test_names_and_aliases():
    assert languages.normalize("C++") == "cpp" and languages.normalize("js") == "javascript"
    assert languages.normalize("Python3") == "python" and languages.normalize("java") == "java"
    with pytest.raises(ValueError, match="unknown language 'cobol'"):
        languages.normalize("cobol")


def test_available_lists_every_language_with_its_tool():
    avail = languages.available()
    assert set(avail) == {"python", "c", "cpp", "java", "javascript"}
    assert avail["python"] == sys.executable
    for name, path in avail.items():
        assert path is None or path.startswith("/"), (name, path)
    lines = languages.describe()
    assert len(lines) == 5 and any(line.startswith("python") for line in lines)


def test_java_main_class():
    assert languages.java_main_class("import x;\npublic class Hello {\n public static void main(String[] a){}}") == "Hello"
    assert languages.java_main_class("class Helper {}\nclass Main2 {\n  public static void main(String[] a) {}\n}") == "Main2"
    assert languages.java_main_class("int x;") == "Main"


def test_per_language_limits_and_compile_allowance():
    opts = CheckOptions(test_style="stdio", case_timeout=1.0, limits=Limits(cpu_s=3.0, memory_mb=256, processes=32))
    py = build_check(Rollout(0, {"completion": "print(1)", "tests": TESTS}), opts)
    java = build_check(Rollout(0, {"completion": "class A{}", "tests": TESTS, "language": "java"}), opts)
    c = build_check(Rollout(0, {"completion": "int main(){}", "tests": TESTS, "language": "c"}), opts)
    assert py.limits.memory_mb == 256 and py.limits.processes == 32
    assert java.limits.processes == 32 + languages.LANGUAGES["java"].extra_processes
    assert java.limits.memory_mb >= 256 + languages.LANGUAGES["java"].extra_memory_mb
    assert java.options.case_cpu_s == 1.0 + languages.LANGUAGES["java"].extra_cpu_s
    # The run budget is the user's; compiling gets its own allowance on top of the check's cap.
    assert c.options.budget_cpu_s == 3.0
    assert c.limits.cpu_s >= 3.0 + languages.COMPILE_CPU_S
    assert py.options.memory_mb == 256  # the per-run cap the harness applies
    with pytest.raises(InvalidRow, match="call-style tests run Python only"):
        build_check(Rollout(0, {"completion": "x", "tests": [{"args": [1], "output": 1}], "fn_name": "f", "language": "c"}), CheckOptions())


@requires_root
@pytest.mark.skipif(not languages.available()["cpp"], reason="g++ is not installed")
def test_compile_time_does_not_count_against_the_run_budget():
    # g++ needs far more than 0.3 s of CPU for <iostream>; the program itself needs ~nothing.
    src = "#include <iostream>\n#include <map>\nint main(){int x; std::cin >> x; std::cout << x * 2 << '\\n';}"
    opts = CheckOptions(test_style="stdio", limits=Limits(cpu_s=0.3))
    with Grader(ScoreOptions(checks=opts, concurrency=1)) as g:
        o = g.grade([{"completion": src, "tests": TESTS, "language": "cpp"}])[0]
    assert o.status == "pass", o
