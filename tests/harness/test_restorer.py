"""The pristine restorer (harness/runner.py): what a candidate rebinds in builtins, the harness
and the modules the tests import is put back before the tests and after each step. Untouched
modules are skipped by their dict's version tag, so these tests check that every kind of
change still moves the tag and that a skip never hides a patch."""

from __future__ import annotations

import builtins
import math

import pytest

from rlvr_harness import runner


def test_every_change_to_a_dict_moves_its_version_tag():
    if runner._DICTVER is None:
        pytest.skip("harness/_dictver was not built here: restore() reads every value")

    def version(d):
        return runner._DICTVER.tags((d,))[0]

    d = {"a": 1, "b": 2}
    changes = [
        lambda: d.__setitem__("a", 3),  # a value replaced: the size stays
        lambda: d.__delitem__("b"),
        lambda: d.update({"c": 4}),
        lambda: d.setdefault("e", 5),
        lambda: d.pop("c"),
        lambda: d.popitem(),
        lambda: dict.__init__(d, {"f": 6}),
        lambda: d.clear(),
    ]
    for change in changes:
        before = version(d)
        change()
        assert version(d) != before
    other = {"x": 1}
    tag = version(other)
    d["z"] = 1
    assert version(other) == tag  # another dict's change leaves this one's tag alone


def test_a_restore_that_skipped_still_puts_back_every_later_patch():
    restore = runner.pristine_restorer(["math"])
    real_isclose, real_exec = math.isclose, builtins.exec
    try:
        restore()  # nothing changed: skipped by tag
        math.isclose = lambda *a, **k: True
        restore()
        assert math.isclose is real_isclose
        restore()  # skipped again, with the tag of the restored dict
        math.isclose = lambda *a, **k: True
        vars(builtins).update(exec=lambda *a, **k: None)
        restore()
        assert math.isclose is real_isclose and builtins.exec is real_exec
        del math.isclose
        restore()
        assert math.isclose is real_isclose
    finally:
        math.isclose, builtins.exec = real_isclose, real_exec


def test_a_module_changed_before_the_restorer_was_made_is_put_back_to_its_snapshot():
    # The worker's snapshots carry the tag they were taken at: a module changed after that
    # (in the child, before the restorer) does not match it, so the first restore reads it whole.
    snap = runner._SNAPSHOTS.get("math") or runner._snapshot(math)
    runner._SNAPSHOTS["math"] = snap
    real = math.isclose
    try:
        math.isclose = lambda *a, **k: True
        restore = runner.pristine_restorer(["math"])
        restore()
        assert math.isclose is real
    finally:
        math.isclose = real


def test_classes_sys_modules_and_submodules_the_tests_reach_are_put_back():
    """What the tests reach by name and attribute, not only the dicts of the modules they
    import: a class's methods (`case = unittest.TestCase(); case.assertEqual(...)` looks them
    up in the class at call time), what a name maps to in sys.modules (the tests' own `import
    math` runs after the candidate), the modules of the package (`json.decoder`, which
    json.loads calls into)."""
    import json.decoder
    import sys
    import unittest

    restore = runner.pristine_restorer(["unittest", "json"])
    real_eq, real_scan, real_math = unittest.TestCase.assertEqual, json.decoder.scanstring, sys.modules["math"]
    try:
        unittest.TestCase.assertEqual = lambda *a, **k: None
        unittest.TestCase.assertNothing = lambda *a, **k: None  # added: removed again
        json.decoder.scanstring = None
        sys.modules["math"] = type(sys)("math")
        restore()
        assert unittest.TestCase.assertEqual is real_eq and not hasattr(unittest.TestCase, "assertNothing")
        assert json.decoder.scanstring is real_scan and sys.modules["math"] is real_math
    finally:
        unittest.TestCase.assertEqual, json.decoder.scanstring, sys.modules["math"] = real_eq, real_scan, real_math
        if "assertNothing" in vars(unittest.TestCase):
            del unittest.TestCase.assertNothing


def test_the_submodules_the_tests_name_are_the_tests_own():
    """`np.testing.assert_allclose(...)`: the tests name numpy.testing through an attribute;
    it is imported (and snapshotted) before the candidate, whether or not numpy loads it."""
    import ast

    imports = runner.test_imports(ast.parse("import xml as x\nx.dom.minidom.parseString\nfrom email import message\n"))
    assert {"xml", "xml.dom", "xml.dom.minidom", "xml.dom.minidom.parseString", "email", "email.message"} <= set(imports)
    runner.pristine_restorer(imports)
    import sys

    assert "xml.dom.minidom" in sys.modules and "xml.dom.minidom.parseString" not in sys.modules


@pytest.fixture
def tinyframe(tmp_path, monkeypatch):
    """tinyframe and tinycore (tests/helpers/standin.py, a stand-in for pandas and the numpy
    under it) importable in this process, and forgotten again after the test."""
    import sys

    from tests.helpers import standin

    for rel, text in {**standin.TINYCORE, **standin.TINYFRAME}.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    import tinyframe

    yield tinyframe
    for name in [n for n in sys.modules if n.split(".")[0] in ("tinyframe", "tinycore")]:
        del sys.modules[name]
    for cache in (runner._GUARDED, runner._ENTRIES, runner._CLASSES):
        for key in [k for k in cache if "tiny" in k]:
            del cache[key]
    runner._LIBRARIES.clear()


def test_every_class_and_module_of_the_libraries_the_tests_reach_is_put_back(tinyframe):
    """Issue 15: `df.equals(expected)` runs pandas.core.internals.managers.BaseBlockManager.equals,
    a class of a module no test names, and pandas' comparisons end in numpy's functions,
    another package. The tests name tinyframe only: the classes of every module of it, and the
    modules and classes of every package it reaches (tinycore, its private module too), are
    put back (tests/hacks/library_*.py grade the same through the sandbox)."""
    import tinycore._impl
    import tinyframe.core.managers

    restore = runner.pristine_restorer(["tinyframe"])
    manager, real_equals, real_eq = tinyframe.core.managers.BlockManager, tinyframe.core.managers.BlockManager.equals, tinycore._impl._eq
    try:
        manager.equals = lambda self, other: True
        setattr(manager, "sh" + "ape", property(lambda self: (0,)))  # added: removed again
        tinycore._impl._eq = lambda x, y: True
        restore()
        assert manager.equals is real_equals and "shape" not in vars(manager) and tinycore._impl._eq is real_eq
        assert not tinyframe.Frame([1, 2]).equals(tinyframe.Frame([1, 3]))
    finally:
        manager.equals, tinycore._impl._eq = real_equals, real_eq


def test_a_librarys_own_lazy_state_works_again_after_a_restore(tinyframe):
    """The libraries change their own state as they run (a class attribute made on first
    call, a submodule bound by a module `__getattr__`, a warning's registry): the restorer puts
    that back too, and the library makes it again when the tests use it."""
    restore = runner.pristine_restorer(["tinyframe"])
    with pytest.warns(UserWarning, match="builds its cache"):
        assert tinyframe.Frame([1, 2]).summary() == (2, 3) and tinyframe.plotting.kind() == "line"
    restore()
    assert "_summary_cache" not in vars(tinyframe.Frame)
    with pytest.warns(UserWarning, match="builds its cache"):  # made again, by the library
        assert tinyframe.Frame([1, 2]).summary() == (2, 3) and tinyframe.plotting.kind() == "line"


def test_pandas_block_manager_and_what_it_reaches_in_numpy_are_put_back():
    """The hack of issue 15 on real pandas (where this interpreter has it): a wrong DataFrame
    passed `df.equals(expected)` with BaseBlockManager.equals replaced."""
    pd = pytest.importorskip("pandas", reason="pandas is not installed here (not a dev dependency)")
    import numpy._core.numeric as numeric
    import pandas.core.internals.managers as managers

    restore = runner.pristine_restorer(["pandas"])
    real_equals, real_builtins = managers.BaseBlockManager.equals, numeric.builtins
    try:
        managers.BaseBlockManager.equals = lambda self, other: True
        numeric.builtins = None  # numpy is reached through pandas, not named by the tests
        restore()
        assert managers.BaseBlockManager.equals is real_equals and numeric.builtins is real_builtins
        assert not pd.DataFrame({"a": [0, 0]}).equals(pd.DataFrame({"a": [0, 1]}))
    finally:
        managers.BaseBlockManager.equals, numeric.builtins = real_equals, real_builtins


def test_a_class_stands_for_its_own_namespace_in_version_tags():
    """The runner's fingerprint skips a class nobody touched by the tag of its namespace dict,
    read through the class (it never holds the writable dict vars() only shows by proxy)."""
    if runner._DICTVER is None:
        pytest.skip("harness/_dictver was not built here: the fingerprint reads every value")

    class Patched:
        def method(self):
            return 1

    def version():
        return runner._DICTVER.tags((Patched,))[0]

    changes = [
        lambda: setattr(Patched, "method", lambda self: 2),
        lambda: setattr(Patched, "extra", 1),
        lambda: delattr(Patched, "extra"),
    ]
    for change in changes:
        before = version()
        change()
        assert version() != before
    tag = version()
    Patched().attr = 1  # an instance's own dict is not the class's
    assert version() == tag
    Patched.method = Patched.method  # the very same value: nothing to compare, the tag may stay
    assert runner._DICTVER.changed((Patched, {}), [tag, None]) == [1]


def test_the_fingerprint_from_the_workers_base_still_finds_every_later_patch(monkeypatch):
    """What changed between the worker's base and the check is the harness's (taken again, not
    reported); what changes after the fingerprint is taken is reported, in a module or a class,
    the same value set again excepted."""
    runner.prepare_fingerprint()
    try:
        monkeypatch.setattr(runner, "pytest_args", lambda testfile, testdir: [])  # before: the harness's
        changes = runner._fingerprinter()
        assert changes() == []
        monkeypatch.setattr(runner, "pytest_args", lambda testfile, testdir: ["-x"])
        monkeypatch.setattr(runner._NoGuard, "arm", lambda self: None)
        monkeypatch.setattr(runner, "_watched_modules", runner._watched_modules)  # the same value
        assert sorted(changes()) == ["rlvr_harness.runner._NoGuard.arm", "rlvr_harness.runner.pytest_args"]
    finally:
        runner._FP_BASE.clear()


def test_what_the_tests_libraries_hold_changed_in_place_is_put_back():
    """Red team rt15: the module's dict still holds the same object when the candidate changes
    that object in place (a dispatch table, a list, an instance's attributes or class, an ABC's
    metaclass, the import machinery's lists). Each is put back; what a program adds for itself
    (an appended sys.path folder, a copyreg entry for its own class) stays."""
    import abc
    import calendar
    import copy
    import copyreg
    import json
    import numbers
    import sys

    restore = runner.pristine_restorer(["calendar", "copy", "json", "numbers", "copyreg"])
    mdays, dispatch, meta_path = list(calendar.mdays), dict(copy._deepcopy_dispatch), list(sys.meta_path)
    path, pickles = list(sys.path), dict(copyreg.dispatch_table)

    class Yes(abc.ABCMeta):
        def __instancecheck__(cls, obj):
            return True

    class Encoder(json.JSONEncoder):
        def encode(self, o):
            return "0"

    Own = type("Own", (), {"__module__": "solution"})  # a class of the program's module (imported after the snapshot)
    assert "solution" not in sys.modules
    finder, folder = object(), "/nonexistent-own-folder"
    try:
        calendar.mdays[2] = 30
        copy._deepcopy_dispatch[list] = lambda x, memo, deepcopy=None: x  # an entry replaced
        copy._deepcopy_dispatch[bytearray] = lambda x, memo, deepcopy=None: x  # one added for a builtin type
        copyreg.dispatch_table[Own] = lambda o: (Own, ())  # the program's own class: stays
        json._default_decoder.decode = lambda s, *a, **k: 0  # shadows the class's method
        json._default_encoder.__class__ = Encoder
        numbers.Integral.__class__ = Yes
        sys.meta_path.insert(0, finder)
        sys.path.insert(0, folder)
        restore()
        assert calendar.monthrange(2023, 2)[1] == 28 and calendar.mdays == mdays
        xs, raw = [1], bytearray(b"a")
        assert copy.deepcopy(xs) is not xs and copy.deepcopy(raw) is not raw
        assert json.loads("2") == 2 and json.dumps(2) == "2" and "decode" not in vars(json._default_decoder)
        assert not isinstance("x", numbers.Integral) and type(numbers.Integral) is abc.ABCMeta
        # put first, they no longer decide first; they are not taken away from the program
        assert sys.meta_path[:len(meta_path)] == meta_path and sys.meta_path[-1] is finder
        assert sys.path[:len(path)] == path and sys.path[-1] == folder
        assert copyreg.dispatch_table.get(Own) is not None
    finally:
        calendar.mdays[:] = mdays
        copy._deepcopy_dispatch.clear()
        copy._deepcopy_dispatch.update(dispatch)
        copyreg.dispatch_table.clear()
        copyreg.dispatch_table.update(pickles)
        vars(json._default_decoder).pop("decode", None)
        json._default_encoder.__class__ = json.JSONEncoder
        if type(numbers.Integral) is Yes:
            numbers.Integral.__class__ = abc.ABCMeta
        sys.meta_path[:] = meta_path
        sys.path[:] = path


def test_held_changes_are_found_by_identity_in_c():
    """_dictver.held: a list or set with another object or order, a bytearray with other bytes,
    an object with another class or another dict: changed; nothing else."""
    if runner._DICTVER is None or not hasattr(runner._DICTVER, "held"):
        pytest.skip("harness/_dictver was not built here: restore() compares in Python")
    held = runner._DICTVER.held

    class A:
        pass

    class B(A):
        pass

    a, items, bag, raw = A(), [1, "x"], {1, 2}, bytearray(b"ab")
    a.x = 1
    seqs = ((items, tuple(items)), (bag, tuple(bag)), (raw, bytes(raw)))
    idents = ((a, A, vars(a)), (A, type, None))
    assert held(seqs, idents) == ([], [])
    items[0], bag_before = 2, set(bag)
    bag.add(3)
    raw[0] = 0
    a.__class__ = B
    assert held(seqs, idents) == ([0, 1, 2], [0])
    a.__class__ = A
    a.__dict__ = {"x": 1}  # an equal dict is another object
    assert held(seqs, idents)[1] == [0]
    assert bag_before == {1, 2}


def test_a_module_reached_by_name_not_by_attribute_is_put_back():
    """datetime.strptime imports _strptime in C and calls its function: no module the tests
    import holds _strptime as an attribute. Every module loaded before the candidate is put
    back by name (red team rt15, module_reached_by_name_patched)."""
    import _strptime
    import datetime

    restore = runner.pristine_restorer(["datetime"])
    real = _strptime._strptime_datetime
    try:
        _strptime._strptime_datetime = lambda cls, s, fmt="": cls(2000, 1, 1)
        restore()
        assert _strptime._strptime_datetime is real
        assert datetime.datetime.strptime("2024-03-02", "%Y-%m-%d") == datetime.datetime(2024, 3, 2)
    finally:
        _strptime._strptime_datetime = real


def test_a_module_the_tests_import_and_the_environment_lacks_stays_missing():
    """Red team rt15: the tests' `import sympy` had no sympy to find, and the program put one of
    its own in sys.modules (or sympy.py beside itself). A module the tests import that fails to
    import before the candidate is held absent (None in sys.modules) at every restore."""
    import sys
    import types

    name = "rlvr_module_nobody_has"
    restore = runner.pristine_restorer([name])
    try:
        sys.modules[name] = types.ModuleType(name)
        restore()
        with pytest.raises(ModuleNotFoundError):
            __import__(name)
    finally:
        sys.modules.pop(name, None)


def test_what_the_tests_set_themselves_stays_in_every_module_loaded_before():
    """adopt() makes the tests' own setting the one to put back, in the modules the tests
    import and in every module loaded before the candidate (LOADED holds sys too)."""
    import sys

    restore, adopt = runner.restorer(["math"])
    argv = sys.argv
    try:
        sys.argv = ["tests-own"]
        adopt(vars(sys), ("argv",))
        restore()
        assert sys.argv == ["tests-own"]
        sys.argv = ["candidate"]
        restore()
        assert sys.argv == ["tests-own"]
    finally:
        sys.argv = argv


_PREBUILT_CHECK = r'''
import builtins, math, sys, traceback
from rlvr_harness import runner, strict

runner.snapshot_common()  # what the warm worker does once, before it forks any check
assert "restorer" in runner._PREBUILT, "the worker did not assemble the restorer's common part"
runner._TAKEN.update(runner._PREBUILT)  # what runner.run() does first in a check's child
runner._PREBUILT.clear()
restore, adopt = runner.restorer(["math"])
assert "restorer" not in runner._TAKEN  # taken once: a second restorer assembles its own
real = (builtins.exec, math.isclose, runner.run_asserts, strict.__dict__.get("link"), sys.modules["math"])
owner = traceback.TracebackException
assert owner in runner._classes("traceback")
builtins.exec = lambda *a, **k: None
math.isclose = lambda *a, **k: True
runner.run_asserts = lambda *a, **k: None
strict.link = None
sys.modules["math"] = type(sys)("math")
type.__setattr__(owner, "__rlvr_planted__", 1)
restore()
now = (builtins.exec, math.isclose, runner.run_asserts, strict.__dict__.get("link"), sys.modules["math"])
assert all(a is b for a, b in zip(real, now)), now
assert "__rlvr_planted__" not in vars(owner)
print("ok")
'''


def test_a_check_takes_the_restorers_common_part_from_the_worker_and_it_still_puts_back():
    """The worker assembles the restorer's entries for builtins, the harness and traceback once
    (gathering them in every check's child copied ~280 pages); a check takes that part and
    restore() still puts back builtins, the harness's and strict's globals, a class of
    traceback, sys.modules and the tests' module. Own interpreter: snapshot_common installs the guard."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _PREBUILT_CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_new_keys_names_what_a_dict_holds_beyond_a_set_in_its_order():
    """_dictver.new_keys: the restorer's and the fingerprint's question "which modules were
    imported since the worker's snapshot", read in C without touching every name."""
    if runner._DICTVER is None or not hasattr(runner._DICTVER, "new_keys"):
        pytest.skip("harness/_dictver was not built here")
    new_keys = runner._DICTVER.new_keys
    d = {"a": 1, "b": 2, 3: "c", "d": 4}
    assert new_keys(d, frozenset({"b"})) == ["a", 3, "d"]
    assert new_keys(d, {"a", "b", 3, "d"}) == []
    assert new_keys({}, frozenset()) == []
    with pytest.raises(TypeError):
        new_keys(d, ["a"])
    with pytest.raises(TypeError):
        new_keys(list(d), frozenset())


_NEW_SINCE_CHECK = r'''
import sys
from rlvr_harness import runner

runner.snapshot_common()  # the warm worker, once
assert "loaded" in runner._PREBUILT, "the worker made no list of LOADED's tags for a check to take"
runner._TAKEN.update(runner._PREBUILT)  # a check's child (runner.run)
runner._PREBUILT.clear()
assert "colorsys" not in sys.modules
gone = next(n for n in runner._LOADED_NAMES[0] if n in sys.modules and n.startswith("encodings."))
size = len(sys.modules)
del sys.modules[gone]  # one module leaves sys.modules, one comes in: as many names as the worker's
import colorsys
assert len(sys.modules) == size
restore, adopt = runner.restorer([])
assert "loaded" not in runner._TAKEN  # taken once: a second restorer copies its own
real = colorsys.rgb_to_hsv
colorsys.rgb_to_hsv = lambda *a: (0, 0, 0)
restore()
assert colorsys.rgb_to_hsv is real, "a module imported since the worker's snapshot was not put back"
print("ok")
'''


def test_a_module_imported_since_the_workers_snapshot_is_put_back_whatever_else_left():
    """A module imported in the check before the candidate (the tests' own, just now) is put
    back by name like every module the worker loaded, found by name (_dictver.new_keys), not by
    sys.modules' size: with one module gone and one new, the size said nothing was new. The
    check takes the worker's list of LOADED's tags instead of copying them (each tag an int on
    a page the child copied). Own interpreter: snapshot_common installs the guard."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _NEW_SINCE_CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


_FP_CHECK = r'''
import sys
import pytest
from rlvr_harness import runner

runner.prepare_fingerprint()  # the pytest-warm worker, once
base = runner._FP_BASE[0]
assert all(type(part) in (tuple, frozenset) for part in base[:6]), [type(p) for p in base]
mark = pytest.mark
mark.__dict__["rlvr_harness_set"] = 1  # the harness's own change before the fingerprint: taken again
changes = runner._fingerprinter()
parts = dict(zip(changes.__code__.co_freevars, changes.__closure__))["parts"].cell_contents
assert parts[0][0] is base[2] and parts[0][1] is base[3], "the check rebuilt the worker's holders and entries"
assert changes() == []
type(mark).__call__ = type(mark).__call__
mark.parametrize = lambda *a, **k: None
found = changes()
assert len(found) == 1 and found[0].endswith("MARK_GEN.parametrize"), found
print("ok")
'''


def test_a_checks_fingerprint_holds_the_workers_tuples_and_still_finds_every_later_patch():
    """The fingerprint's ~430 namespaces (their holders, entries and tags) and pytest's
    instances come whole from the worker (built per check they copied ~550 pages into every
    pytest check's child); what the harness changed since is taken again, what changes after
    the fingerprint is reported: a patch on pytest's MarkGenerator instance included."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _FP_CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


_ONE_RESTORER_CHECK = r'''
import os, sys, tempfile
from rlvr_grade.sandbox import zygote
from rlvr_harness import runner
from rlvr_harness.wire import CheckPayload

zygote.warm_up(True)  # a pytest-warm worker
made = []
real = runner.restorer
def counting(*a, **k):
    made.append(a)
    return real(*a, **k)
runner.restorer = counting
payload = CheckPayload(style="pytest", program="def add(a, b):\n    return a + b\n",
                       tests="from solution import *\n\ndef test_add():\n    assert add(1, 2) == 3\n")
work, tests = tempfile.mkdtemp(), tempfile.mkdtemp()
zygote.write_files(payload, work, tests)
os.chdir(work)
r, w = os.pipe()
null = os.open(os.devnull, os.O_WRONLY)
os.dup2(null, 1)
zygote.run_harness(payload, "n" * 32, w, work, tests)
os.close(w)
said = os.read(r, 1 << 20).decode()
sys.stderr.write(said)
assert '"outcome":"passed"' in said.replace(" ", ""), said
assert len(made) == 1, f"{len(made)} restorers made for one pytest check"
os.write(2, b"ok\n")
'''


def test_a_pytest_check_makes_one_restorer():
    """run_pytest restores after importing the program with the restorer its recorder uses; a
    second one gathered every entry again (~1.5 ms and ~70 copied pages a check)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _ONE_RESTORER_CHECK], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr.strip().endswith("ok"), out.stderr[-2000:]


def test_a_check_pass_says_what_restore_would_put_back_and_changes_nothing():
    """restore(_check=True), the fence's question before a call into the program (strict.FENCE):
    True where restore() would put something back, False where it would not (sys' streams
    aside, which the fence keeps as they are; a list's appended item, which restore() keeps);
    it changes nothing either way."""
    import calendar
    import io
    import sys

    restore = runner.pristine_restorer(["calendar", "math"])
    real_isclose, mdays, stdout, path = math.isclose, list(calendar.mdays), sys.stdout, list(sys.path)
    try:
        restore()
        assert restore(_check=True) is False
        sys.stdout = io.StringIO()  # pytest's capture, the tests' own redirection
        sys.path.append("/nonexistent-own-folder")  # kept by restore(): nothing to put back
        assert restore(_check=True) is False
        math.isclose = lambda *a, **k: True
        assert restore(_check=True) is True and math.isclose is not real_isclose
        restore()
        assert restore(_check=True) is False
        calendar.mdays[2] = 30
        assert restore(_check=True) is True and calendar.mdays[2] == 30
        restore()
        sys.path.insert(0, "/nonexistent-first-folder")  # put first: restore() moves it after
        assert restore(_check=True) is True
    finally:
        math.isclose, sys.stdout = real_isclose, stdout
        calendar.mdays[:] = mdays
        sys.path[:] = path
