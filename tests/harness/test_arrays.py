"""Issue 15, raw memory where numpy is loaded: every route numpy offers from an object's array
interface to memory no genuine array or bytes object owns is refused once the check is armed
(rlvr_harness/arrays.py, _arrays.c), and numpy's honest strided views keep working. Runs in a
child interpreter: arming patches that process's extension modules for good."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT, requires_root


def _needs_patchable_numpy() -> None:
    """Skips where the test cannot mean anything: no numpy, no _arrays built, or a platform
    whose extension tables _arrays cannot patch."""
    pytest.importorskip("numpy", reason="numpy is not installed here")
    try:
        from rlvr_harness import _arrays
    except ImportError:
        pytest.skip("rlvr_harness/_arrays was not built here")
    if not _arrays.supported():
        pytest.skip("this platform's extension tables cannot be patched")

PROBE = r'''
import sys
import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view
from numpy.lib._stride_tricks_impl import DummyArray
from rlvr_harness import arrays
from rlvr_harness.guard import library_prefixes

ARM = sys.argv[1] == "arm"
if ARM:
    assert arrays.arm(library_prefixes()) is None

secret = "".join(["sec", "ret!"])
where = id(secret) + sys.getsizeof("") - 1
x = np.zeros(4, dtype=np.uint8)
start = x.__array_interface__["data"][0]


class Raw:
    pass


def interface(data, **more):
    r = Raw()
    r.__array_interface__ = {"shape": (4,), "typestr": "|u1", "data": data, "version": 3, **more}
    return r


def fn():
    pass


fn.__array_interface__ = {"shape": (4,), "typestr": "|u1", "data": (where, False), "version": 3}
ba = bytearray(4)
attacks = {
    "address": lambda: np.asarray(interface((where, False))),
    "address on a function": lambda: np.asarray(fn),
    "address through a ufunc": lambda: np.add(interface((where, False)), 0),
    "as_strided past the buffer": lambda: as_strided(x, shape=(2,), strides=(where - start,)),
    "DummyArray naming another address": lambda: np.asarray(DummyArray(
        {"shape": (4,), "typestr": "|u1", "data": (where, False), "version": 3}, base=x)),
    "bytes with an offset": lambda: np.asarray(interface(b"abcd", offset=where - id(b"abcd"))),
    "bytearray": lambda: np.asarray(interface(ba)),
    "objects over numbers": lambda: np.asarray(DummyArray(
        {"shape": (1,), "typestr": "|O", "data": (start, False), "version": 3}, base=np.zeros(1))),
    "__array_struct__": lambda: np.asarray(type("S", (), {"__array_struct__": x.__array_struct__})()),
}
opened = []
for name, attack in attacks.items():
    try:
        attack()
        opened.append(name)
    except TypeError as e:
        assert "refused by the grader" in str(e), (name, e)
y = np.arange(8.0)
fortran = np.asfortranarray(y.reshape(2, 4))
image = type("Image", (), {"__array_interface__": {"shape": (2,), "typestr": "|u1", "data": b"\x01\x02", "version": 3}})
honest = [
    as_strided(y, shape=(7, 2), strides=(8, 8))[1].tolist() == [1.0, 2.0],
    sliding_window_view(y, 3).sum(axis=1).tolist()[:2] == [3.0, 6.0],
    as_strided(as_strided(y, shape=(4,), strides=(16,)), shape=(2,), strides=(32,)).tolist() == [0.0, 4.0],
    as_strided(fortran, shape=(2,), strides=(8,)).tolist() == [0.0, 4.0],
    as_strided(y, shape=(0, 3), strides=(8, 8)).shape == (0, 3),
    as_strided(y, shape=(2,), strides=(8,), writeable=False).flags.writeable is False,
    np.asarray(image()).tolist() == [1, 2],
    np.broadcast_to(y, (2, 8)).sum() == 56.0,
]
print(sorted(opened), [bool(v) for v in honest])
'''


def _run(mode: str) -> tuple[list[str], list[bool]]:
    out = subprocess.run([sys.executable, "-c", PROBE, mode], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    opened, honest = out.stdout.strip().split("] ", 1)
    return eval(opened + "]"), eval(honest)  # noqa: S307 - our own probe's repr


def test_array_interface_routes_to_foreign_memory_are_refused_and_strided_views_work():
    _needs_patchable_numpy()
    opened, honest = _run("plain")
    # Without the check numpy takes every one of these (the test would pass vacuously otherwise).
    assert len(opened) >= 7, opened
    opened, honest = _run("arm")
    assert opened == [], opened
    assert all(honest), honest


def test_the_isolation_report_says_when_numpy_is_loaded_and_its_interface_unchecked(monkeypatch):
    """Where _arrays is not built (no compiler) or cannot patch this platform, the seed's
    native_memory_warning says numpy's array interface is open, as it does for ctypes."""
    pytest.importorskip("numpy", reason="numpy is not installed here")
    from rlvr_grade.sandbox import zygote
    from rlvr_harness import arrays

    monkeypatch.setattr(arrays, "why_unchecked", lambda: "rlvr_harness/_arrays was not built")
    assert "numpy's array interface is not checked (rlvr_harness/_arrays was not built)" in zygote.native_memory_warning()
    monkeypatch.setattr(arrays, "why_unchecked", lambda: None)
    assert "array interface" not in zygote.native_memory_warning()


def test_a_genuine_arrays_own_interface_is_what_a_library_reading_it_gets():
    """A C extension that reads an ndarray's __array_interface__ (through the patched lookup)
    gets the array's own, from ndarray's getter: not refused, and not a subclass's claim."""
    np = pytest.importorskip("numpy", reason="numpy is not installed here")
    from rlvr_harness import arrays

    check = arrays.make_check()
    x = np.arange(4.0)

    class Claims(np.ndarray):
        @property
        def __array_interface__(self):
            return {"shape": (1 << 20,), "typestr": "|u1", "data": (8, False), "version": 3}

    y = x.view(Claims)
    assert check(x, "__array_interface__", {"bogus": 1}) == x.__array_interface__
    assert check(y, "__array_interface__", y.__array_interface__)["data"] == x.__array_interface__["data"]
    with pytest.raises(TypeError, match="refused by the grader"):
        check(object(), "__array_interface__", y.__array_interface__)


_USE_AFTER_FREE = ("numpy_resize_refcheck_false_use_after_free", "numpy_frombuffer_base_released_use_after_free",
                   "numpy_setstate_frees_under_a_view")
_FIDELITY_TESTS = {
    "asserts": "assert f(1) == 2\nassert f(41) == 42\n",
    "humaneval": "def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(41) == 42\n\n\ncheck(f)\n",
}


@requires_root
def test_numpys_own_methods_leave_no_array_on_freed_memory(numpy_env):
    """Issue 15 (s15c's open routes): resize(refcheck=False) with a view alive, a released base
    memoryview of np.frombuffer(bytearray), __setstate__ on an array with views each left an array
    on freed memory, from which a program rewrote the harness's "failed" to "passed" (1.0 under
    the asserts and HumanEval styles). _arrays.c seals the three; honest resize, pickling and
    buffers still pass."""
    from rlvr_grade.api import Grader, ScoreOptions
    from rlvr_grade.checks import CheckOptions
    from rlvr_grade.types import Limits

    hacks = ROOT / "tests" / "hacks"
    rows = [{"name": name, "completion": (hacks / f"{name}.py").read_text(), "tests": tests}
            for name in (*_USE_AFTER_FREE, "honest/numpy_resize_pickle_and_buffers") for tests in _FIDELITY_TESTS.values()]
    opts = ScoreOptions(checks=CheckOptions(limits=Limits(cpu_s=2.0)), concurrency=2, retry_delay=0.05, env=numpy_env)
    with Grader(opts) as grader:
        outcomes = grader.grade(rows)
    got = {(r["name"], o.reward, o.status) for r, o in zip(rows, outcomes, strict=True)}
    # resize and release are refused; __setstate__ leaves the old memory to the view, so the
    # program finds no freed block and its wrong answer fails
    assert got == {(_USE_AFTER_FREE[0], 0.0, "runtime_error"), (_USE_AFTER_FREE[1], 0.0, "runtime_error"),
                   (_USE_AFTER_FREE[2], 0.0, "fail"), ("honest/numpy_resize_pickle_and_buffers", 1.0, "pass")}, got
    errors = [o.error for r, o in zip(rows, outcomes, strict=True) if r["name"] in _USE_AFTER_FREE[:2]]
    assert all("refused by the grader" in e or "exported buffer" in e for e in errors), errors


FREED_PROBE = r'''
import glob, os, sys
from rlvr_harness import _arrays, arrays
from rlvr_harness.guard import library_prefixes

MODE = sys.argv[1]
if MODE == "before":  # numpy loaded before the check is armed (a seed that preloads it)
    import numpy as np
    assert arrays.arm(library_prefixes()) is None
elif MODE == "after":  # numpy imported later: the guard's import hook prepares its extension
    assert arrays.arm(library_prefixes()) is None
    spec = __import__("importlib.util").util.find_spec("numpy")
    for so in glob.glob(os.path.join(os.path.dirname(spec.origin), "_core", "_multiarray_umath*.so")):
        _arrays.prepare(so)
    import numpy as np
else:
    import numpy as np

N = 4096


def freed_by(route):
    """Whether the array the route leaves is on freed memory: a list's item table takes it."""
    try:
        dangling, holder = route()
    except (ValueError, BufferError):
        return False
    items = [None] * (N // 8)
    return int(dangling.view(np.int64)[0]) == id(None)


def resize():
    a = np.zeros(N, dtype=np.uint8)
    v = a[:]
    a.resize(1 << 20, refcheck=False)
    return v, a


def release():
    ba = bytearray(N)
    a = np.frombuffer(ba, dtype=np.uint8)
    a.base.release()
    ba.extend(bytes(1 << 20))
    return a, ba


def release_asarray():
    ba = bytearray(N)
    a = np.asarray(memoryview(ba))
    with a.base:
        pass
    ba.extend(bytes(1 << 20))
    return a, ba


def setstate():
    a = np.zeros(N, dtype=np.uint8)
    v = a[:]
    a.__setstate__(np.ones(1, dtype=np.uint8).__reduce__()[2])
    return v, a


freed = sorted(n for n, r in [("resize", resize), ("release", release), ("release_asarray", release_asarray),
                              ("setstate", setstate)] if freed_by(r))
a = np.zeros(2)
a.resize(4)
b = np.arange(3.0)
b.resize((2, 2), refcheck=False)
c = np.arange(4)
c.__setstate__(np.ones(2).__reduce__()[2])
pickle = __import__("pickle")
with memoryview(bytearray(b"\x01\x02")) as m:
    over = np.frombuffer(m, dtype=np.uint8)
    summed = int(over.sum())
honest = [a.shape == (4,), b.shape == (2, 2), c.tolist() == [1.0, 1.0], summed == 3,
          pickle.loads(pickle.dumps(np.arange(3))).tolist() == [0, 1, 2],
          type(np.frombuffer(bytearray(2), dtype=np.uint8).base) is memoryview]
print(freed, honest, _arrays.sealed())
'''


@pytest.mark.parametrize("mode", ["before", "after"])
def test_numpys_freeing_methods_are_sealed_whenever_numpy_is_loaded(mode):
    """The three routes leave no array on freed memory, whether numpy was loaded before the
    check was armed (arrays.arm seals ndarray) or is imported after (PyType_Ready's entry in
    numpy's own table seals it before any array exists); without either, all of them do."""
    _needs_patchable_numpy()

    def run(m):
        out = subprocess.run([sys.executable, "-c", FREED_PROBE, m], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run("plain") == "['release', 'release_asarray', 'resize', 'setstate'] [True, True, True, True, True, True] False"
    assert run(mode) == "[] [True, True, True, True, True, True] True"


PRELOADED = r'''
import sys
from rlvr_grade.sandbox import zygote
from rlvr_harness import runner

# A seed's order (zygote.seed_main): the harness warmed up and its guard installed, then the
# environment's libraries preloaded, then their snapshots; the checks are forked from here and
# nothing between patches what they inherit.
zygote.warm_up(False)
assert "numpy" not in sys.modules
loaded, refusal = zygote.preload(("numpy",))
assert loaded == ["numpy"], (loaded, refusal)
runner.snapshot_libraries(loaded)

import numpy as np

secret = "".join(["sec", "ret!"])
Raw = type("Raw", (), {})
r = Raw()
r.__array_interface__ = {"shape": (4,), "typestr": "|u1", "data": (id(secret), False), "version": 3}
try:
    np.asarray(r)
    print("open")
except TypeError as e:
    print("refused" if "refused by the grader" in str(e) else f"other: {e}")
'''


def test_a_seed_patches_the_extension_modules_it_preloaded_before_any_check_forks():
    """The environment's libraries (numpy) are preloaded after the guard's install patched the
    harness's extensions: the seed patches theirs itself (snapshot_libraries), once, so a check
    forked from it inherits them patched instead of walking and patching numpy's and pandas'
    ~50 objects in every child (~1.5 ms and ~170 copy-on-write faults a check, pandas env)."""
    _needs_patchable_numpy()
    out = subprocess.run([sys.executable, "-c", PRELOADED], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "refused"


WORKER_LOADED = r'''
import sys
from rlvr_grade.sandbox import zygote

zygote.warm_up(False)  # the seed's: the guard installed, what is loaded now patched
assert "numpy" not in sys.modules
import numpy as np  # loaded after it, as a worker loads its own (_child, a language's template)

secret = "".join(["sec", "ret!"])
Raw = type("Raw", (), {})


def attack():
    r = Raw()
    r.__array_interface__ = {"shape": (4,), "typestr": "|u1", "data": (id(secret), False), "version": 3}
    try:
        np.asarray(r)
        return "open"
    except TypeError as e:
        return "refused" if "refused by the grader" in str(e) else f"other: {e}"


before = attack()
zygote.patch_loaded_extensions()  # Zygote.execute, before each fork
print(before, attack())
'''


def test_a_worker_patches_what_it_loaded_itself_before_forking_a_check():
    """An extension module a worker loads after the seed's patch (its C set-up, a template) is
    patched by the worker before it forks a check (Zygote.execute), so no check's child walks
    every loaded object's relocations again (~250 faults, ~1.5 ms a check with pandas loaded)."""
    _needs_patchable_numpy()
    out = subprocess.run([sys.executable, "-c", WORKER_LOADED], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["open", "refused"]
