"""The test runner inside the sandbox child. It reports through `report(event)` only;
stdout and the exit code are never the verdict (see sandbox/zygote.py for the channel)."""

from __future__ import annotations

import ast
import os
import sys
import traceback
from typing import Any, Callable

from rlvr_harness import provenance, seeding, strict
from rlvr_harness.files import TEST_MODULE, TEST_PLACEHOLDER, TESTS_FILENAME, WORKDIR_SOLUTION  # noqa: F401 - runner.X too
from rlvr_harness.guard import Guard
from rlvr_harness.splitting import (
    assert_checks,
    child_nodes,
    deeper,
    is_literal,
    is_loop_check,
    soft_call,
    soft_functions,
)
from rlvr_harness.wire import ENTRY_OF, CheckPayload

Report = Callable[[dict[str, Any]], None]


def compile_error_line(exc: BaseException) -> str:
    """The last line of a compile error (SyntaxError, ValueError from compile()): made by the
    compiler from the source, no object of the program's in it."""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text.splitlines()[-1][:500] if text else type(exc).__name__


def last_line(exc: BaseException, *, _type=type, _str=BaseException.__str__, _args=BaseException.__dict__["args"].__get__,
              _qualname=type.__dict__["__qualname__"].__get__, _module=type.__dict__["__module__"].__get__,
              _mro=type.__dict__["__mro__"].__get__, _flags=type.__dict__["__flags__"].__get__,
              _plain=frozenset((str, int, float, bool, type(None), bytes)), _len=len, _repr=repr, _key_error=KeyError,
              _class_dict=type.__dict__["__dict__"].__get__) -> str:
    """`Type: message` of an exception, with no code of the program's run to make it: the
    harness calls this while it holds the tests (run_asserts' locals), and an exception's
    `__str__`, its args' `__str__`/`__repr__` or a property are the candidate's code (one
    rendered the harness's locals through traceback's capture_locals: red team A9). The message
    is BaseException's own rendering of plain args (str, numbers, bytes, None); a class that
    overrides `__str__`/`__repr__` in Python, or args of any other type, show the type only."""
    t = _type(exc)
    name = _qualname(t)
    module = _module(t)
    if _type(module) is str and module not in ("builtins", "__main__"):
        name = f"{module}.{name}"
    shown = True
    for c in _mro(t):
        own = _class_dict(c)
        if _flags(c) & (1 << 9) and ("__str__" in own or "__repr__" in own):
            shown = False  # a heap class's own text: Python code
    args = _args(exc)
    stack, count = [args], 0
    while shown and stack and count < 1000:  # plain values, in tuples at most
        a = stack.pop()
        count += 1
        if _type(a) is tuple:
            stack.extend(a)
        elif _type(a) not in _plain:
            shown = False
    if shown and not stack:
        # BaseException's rendering of the args (a KeyError's one arg as its repr, as Python
        # shows it); the fields of OSError or SyntaxError (filename, text) are not read: any
        # object may sit there
        text = _repr(args[0]) if _len(args) == 1 and _key_error in _mro(t) else _str(exc)
        text = text.strip().splitlines()[-1] if text.strip() else ""
        return f"{name}: {text}"[:500] if text else name[:500]
    return f"{name} (its message is the program's own code: not shown)"[:500]


def run(payload: CheckPayload, report: Report, workdir: str, testdir: str) -> None:
    # What the worker prepared (the guard, an asserts check's helpers) leaves the module's
    # globals before anything else: they are reachable from candidate code (sys.modules), and a
    # check of any style must not leave the other style's helpers there (the registry's `add`
    # among their closures would let the candidate vouch for its own code).
    _TAKEN.update(_PREBUILT)
    _PREBUILT.clear()
    # Before any code of the check's: its random numbers are the row's, not the OS's (this
    # process is a fork, and `random` reseeds itself from os.urandom in every fork).
    seeding.start_check(payload)
    entry = ENTRY_OF.get(payload.style)  # the one list of the harness's styles (wire.py)
    if entry is None:
        report({"ev": "phase", "phase": "runtime", "msg": f"unknown test style {payload.style!r}"})
        return
    module, _, name = entry.rpartition(".")
    getattr(__import__(module, fromlist=[name]), name)(payload, report, workdir, testdir)


def _compile(source: str, filename: str, report: Report):
    try:
        return compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        report({"ev": "phase", "phase": "compile", "msg": compile_error_line(exc)})
        return None


class _NoGuard:
    """`rlvr-grade doctor` probes the sandbox's own layers, so its (trusted) probe runs
    without the in-process guard, which would otherwise answer first."""

    armed = False

    def arm(self) -> None:
        pass

    def disarm(self) -> None:
        pass


def _make_guard(payload: CheckPayload | None = None, protected: tuple[str, ...] = ()) -> Guard:
    """The process's guard (the worker made and installed it before forking this check, see
    snapshot_common; made here when the harness runs without a worker), installed, protecting
    `protected`; a no-op stand-in when the payload turns the guard off."""
    if payload is not None and getattr(payload.options, "guard", True) is False:
        return _NoGuard()  # type: ignore[return-value]
    g = _TAKEN.pop("guard", None) or Guard()
    g.protect(protected)
    g.install()
    return g


def test_namespace(solution_ns: dict[str, Any], used: frozenset[str] | set[str], builtin_names: dict[str, Any],
                   modules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The globals the test code runs in: the solution's names and pristine builtins (made
    before the candidate ran; the strict helpers are constants of the test code, see
    strict.link). A solution name that shadows a builtin
    (`def sorted(...)`, `abs = ...`) is hidden from the tests when they also use another
    solution function (that one is the subject and the builtin is the test's tool); a lone
    shadowing function is the subject itself (MBPP's `def sum(a, b)` with `assert sum(10, 15)
    == 6`). `used`: every name the tests mention, and `name.attr` for each attribute they
    read of a name.

    A name the tests use as a module gets the module (`modules`: sys.modules as restored,
    before the tests run): tests that call `math.isclose(...)` relying on the program's
    `import math` meant the standard library's, and a program that binds `math` to an object
    of its own (a ModuleType, a SimpleNamespace, a class whose `isclose` says True) decided
    the verdict (red team rtv, module_name_bound_to_a_fake). The rule: where the program's
    value for `name` is not the module sys.modules holds under that name, and the tests read
    an attribute of `name` that the module has, the tests get the module; a module object of
    the program's under any other name (an alias, `np`) that is not the one sys.modules holds
    under its own `__name__` is replaced by that one, or hidden when there is none."""
    subjects = {k for k in used if k in solution_ns and k not in builtin_names and callable(solution_ns[k])}
    ns: dict[str, Any] = {}
    for name, value in solution_ns.items():
        if name.startswith("__") and name.endswith("__"):
            continue
        if name in builtin_names and subjects:
            continue
        ns[name] = value
    if modules is not None:
        _modules_as_modules(ns, used, modules)
    ns["__name__"] = "__main__"
    ns["__builtins__"] = builtin_names
    return ns


def _modules_as_modules(ns: dict[str, Any], used: frozenset[str] | set[str], modules: dict[str, Any], *,
                        _type=type, _module_type=type(sys), _issubclass=issubclass,
                        _module_dict=type(sys).__dict__["__dict__"].__get__, _get=dict.get, _str=str,
                        _partition=str.partition) -> None:
    """test_namespace's module rule, on the namespace `ns` the tests will run in. Reads the
    program's values through type's and the module type's own getters: nothing of the
    program's runs."""
    attrs: dict[str, list[str]] = {}
    for entry in used:
        root, dot, attr = _partition(entry, ".")
        if dot:
            attrs.setdefault(root, []).append(attr)
    for root, read in attrs.items():
        if root not in ns:
            continue
        value = ns[root]
        real = _get(modules, root)
        if _type(real) is _module_type and value is not real:
            held = _module_dict(real)
            if any(a in held for a in read):
                ns[root] = real
                continue
        if _issubclass(_type(value), _module_type):
            own = _get(_module_dict(value), "__name__")
            real = _get(modules, own) if _type(own) is _str else None
            if value is not real:
                if _type(real) is _module_type:
                    ns[root] = real
                else:
                    del ns[root]


def test_imports(tree: ast.Module) -> list[str]:
    """Modules the test code imports (absolute imports; the candidate's own `solution` aside)."""
    return _scan_tests(tree)[2]


# Modules whose snapshot the warm worker takes once, before any check (see snapshot_common):
# a child then copies nothing for them (copying builtins' dict in every child cost ~0.6 ms of
# copy-on-write faults). Snapshots are tuples: a candidate cannot rewrite one in place.
_COMMON = ("builtins", __name__, strict.__name__, "traceback", "math", "operator", "re", "collections",
           "itertools", "functools", "heapq", "bisect", "string", "typing", "json", "fractions", "decimal")
_SNAPSHOTS: dict[str, tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]] = {}


def _dict_tags() -> Any:
    """harness/_dictver (a dict's version tag, PEP 509, read in C), or None where it was not
    built or this interpreter's dicts carry no tag: restore() then reads every value. It lets
    restore() skip a module nobody touched without reading its values (reading a value increfs
    it, and each one sits on a page the check's child then copies: ~1.4 ms a HumanEval check).
    Checked on live dicts before it is trusted."""
    try:
        from rlvr_harness import _dictver

        d: dict[Any, Any] = {}
        other: dict[Any, Any] = {"x": 1}
        seen = [_dictver.tags((d, other))]
        d["a"] = 1
        seen.append(_dictver.tags((d, other)))
        d["a"] = 2  # a value replaced: the size stays, the tag must still move
        seen.append(_dictver.tags((d, other)))
        del d["a"]
        seen.append(_dictver.tags((d, other)))
    except (ImportError, NotImplementedError, TypeError, AttributeError):
        return None
    if len({t[0] for t in seen}) != 4 or len({t[1] for t in seen}) != 1:
        return None
    return _dictver


_DICTVER = _dict_tags()


def _snapshot(mod: Any) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]:
    """(live dict, its items, its version tag when they were taken). The tag is read first: a
    change between the two reads then shows as a changed tag (a full restore), never as an
    unchanged one."""
    return _snapshot_dict(mod.__dict__)


def _snapshot_dict(live: dict[str, Any]) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]:
    tag = _DICTVER.tags((live,))[0] if _DICTVER is not None else None
    return live, tuple(live.items()), tag


# Snapshots of the classes of guarded modules, by id: (class, its dict (the type's own, not a
# proxy), items, tag). Taken in the worker for _COMMON's, per check for the others.
_CLASS_SNAPSHOTS: dict[int, tuple[type, dict[str, Any], tuple[tuple[str, Any], ...], int | None]] = {}
# What each root name (a module the tests import, or one of _COMMON) guards: (module names,
# classes), found once per process (see _guarded).
_GUARDED: dict[str, tuple[str, ...]] = {}
GRADER = "rlvr_grade"  # the grader's package: in the worker's memory, never a check's to import
_SYS_MODULES: list[tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None]] = []  # sys.modules' snapshot in the worker
_PRE_MODULES: list[frozenset[str]] = []  # its names, once
_HEAP, _IMMUTABLE = 1 << 9, 1 << 8  # Py_TPFLAGS_HEAPTYPE, Py_TPFLAGS_IMMUTABLETYPE


def _guarded(top: str) -> tuple[str, ...]:
    """The modules the tests reach through the package `top` by name and attribute, which the
    candidate could patch before they run: every module of the package loaded now
    (`np.testing`, and the internals its functions look their globals up in at call time) and
    the modules those hold as attributes (`os.path` is posixpath)."""
    hit = _GUARDED.get(top)
    if hit is not None:
        return hit
    prefix = top + "."
    module_type = type(sys)
    names = {n for n, m in list(sys.modules.items()) if type(m) is module_type and (n == top or n.startswith(prefix))}
    for n in list(names):
        for v in list(vars(sys.modules[n]).values()):
            if type(v) is module_type:
                name = getattr(v, "__name__", None)
                if type(name) is str and sys.modules.get(name) is v:
                    names.add(name)
    hit = _GUARDED[top] = tuple(sorted(names))
    return hit


def _libraries(tops: Any) -> tuple[str, ...]:
    """The packages the tests reach through the packages `tops`: those, and every package
    outside the standard library that a module they guard holds as an attribute, to the end
    (pandas holds `np`: numpy, and what numpy's modules hold), the harness's and pytest's
    aside. Their modules' dicts and every class of every one of their modules are the
    restorer's: `df.equals(expected)` runs pandas.core.internals.managers.BaseBlockManager.equals,
    a class of a module no test names (issue 15)."""
    key = tuple(tops)
    hit = _LIBRARIES.get(key)
    if hit is not None:
        return hit
    out: dict[str, None] = {}
    todo = [t for t in key if t not in _WATCHED]
    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    while todo:
        top = todo.pop()
        if top in out:
            continue
        out[top] = None
        for name in _guarded(top):
            other = name.split(".")[0]
            if other not in out and other not in stdlib and other not in _WATCHED and other in sys.modules:
                todo.append(other)
    hit = _LIBRARIES[key] = tuple(out)
    return hit


_LIBRARIES: dict[tuple[str, ...], tuple[str, ...]] = {}


def _classes(name: str) -> tuple[type, ...]:
    """The classes the module `name` holds, with their bases (`unittest.TestCase`): a class's
    methods are looked up at call time, whatever name the tests call them through. For every
    module of the tests' packages (_libraries), taken in the worker where the seed preloaded
    them (snapshot_libraries: pandas' 4,577 classes cost ~60 ms to take, their tags ~0.03 ms
    to compare)."""
    hit = _CLASSES.get(name)
    if hit is None and name.split(".")[0] in _WATCHED:
        hit = _CLASSES[name] = ()  # pytest's own classes: it patches them itself (monkeypatch, legacypath);
        # what the candidate changes in them is _fingerprinter's to find
    if hit is None:
        classes: dict[int, type] = {}
        mro_of, flags_of = type.__dict__["__mro__"].__get__, type.__dict__["__flags__"].__get__
        for v in list(vars(sys.modules[name]).values()):
            if isinstance(v, type):
                for c in mro_of(v):
                    flags = flags_of(c)
                    if flags & _HEAP and not flags & _IMMUTABLE:
                        classes[id(c)] = c
        hit = _CLASSES[name] = tuple(classes.values())
    return hit


_CLASSES: dict[str, tuple[type, ...]] = {}


def _class_snapshot(cls: type) -> tuple[type, dict[str, Any], tuple[tuple[str, Any], ...], int | None]:
    snap = _CLASS_SNAPSHOTS.get(id(cls))
    if snap is None or snap[0] is not cls:
        import gc

        live = gc.get_referents(type.__dict__["__dict__"].__get__(cls))[0]  # the type's own dict, under its proxy
        tag = _DICTVER.tags((live,))[0] if _DICTVER is not None else None
        snap = (cls, live, tuple(live.items()), tag)
        _CLASS_SNAPSHOTS[id(cls)] = snap
    return snap


_ENTRIES: dict[str, tuple[tuple[Any, ...], ...]] = {}


def _entries(key: str) -> tuple[tuple[Any, ...], ...]:
    """The restorer's entries: for "top" (a package) (live dict, items, tag, None) per module
    it guards; for "class:name", (the type's dict, items, tag, the class) per class the module
    holds. From the worker's snapshots when it took them (before any check), else taken now."""
    hit = _ENTRIES.get(key)
    if hit is None:
        out: list[tuple[Any, ...]] = []
        if key.startswith("class:"):
            for c in _classes(key[6:]):
                _cls, live, items, tag = _class_snapshot(c)
                out.append((live, items, tag, c))
        elif key == LOADED:  # every module loaded before any candidate, by name (_loaded_names)
            names = _loaded_names()
            # Every name a later check need not look at again: those taken, and those no
            # restore takes whatever module they come to hold (_loaded_names' exclusions by name).
            _LOADED_NAMES[0] = frozenset(n for n in list(sys.modules) if type(n) is str and (
                n.split(".")[0] in _WATCHED or n in ("__main__", "solution"))).union(names)
            for name in names:
                snap = _SNAPSHOTS.get(name)
                if snap is None or snap[0] is not sys.modules[name].__dict__:
                    snap = _SNAPSHOTS[name] = _snapshot(sys.modules[name])
                out.append((*snap, None))
            lives = tuple(e[0] for e in out)
            # tags made together (where still the snapshot's): a copy increfs few pages
            now = _DICTVER.tags(lives) if _DICTVER is not None else (None,) * len(lives)
            _LOADED_STATIC[:] = [(lives, tuple(e[1] for e in out),
                                  tuple(t if t == e[2] else e[2] for t, e in zip(now, out, strict=True)))]
        elif key.startswith("classes:"):  # every class of every module the package guards, once each
            seen: set[int] = set()
            for name in _guarded(key[8:]):
                for c in _classes(name):
                    if id(c) not in seen:
                        seen.add(id(c))
                        _cls, live, items, tag = _class_snapshot(c)
                        out.append((live, items, tag, c))
        else:
            for name in _guarded(key):
                snap = _SNAPSHOTS.get(name)
                if snap is None:
                    snap = _snapshot(sys.modules[name])
                out.append((*snap, None))
        hit = _ENTRIES[key] = tuple(out)
    return hit


# What the restorer puts back below the module and class dicts (_held): per entry key, the
# objects (dicts, sequences, objects whose class is held); their values are taken per check
# (_held_state), a dict's from the worker's copy while its version tag has not moved.
_HELD_CACHE: dict[str, tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = {}
_HELD = object()  # the owner mark of a held dict in the restorer's table
_HELD_SEQS = (list, set, bytearray)


def _held(key: str) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """What the entries of `key` (_entries) hold that is not a module's or a class's dict, yet
    decides what the tests' library calls do: a dict, list, set or bytearray a module or class
    holds (`copy._deepcopy_dispatch`, `calendar.mdays`, `sys.meta_path`), and an instance it
    holds, by its own dict and its class (`json._default_decoder.decode = ...`, its
    `__class__` swapped); the class of each module and of each class with a metaclass of
    Python's (a module's `__class__` set to a subclass of ModuleType, an ABC's to another
    ABCMeta). Changed in place, the module's dict still holds the same object, so the
    restorer's snapshot of it saw nothing (red team rt15). The harness's, pytest's and
    pluggy's own state is not here (_WATCHED: their modules are the fingerprint's).

    Returns (dicts: ((dict, the instance it is the dict of or None), ...), sequences, objects
    whose class is held)."""
    hit = _HELD_CACHE.get(key)
    if hit is not None:
        return hit
    module_type, type_type = type(sys), type
    flags_of = type.__dict__["__flags__"].__get__
    get_dict = object.__getattribute__
    # every module's own dict (`__builtins__` in a module's dict is builtins' dict) and
    # sys.modules are the restorer's module entries, put back by name, never wholesale
    skip = {id(sys.modules)}
    dicts: list[tuple[Any, Any]] = []
    seqs: list[Any] = []
    idents: list[Any] = []
    seen: set[int] = set()
    for live, items, _tag, owner in _entries(key):
        if owner is None:
            name = live.get("__name__")
            mod = sys.modules.get(name) if type(name) is str else None
            if mod is None or mod.__dict__ is not live:
                continue
            top = name.split(".")[0]
            idents.append(mod)
        else:
            where = owner.__dict__.get("__module__")
            if type(where) is not str:
                continue
            top = where.split(".")[0]
            if type(owner) is not type_type:
                idents.append(owner)
        if top in _WATCHED:
            continue
        for k, v in items:
            t = type(v)
            if id(v) in seen or id(v) in skip or k == "__all__":  # __all__: what a star import binds, no behaviour
                continue
            if t is dict:
                seen.add(id(v))
                name = v.get("__name__")
                held_by = sys.modules.get(name) if type(name) is str else None
                if held_by is None or getattr(held_by, "__dict__", None) is not v:
                    dicts.append((v, None))
            elif t in _HELD_SEQS:
                seen.add(id(v))
                seqs.append(v)
            elif (t is not module_type and not isinstance(v, type_type) and flags_of(t) & _HEAP
                    and t.__dictoffset__ and type(t.__module__) is str and t.__module__.split(".")[0] == top):
                # an object of the package's own classes (json's decoder, calendar's calendar);
                # another package's (an import spec, a typing alias) is that package's state
                seen.add(id(v))
                idents.append(v)
                try:
                    own = get_dict(v, "__dict__")
                except Exception:  # noqa: BLE001 - no plain instance dict: its class is still held
                    continue
                if type(own) is dict and id(own) not in skip:
                    dicts.append((own, v))
    hit = _HELD_CACHE[key] = (tuple(dicts), tuple(seqs), tuple(idents))
    return hit


def _held_state(keys: Any) -> tuple[list[tuple[Any, ...]], tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...]]:
    """For the restorer, taken now (before the candidate): (table entries of the held dicts,
    (sequence, its items, the ids of its items), (object, its class, its own dict or None)).
    Each key's are taken once (in the worker for _COMMON's, sys and the preloaded libraries:
    _held_key_state); here only what changed since is taken again (found by identity in C and
    by dict version tags: reading every value again copied its page into each check)."""
    entries: list[tuple[Any, ...]] = []
    seqs: list[tuple[Any, ...]] = []
    idents: list[tuple[Any, ...]] = []
    for key in keys:
        e, q, i = _held_key_state(key)
        entries.extend(e)
        seqs.extend(q)
        idents.extend(i)
    if _DICTVER is not None and hasattr(_DICTVER, "held"):
        moved = _DICTVER.changed(tuple(e[0] for e in entries), [e[2] for e in entries])
        seq_moved, ident_moved = _DICTVER.held(tuple(seqs), tuple(idents))
    else:
        moved, seq_moved, ident_moved = range(len(entries)), range(len(seqs)), range(len(idents))
    for j in moved:
        d, _items, _tag, (mark, obj, _ids) = entries[j]
        items = tuple(d.items())
        entries[j] = (d, items, _tags_now(d), (mark, obj, None if obj is not None else frozenset(id(k) for k, _v in items)))
    for j in seq_moved:
        seqs[j] = _seq_state(seqs[j][0])
    for j in ident_moved:
        idents[j] = _ident_state(idents[j][0])
    return entries, tuple(seqs), tuple(idents)


_HELD_STATE: dict[str, tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = {}


def _held_key_state(key: str) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    hit = _HELD_STATE.get(key)
    if hit is None:
        dicts, seq_objs, ident_objs = _held(key)
        entries = []
        for d, obj in dicts:
            items = tuple(d.items())  # an instance's dict is put back whole: no ids of its keys needed
            entries.append((d, items, _tags_now(d), (_HELD, obj, None if obj is not None else frozenset(id(k) for k, _v in items))))
        hit = _HELD_STATE[key] = (tuple(entries), tuple(_seq_state(v) for v in seq_objs),
                                  tuple(_ident_state(v) for v in ident_objs))
    return hit


def _tags_now(d: dict[Any, Any]) -> int | None:
    return _DICTVER.tags((d,))[0] if _DICTVER is not None else None


def _seq_state(v: Any) -> tuple[Any, ...]:
    t = type(v)
    return (v, bytes(v), None) if t is bytearray else (v, tuple(v), frozenset(map(id, v)))


def _ident_state(v: Any) -> tuple[Any, ...]:
    own = None
    if not isinstance(v, (type, type(sys))):
        try:
            own = object.__getattribute__(v, "__dict__")
        except Exception:  # noqa: BLE001 - no instance dict: its class is still held
            own = None
    return (v, type(v), own if type(own) is dict else None)


def _instance_dict(obj: Any, *, _get=object.__getattribute__) -> Any:
    return _get(obj, "__dict__")


def _restore_held_list(seq: list[Any], items: tuple[Any, ...], ids: frozenset[int], *, _id=id, _tuple=tuple,
                       _set=set, _list_set=list.__setitem__, _all=slice(None), _append=list.append) -> None:
    """`seq` (a list a library holds) as it was, then what was added since, after it: an entry
    put first (`sys.meta_path.insert(0, finder)`, `sys.path.insert(0, folder)`) or a value
    replaced (`calendar.mdays[2] = 30`) no longer decides anything the library's own entries
    decide; an appended one (`sys.path.append(folder)`, a program's own module folder) stays."""
    _list_set(seq, _all, _held_list_now(seq, items, ids))


def _held_list_now(seq: list[Any], items: tuple[Any, ...], ids: frozenset[int], *, _id=id, _tuple=tuple,
                   _set=set, _append=list.append) -> tuple[Any, ...]:
    """What _restore_held_list makes of `seq`."""
    seen, added = _set(ids), []
    for x in _tuple(seq):
        if _id(x) not in seen:
            seen.add(_id(x))
            _append(added, x)
    return items + _tuple(added)


def _restore_held_table(live: dict[Any, Any], items: tuple[tuple[Any, Any], ...], key_ids: frozenset[int],
                        pre_modules: frozenset[str], *, _id=id, _list=list, _get=dict.get, _missing=object(),
                        _setitem=dict.__setitem__, _delitem=dict.__delitem__, _isinstance=isinstance, _type=type,
                        _flags=type.__dict__["__flags__"].__get__, _module=type.__dict__["__module__"].__get__) -> None:
    """`live` (a dict a library holds: a dispatch table, a registry, a cache) with every entry
    it had put back, and every entry added since for a class that existed before the program
    (a builtin type, a library's class: `copy._deepcopy_dispatch[bytearray] = ...`) taken out.
    An entry for a class of the program's own stays (`copyreg.pickle(MyClass, reducer)`)."""
    for k, v in items:
        if _get(live, k, _missing) is not v:
            _setitem(live, k, v)
    for k in _list(live):
        if _id(k) not in key_ids and _isinstance(k, _type):
            if not _flags(k) & _HEAP or _module(k) in pre_modules:
                _delitem(live, k)


def _root_keys(roots: Any) -> set[str]:
    """The restorer's entry keys the roots give (restorer): each root's top and its classes."""
    out: set[str] = set()
    for root in roots:
        out.add(root.split(".")[0])
        out.add("class:" + root)
    return out


STREAMS = frozenset(("stdin", "stdout", "stderr"))  # sys' names the fence keeps as they were (strict.FENCE)
LOADED = "loaded"  # the restorer's key for every module loaded before the candidate
# (lives, items, tags) of _entries(LOADED) as three tuples, built where it was taken (the
# worker): a check holds each tuple whole, so nothing in them is increfed (no page copied) until
# a module's dict changes.
_LOADED_STATIC: list[tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = []
_LOADED_NAMES: list[frozenset[str]] = [frozenset()]  # the names it took, and those it never takes


def new_modules(known: frozenset[str]) -> list[Any]:
    """The names in sys.modules now that `known` lacks, in sys.modules' order. Through
    _dictver.new_keys where it is built: a loop over sys.modules in a check's child increfs
    every name, each on a page of the worker's that the child then copies (~290 page faults)."""
    if _DICTVER is not None and hasattr(_DICTVER, "new_keys"):
        return _DICTVER.new_keys(sys.modules, known)
    return [n for n in list(sys.modules) if n not in known]


def _take_loaded_known(lives: tuple[Any, ...], tags: tuple[Any, ...]) -> list[Any]:
    """LOADED's tags as the list restore() updates: the worker's (_prebuild_loaded) the first
    time in a check (no tag increfed, no page copied), else a copy."""
    taken = _TAKEN.pop("loaded", None)
    if taken is not None and taken[0] is lives:
        return taken[1]
    return list(tags)


def _prebuild_loaded() -> None:
    """In the worker, once LOADED was taken: the list of its tags a check's child takes."""
    if _DICTVER is not None and _LOADED_STATIC:
        lives, _items, tags = _LOADED_STATIC[0]
        _PREBUILT["loaded"] = (lives, list(tags))


def _loaded_names() -> list[str]:
    """Every module in sys.modules now but the harness's, pytest's and the grader's own (their
    state is the fingerprint's) and the program's: a library function reaches a module by name
    at call time (`datetime.strptime` imports _strptime, a function's own `import`), not only
    through the attributes _guarded follows (red team rt15: `_strptime._strptime_datetime`
    patched). Only their dicts: a module's classes are guarded where the tests reach them."""
    module_type = type(sys)
    return [name for name, m in list(sys.modules.items())
            if type(m) is module_type and name.split(".")[0] not in _WATCHED and name not in ("__main__", "solution")
            and type(getattr(m, "__dict__", None)) is dict]


def snapshot_common() -> None:
    """Take the snapshots of the modules in _COMMON that are already imported, of what they
    guard (_guarded, _classes) and of sys.modules (the worker calls this once after importing
    the harness; the checks it forks inherit them), and build the per-check state of an
    asserts check (see _asserts_state)."""
    for name in _COMMON:
        if name in sys.modules:
            for module in _guarded(name.split(".")[0]):
                if module not in _SNAPSHOTS:
                    _SNAPSHOTS[module] = _snapshot(sys.modules[module])
            _entries(name.split(".")[0])
            _entries("class:" + name)
            _held_key_state(name.split(".")[0])
            _held_key_state("class:" + name)
    _held_key_state("sys")
    try:  # datetime.strptime imports _strptime on first use and keeps it (in C) for good: loaded now, by us
        import datetime

        datetime.datetime.strptime("2000", "%Y")
    except Exception:  # noqa: BLE001 - no strptime here: nothing to keep
        pass
    _entries(LOADED)
    # Not the grader's own package: the check's child removes it (zygote.forget_grader), and
    # restoring sys.modules must not bring it back within the candidate's reach.
    live, items, tag = _snapshot_dict(sys.modules)
    _SYS_MODULES[:] = [(live, tuple(kv for kv in items if kv[0] != GRADER and not kv[0].startswith(GRADER + ".")), tag)]
    _PRE_MODULES[:] = [frozenset(k for k, _ in _SYS_MODULES[0][1])]
    # The registry of trusted code takes everything alive now, the harness included, and the
    # hook, installed here, sees every module the checks import before their candidate runs.
    guard = Guard()
    guard.install()
    _PREBUILT["guard"] = guard
    _PREBUILT["asserts"] = _asserts_state(guard.registry)
    _PREBUILT["frames"] = guard.registry.fence_frames()  # once per process: the checks' each
    _prebuild_loaded()
    base = _base_restorer()
    if base is not None:
        _PREBUILT["restorer"] = base


def snapshot_libraries(modules: Any) -> None:
    """Take, in the seed after it preloaded the environment's `modules`, the snapshots the
    restorer takes of a package the tests import (its modules' dicts, every class of them,
    the same of the packages it reaches: _libraries), so a check that imports them pays only
    the comparison of version tags."""
    for top in _libraries(dict.fromkeys(m.split(".")[0] for m in modules if m in sys.modules)):
        for module in _guarded(top):
            if module not in _SNAPSHOTS:
                _SNAPSHOTS[module] = _snapshot(sys.modules[module])
        _entries(top)
        _entries("classes:" + top)
        _held_key_state(top)
        _held_key_state("classes:" + top)
    _ENTRIES.pop(LOADED, None)  # the environment's modules are loaded now too
    _entries(LOADED)
    _prebuild_loaded()
    # Their extension modules' tables are patched here, once (rlvr_harness/arrays.py): the
    # guard's install in snapshot_common patched those loaded then, and a check's own install
    # would walk and patch numpy's and pandas' (~50 objects, 58 entries) in every child: ~1.5 ms
    # and ~170 copy-on-write faults a check.
    from rlvr_harness import arrays
    from rlvr_harness.guard import library_prefixes

    arrays.arm(library_prefixes())


# Built in the warm worker, before any check: each check child inherits its own copy (fork
# copies on write; no candidate has run in the worker), takes it once and builds nothing.
# Building it per child cost ~0.6 ms, mostly copy-on-write faults: copying builtins' dict and
# making the helpers' closures increfs every builtin they hold, on pages shared with the worker.
_PREBUILT: dict[str, Any] = {}
# A check's own copy of _PREBUILT, taken by run() and emptied by the style's runner before any
# candidate code (run_asserts/run_pytest pop what they use and clear the rest).
_TAKEN: dict[str, Any] = {}
ISOLATED_TESTDIR = "/tmp/t"  # sandbox/isolation.TESTDIR: the guard's protected folder in a check


def _asserts_state(registry: Any) -> tuple[dict[str, Any], dict[str, Any], Callable[[tuple[Any, ...]], Any], Any,
                                           Callable[[], None]]:
    """(pristine builtins, strict helpers, their failure log, the `solution` module, the fork
    watch to start in the check's process) for one asserts check."""
    import types

    forked, watch = strict.fork_flag()
    log = strict.failure_log(forked)
    return (strict.pristine_builtins(), strict.make_namespace(log, registry, forked), log, types.ModuleType("solution"),
            watch)


def pristine_restorer(test_modules: list[str] | tuple[str, ...] = ()) -> Callable[[], None]:
    """restorer(test_modules)'s `restore`."""
    return restorer(test_modules)[0]


def restorer(test_modules: list[str] | tuple[str, ...] = ()) -> tuple[Callable[..., bool], Callable[..., None]]:
    """Snapshot, now (before any candidate code), the attributes of `builtins`, of this runner
    and its strict helpers, and of the modules the tests import (imported here if they are not
    yet: numpy too, so that what the candidate patches in it can be told from what it was).

    Returns (restore, adopt). `restore()` puts back every attribute changed since: run before
    the test code and after each step, it undoes a candidate's `builtins.exec = ...`,
    `math.isclose = lambda *a, **k: True` or patch of the harness's globals. `adopt(module
    dict, names)` makes the current values of those attributes the ones to put back: the
    tests' own setup (`builtins.input = ...`, `sys.argv = [...]`, `random.randint = ...`)
    stands, only the candidate's changes are undone. The modules are imported before the guard
    is armed: they are the tests' (and their libraries'), and no candidate code has run yet to
    plant one."""
    import importlib

    snaps: list[tuple[dict[str, Any], tuple[tuple[str, Any], ...], int | None, Any]] = []
    names: list[str] = []
    # Modules the tests import that this environment does not have: None under their names in
    # sys.modules at every restore, so the tests' import fails as it would for any program. A
    # program put its own numpy in sys.modules (or numpy.py beside itself), whose allclose said
    # yes, where the tests' `import numpy` had no numpy to find (red team rt15).
    absent: list[str] = []
    module_type = type(sys)
    for root in ("builtins", __name__, strict.__name__, "traceback", *test_modules):
        if root not in sys.modules:
            parent, _, last = root.rpartition(".")
            held = sys.modules[parent].__dict__.get(last) if parent in sys.modules else None
            if held is not None and type(held) is not module_type:
                continue  # an attribute of the module (np.testing.assert_allclose), not a submodule
            try:
                importlib.import_module(root)
            except ModuleNotFoundError as exc:  # the test's own import will say what is wrong ...
                missing = exc.name
                if type(missing) is str and (root == missing or root.startswith(missing + ".")):
                    absent.append(missing)  # ... and it says so whatever the program does (below)
                continue
            except BaseException:  # noqa: BLE001 - the test's own import will say what is wrong
                continue
    keys: dict[str, None] = {}
    dropped: set[str] = set()
    for root in ("builtins", __name__, strict.__name__, "traceback", *test_modules):
        if root in sys.modules:
            top = root.split(".")[0]
            if root not in _guarded(top):  # a submodule loaded since the worker's snapshot
                _GUARDED.pop(top, None)
                _ENTRIES.pop(top, None)
                _ENTRIES.pop("classes:" + top, None)
                _LIBRARIES.clear()
                dropped.add(top)
            keys[top] = None
            keys["class:" + root] = None
    for top in _libraries([k for k in keys if not k.startswith("class:") and k not in _COMMON]):
        keys[top] = None
        keys["classes:" + top] = None
    _entries(LOADED)
    loaded_lives, loaded_items, loaded_tags = _LOADED_STATIC[0]
    loaded_known = _take_loaded_known(loaded_lives, loaded_tags) if _DICTVER is not None else None
    for name in new_modules(_LOADED_NAMES[0]):  # imported since the worker's snapshot (the tests' own, just now)
        mod = sys.modules.get(name)
        if (type(mod) is module_type and type(name) is str and name.split(".")[0] not in _WATCHED
                and name not in ("__main__", "solution") and type(getattr(mod, "__dict__", None)) is dict):
            snaps.append((*_snapshot(mod), None))
    # The entries of the keys every check has (builtins, the harness, traceback; no test
    # module) come assembled from the worker (_base_restorer), taken once per process:
    # gathering them here increfed ~300 class objects, their dicts and the modules' dicts, each
    # on a page the check's child then copied. Not when one of their packages was dropped
    # above: their entries would be stale.
    base_part = _TAKEN.pop("restorer", None)
    if base_part is not None and any(_key_top(k) in dropped for k in base_part[0]):
        base_part = None
    base_keys = base_part[0] if base_part is not None else {}
    for key in keys:
        if key in base_keys:
            continue
        snaps.extend(_entries(key))  # an entry twice is harmless: the second finds it restored
        if not key.startswith("class") and key not in _COMMON:
            names.extend(_guarded(key))
    # What the modules and classes of the tests' packages hold, changed in place (_held): of
    # every key but the harness's own roots (builtins, the runner, traceback), and of sys (its
    # import machinery: meta_path, path_hooks, path).
    harness_keys = {k for k in _root_keys(("builtins", __name__, strict.__name__, "traceback"))
                    if k not in _root_keys(test_modules)}
    held_dicts, held_seqs, held_idents = _held_state(("sys", *(k for k in keys if k not in harness_keys)))
    snaps.extend(held_dicts)
    # sys.modules: every name bound before the candidate runs keeps its module (a module put
    # under "math" by the candidate is not what the tests' `import math` gets)
    mods_live, base, tag = _SYS_MODULES[0] if _SYS_MODULES else _snapshot_dict(sys.modules)
    # the worker's set of those names (building it here increfed ~600 names, each on a page the
    # check's child then copied)
    have = (_PRE_MODULES[0] if _SYS_MODULES and _PRE_MODULES else frozenset(k for k, _ in base)) if names else ()
    added = tuple((n, sys.modules[n]) for n in dict.fromkeys(names) if n not in have)
    added += tuple((n, None) for n in dict.fromkeys(absent) if n not in sys.modules)
    snaps.append((mods_live, base + added, None if added else tag, None))
    # (live dict, items, the class it is the dict of or None) per entry, in a list this check
    # owns: adopt() replaces an entry. Held by the two functions' keyword-only defaults only (no
    # closure cell anyone can read).
    pre_modules = _PRE_MODULES[0] if _PRE_MODULES else frozenset(k for k, _ in base)
    loaded_own: dict[int, tuple[tuple[str, Any], ...]] = {}  # adopt()'s items for a LOADED module, by index
    # Each part: (live dicts, their entries, the tag each dict had when it last matched its
    # snapshot or None where there are no tags: compare all); the worker's part first.
    parts = _parts(snaps)
    if base_part is not None:
        parts = (base_part[1], *parts)

    def restore(*, _check=False, _token=False, _streams=vars(sys), _stream_names=STREAMS, _parts=parts, _changed=_DICTVER and _DICTVER.changed,
                _tags=_DICTVER and _DICTVER.tags, _put_back=_DICTVER and _DICTVER.put_back, _get=dict.get,
                _range=range, _len=len, _setattr=type.__setattr__, _delattr=type.__delattr__, _missing=object(),
                _list=list, _set=set, _seqs=held_seqs, _idents=held_idents, _type=type,
                _obj_setattr=object.__setattr__, _get_dict=_instance_dict, _isinstance=isinstance,
                _tuple=tuple, _clear=dict.clear, _update=dict.update, _list_type=list, _set_type=set,
                _list_set=list.__setitem__, _set_clear=set.clear, _set_update=set.update,
                _bytes_set=bytearray.__setitem__, _bytes=bytes, _frozenset=frozenset, _map=map, _id=id,
                _is_not=__import__("operator").is_not, _any=any, _all=slice(None), _type_type=type,
                _held=getattr(_DICTVER, "held", None), _restore_list=_restore_held_list, _list_now=_held_list_now,
                _restore_table=_restore_held_table, _pre_modules=pre_modules, _llives=loaded_lives,
                _litems=loaded_items, _lknown=loaded_known, _lown=loaded_own, _rebase=False, _undo=None,
                _dicts=False) -> Any:
        # _check: whether anything would be put back (strict's fence), changing nothing
        if _rebase:
            # strict's frame fence, where a program frame begins on state the tests changed (a
            # library they used or patched): every changed dict's values now are what to put
            # back, until _undo gives back the entries this returns (the step's own restore then
            # puts back what was held before the step, as without the frame)
            undo = []
            for i in (_changed(_llives, _lknown) if _lknown is not None else _range(_len(_llives))):
                live = _llives[i]
                undo.append((None, i, _get(_lown, i, _missing), _lknown[i] if _lknown is not None else None))
                _lown[i] = _tuple(live.items())
                if _lknown is not None:
                    _lknown[i] = _tags((live,))[0]
            for _lives, _table, _known in _parts:
                for i in (_changed(_lives, _known) if _known is not None else _range(_len(_table))):
                    live, items, owner = _table[i]
                    undo.append((_table, i, _table[i], _known[i] if _known is not None else None))
                    if _type(owner) is _tuple and owner[1] is None:  # a table: its keys now are its own
                        owner = (owner[0], None, _frozenset(_map(_id, live)))
                    _table[i] = (live, _tuple(live.items()), owner)
                    if _known is not None:
                        _known[i] = _tags((live,))[0]
            return undo
        if _undo is not None:
            for table, i, was, known in _undo:
                if table is None:
                    if was is _missing:
                        _lown.pop(i, None)
                    else:
                        _lown[i] = was
                    if _lknown is not None:
                        _lknown[i] = known
                else:
                    table[i] = was
                    for _lives, _table, _known in _parts:
                        if _table is table and _known is not None:
                            _known[i] = known
            return False
        if _token:  # what the held state is now, changing nothing (strict's frame fence)
            return (_tags(_llives), _tuple(_tags(_lives) for _lives, _table, _known in _parts),
                    _tuple(_tuple(_map(_id, seq)) if _type(seq) is _list_type else _frozenset(_map(_id, seq))
                           if _type(seq) is _set_type else _bytes(seq) for seq, _items, _ids in _seqs),
                    _tuple((_type(obj), own is not None and _id(_get_dict(obj))) for obj, _cls, own in _idents))
        # every module loaded before the candidate (LOADED): by name, found changed by tag
        for i in (_changed(_llives, _lknown) if _lknown is not None else _range(_len(_llives))):
            if _check:
                live = _llives[i]
                if _any(_get(live, k, _missing) is not v and not (live is _streams and k in _stream_names)
                        for k, v in _get(_lown, i, _litems[i])):
                    return True
                continue
            live = _llives[i]
            items = _get(_lown, i, _litems[i])
            if _put_back:
                _put_back(live, items)
            else:
                for k, v in items:
                    if _get(live, k, _missing) is not v:
                        live[k] = v
            if _lknown is not None:
                _lknown[i] = _tags((live,))[0]
        # classes first (a swapped class decides what every later lookup finds), then dicts;
        # _dictver.held finds what changed by identity in C (~1 us for numpy's 400 objects)
        seq_todo, ident_todo = (((), ()) if _dicts else _held(_seqs, _idents) if _held is not None
                                else (_range(_len(_seqs)), _range(_len(_idents))))
        for j in ident_todo:
            obj, cls, own = _idents[j]
            if _check:
                return True
            if _type(obj) is not cls:
                if _isinstance(obj, _type_type):
                    _setattr(obj, "__class__", cls)
                else:
                    _obj_setattr(obj, "__class__", cls)
            if own is not None and _get_dict(obj) is not own:
                _obj_setattr(obj, "__dict__", own)
        for j in seq_todo:
            seq, items, ids = _seqs[j]
            kind = _type(seq)
            if kind is _list_type:
                if _len(seq) != _len(items) or _any(_map(_is_not, seq, items)):
                    if _check:
                        now = _list_now(seq, items, ids)
                        if _len(seq) != _len(now) or _any(_map(_is_not, seq, now)):
                            return True
                        continue
                    _restore_list(seq, items, ids)
            elif kind is _set_type:
                if _check:
                    if _any(x not in seq for x in items):
                        return True
                    continue
                _set_update(seq, items)  # what was taken out is back; what was added stays
            elif _bytes(seq) != items:
                if _check:
                    return True
                _bytes_set(seq, _all, items)
        for _lives, _table, _known in _parts:
            todo = _changed(_lives, _known) if _known is not None else _range(_len(_table))
            for i in todo:
                live, items, owner = _table[i]
                if _check:
                    if owner is not None or _any(_get(live, k, _missing) is not v and not (
                            live is _streams and k in _stream_names) for k, v in items):
                        return True
                    continue
                if _type(owner) is _tuple:  # a dict a module, class or instance holds
                    if owner[1] is not None:  # an instance's own dict: all of it (an added name shadows its class's)
                        if _known is not None or _len(live) != _len(items) or _any(
                                _get(live, k, _missing) is not v for k, v in items):
                            _clear(live)
                            _update(live, items)
                    else:
                        _restore_table(live, items, owner[2], _pre_modules)
                elif owner is None:
                    if _put_back:
                        _put_back(live, items)  # compares by identity without increfs (no page copied)
                    else:
                        for k, v in items:
                            if _get(live, k, _missing) is not v:
                                live[k] = v
                else:  # a class: through type's own setattr, which keeps the method caches right
                    keys = _set()
                    for k, v in items:
                        keys.add(k)
                        if _get(live, k, _missing) is not v:
                            _setattr(owner, k, v)
                    for k in _list(live):
                        if k not in keys:
                            _delattr(owner, k)
                if _known is not None:
                    _known[i] = _tags((live,))[0]
        return False

    def adopt(target: Any, names: Any, *, _parts=parts, _tags=_DICTVER and _DICTVER.tags,
              _dict=dict, _tuple=tuple, _missing=object(), _enumerate=enumerate, _llives=loaded_lives,
              _litems=loaded_items, _lknown=loaded_known, _lown=loaded_own) -> None:
        """`target`: a module's dict, or a class (its entry is found by the class)."""
        for i, live in _enumerate(_llives):
            if live is target:
                now = _dict(_lown.get(i, _litems[i]))
                for name in names:
                    value = live.get(name, _missing)
                    if value is not _missing:
                        now[name] = value
                _lown[i] = _tuple(now.items())
                if _lknown is not None:
                    _lknown[i] = _tags((live,))[0]
        for _lives, _table, _known in _parts:
            for i, (live, items, owner) in _enumerate(_table):
                if live is target or (owner is not None and owner is target):
                    now = _dict(items)
                    for name in names:
                        value = live.get(name, _missing)
                        if value is not _missing:
                            now[name] = value
                    _table[i] = (live, _tuple(now.items()), owner)
                    if _known is not None:
                        _known[i] = _tags((live,))[0]

    return restore, adopt


def _key_top(key: str) -> str:
    """The package a restorer key ("top", "class:mod.name", "classes:top") is of."""
    return key.rpartition(":")[2].split(".")[0]


def _parts(snaps: list[tuple[Any, ...]]) -> tuple[tuple[tuple[dict[str, Any], ...], list[tuple[Any, ...]], list[Any] | None]]:
    """A restorer's part (see restorer) made of entries (live dict, items, tag, owner)."""
    table = [(live, items, owner) for live, items, _, owner in snaps]
    known = [tag for _, _, tag, _ in snaps] if _DICTVER is not None else None
    return ((tuple(live for live, _, _ in table), table, known),)


def _base_restorer() -> tuple[dict[str, None], tuple[Any, ...]] | None:
    """In the worker, after snapshot_common: the keys of a restorer for no test module and the
    part their entries make (see restorer), for a check's child to take once. None where a
    module those keys guard is not in sys.modules' snapshot (restorer() adds such a module to
    sys.modules' entry, which the worker cannot do for it)."""
    keys: dict[str, None] = {}
    for root in ("builtins", __name__, strict.__name__, "traceback"):
        if root in sys.modules:
            keys[root.split(".")[0]] = None
            keys["class:" + root] = None
    for top in _libraries([k for k in keys if not k.startswith("class:") and k not in _COMMON]):
        keys[top] = None
        keys["classes:" + top] = None
    have = _PRE_MODULES[0] if _SYS_MODULES and _PRE_MODULES else frozenset()
    snaps: list[tuple[Any, ...]] = []
    for key in keys:
        snaps.extend(_entries(key))
        if not key.startswith("class") and key not in _COMMON and any(n not in have for n in _guarded(key)):
            return None
    return keys, _parts(snaps)[0]


# (step id, compiled statements, is a check, for a soft `check(...)` call: (the assert lines it
# stands for, first and last line of the function called), the module attributes the statement
# sets: ((name the module is bound to, attribute), ...))
Step = tuple[str, Any, bool, "tuple[list[int], int, int] | None", tuple[tuple[str, str], ...]]


def _sets_attributes(stmt: ast.stmt) -> tuple[tuple[str, str], ...]:
    """(name, attribute) for every `name.attr = ...` (also augmented, annotated, deleted, and
    `setattr(name, "attr", ...)`) in a statement of the tests, nested function and class
    bodies aside (they run in a later step, as part of it): what the tests set up themselves."""
    found: list[tuple[str, str]] = []
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if node is not stmt and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
              and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and isinstance(node.args[1], ast.Constant)
              and isinstance(node.args[1].value, str)):
            found.append((node.args[0].id, node.args[1].value))
        while targets:
            t = targets.pop()
            if isinstance(t, (ast.Tuple, ast.List)):
                targets.extend(t.elts)
            elif isinstance(t, ast.Attribute) and _dotted(t.value):
                found.append((_dotted(t.value), t.attr))
        stack.extend([c for c in child_nodes(node) if not is_literal(c)])
    return tuple(sorted(set(found)))


def _module_sets(tests: str) -> tuple[tuple[str, str], ...]:
    """What a pytest module's top level sets of other modules and classes (_sets_attributes of
    each statement): adopted by the recorder before the first test."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError):
        return ()
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # tests: what they set is theirs to undo
    return tuple(sorted({pair for stmt in tree.body if not isinstance(stmt, defs) for pair in _sets_attributes(stmt)}))


def _module_bindings(tests: str) -> tuple[tuple[str, str, str], ...]:
    """(name, module, attribute) for each name a pytest module's top level binds by an import
    and nowhere else: `import a.b` -> ("a", "a", ""), `import a.b as c` -> ("c", "a.b", ""),
    `from a import b as c` -> ("c", "a", "b") (kept only where a.b is a module, see
    run_pytest). A name the module also assigns, defines or imports twice is the tests' to
    rebind and is left out."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError):
        return ()
    found: dict[str, tuple[str, str, str]] = {}
    other: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                name = a.asname or a.name.split(".")[0]
                (other.add(name) if name in found else found.__setitem__(name, (name, a.name if a.asname else name, "")))
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
            for a in stmt.names:
                if a.name == "*":
                    continue
                name = a.asname or a.name
                (other.add(name) if name in found else found.__setitem__(name, (name, stmt.module, a.name)))
        else:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    other.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    other.add(node.name)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    other.update(node.names)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    other.update((a.asname or a.name).split(".")[0] for a in node.names)
    return tuple(v for k, v in sorted(found.items()) if k not in other)


def _bound_modules(bindings: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, Any], ...]:
    """(name, module) for the bindings whose import gives a module, resolved now (before the
    candidate runs; the restorer has imported the tests' modules)."""
    module_type = type(sys)
    out = []
    for name, module, attr in bindings:
        held = sys.modules.get(module)
        if attr:
            held = sys.modules.get(f"{module}.{attr}") or (vars(held).get(attr) if type(held) is module_type else None)
        if type(held) is module_type:
            out.append((name, held))
    return tuple(out)


def _dotted(node: ast.AST) -> str:
    """`a.b.c` as "a.b.c" for a chain of names and attributes, else ""."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


_CLASS_DICT = type.__dict__["__dict__"].__get__


def _setup_target(tns: dict[str, Any], dotted: str, *, _type=type, _issubclass=issubclass, _module_type=type(sys),
                  _module_dict=type(sys).__dict__["__dict__"].__get__, _class_dict=_CLASS_DICT, _get=dict.get,
                  _mp_get=type(_CLASS_DICT(object)).get, _split=str.split) -> Any:
    """The module dict or class the tests' `dotted.attr = ...` set an attribute of, found through
    module dicts and class dicts only (no attribute lookup: nothing of the candidate's runs;
    called before restore(), so everything it uses is bound in its defaults), else None."""
    parts = _split(dotted, ".")
    obj = _get(tns, parts[0])
    for part in parts[1:]:
        if _type(obj) is _module_type:
            obj = _get(_module_dict(obj), part)
        elif _issubclass(_type(obj), _type):  # a class (its real type: no __class__ asked)
            obj = _mp_get(_class_dict(obj), part)
        else:
            return None
    if _type(obj) is _module_type:
        return _module_dict(obj)
    return obj if _issubclass(_type(obj), _type) else None


def prepare_asserts(tests: str, deepen: bool = True) -> tuple[list[Step], list[tuple[int, int]], list[str], list[str]]:
    """Everything asserts-style tests need before the candidate runs, from the test text
    alone: the steps, split, strict-rewritten and compiled; the loops (line spans) in them;
    the names they mention; the modules they import. Raises SyntaxError for broken tests. A pure function of `tests`,
    so the local backend computes it once per distinct test text in the grader and ships it
    marshalled (see harness/prepared.py); a check without it computes it here.

    Test code nested deeper than the passes' recursion allows (a 600-term `1+1+...+1` in an
    assert) is prepared again under a budget of its own depth (splitting.deeper): never a
    failure of the candidate for the tests' shape. Not with `deepen` False (the grader: the
    limit is its threads' too): the RecursionError is raised."""
    try:
        return _prepare_asserts(tests)
    except RecursionError:
        if not deepen:
            raise
        with deeper(ast.parse(tests)):
            return _prepare_asserts(tests)


def _prepare_asserts(tests: str) -> tuple[list[Step], list[tuple[int, int]], list[str], list[str]]:
    steps = assert_checks(tests)
    tests_tree = ast.Module(body=[s for _, stmts, _ in steps for s in stmts], type_ignores=[])
    soft = soft_functions(tests_tree)
    spans = {stmt.name: (stmt.lineno, stmt.end_lineno) for stmt in tests_tree.body
             if isinstance(stmt, ast.FunctionDef) and stmt.name in soft}  # the last definition wins, as at run time
    loops, used, imports = _scan_tests(tests_tree)
    compiled: list[Step] = []
    analysis = strict.analyse(tests_tree)  # of the whole tests, before any step is rewritten
    for sid, stmts, is_check in steps:
        # read before the rewrite changes the statements in place
        lines = soft_call(stmts[0], soft) if is_check else None
        if lines:  # the called function's span: where a crash inside it can be placed
            lines = (lines, *spans[stmts[0].value.func.id])
        sets = _sets_attributes(stmts[0])
        loop_line = stmts[0].lineno if is_check and is_loop_check(stmts[0]) else None
        tree = strict.rewrite(ast.Module(body=stmts, type_ignores=[]), analysis)
        if not is_check and isinstance(stmts[0], ast.FunctionDef) and stmts[0].name in soft:
            tree = strict.SoftAsserts().visit(tree)
        elif loop_line is not None:
            tree = strict.LoopAsserts(loop_line).run(tree)
        # optimize=0 whatever the process's -O: the grader prepares too, and -O drops asserts
        compiled.append((sid, compile(tree, TESTS_FILENAME, "exec", dont_inherit=True, optimize=0), is_check, lines, sets))
    return compiled, loops, sorted(used), imports


_LOOPS = (ast.For, ast.While, ast.AsyncFor)


def _scan_tests(tree: ast.Module) -> tuple[list[tuple[int, int]], set[str], list[str]]:
    """One pass over the tests: the loops (line spans), every name mentioned, the modules
    imported (as test_imports). Literal test data (splitting.is_literal) holds none of these and is
    not descended into: in HumanEval+ it is most of the nodes."""
    loops: list[tuple[int, int]] = []
    used: set[str] = set()
    found: set[str] = set()
    aliases: dict[str, str] = {}  # a name an import binds -> the module it names
    chains: list[str] = []
    literal = is_literal
    stack: list[ast.AST] = [tree]
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Name:
            used.add(n.id)
            continue
        if kind is ast.Constant:
            continue
        if kind in _LOOPS:
            loops.append((getattr(n, "lineno", 0), getattr(n, "end_lineno", 0)))
        elif kind is ast.Import:
            found.update(a.name for a in n.names)
            aliases.update((a.asname, a.name) if a.asname else (a.name.split(".")[0],) * 2 for a in n.names)
        elif kind is ast.ImportFrom and n.module and not n.level:
            found.add(n.module)
            for a in n.names:
                if a.name != "*":
                    aliases[a.asname or a.name] = f"{n.module}.{a.name}"  # a submodule, or not (see restorer)
        elif kind is ast.Attribute:
            chain = _dotted(n)
            if chain:
                chains.append(chain)
                if isinstance(n.value, ast.Name):
                    used.add(f"{n.value.id}.{n.attr}")  # a name read as a module (test_namespace)
        for child in child_nodes(n):
            if not literal(child):
                stack.append(child)
    # `np.testing.assert_allclose(...)`: numpy.testing (and numpy.testing.assert_allclose, which
    # the restorer finds to be no module) is the tests' too, whether or not numpy imports it
    # itself: a package that loads its submodules lazily would otherwise first load it for the
    # candidate, who can patch it before the tests look
    for chain in chains:
        head, _, rest = chain.partition(".")
        if head in aliases:
            found.add(f"{aliases[head]}.{rest}")
    for module in aliases.values():
        if "." in module and module.split(".")[0] in found:
            found.add(module)
    return sorted(loops), used, sorted(m for m in found if m.split(".")[0] != "solution")


def run_asserts(payload: CheckPayload, report: Report, workdir: str = "", testdir: str = "/tmp/t") -> None:
    from rlvr_harness import prepared

    program = payload.program
    setup = payload.setup
    # Compiled by the grader when it could (prepared.pack_program: the same compile), else here.
    code = (None if setup else prepared.program_code(payload)) or _compile(setup + "\n" + program if setup else program, WORKDIR_SOLUTION, report)
    if code is None:
        return
    # Everything the tests need is prepared before the candidate's first line runs, and every
    # function and value used after it is held here, in locals the candidate cannot reach:
    # what it patches (builtins, math, this module) is put back before the tests run.
    compiled, loops, used, imports = prepared.steps_for(payload) or prepare_asserts(payload.tests)
    restore, adopt = restorer(imports)
    guard = _make_guard(payload)  # the tests are never on disk: nothing to protect
    builtin_names, helpers, log, module, watch_forks = _TAKEN.pop("asserts", None) or _asserts_state(
        guard.registry if isinstance(guard, Guard) else None)
    for name in imports:  # the tests' modules as they are before the candidate runs (strict call())
        helpers[strict.REGISTER](sys.modules.get(name))
    helpers[strict.RESTORER](restore)  # pandas' comparisons run on pandas as it was (strict.pandas_op)
    set_frames, frames_on, frames_off = helpers[strict.FRAMES]
    held = helpers[strict.HELD_LINES]  # which soft asserts' last evaluation completed and held
    clear_held = held.clear
    switch = _TAKEN.pop("frames", None)
    if switch is not None:
        set_frames(switch)
    del switch
    link = strict.link
    linked = [(sid, link(step_code, helpers), is_check, lines, sets) for sid, step_code, is_check, lines, sets in compiled]
    run, make_tns, crash_line_of, before_crash, describe = exec, test_namespace, _crash_line, _before_crash, last_line
    sys_modules = sys.modules  # the dict itself (restore() puts its entries back), not what `sys.modules` names later
    setup_target = _setup_target
    is_tests = guard.registry.category if isinstance(guard, Guard) else None
    verdicts = _step_verdicts
    getlimit, setlimit, SOFT_FRAMES = sys.getrecursionlimit, sys.setrecursionlimit, _SOFT_FRAMES
    module.__file__ = os.path.abspath(WORKDIR_SOLUTION)
    sys.modules["solution"] = module
    ns = module.__dict__
    if isinstance(guard, Guard):
        for _sid, step_code, _check, _lines, _sets in linked:
            guard.trust(step_code)  # the tests' code, compiled here: trusted by identity
    _TAKEN.clear()
    _recursion_headroom(sys._getframe())
    conn = None
    if split_check(payload):
        # The program's own process (docs/fidelity.md, "The program in a process of its own"):
        # forked before its first line, armed there; this process never runs a line of it.
        conn, failed_at = _split_program(code, ns, guard, describe, used, _program_seed(payload))
        if conn is None:
            report({"ev": "phase", "phase": failed_at[0], "msg": failed_at[1]})
            return
        frames_on = frames_off = _nothing  # no frame of the program's is entered here
        tns = make_tns(conn.names, frozenset(used), builtin_names, sys_modules)
        watch_forks()
        guard.arm()
    else:
        watch_forks()
        guard.arm()
        try:
            run(code, ns)
        except MemoryError:
            report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
            return
        except BaseException as exc:  # SystemExit included: exiting early is not passing
            report({"ev": "phase", "phase": "runtime", "msg": describe(exc)})
            return
        restore()
        tns = make_tns(ns, frozenset(used), builtin_names, sys_modules)
    no_lines: frozenset[int] = frozenset()
    for sid, step_code, is_check, soft, sets in linked:
        lines = soft[0] if soft else None
        # The program's frames the step enters are fenced (strict: frame fence), from before
        # this restore on: a gc callback or finalizer of the program's that ran between the
        # restore and the arming left its change standing as if the tests had made it (rty).
        frames_on()
        restore()
        log(("active", lines or no_lines))
        mark = log(("mark",))
        crash_line = None
        limit = getlimit() + SOFT_FRAMES if lines else 0
        if limit:
            clear_held()
            setlimit(limit)  # the soft assert's helper and lambda under each of its calls
        try:
            run(step_code, tns)
        except MemoryError:
            frames_off()
            report({"ev": "phase", "phase": "memory", "msg": "MemoryError"})
            return
        except BaseException as exc:
            frames_off()
            # Where it left the tests is read before anything of the candidate's can run (the
            # exception's __str__ below may rewrite its traceback); its text never decides.
            crash_line = crash_line_of(exc, soft, is_tests) if soft else None
            failed = ("failed" if isinstance(exc, AssertionError) else "error", describe(exc))
        else:
            frames_off()
            failed = None
        if limit and getlimit() == limit:
            setlimit(limit - SOFT_FRAMES)
        log(("active", no_lines))
        for dotted, attr in sets:  # the tests' own setup stands (only the candidate's is undone)
            target = setup_target(tns, dotted)
            if target is not None:
                adopt(target, (attr,))
        restore()
        logged = log(("since", mark))
        if conn is not None and conn.gone is not None:
            # the program's process died (or answered what it cannot have written) during the
            # step: whatever the tests made of it, the step fails, and so does the rest
            for tid in ([f"{sid}:{line}" for line in lines] if lines else [sid]):
                report({"ev": "test", "id": tid, "outcome": "error", "msg": conn.gone})
            report({"ev": "phase", "phase": "runtime", "msg": conn.gone})
            return
        if lines:  # a `check(candidate)` call: one verdict per assert inside it
            for line, (outcome, msg) in verdicts(lines, logged, failed, crash_line, loops, before_crash, held):
                report({"ev": "test", "id": f"{sid}:{line}", "outcome": outcome, "msg": msg})
            continue
        if failed is None and logged:
            # nothing raised, yet an assert of the tests failed on the way (caught by whoever
            # called it): the step failed
            _, line, outcome, msg = logged[0]
            failed = (outcome, msg)
        if failed is not None:
            report({"ev": "test", "id": sid, "outcome": failed[0], "msg": failed[1]})
            if not is_check:
                # a set-up step of the tests (an import, an assignment) failed: the tests
                # cannot go on, and why is the row's error (a missing module names itself)
                report({"ev": "phase", "phase": "runtime", "msg": failed[1]})
                return
        elif is_check:
            report({"ev": "test", "id": sid, "outcome": "passed"})
    report({"ev": "done"})


def split_check(payload: CheckPayload) -> bool:
    """Whether this asserts check runs its program in a process of its own (SuiteOptions.split)."""
    return getattr(payload.options, "split", False) is True


def _nothing() -> None:
    pass


def _program_seed(payload: CheckPayload) -> int:
    """The program's own random stream (seeding.py): one-way from the texts, tells nothing of
    the tests' seed."""
    return seeding.seeds(payload).program


def _split_program(code: Any, ns: dict[str, Any], guard: Any, describe: Callable[[BaseException], str],
                   used: list[str], seed: int) -> tuple[Any, tuple[str, str] | None]:
    """(the tests' Connection to the program's process, None) with the program's globals the
    tests name crossed (Connection.names), or (None, (phase, message)) when the program did not
    run to its end."""
    from rlvr_harness import program, proxies

    sock, failed_at = program.start(code, ns, guard.arm, describe, seed)
    if sock is None:
        return None, failed_at
    conn = proxies.Connection(sock)
    wanted = [n for n in used if "." not in n and not (n.startswith("__") and n.endswith("__"))]
    try:
        conn.names = conn.ask(["names", wanted])
    except BaseException as exc:  # noqa: BLE001 - what the program raised, or its process gone
        return None, ("runtime", describe(exc) if not isinstance(exc, proxies.ProgramGone) else str(exc))
    if type(conn.names) is not dict:
        return None, ("runtime", "the program's process answered what it cannot have written")
    return conn, None


# What the harness's frames count for the recursion limit beyond a script's own: the fence
# around each call of the tests into the program; in HumanEval's check(), also the soft
# assert's helper and lambda (measured: a script's 998 deep under asserts, 997 in check()).
_WRAPPER_FRAMES = 3
_SOFT_FRAMES = 5
# `python -m pytest` calls pytest.main under 4 frames of its own (runpy's two, pytest's
# __main__ and console_main); the witness and the fence wrap each test function
_PYTEST_FRAMES = -2
# A TestCase's test method: `python -m unittest` leaves 17 frames more than pytest (976 vs 959)
_UNITTEST_FRAMES = 17


def _recursion_headroom(frame: Any, extra: int = _WRAPPER_FRAMES) -> None:
    """The program's and the tests' recursion budget is a plain script's: their module code
    runs under the harness's frames, not at depth 1, so the limit grows by that depth (and the
    few frames each of the tests' calls passes through). At the default limit a program
    recursing 982-997 deep was a RecursionError here and passes under `python` (fidh: 981 in
    HumanEval's check() here, 985 under the openai harness, 997 under `python`)."""
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    sys.setrecursionlimit(sys.getrecursionlimit() + depth + extra)


_RANK = {"passed": 0, "failed": 1, "error": 2}


def _step_verdicts(lines: list[int], logged: tuple[tuple[Any, ...], ...], failed: tuple[str, str] | None,
                   crash_line: int | None, loops: list[tuple[int, int]],
                   before_crash: Callable[[int, int | None, list[tuple[int, int]]], bool],
                   held: dict[int, bool]) -> list[tuple[int, tuple[str, str]]]:
    """(line, (outcome, message)) for each own assert of a top-level `check(...)` call, from
    the failures logged while it ran, which asserts' last evaluation completed and held
    (`held`, strict's soft() and HELD marks) and how the call ended. A failure logged anywhere
    else (an assert in a helper it called, a nested function, a callback, another thread), even
    one that something caught, fails every assert of the call that did not fail on its own:
    which of them it stands for is unknown, and none of them may count as passed.

    When the call raised, an assert passes only if its last evaluation completed and held and
    it sits before the crash (where the exception left is no record of an assert: the tests
    may have caught it there and raised later); if every assert held, the failure is the
    call's and fails each (docs/fidelity.md)."""
    own: dict[int, tuple[str, str]] = {}
    stray: tuple[str, str] | None = None
    wanted = set(lines)
    for kind, line, outcome, msg in logged:
        if kind == "soft" and line in wanted:
            prev = own.get(line)
            if prev is None or _RANK.get(outcome, 2) > _RANK.get(prev[0], 2):
                own[line] = (outcome, msg)
        elif stray is None:
            stray = (outcome, f"{msg} (outside the asserts of the test function)" if line else msg)
    out = []
    for line in lines:
        verdict = own.get(line)
        if verdict is None:
            if failed is not None and not (held.get(line) is True and before_crash(line, crash_line, loops)):
                verdict = failed  # the call raised before this assert completed (or in a loop around it)
            else:
                verdict = stray or ("passed", "")
        out.append((line, verdict))
    if failed is not None and all(verdict[0] == "passed" for _, verdict in out):
        out = [(line, failed) for line in lines]
    return out


_TRACEBACK_OF = BaseException.__dict__["__traceback__"].__get__  # not a subclass's property


def _crash_line(exc: BaseException, soft: tuple[list[int], int, int],
                is_tests: Callable[[Any], int] | None) -> int | None:
    """Line of the called test function where an exception left it: the innermost traceback
    entry of the tests' own code (by identity, see provenance) inside that function's span.
    None when there is none (a traceback cut short, code named after the tests): then no
    assert of the call can keep a pass (_before_crash). Read without the traceback module,
    whose line cache asks module globals (`__loader__`) for source: nothing of the
    candidate's runs here."""
    _, start, end = soft
    line = None
    tb = _TRACEBACK_OF(exc)
    depth = 0
    while tb is not None and depth < 10000:
        code = tb.tb_frame.f_code
        if (is_tests(code) == 3 if is_tests is not None else code.co_filename == TESTS_FILENAME) and start <= tb.tb_lineno <= end:
            line = tb.tb_lineno
        tb = tb.tb_next
        depth += 1
    return line


def _before_crash(line: int, crash: int | None, loops: list[tuple[int, int]]) -> bool:
    """An assert keeps its pass after the call raised only if it sits before the crash and no
    loop encloses both (a loop would have run it again after the crash)."""
    if crash is None or line >= crash:
        return False
    return not any(start <= line <= end and start <= crash <= end for start, end in loops)


def resolve_hookimpls() -> None:
    """Import pytest (a pytest-warm worker does it before forking). The recorder's hooks are
    marked when it is made, per check."""
    import pytest  # noqa: F401


class _Plugin:
    """What pluggy registers: its hook functions sit in the instance's dict, put there before
    the candidate runs; pluggy keeps the function objects, so nothing is looked up on this
    class (which the candidate can reach and give descriptors) when a hook fires."""


def make_recorder(report: Report, testfile: str, defs: set[tuple[str, int]], helpers: dict[str, Any],
                  test_modules: list[str] | tuple[str, ...] = (), log: Callable[[tuple[Any, ...]], Any] | None = None,
                  attributed: list[int] | None = None, progress: dict[str, Any] | None = None,
                  sets: tuple[tuple[str, str], ...] = (), code_flags: Callable[[Any], int] | None = None,
                  module_bindings: tuple[tuple[str, str, str], ...] = (),
                  made: tuple[Callable[[], None], Callable[..., None]] | None = None) -> Any:
    """A pytest plugin that forwards every report to the channel.

    A pass needs two witnesses: pytest's call-phase report says passed, and our own
    `pytest_pyfunc_call` (which runs the test function itself, tryfirst) saw the genuine test
    function, compiled from the test file, return. Patching TestReport, call_and_report or the
    hook machinery can change the first, never conjure the second.

    The plugin is reachable from candidate code (pytest's config is: pytestPDB keeps it, so is
    its plugin manager), so its hooks hold nothing in closure cells, which anyone holding a
    function can read and rewrite (`fn.__closure__[i].cell_contents`): their state, the
    reporter, the helpers and every builtin they call sit in one keyword-only default `_s`,
    made here before the candidate runs; reading or replacing a grader function's defaults is
    refused by the guard. pytest passes hooks only their named arguments, never `_s`.

    `log` is the strict helpers' failure log: a test whose window (its setup, call and
    teardown) logged a failed assert of the test file fails, whatever pytest made of it (the
    AssertionError may have been caught on the way). `attributed[0]` counts the failures
    that fell in some test's window; run_pytest fails the row for any other.

    `progress["collected"]` gets the node ids pytest collected (once collection is final,
    before any test runs) and `progress["reported"]` every node id given its final record:
    run_pytest fails each collected test that never got one. A parametrized test's records
    count toward one expected id, so a run that stopped after its first case (a
    KeyboardInterrupt, `pytest.exit(returncode=0)`, `session.shouldfail` set by the candidate)
    would otherwise pass on that case alone.

    `code_flags` is the guard's registry (provenance.Registry.flags): a test function is genuine
    only if its code is the very code object the harness compiled from the test file. A name, a file name
    and a first line are anyone's to put on code (`compile(src, testfile)`), and pytest's items
    and the tests' classes are the candidate's to reach: a function of the candidate's, named
    after a test and compiled under the test file's name, passed for it (red team rtv,
    forged_test_function_via_items). Every fixture a test uses must be the tests' own or a
    library's loaded before the candidate (pytest's `tmp_path`, `capsys`): a fixture of the
    program's, brought into the test module by `from solution import *` under the name of one
    of the tests' (`@pytest.fixture(name="cases")`: pytest keeps the last definition it parses)
    or autouse, served the tests' data (pytest_fixture_name_override).

    `module_bindings` (_module_bindings): what the test module's top level binds by an import
    (and nowhere else), resolved to the modules here, before the candidate runs. Before each test the module's name holds
    that module again: `import math` followed by `from solution import *` gave the tests the
    program's `math` (star_import_fake_math_module).

    `made`: the restorer (restore, adopt) of `test_modules` the hooks use, made by the caller
    before the candidate runs (run_pytest restores with it after importing the program too);
    made here when not given."""
    import functools
    import inspect

    import pytest

    log = log or strict.failure_log()
    progress = progress if progress is not None else {"collected": [], "reported": set()}
    code_type = type(make_recorder.__code__)
    restore, adopt = made or restorer(test_modules)  # imports them: remembered before the candidate runs
    bound_modules = _bound_modules(module_bindings)
    for name in test_modules:
        helpers[strict.REGISTER](sys.modules.get(name))
    helpers[strict.RESTORER](restore)  # pandas' comparisons run on pandas as it was (strict.pandas_op)
    state: dict[str, Any] = {
        "restore": restore, "adopt": adopt, "sets": sets, "adopted": [False], "setup_target": _setup_target,
        "module_type": type(sys), "module_dict": type(sys).__dict__["__dict__"].__get__,
        "ran": {}, "log": log,
        "attributed": attributed if attributed is not None else [0], "marks": {}, "starts": {},
        "install": _install_strict_unittest_asserts, "helpers": helpers, "wraps": functools.wraps,
        "iscoroutinefunction": inspect.iscoroutinefunction, "forked": helpers[strict.FORKED], "exit": os._exit,
        "code_type": code_type, "getattr": getattr, "setattr": setattr, "hasattr": hasattr, "type": type, "str": str, "len": len,
        "subtest_report": _subtest_report_type(),
        # a parametrized test's values as collected: (its callspec, the params dict, ((name,
        # value), ...)) by node id (pytest_collection_finish), checked before it runs
        "params": {}, "direct_param": _direct_param_func(), "params_kept": _params_kept,
        "dict_items": dict.items, "missing": object(),
        "params_changed": "a parametrized value of the test was changed after collection",
        "error": RuntimeError, "as_str": str.__str__, "testfile": testfile, "defs": defs,
        "not_genuine": "the collected test is not the test file's function", "send": report,
        "__code__": type(make_recorder).__dict__["__code__"].__get__, "base_exc": BaseException,
        "collected": progress["collected"], "reported": progress["reported"], "tuple": tuple,
        # pytest.skip / xfail / fail / exit raised inside a test: not the test's own failure (an
        # xfail mark counts only a failure the test itself raised)
        "outcome_exc": _outcome_exception(), "isinstance": isinstance,
        "code_flags": code_flags, "tests_category": provenance.TESTS, "library_category": provenance.LIBRARY,
        "late": provenance.LATE, "method_type": type(make_recorder.__get__(0)),
        "method_func": type(make_recorder.__get__(0)).__dict__["__func__"].__get__,
        "not_tests_fixture": "a fixture the test uses is not the tests' own (nor pytest's): {}",
        "bound_modules": bound_modules, "dict_get": dict.get, "frames": helpers[strict.FRAMES][1:],
        "limit": (sys.getrecursionlimit, sys.setrecursionlimit, _UNITTEST_FRAMES),
    }

    def genuine(fn, *, _s=state):  # noqa: ANN001, ANN202
        code = _s["getattr"](fn, "__func__", fn)
        code = _s["__code__"](code) if _s["type"](code) is _s["function_type"] else None
        if _s["type"](code) is not _s["code_type"]:
            return False
        if _s["code_flags"] is not None and _s["code_flags"](code) & 0xF != _s["tests_category"]:
            return False  # not the code the harness compiled from the test file
        return (_s["as_str"](code.co_filename) == _s["testfile"]
                and (_s["as_str"](code.co_name), code.co_firstlineno) in _s["defs"])

    def failures(nodeid, *, _s=state):  # noqa: ANN001, ANN202
        """The failures logged in this test's window since its last report."""
        start = _s["marks"].get(nodeid)
        if start is None:
            return ()
        logged = _s["log"](("since", start))
        _s["marks"][nodeid] = start + _s["len"](logged)
        return logged

    def trusted_fixture(func, *, _s=state):  # noqa: ANN001, ANN202
        """A fixture function the tests wrote (compiled by the harness) or a library's loaded
        before the candidate ran (pytest's own). Read through the C types' descriptors only."""
        flags_of = _s["code_flags"]
        if flags_of is None:
            return True
        if _s["type"](func) is _s["method_type"]:
            func = _s["method_func"](func)
        if _s["type"](func) is not _s["function_type"]:
            return False
        flags = flags_of(_s["__code__"](func))
        kind = flags & 0xF
        return kind == _s["tests_category"] or (kind == _s["library_category"] and not flags & _s["late"])

    def untrusted_fixtures(item, *, _s=state):  # noqa: ANN001, ANN202
        info = _s["getattr"](item, "_fixtureinfo", None)
        defs = _s["getattr"](info, "name2fixturedefs", None) or {}
        return [name for name, seq in _s["list"](defs.items())
                if not _s["all"](_s["trusted_fixture"](_s["getattr"](d, "func", None)) for d in seq)]

    def body(key, kind, *, _s=state):  # noqa: ANN001, ANN202 - linked into the test file's functions (BODY)
        """A test function of the test file entered its body (kind 0) or left it by an
        exception (kind 1)."""
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        seen = _s["bodies"].get(key)
        if seen is not None:
            seen[kind] += 1

    def behind(fn, *, _s=state):  # noqa: ANN001, ANN202
        """The test file's function behind a chain of wrappers of trusted code (a library's
        loaded before the candidate, or the tests'): `@mock.patch` as a decorator. Its first
        line (the key its body reports under), or None."""
        for _ in _s["range"](8):
            fn = _s["getattr"](fn, "__func__", fn)
            if _s["type"](fn) is not _s["function_type"]:
                return None
            code = _s["__code__"](fn)
            if _s["genuine"](fn):
                return code.co_firstlineno
            flags = _s["code_flags"](code) if _s["code_flags"] is not None else 0
            kind = flags & 0xF
            if not (kind == _s["tests_category"] or (kind == _s["library_category"] and not flags & _s["late"])):
                return None
            fn = _s["fn_dict"](fn).get("__wrapped__")
        return None

    helpers[BODY] = body
    pinned = {name: held for name, held in bound_modules}
    for name, module, attr in module_bindings:  # `from X import name` (pinned where _pinned_names says)
        obj = _pinned_object(module, attr) if attr else None
        if obj is not None:
            pinned.setdefault(name, obj)

    def module_of(name, *, _pinned=pinned):  # noqa: ANN001, ANN202 - linked into the test file (MODULE)
        return _pinned[name]

    helpers[MODULE] = module_of
    state.update(bodies={}, range=range, behind=behind, fn_dict=type(genuine).__dict__["__dict__"].__get__,
                 body_not_run="the test file's function behind the test's wrapper did not run to its end")
    state.update(genuine=genuine, failures=failures, function_type=type(genuine), trusted_fixture=trusted_fixture,
                 untrusted_fixtures=untrusted_fixtures, list=list, all=all)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_fixture_setup(fixturedef, request, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        """A fixture about to run is the tests' or pytest's (its definition may have been
        swapped since collection)."""
        if not _s["trusted_fixture"](_s["getattr"](fixturedef, "func", None)):
            raise _s["error"](_s["not_tests_fixture"].format(_s["getattr"](fixturedef, "argname", "?")))
        yield

    def pytest_collectreport(report, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        if report.failed:
            msg = _s["str"](report.longrepr).strip().splitlines()[-1:] if report.longrepr else []
            # pytest's "E   " marks the error line of its report: the error itself is the message
            msg = [line[1:].strip() if line[:4] == "E   " else line for line in msg]
            _s["send"]({"ev": "test", "id": f"collect:{report.nodeid}", "outcome": "error", "msg": " ".join(msg)[:500]})

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(session, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        _s["collected"].extend(_s["tuple"](item.nodeid for item in session.items))
        params, getattr_ = _s["params"], _s["getattr"]
        for item in session.items:
            spec = getattr_(item, "callspec", None)
            if spec is not None:
                values = spec.params
                params[item.nodeid] = (spec, values, _s["tuple"](_s["dict_items"](values)))

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(pyfuncitem, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        nodeid = pyfuncitem.nodeid
        fn = pyfuncitem.obj
        ran = _s["ran"]
        key = None
        if not _s["genuine"](fn):
            key = _s["behind"](fn)
            if key is None:
                ran[nodeid] = "error:" + _s["not_genuine"]
                raise _s["error"](_s["not_genuine"])
            _s["bodies"][key] = [0, 0]
        funcargs = pyfuncitem.funcargs
        args = {name: funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        collected = _s["params"].get(nodeid)
        if collected is not None and not _s["params_kept"](pyfuncitem, collected, args, _s):
            # setup_module (a star import brings the program's) and every fixture run before
            # this: pytest's items are the candidate's to reach (red team rt15)
            ran[nodeid] = "error:" + _s["params_changed"]
            raise _s["error"](_s["params_changed"])
        frames_on, frames_off = _s["frames"]
        frames_on()  # the program's frames the test enters are fenced (strict: frame fence)
        try:
            result = fn(**args)
        except _s["base_exc"] as exc:
            frames_off()
            ran[nodeid] = "outcome" if _s["isinstance"](exc, _s["outcome_exc"]) else "failed"
            raise
        frames_off()
        if key is not None:
            seen = _s["bodies"].pop(key)
            if not seen[0] or seen[1]:
                ran[nodeid] = "error:" + _s["body_not_run"]
                raise _s["error"](_s["body_not_run"])
        if _s["hasattr"](result, "__await__") or _s["hasattr"](result, "__next__"):
            ran[nodeid] = "error:async or generator test functions are not run"
            raise _s["error"]("async or generator test functions are not run")
        ran[nodeid] = "passed"
        return True

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_setup(item, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        """unittest.TestCase tests do not go through pytest_pyfunc_call: wrap the test method
        of the instance pytest just created, so its return is witnessed the same way. What the
        candidate patched since the last test is put back before this test's setup, never
        after it: the tests' own setup (fixtures, monkeypatch, setUp's mock.patch) stands."""
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        if not _s["adopted"][0]:
            # before the first test: what the test module's top level set itself (`sys.argv =
            # [...]`, `random.randint = ...` at import) is the tests' setup, and stands
            _s["adopted"][0] = True
            module = _s["getattr"](item, "module", None)
            if _s["type"](module) is _s["module_type"]:
                namespace = _s["module_dict"](module)
                for dotted, attr in _s["sets"]:
                    target = _s["setup_target"](namespace, dotted)
                    if target is not None:
                        _s["adopt"](target, (attr,))
        _s["frames"][0]()  # fenced from before the restore on: the fixtures' changes are the tests'
        _s["restore"]()
        module = _s["getattr"](item, "module", None)
        if _s["bound_modules"] and _s["type"](module) is _s["module_type"]:
            namespace = _s["module_dict"](module)
            for name, held in _s["bound_modules"]:
                if _s["dict_get"](namespace, name) is not held:
                    namespace[name] = held  # the tests' `import math`, not what rebound the name since
        _s["marks"][item.nodeid] = _s["starts"][item.nodeid] = _s["log"](("mark",))  # before its fixtures
        untrusted = _s["untrusted_fixtures"](item)
        if untrusted:
            _s["ran"][item.nodeid] = "error:" + _s["not_tests_fixture"].format(", ".join(untrusted))
            raise _s["error"](_s["not_tests_fixture"].format(", ".join(untrusted)))
        yield
        testcase = _s["getattr"](item, "_testcase", None)
        if testcase is None:
            return
        nodeid = item.nodeid
        method = _s["getattr"](testcase, item.name, None)
        fn = _s["getattr"](method, "__func__", None)
        key = None
        if fn is None or not _s["genuine"](fn):
            if _s["getattr"](method, "__unittest_skip__", False) is True:
                return  # unittest.skip's wrapper, which unittest never calls: the test does not run
            key = _s["behind"](fn) if fn is not None else None
            if key is None:
                _s["ran"][nodeid] = "error:" + _s["not_genuine"]
                return
        _s["install"](testcase, _s["helpers"], _s["log"])
        item.obj = _s["witness"](method, nodeid, key)  # pytest binds item.obj onto the instance right before running it
        if _s["iscoroutinefunction"](method):
            # ...but not an async one (pytest 9 hands IsolatedAsyncioTestCase the instance as it
            # is): unittest looks the method up on the instance, where this shadows the class's
            _s["setattr"](testcase, item.name, item.obj)

    def witness(method, nodeid, key=None, *, _s=state):  # noqa: ANN001, ANN202
        """The test method, run and its return recorded. An async method (IsolatedAsyncioTestCase)
        stays a coroutine function, so unittest awaits it. The state sits in keyword-only
        defaults: pytest keeps this function as `item.obj`, reachable from candidate code."""
        if _s["iscoroutinefunction"](method):
            async def witnessed(*args, _m=method, _id=nodeid, _ran=_s["ran"], _base=_s["base_exc"],  # noqa: ANN202
                                _out=_s["outcome_exc"], _isinstance=_s["isinstance"], _key=key, _bodies=_s["bodies"],
                                _fail=_s["error"], _why=_s["body_not_run"], **kwargs):
                if _key is not None:
                    _bodies[_key] = [0, 0]
                try:
                    result = await _m(*args, **kwargs)
                except _base as exc:
                    _ran[_id] = "outcome" if _isinstance(exc, _out) else "failed"
                    raise
                if _key is not None:
                    seen = _bodies.pop(_key)
                    if not seen[0] or seen[1]:
                        _ran[_id] = "error:" + _why
                        raise _fail(_why)
                _ran[_id] = "passed"
                return result
        else:
            def witnessed(*args, _m=method, _id=nodeid, _ran=_s["ran"], _base=_s["base_exc"],  # noqa: ANN202
                          _out=_s["outcome_exc"], _isinstance=_s["isinstance"], _key=key, _bodies=_s["bodies"],
                          _fail=_s["error"], _why=_s["body_not_run"], _frames=_s["frames"], _limit=_s["limit"],
                          **kwargs):
                if _key is not None:
                    _bodies[_key] = [0, 0]
                raised = _limit[0]() + _limit[2]
                _limit[1](raised)
                _frames[0]()
                try:
                    result = _m(*args, **kwargs)
                except _base as exc:
                    _frames[1]()
                    if _limit[0]() == raised:
                        _limit[1](raised - _limit[2])
                    _ran[_id] = "outcome" if _isinstance(exc, _out) else "failed"
                    raise
                _frames[1]()
                if _limit[0]() == raised:
                    _limit[1](raised - _limit[2])
                if _key is not None:
                    seen = _bodies.pop(_key)
                    if not seen[0] or seen[1]:
                        _ran[_id] = "error:" + _why
                        raise _fail(_why)
                _ran[_id] = "passed"
                return result

        return _s["wraps"](method)(witnessed)  # keeps __unittest_skip__ and friends visible to pytest

    state["witness"] = witness

    def pytest_runtest_logreport(report, *, _s=state):  # noqa: ANN001, ANN202 - pytest hook
        if _s["forked"][0]:
            _s["exit"](1)  # a process the candidate forked runs no test (strict.fork_flag)
        getattr_, str_, send, failures = _s["getattr"], _s["str"], _s["send"], _s["failures"]
        if _s["type"](report) is _s["subtest_report"]:
            # unittest's self.subTest (pytest 9 reports each one while the method still runs):
            # a passing one says nothing (the method's own report, witnessed, decides); any
            # other outcome is the test's, and the worse one of its records stands
            if report.outcome != "passed":
                crash = getattr_(report.longrepr, "reprcrash", None)
                msg = crash.message if crash is not None else str_(report.longrepr or "")
                send({"ev": "test", "id": report.nodeid, "outcome": "failed" if report.outcome == "failed" else "skipped",
                      "msg": (msg.strip().splitlines() or [""])[0][:500]})
            return
        if report.when == "call" or report.outcome != "passed":
            outcome = report.outcome
            seen = _s["ran"].get(report.nodeid)
            if outcome == "skipped":
                # Whether the mark behind it is the test file's is decided outside, from the
                # text (splitting.pytest_marks): here only what happened. "xfailed": the test
                # itself raised (not pytest.xfail/skip/fail); "skipped_by_mark": skipped
                # before the test's body ran (a mark's skip, xfail(run=False), unittest.skip);
                # any other skip (pytest.skip() in a call) never counts.
                if getattr_(report, "wasxfail", None) is not None and report.when == "call" and seen == "failed":
                    outcome = "xfailed"
                elif seen is None:  # the test's body never ran: a mark, unittest's skip decorators
                    outcome = "skipped_by_mark"
            msg = ""
            if report.longrepr is not None and outcome != "passed":
                crash = getattr_(report.longrepr, "reprcrash", None)
                msg = crash.message if crash is not None else str_(report.longrepr)
                msg = msg.strip().splitlines()[0][:500] if msg.strip() else ""
            if outcome == "failed" and report.when != "call":
                outcome = "error"
            elif outcome == "failed" and msg and not msg.startswith(("assert", "AssertionError")):
                outcome = "error"  # the test raised something other than a failed assertion
            if report.when == "call" and outcome == "passed":  # an xpass too (strict: pytest's failure)
                if seen != "passed":
                    outcome = "error"
                    msg = "pytest reported a pass the harness did not witness" + (f" ({seen})" if seen else "")
            logged = failures(report.nodeid)
            if logged and outcome == "passed":
                outcome, msg = "failed", logged[0][3]
            send({"ev": "test", "id": report.nodeid, "outcome": outcome, "msg": msg})
            _s["reported"].add(report.nodeid)
        elif report.when == "teardown":
            logged = failures(report.nodeid)  # e.g. an assert in a fixture's teardown, or one caught
            if logged:
                send({"ev": "test", "id": report.nodeid, "outcome": "failed", "msg": logged[0][3]})
        if report.when == "teardown":
            start = _s["starts"].pop(report.nodeid, None)
            _s["marks"].pop(report.nodeid, None)
            if start is not None:
                _s["attributed"][0] += _s["len"](_s["log"](("since", start)))

    plugin = _Plugin()
    vars(plugin).update(pytest_collectreport=pytest_collectreport, pytest_collection_finish=pytest_collection_finish,
                        pytest_pyfunc_call=pytest_pyfunc_call, pytest_fixture_setup=pytest_fixture_setup,
                        pytest_runtest_setup=pytest_runtest_setup, pytest_runtest_logreport=pytest_runtest_logreport)
    return plugin


def _direct_param_func() -> Any:
    """pytest's function behind a directly parametrized argument (its pseudo fixture), or None."""
    try:
        from _pytest.python import get_direct_param_fixture_func
    except ImportError:
        return None
    return get_direct_param_fixture_func


def _params_kept(item: Any, collected: tuple[Any, ...], args: dict[str, Any], s: dict[str, Any]) -> bool:
    """The parametrized values the test runs with are those pytest collected: the same
    callspec and dict, each value the same object, and a directly parametrized argument given
    that very value. `setup_module` of the program's (a star import brings it) rewrote
    `item.callspec.params["want"]` to what the program answers. By identity only: a test may
    change the lists it is given in place (an in-place sort), which later tests then share."""
    spec, values, entries = collected
    getattr_, missing = s["getattr"], s["missing"]
    if getattr_(item, "callspec", None) is not spec or spec.params is not values or s["len"](values) != s["len"](entries):
        return False
    fixturedefs = item._fixtureinfo.name2fixturedefs
    for name, value in entries:
        if s["dict_get"](values, name, missing) is not value:
            return False
        if name in args and args[name] is not value:
            defs = s["dict_get"](fixturedefs, name, None)
            if defs and getattr_(defs[-1], "func", None) is s["direct_param"]:
                return False
    return True


def _outcome_exception() -> type[BaseException]:
    """pytest's base of skip/xfail/fail/exit (OutcomeException), or a class nothing raises."""
    try:
        from _pytest.outcomes import OutcomeException
    except ImportError:
        return type("NoOutcome", (BaseException,), {})
    return OutcomeException


def _subtest_report_type() -> Any:
    """pytest's report class for unittest subtests (pytest >= 9), or a class no report has."""
    try:
        from _pytest.subtests import SubtestReport
    except ImportError:
        return type("NoSubtests", (), {})
    return SubtestReport


def _install_strict_unittest_asserts(testcase: Any, helpers: dict[str, Any],
                                     log: Callable[[tuple[Any, ...]], Any]) -> None:
    """Every comparing assert method on this TestCase instance goes through the strict
    helpers (strict.unittest_asserts); a failure is logged before it raises. The instance is
    reachable from candidate code (pytest's items): what is set on it holds the strict
    implementation in a keyword-only default, not a closure cell (see strict.held)."""
    _setattr, held = setattr, strict.held
    for name, fn in strict.unittest_asserts(helpers, log, testcase.failureException).items():
        _setattr(testcase, name, held(fn))


_WATCHED = ("_pytest", "pluggy", "pytest", "rlvr_grade", "rlvr_harness")
# The pytest-warm worker's fingerprint, taken once before it forks any check (see
# prepare_fingerprint, _fp_base). Built per check it was ~20 ms of a pytest check's ~110 ms;
# gathered from it per check (a tuple of its ~430 namespaces' holders, a walk of sys.modules)
# it still copied ~1,000 pages into every check's child.
_FP_BASE: list[tuple[Any, ...]] = []


def _fp_spaces(names: Any) -> list[tuple[Any, ...]]:
    """One (prefix, getter, namespace, holder, entries) per named module and per class it defines: the holder
    is the module's dict or the class (whose version tag _dictver reads), each entry (module or
    class name, attribute, getter, namespace, id of the value) one attribute of it."""
    dict_get, proxy_get = dict.get, type(vars(type)).get
    spaces: list[tuple[Any, ...]] = []
    for name in names:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        found = [(name, vars(mod), vars(mod))]
        for attr, value in list(found[0][1].items()):
            if isinstance(value, type) and value.__module__ == name:
                found.append((f"{name}.{attr}", vars(value), value))
        spaces.extend(_fp_space(prefix, ns, holder, dict_get if type(ns) is dict else proxy_get)
                      for prefix, ns, holder in found)
    return spaces


def _fp_space(prefix: str, ns: Any, holder: Any, get: Any) -> tuple[Any, ...]:
    return prefix, get, ns, holder, tuple((prefix, attr, get, ns, id(value)) for attr, value in list(ns.items()))


def _fp_tags(holders: tuple[Any, ...]) -> Any:
    """The holders' version tags, or None where _dictver is missing or too old to read a
    class's: then every value is compared."""
    if _DICTVER is None:
        return None
    try:
        return _DICTVER.tags(holders)
    except TypeError:
        return None


def _watched_modules() -> list[str]:
    return [name for name, mod in list(sys.modules.items()) if mod is not None and name.startswith(_WATCHED)]


def prepare_fingerprint() -> None:
    """Take the fingerprint's base in the warm worker, before any fork (the checks inherit it)."""
    _FP_INSTANCES[:] = _fp_instance_list()
    _FP_BASE[:] = [_fp_base()]


def _fp_base() -> tuple[Any, ...]:
    """What _fingerprinter starts from, as tuples a check holds whole (no page of them copied):
    (names known, namespaces, their holders, entries and tags; pytest's instances, their dicts,
    tags and (object, class, dict) for _dictver.held)."""
    names = _watched_modules()
    full = tuple(_fp_spaces(names))
    spaces = tuple(s[:4] for s in full)
    holders = tuple(s[3] for s in full)
    instances = _fp_instances()
    owns = tuple(e[3] for e in instances)
    taken = frozenset(names)
    known = frozenset(n for n in list(sys.modules) if n in taken or not (type(n) is str and n.startswith(_WATCHED)))
    return (known, spaces, holders, tuple(s[4] for s in full), _fp_tags(holders), instances, owns, _fp_tags(owns),
            tuple(e[1:4] for e in instances))


def _fingerprinter() -> Callable[[], list[str]]:
    """Take, now, id() of every function/class attribute of pytest's, pluggy's and our own
    modules; the function returned lists those that changed since (a candidate that
    monkeypatches the runner's internals changes at least one). It holds the module and class
    dicts themselves (classes through their read-only proxies) and its own builtins: replacing
    `sys.modules` entries, this module's globals or `builtins.list` after the fact changes
    nothing it looks at. From the worker's base (prepare_fingerprint) only what changed since
    is taken again: modules imported after it, namespaces and pytest instances' dicts whose
    version tag (PEP 509) moved (the assertion-rewrite hook's). changes() reads the values only
    of the namespaces whose tag moved since: a dict's tag moves on every store of another value
    and every delete, and nothing but ctypes (refused) writes it. An instance's class and dict
    are compared with the worker's: the harness swaps neither before the candidate runs."""
    _id, _list, _range, _len = id, list, range, len
    missing = object()
    changed_since = _DICTVER.changed if _DICTVER is not None else None
    base = _FP_BASE[0] if _FP_BASE else _fp_base()
    known, spaces, holders, entries_of, base_tags, instances, owns, own_tags, idents = base
    retaken = {i: _fp_space(prefix, ns, holder, get)[4] for i in (
        changed_since(holders, _list(base_tags)) if base_tags is not None and changed_since is not None
        else _range(_len(holders))) for prefix, get, ns, holder in (spaces[i],)}
    new = [n for n in new_modules(known) if type(n) is str and n.startswith(_WATCHED) and sys.modules.get(n) is not None]
    extra = _fp_spaces(new)
    extra_holders = tuple(s[3] for s in extra)
    parts = ((holders, entries_of, retaken, _fp_tags(holders) if changed_since is not None else None),
             (extra_holders, tuple(s[4] for s in extra), {}, _fp_tags(extra_holders) if changed_since is not None else None))
    inst_retaken: dict[int, tuple[Any, ...]] = {}
    for j in (changed_since(owns, _list(own_tags)) if own_tags is not None and changed_since is not None
              else _range(_len(owns))):
        label, obj, cls, own, _public = instances[j]
        inst_retaken[j] = (label, obj, cls, own, tuple((k, _id(v)) for k, v in own.items() if not k.startswith("_")))
    held = getattr(_DICTVER, "held", None)
    inst_start = _fp_tags(owns) if changed_since is not None and held is not None else None

    def changes(*, _type=type, _get_dict=_instance_dict, _sorted=sorted, _set=set) -> list[str]:
        out = []
        for part_holders, part_entries, part_retaken, start in parts:
            for i in (changed_since(part_holders, _list(start)) if start is not None else _range(_len(part_entries))):
                for prefix, attr, get, ns, ident in part_retaken.get(i, part_entries[i]):
                    now = get(ns, attr, missing)
                    if now is not missing and _id(now) != ident:  # a removed name breaks pytest by itself
                        out.append(f"{prefix}.{attr}")
        # an instance whose dict's tag stayed and whose class and dict are the same (found in C) is as it was
        for j in (_sorted(_set(changed_since(owns, _list(inst_start))).union(held((), idents)[1]))
                  if inst_start is not None else _range(_len(instances))):
            label, obj, cls, own, public = inst_retaken.get(j, instances[j])
            if _type(obj) is not cls or _get_dict(obj) is not own:
                out.append(label)
                continue
            now = [(k, _id(v)) for k, v in own.items() if not k.startswith("_")]
            if now != _list(public):
                out.append(f"{label}.{now[-1][0] if now else ''}")
        return out

    return changes


_FP_INSTANCES: list[tuple[str, Any]] = []  # (label, object): pytest's module-level instances (prepare_fingerprint)


def _fp_instance_list() -> list[tuple[str, Any]]:
    """The objects of pytest's and pluggy's own classes that their modules hold (`pytest.mark`,
    the MarkGenerator the tests' decorators are made by): their own dicts and classes are no
    module's or class's namespace the fingerprint covers (red team rt15: `pytest.mark.parametrize
    = ...` set on the instance, before the tests' module body ran, rewrote every case)."""
    out: list[tuple[str, Any]] = []
    seen: set[int] = set()
    module_type = type(sys)
    for name in _watched_modules():
        mod = sys.modules.get(name)
        parts = name.split(".")
        if type(mod) is not module_type or parts[0] not in ("pytest", "_pytest", "pluggy") or any(
                p.startswith("_") for p in parts[1:]):  # a private module's objects (py.error's lazy errno cache)
            continue
        for attr, v in list(vars(mod).items()):
            t = type(v)
            where = t.__dict__.get("__module__") if isinstance(t.__dict__.get("__module__"), str) else ""
            if (id(v) in seen or isinstance(v, type) or t is module_type or not where.startswith(("_pytest", "pytest", "pluggy"))
                    or not t.__dictoffset__):
                continue
            seen.add(id(v))
            out.append((f"{name}.{attr}", v))
    return out


def _fp_instances() -> tuple[tuple[Any, ...], ...]:
    """(label, object, its class, its dict, its public entries by id) per _FP_INSTANCES, now."""
    if not _FP_INSTANCES:
        _FP_INSTANCES.extend(_fp_instance_list())
    out = []
    for label, obj in _FP_INSTANCES:
        try:
            own = _instance_dict(obj)
        except Exception:  # noqa: BLE001 - no instance dict: nothing of it to compare
            continue
        if type(own) is dict:
            out.append((label, obj, type(obj), own, tuple((k, id(v)) for k, v in own.items() if not k.startswith("_"))))
    return tuple(out)


def pytest_args(testfile: str, testdir: str) -> list[str]:
    return [
        testfile,
        "-q",
        "-p", "no:cacheprovider",
        "-p", "no:unraisableexception",
        "-p", "no:threadexception",
        "-p", "no:stepwise",
        # Plugins no test can ask for from a test file: each registered plugin costs every
        # check a fixture scan of its module (~1.5 ms apiece in a forked child). Not
        # `debugging`: the unittest plugin reads its --trace option.
        "-p", "no:pastebin",
        "-p", "no:junitxml",
        "-p", "no:doctest",
        "-p", "no:setuponly",
        "-p", "no:setupplan",
        "-p", "no:faulthandler",
        "--noconftest",
        "--rootdir", testdir,
        "-o", "addopts=",
        "--tb=line",
    ]


_EXPLAINED_DEPTH = 64  # pytest explains an assert no deeper than this (its rewrite is superlinear in depth)


_EXPLAINED = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Call, ast.Attribute, ast.Starred, ast.keyword)


def _explained_depth(expr: ast.AST) -> int:
    """How deep pytest's rewrite descends into `expr`: through operators, calls and
    attributes (a literal list is one node to it, however big)."""
    deepest = 0
    stack = [(expr, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if d <= _EXPLAINED_DEPTH:
            stack.extend((c, d + 1) for c in ast.iter_child_nodes(node) if isinstance(c, _EXPLAINED))
    return deepest


def _plain_deep_asserts(tree: ast.AST) -> None:
    """`assert cond, msg` whose condition nests deeper than _EXPLAINED_DEPTH becomes
    `if not cond: raise AssertionError(msg)`, which pytest's rewrite leaves alone: its
    explanation of a 600-term `1+1+...+1` took 3.7 s of CPU (the strict rewrite before it has
    already made the condition the harness's call, which logs a failure itself)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for _field, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, child in enumerate(value):
                    if isinstance(child, ast.Assert) and _explained_depth(child.test) > _EXPLAINED_DEPTH:
                        fail = ast.Raise(exc=ast.Call(func=ast.Name("AssertionError", ast.Load()),
                                                      args=[child.msg] if child.msg is not None else [], keywords=[]))
                        value[i] = ast.copy_location(ast.If(test=ast.UnaryOp(ast.Not(), child.test), body=[fail],
                                                            orelse=[]), child)
                        ast.fix_missing_locations(value[i])
                    elif isinstance(child, ast.AST):
                        stack.append(child)
            elif isinstance(value, ast.AST) and not isinstance(value, ast.expr):
                stack.append(value)


MODULE = "__rlvr_module__"  # the helper a pinned module name is read through (_pin_modules)


def _pinned_names(tests: str) -> tuple[str, ...]:
    """Names a pytest module binds by a top-level import and nowhere else (_module_bindings)
    whose object exists now, before the candidate runs (the restorer imports the same
    modules; the program's own `solution` is not one of them): `import X` / `import X as Y`
    (a module), and `from X import name` when no star import follows it (after one, Python
    gives the program's name if it exports one: left as written)."""
    import importlib

    try:
        body = ast.parse(tests).body
    except (SyntaxError, ValueError, RecursionError):
        return ()
    last_star = max((i for i, stmt in enumerate(body) if isinstance(stmt, ast.ImportFrom)
                     and any(a.name == "*" for a in stmt.names)), default=-1)
    where: dict[str, int] = {}
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.ImportFrom):
            for a in stmt.names:
                where.setdefault(a.asname or a.name, i)
    out = []
    for name, module, attr in _module_bindings(tests):
        if module.split(".")[0] == "solution" or (attr and where.get(name, -1) < last_star):
            continue
        try:
            importlib.import_module(module)
        except BaseException:  # noqa: BLE001 - the tests' own import will say what is wrong
            continue
        if _pinned_object(module, attr) is not None:
            out.append(name)
    return tuple(out)


def _pinned_object(module: str, attr: str) -> Any:
    """What `import module` (attr "") or `from module import attr` gives now, else None."""
    held = sys.modules.get(module)
    if type(held) is not type(sys):
        return None
    if not attr:
        return held
    sub = sys.modules.get(f"{module}.{attr}")
    return sub if sub is not None else vars(held).get(attr)


def _pin_modules(tree: ast.Module, names: tuple[str, ...]) -> None:
    """Every read of a pinned name (a module or an object the test module imports, see
    _pinned_names) that no enclosing function, lambda, comprehension or class body binds
    becomes `__rlvr_module__("name")`: what the import gave before the candidate ran, held by a
    linked helper. The test module's globals are reachable from candidate code (sys.modules,
    pytest's items), and a rebinding of `math` there in the middle of a test decided that
    test's later `math.isclose(...)` (red team rtv, test_module_global_rebound_mid_test)."""
    if not names:
        return
    pinned = frozenset(names)

    class Pin(ast.NodeTransformer):
        def __init__(self) -> None:
            self.shadow: list[frozenset[str]] = [frozenset()]

        def _scope(self, node: ast.AST, fields: tuple[str, ...], outer: frozenset[str]) -> None:
            bound, _read, _reaching = strict._scope_names(node)
            declared = {n for sub in ast.walk(node) if isinstance(sub, (ast.Global, ast.Nonlocal)) for n in sub.names}
            self.shadow.append(outer | (bound & pinned) | (declared & pinned))
            for field in fields:
                value = getattr(node, field)
                if isinstance(value, list):
                    setattr(node, field, [self.visit(v) for v in value])
                elif isinstance(value, ast.AST):
                    setattr(node, field, self.visit(value))
            self.shadow.pop()

        def _function(self, node: ast.AST) -> ast.AST:
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
            node.args = self.visit(node.args)  # defaults and annotations: the enclosing scope
            if getattr(node, "returns", None) is not None:
                node.returns = self.visit(node.returns)
            self._scope(node, ("body",), self._function_shadow())
            return node

        def _function_shadow(self) -> frozenset[str]:
            return self.shadow[-1]

        visit_FunctionDef = visit_AsyncFunctionDef = _function

        def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
            node.args = self.visit(node.args)
            self._scope(node, ("body",), self.shadow[-1])
            return node

        def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
            node.bases = [self.visit(b) for b in node.bases]
            node.keywords = [self.visit(k) for k in node.keywords]
            bound, _read, _reaching = strict._scope_names(node)
            outer = self.shadow[-1]
            # the class body's own names shadow only its own statements, not its methods'
            body = []
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    body.append(self.visit(stmt))
                else:
                    self.shadow.append(outer | (bound & pinned))
                    body.append(self.visit(stmt))
                    self.shadow.pop()
            node.body = body
            return node

        def _comprehension(self, node: ast.AST) -> ast.AST:
            first = node.generators[0]
            first.iter = self.visit(first.iter)  # evaluated in the enclosing scope
            bound, _read, _reaching = strict._scope_names(node)
            self.shadow.append(self.shadow[-1] | (bound & pinned))
            first.target = self.visit(first.target)
            first.ifs = [self.visit(i) for i in first.ifs]
            for gen in node.generators[1:]:
                self.visit(gen)
            for field in ("elt", "key", "value"):
                if hasattr(node, field):
                    setattr(node, field, self.visit(getattr(node, field)))
            self.shadow.pop()
            return node

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

        def visit_match_case(self, node: ast.match_case) -> ast.AST:
            # a value pattern (`case math.pi:`) must stay a dotted name: left as written
            if node.guard is not None:
                node.guard = self.visit(node.guard)
            node.body = [self.visit(stmt) for stmt in node.body]
            return node

        def visit_Name(self, node: ast.Name) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and node.id in pinned and node.id not in self.shadow[-1]:
                call = ast.Call(func=strict.helper_ref(MODULE), args=[ast.Constant(node.id)], keywords=[])
                return ast.copy_location(call, node)
            return node

    Pin().visit(tree)
    ast.fix_missing_locations(tree)


BODY = "__rlvr_body__"  # the helper a test function's body reports its entry and exit through


def _witness_bodies(tree: ast.Module) -> None:
    """Every test function of a pytest module (`test*` at the top level and in its classes)
    reports, through the linked helper BODY, that its own body was entered (kind 0) and that it
    left by an exception (kind 1), keyed by its first line (co_firstlineno: the first
    decorator's). A test that pytest holds as a library's wrapper (`@mock.patch` as a decorator)
    passes only if the body of the test file's function behind it ran to its end: a wrapper is
    anyone's to make around a do-nothing function and name after the test (`__wrapped__`)."""
    def wrap(fn: ast.AST) -> None:
        key = fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno
        body = list(fn.body)
        head = []
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            head = [body.pop(0)]  # the docstring stays the docstring
        if not body:
            body = [ast.Pass()]

        def call(kind: int, key: int = key) -> ast.stmt:
            return ast.Expr(ast.Call(func=strict.helper_ref(BODY), args=[ast.Constant(key), ast.Constant(kind)], keywords=[]))

        guarded = ast.Try(body=body, handlers=[ast.ExceptHandler(type=ast.Name("BaseException", ast.Load()), name=None,
                                                                 body=[call(1), ast.Raise()])],
                          orelse=[], finalbody=[])
        fn.body = [*head, call(0), guarded]
        ast.fix_missing_locations(fn)

    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    for stmt in tree.body:
        if isinstance(stmt, defs) and stmt.name.startswith("test"):
            wrap(stmt)
        elif isinstance(stmt, ast.ClassDef):
            for inner in stmt.body:
                if isinstance(inner, defs) and inner.name.startswith("test"):
                    wrap(inner)


def _strict_rewrite_hook(testfile: str, helpers: dict[str, Any], tests: str | None = None,
                         trust: Callable[[Any], None] | None = None) -> None:
    """Compile the test module with our rewrite (strict.rewrite, then pytest's own assertion
    rewrite) and link the helpers into its code (strict.link); `trust` registers the result
    with the guard (trusted by identity). With `tests`, the module's source is that text, not
    the file's (which holds TEST_PLACEHOLDER): the tests never sit where a process can read them.

    The two functions installed in pytest's module keep everything in keyword-only defaults
    (the source, the helpers, the originals), never in closure cells: they are module
    attributes anyone can read, and `__closure__` is not audited while `__kwdefaults__` of the
    harness's functions is refused to candidate code."""
    import importlib.util

    from _pytest.assertion import rewrite as pyrewrite

    source = tests.encode("utf-8", "surrogatepass") if tests is not None else None

    def rewrite_asserts(mod, source, module_path=None, config=None, *, _original=pyrewrite.rewrite_asserts,  # noqa: ANN001
                        _real=os.path.realpath(testfile), _realpath=os.path.realpath, _str=str,
                        _rewrite=strict.rewrite, _plain=_plain_deep_asserts, _bodies=_witness_bodies,
                        _pin=_pin_modules, _pinned=_pinned_names(tests) if tests is not None else ()):
        if module_path is not None and _realpath(_str(module_path)) == _real:
            _rewrite(mod)
            _pin(mod, _pinned)  # after the strict rewrite: its helpers' arguments are pinned too
            _plain(mod)
            _bodies(mod)
        return _original(mod, source, module_path, config)

    def _rewrite_test(fn, config, *, _original=pyrewrite._rewrite_test, _real=os.path.realpath(testfile),  # noqa: ANN001
                      _realpath=os.path.realpath, _str=str, _source=source, _link=strict.link, _helpers=helpers,
                      _parse=ast.parse, _compile=compile, _hash=importlib.util.source_hash,
                      _rewrite_asserts=rewrite_asserts, _trust=trust, _deeper=deeper):
        if _realpath(_str(fn)) != _real:
            return _original(fn, config)
        if _source is None:
            source_hash, co = _original(fn, config)
        else:
            strfn = _str(fn)
            try:
                tree = _parse(_source, filename=strfn)
                _rewrite_asserts(tree, _source, strfn, config)
                co = _compile(tree, strfn, "exec", dont_inherit=True)
            except RecursionError:  # deeply nested tests: again, under their own depth's budget
                tree = _parse(_source, filename=strfn)
                with _deeper(tree):
                    _rewrite_asserts(tree, _source, strfn, config)
                    co = _compile(tree, strfn, "exec", dont_inherit=True)
            source_hash = _hash(_source)
        co = _link(co, _helpers)
        if _trust is not None:
            _trust(co)
        return source_hash, co

    pyrewrite.rewrite_asserts = rewrite_asserts
    pyrewrite._rewrite_test = _rewrite_test


def _test_defs(tests: str) -> set[tuple[str, int]]:
    """(name, first line) of every function in the test file; 3.11 starts a decorated
    function's code at its first decorator."""
    defs: set[tuple[str, int]] = set()
    for node in ast.walk(ast.parse(tests)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.add((node.name, node.lineno))
            for d in node.decorator_list:
                defs.add((node.name, d.lineno))
    return defs


def run_pytest(payload: CheckPayload, report: Report, workdir: str, testdir: str) -> None:
    import pytest

    resolve_hookimpls()  # a no-op in a pytest-warm worker, which resolved them before forking

    program = payload.program
    setup = payload.setup
    source = setup + "\n" + program if setup else program
    if _compile(source, WORKDIR_SOLUTION, report) is None:
        return
    testfile = os.path.join(testdir, TEST_MODULE)
    try:
        defs = _test_defs(payload.tests)
        modules = test_imports(ast.parse(payload.tests))
    except SyntaxError:
        defs, modules = set(), []
    for d in (workdir, testdir):
        if d not in sys.path:
            sys.path.insert(0, d)
    forked, watch_forks = strict.fork_flag()
    log = strict.failure_log(forked)
    guard = _make_guard(payload, (testfile, os.path.realpath(testfile)))
    helpers = strict.make_namespace(log, guard.registry if isinstance(guard, Guard) else None, forked)
    switch = _TAKEN.pop("frames", None)
    if switch is not None:
        helpers[strict.FRAMES][0](switch)
    del switch
    _strict_rewrite_hook(testfile, helpers, payload.tests, guard.trust if isinstance(guard, Guard) else None)
    attributed = [0]
    progress: dict[str, Any] = {"collected": [], "reported": set()}
    # One restorer for the check (a second one, for the restore after the program's import,
    # gathered everything again: ~1.5 ms and ~70 copied pages a check). Its adopt() stays with
    # the recorder alone, out of this frame's locals.
    made = restorer(modules)
    restore_now = made[0]
    recorder = make_recorder(report, testfile, defs, helpers, modules, log, attributed, progress,
                             _module_sets(payload.tests),
                             guard.registry.flags if isinstance(guard, Guard) else None,
                             _module_bindings(payload.tests), made)
    del made
    # Everything used after pytest returns is taken now: the candidate has run by then, and the
    # fingerprint check, this module's globals and builtins are all within its reach.
    changes = _fingerprinter()
    frames_off = helpers[strict.FRAMES][2]
    as_int = int
    disarm = guard.disarm
    _len = len
    # The candidate's module is imported before pytest imports the tests, then what it patched
    # is put back: the tests' own `import math` (run after `from solution import *`) binds the
    # module the name had before the candidate, not one it put in sys.modules. If the import
    # fails, pytest's import of the tests runs it again and reports the error as collection's.
    import_module = __import__("importlib").import_module
    watch_forks()
    _TAKEN.clear()
    _recursion_headroom(sys._getframe(), _PYTEST_FRAMES)
    guard.arm()
    try:
        import_module(WORKDIR_SOLUTION[:-3])
    except BaseException:  # noqa: BLE001 - reported by pytest's own import of it
        pass
    restore_now()
    code = as_int(pytest.main(pytest_args(testfile, testdir), plugins=[recorder]))
    frames_off()  # armed by a test's setup whose call never came (a fixture failed)
    disarm()
    for nodeid in progress["collected"]:
        if nodeid not in progress["reported"]:  # pytest stopped before this test had its say
            report({"ev": "test", "id": nodeid, "outcome": "error",
                    "msg": f"{nodeid}: the run stopped before this test reported (pytest exit code {code})"})
    stray = _len(log(("since", 0))) - attributed[0]
    if stray > 0:  # a failed assert of the test file outside every test's window
        report({"ev": "test", "id": "unattributed", "outcome": "failed",
                "msg": f"{stray} failed assert(s) of the test file outside any test"})
    changed = changes()
    if changed:
        report({"ev": "phase", "phase": "runtime", "msg": f"the test runner was modified: {', '.join(changed[:3])}"})
        return
    if code in (0, 1):  # tests ran; a failure is a verdict, not a harness error
        report({"ev": "done"})
    elif code == 2:
        report({"ev": "done", "interrupted": True})
    else:
        report({"ev": "phase", "phase": "runtime", "msg": f"pytest exited with code {code}"})
