"""Issue 15, raw memory where numpy is loaded: every route numpy offers from an object's array
interface to memory no genuine array or bytes object owns is refused once the check is armed
(rlvr_harness/arrays.py, _arrays.c), and numpy's honest strided views keep working. Runs in a
child interpreter: arming patches that process's extension modules for good."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

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
    pytest.importorskip("numpy", reason="numpy is not installed here")
    try:
        from rlvr_harness import _arrays
    except ImportError:
        pytest.skip("rlvr_harness/_arrays was not built here")
    if not _arrays.supported():
        pytest.skip("this platform's extension tables cannot be patched")
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
