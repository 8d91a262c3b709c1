"""The array interface, checked where native code reads it (issue 15: raw memory where numpy is
loaded). rlvr_harness/_arrays.c points the interpreter's attribute-lookup entries of every
extension module's tables at wrappers; a value read under `__array_interface__` or
`__array_struct__` comes here first, and numpy reads what `check` returns instead.

The rule: an array made from an object's array interface may only cover memory of a genuine
numpy array (the root of the `base` the object names, as np.lib.stride_tricks.as_strided's
DummyArray does) or of an immutable `bytes` object, bounds checked; the answer names that
array or bytes object as its buffer (`data`, `offset`), never an address, so the new array
holds what owns the memory. Python objects' dtypes are refused (an object array over numbers
is an object at any address), and so is `__array_struct__` (a capsule of anyone's memory).
Everything else raises TypeError: numpy's own as_strided, sliding_window_view, views and
np.asarray of such objects within bounds keep working."""

from __future__ import annotations

import importlib.machinery
import os
from typing import Any

_HEAPTYPE = 1 << 9
_KEYS = frozenset(("shape", "typestr", "descr", "data", "strides", "offset", "version", "mask"))


def _refused(why: str) -> TypeError:
    return TypeError(f"refused by the grader: {why}")


def make_check() -> Any:
    """check(obj, name, value) -> the interface numpy reads instead, or raises TypeError. Every
    name it uses is bound here, before candidate code runs."""
    _type, _tuple, _int, _str, _bytes, _dict, _bool, _list = type, tuple, int, str, bytes, dict, bool, list
    _len, _range, _any, _sum, _zip = len, range, any, sum, zip
    mro_of = type.__dict__["__mro__"].__get__
    flags_of = type.__dict__["__flags__"].__get__
    vars_of = type.__dict__["__dict__"].__get__
    name_of = type.__dict__["__name__"].__get__
    module_of = type.__dict__["__module__"].__get__
    modules = __import__("sys").modules
    getattribute = object.__getattribute__
    items = dict.items
    np: dict[str, Any] = {}

    def numpy_type(t: type, name: str) -> Any:
        """numpy's own static C type `name` in t's MRO (a class statement cannot make one)."""
        for c in mro_of(t):
            if not flags_of(c) & _HEAPTYPE and name_of(c) == name and module_of(c) == "numpy":
                return c
        return None

    def getter(t: type, attr: str) -> Any:
        return vars_of(t)[attr].__get__

    def load() -> None:
        """numpy's ndarray and dtype classes (static C types: nobody's class statement), and the
        getters of ndarray's C fields, read from the class, not from an instance's overrides."""
        if "ndarray" in np:
            return
        mod = modules.get("numpy")
        ns = getattribute(mod, "__dict__") if mod is not None else {}
        nd, dt = ns.get("ndarray"), ns.get("dtype")
        if _type(nd) is not type or numpy_type(nd, "ndarray") is not nd or numpy_type(dt, "dtype") is not dt:
            raise _refused("an array interface read where numpy's classes are not numpy's")
        for a in ("__array_interface__", "base", "nbytes", "T"):
            np[a] = getter(nd, a)
        np["view"], np["setflags"] = vars_of(nd)["view"], vars_of(nd)["setflags"]
        np["dtype_type"] = dt
        np["ndarray"] = nd

    def array_type(x: Any) -> bool:
        return numpy_type(_type(x), "ndarray") is np["ndarray"]

    def dtype_of(spec: Any) -> Any:
        return np["dtype_type"](spec)

    def plain(v: Any, depth: int = 0) -> bool:
        t = _type(v)
        if t is _str or t is _int or t is _bool or v is None:
            return True
        if (t is _tuple or t is _list) and depth < 20:
            return not _any(not plain(x, depth + 1) for x in v)
        return False

    def ints(v: Any) -> bool:
        return _type(v) is _tuple and not _any(_type(x) is not _int for x in v)

    def check(obj: Any, name: Any, value: Any) -> Any:
        load()
        if array_type(obj):
            # A library reading a genuine array's interface (a C extension taking arrays that
            # way): the array's own, from ndarray's getter, whatever a subclass's property says.
            if name == "__array_struct__":
                return vars_of(np["ndarray"])["__array_struct__"].__get__(obj)
            return np["__array_interface__"](obj)
        if name == "__array_struct__":
            raise _refused("__array_struct__ (numpy would read the memory its capsule names)")
        if _type(value) is not _dict:
            raise _refused("an __array_interface__ that is not a dict")
        got = {}
        for k, v in items(value):
            if _type(k) is not _str or k not in _KEYS:
                raise _refused(f"__array_interface__ key {k!r}")
            got[k] = v
        shape, typestr = got.get("shape"), got.get("typestr")
        strides, data = got.get("strides"), got.get("data")
        if not ints(shape) or _any(n < 0 for n in shape) or _type(typestr) is not _str:
            raise _refused("__array_interface__ shape/typestr not plain")
        if strides is not None and not (ints(strides) and _len(strides) == _len(shape)):
            raise _refused("__array_interface__ strides not plain")
        if got.get("mask") is not None or ("descr" in got and not plain(got["descr"])):
            raise _refused("__array_interface__ mask/descr")
        base = None
        if _type(data) is _tuple and _len(data) == 2 and _type(data[0]) is _int:
            # An address: only inside the array the object names as its base (as_strided's
            # DummyArray); read from the instance, and checked below whatever it is.
            try:
                base = getattribute(obj, "base")
            except AttributeError:
                base = None
            if not array_type(base):
                raise _refused("an __array_interface__ address with no numpy array under it")
        elif _type(data) is not _bytes:
            raise _refused("an __array_interface__ whose data is neither an address within an array nor bytes")
        dtype = dtype_of(typestr)
        if "descr" in got and getter(np["dtype_type"], "kind")(dtype) == "V":
            full = dtype_of(got["descr"])
            if getter(np["dtype_type"], "itemsize")(full) != getter(np["dtype_type"], "itemsize")(dtype):
                raise _refused("__array_interface__ descr and typestr disagree")
            dtype = full
        if getter(np["dtype_type"], "hasobject")(dtype):
            raise _refused("an array interface of Python objects (an object at any address)")
        size = getter(np["dtype_type"], "itemsize")(dtype)
        n = _len(shape)
        if strides is None:
            acc, st = size, [0] * n
            for i in _range(n - 1, -1, -1):
                st[i] = acc
                acc *= shape[i]
            strides_ = _tuple(st)
        else:
            strides_ = strides
        empty = _any(d == 0 for d in shape)
        lo = _sum(s * (d - 1) for s, d in _zip(strides_, shape, strict=True) if s < 0) if not empty else 0
        hi = (_sum(s * (d - 1) for s, d in _zip(strides_, shape, strict=True) if s > 0) + size) if not empty else 0
        out = {"shape": shape, "typestr": typestr, "strides": strides, "version": 3}
        if "descr" in got:
            out["descr"] = got["descr"]
        if base is None:
            offset = got.get("offset", 0)
            if _type(offset) is not _int:
                raise _refused("__array_interface__ offset not an int")
            if not empty and (offset + lo < 0 or offset + hi > _len(data)):
                raise _refused("an __array_interface__ outside its bytes")
            out["data"], out["offset"] = data, offset
            return out
        root = base
        while True:
            b = np["base"](root)
            if b is None or not array_type(b):
                break
            root = b
        region = root
        face = np["__array_interface__"](region)
        if face.get("strides") is not None:
            region = np["T"](root)
            face = np["__array_interface__"](region)
            if face.get("strides") is not None:
                raise _refused("an __array_interface__ address within a non-contiguous array")
        start, length = face["data"][0], np["nbytes"](region)
        address = data[0]
        if not empty and (address + lo < start or address + hi > start + length):
            raise _refused("an __array_interface__ address outside the array it names")
        if data[1] and not face["data"][1]:
            region = np["view"](region)
            np["setflags"](region, write=False)
        out["data"], out["offset"] = region, (address - start) if not empty else 0
        return out

    return check


def why_unchecked() -> str | None:
    """Why the array interface would go unchecked in this process (None: it is checked once
    armed). Arms nothing: the seed asks it for the isolation report."""
    try:
        from rlvr_harness import _arrays
    except ImportError:
        return "rlvr_harness/_arrays was not built"
    if not _arrays.supported():
        return "this platform's extension tables cannot be patched"
    return None


def arm(prefixes: tuple[str, ...]) -> str | None:
    """Arm the check in this process and patch the extension modules loaded so far (once; the
    guard calls it before any candidate code, with the library tree's folders: prepare() loads
    extension modules from there only). Returns why it could not, or None."""
    try:
        from rlvr_harness import _arrays
    except ImportError:
        return "rlvr_harness/_arrays was not built"
    if not _arrays.supported():
        return "this platform's extension tables cannot be patched"
    if not _arrays.armed():
        check = make_check()
        suffixes = tuple(os.fsencode(s) for s in importlib.machinery.EXTENSION_SUFFIXES)
        _arrays.arm(check, suffixes, tuple(os.fsencode(p) for p in prefixes))
    _arrays.install()
    seal()
    return None


def seal() -> None:
    """Seal numpy's ndarray (_arrays.c) if numpy is loaded; a later numpy is sealed as it loads."""
    import sys

    from rlvr_harness import _arrays

    nd = getattr(sys.modules.get("numpy"), "ndarray", None)
    if nd is not None and not _arrays.sealed():
        _arrays.seal(nd)
