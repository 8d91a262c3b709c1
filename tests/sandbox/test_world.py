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
    assert pairs, envs.read_note(env, "world")
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
