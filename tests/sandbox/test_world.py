"""The base interpreter a check is shown at /python (sandbox/world.py), whichever Python
this machine has: the grader's own (pyenv's here, a python image's /usr/local/bin/python3.X in
CI) and a distribution's /usr/bin/python3.X where there is one (prefix /usr: libc and friends
are under the prefix too, found by the system's search, and stay where they are)."""

from __future__ import annotations

import dataclasses
import functools
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from rlvr_grade.sandbox import world
from rlvr_grade.sandbox.world import enter_world, interpreter_world
from rlvr_harness.files import ENV_AT, PYTHON_AT


def _interpreters() -> list[str]:
    own = os.path.realpath(getattr(sys, "_base_executable", "") or sys.executable)
    others = {os.path.realpath(p) for p in glob.glob("/usr/bin/python3.*") + glob.glob("/usr/local/bin/python3.*")
              if re.fullmatch(r"python3\.\d+", os.path.basename(p))}
    return [own, *sorted(others - {own})]


_FACTS = """
import json, os, subprocess, sys, sysconfig
hidden = [h.encode() for h in json.loads(sys.argv[1])]
named = []
for dirpath, dirnames, filenames in os.walk("/python"):
    for name in filenames:
        path = os.path.join(dirpath, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as fh:
                data = fh.read()
            named += [path + ": " + h.decode() for h in hidden if h in data]
child = subprocess.run([sys.executable, "-c", "import sys; print(sys.base_prefix)"], capture_output=True, text=True)
import platform
print(json.dumps({"version": sys.version, "implementation": platform.python_implementation(), "base_prefix": sys.base_prefix, "os": os.__file__, "exe": os.readlink("/proc/self/exe"),
                  "stdlib": sysconfig.get_paths()["stdlib"], "base_executable": sys._base_executable,
                  "maps": sorted({l.split()[-1] for l in open("/proc/self/maps") if "/" in l}),
                  "child": child.stdout.strip() or child.stderr[-500:], "named": named,
                  "config": sorted({k for k, v in sysconfig.get_config_vars().items() if any(h.decode() in str(v) for h in hidden)})}))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="a seed's world needs root here")
@pytest.mark.parametrize("python", _interpreters(), ids=lambda p: "own" if p == _interpreters()[0] else os.path.basename(p))
def test_a_check_sees_its_base_interpreter_at_python_whatever_the_install(python, tmp_path):
    from rlvr_grade import envs

    facts = subprocess.run([python, "-I", "-c", "import json, os, sys, sysconfig; print(json.dumps([os.path.realpath("
                            "sys.base_prefix), os.path.realpath(sysconfig.get_paths()['stdlib'])]))"],
                           capture_output=True, text=True, check=True)
    prefix, stdlib = json.loads(facts.stdout)
    version = subprocess.run([python, "-I", "-c", "import sys; print(sys.version)"], capture_output=True, text=True, check=True).stdout.strip()
    env_path = tmp_path / ("0" * 64)
    made = subprocess.run([python, "-m", "venv", "--without-pip", str(env_path / "venv")], capture_output=True, text=True)
    if made.returncode != 0:
        if python == _interpreters()[0]:
            pytest.fail(made.stderr[-1000:])
        pytest.skip(f"{python} cannot make a venv here: {made.stderr.strip()[-200:]}")
    env = dataclasses.replace(envs.default_environment(), id="0" * 64, path=str(env_path),
                              interpreter=str(env_path / "venv" / "bin" / "python"), base_interpreter=python)
    pairs = interpreter_world(env)
    assert pairs, envs.read_note(env, world.note_name())
    assert interpreter_world(env) == pairs  # made once: the second call reads world.json
    shown = [(ENV_AT, str(env_path / "venv")), *pairs]
    hidden = [stdlib, os.path.realpath(python)] + ([prefix] if prefix not in ("/usr", "/usr/local") else [])
    out = subprocess.run([os.path.join(ENV_AT, "bin", "python"), "-c", _FACTS, json.dumps(hidden)], capture_output=True, text=True, cwd="/",
                         timeout=60, preexec_fn=functools.partial(enter_world, shown, (ENV_AT, PYTHON_AT)))
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout)
    assert seen["base_prefix"] == PYTHON_AT == seen["child"], seen
    # The rewritten libpython still says what it is: its version string shares bytes with the
    # compiled prefix (the linker merges a string into another's tail), and platform parses it.
    assert seen["version"] == version and seen["implementation"] == "CPython", (seen["version"], version)
    for key in ("os", "exe", "stdlib", "base_executable"):
        assert seen[key].startswith(PYTHON_AT + "/"), (key, seen)
    # Nothing the process maps is the install's own (its binary, libpython beside it, its stdlib's
    # extension modules), unless the install is the system's (/usr, /usr/local: its libraries
    # are the system's, found by ld.so.cache and shown at their names like libc).
    assert not [m for m in seen["maps"] for h in hidden if m == h or m.startswith(h + "/")], (hidden, seen["maps"])
    # Nor does any file shown there name it in its bytes (issue 16): the sysconfig data
    # (prefix, LIBDIR, CONFIG_ARGS...) rewritten, the stdlib's bytecode compiled under its
    # /python name, lib-dynload's RUNPATHs and libpython's own (and its compiled prefix) rewritten.
    assert seen["named"] == [] and seen["config"] == [], (seen["named"][:10], seen["config"])


# Reads what a seed's world shows of the stdlib after the world was made again: modules no seed
# imported before (their files under /python/lib/python3.X), and a new interpreter started from
# /python/bin (libpython, lib-dynload).
_READS_THE_WORLD = '''
import subprocess, sys
import tomllib, fractions, statistics, wave, zipapp
child = subprocess.run([sys.executable, "-c", "import decimal, csv; print(decimal.Decimal(1) + 1)"], capture_output=True, text=True)
def f():
    return child.stdout.strip() + "/" + str(fractions.Fraction(1, 2))
'''


@pytest.mark.skipif(os.geteuid() != 0, reason="a seed's world needs root here")
def test_a_seed_keeps_its_world_while_another_version_makes_one(monkeypatch):
    """Two grader versions on one machine (their made_by differs): the second makes its world of
    the environment beside the first's, never in place, so a running seed of the first keeps
    the files it bound (before: the world was removed and made again under it, and a CI run
    broke with "the seed worker failed: Connection reset by peer"). A world no process holds is
    swept when another is made; one held is kept."""
    from rlvr_grade import envs
    from rlvr_grade.checks.styles import score
    from rlvr_grade.sandbox.local import LocalBackend
    from rlvr_grade.scoring import RewardConfig
    from rlvr_grade.types import Check, Limits
    from rlvr_harness.splitting import assert_ids
    from rlvr_harness.wire import SuiteOptions

    env = envs.default_environment()
    for name in os.listdir(env.path):  # the session's world is linked in: this test makes its own
        if name.startswith(world.WORLD):
            os.unlink(os.path.join(env.path, name))
    assert interpreter_world(env)
    mine = [n for n in os.listdir(env.path) if n.startswith(world.note_name() + ".") and os.path.isdir(os.path.join(env.path, n))]
    assert len(mine) == 1, mine
    tests = "assert f() == '2/1/2'\n"
    check = Check(style="asserts", program=_READS_THE_WORLD, tests=tests, expected_tests=tuple(assert_ids(tests)),
                  limits=Limits(cpu_s=10.0, wall_s=60.0, memory_mb=256), options=SuiteOptions(guard=False))
    backend = LocalBackend(concurrency=1)
    backend.start()
    try:
        assert backend._world("").interpreter and backend._world("").fixed_names
        ex = backend.run(check)
        assert score(check, ex, RewardConfig(), 0.0).reward == 1.0, (ex.stdout[-800:], ex.stderr[-1500:])
        # A world of a version that held no lock on it (left alone) and one of a later version
        # nobody holds any more (swept).
        os.makedirs(os.path.join(env.path, world.WORLD, "python"))
        os.makedirs(os.path.join(env.path, "world-99.deadbeef", "python"))
        monkeypatch.setattr(world, "_MADE_BY", world._MADE_BY + 1)
        assert interpreter_world(env)  # the other version's world, made while the seed runs
        assert os.path.isdir(os.path.join(env.path, mine[0])), "a world a running seed holds was removed"
        assert not os.path.exists(os.path.join(env.path, "world-99.deadbeef")), "a world nobody holds was kept"
        assert os.path.isdir(os.path.join(env.path, world.WORLD)), "an older version's world was removed"
        ex = backend.run(check)
        out = score(check, ex, RewardConfig(), 0.0)
        assert (out.status, out.reward) == ("pass", 1.0), (out, ex.stdout[-800:], ex.stderr[-1500:])
    finally:
        backend.close()
