"""Which code and which classes the grader vouches for, by identity, never by name.

A code object's `co_filename` is a string anyone can choose: `compile(src, "tests.py")`,
`CodeType(...)`, `code.replace()`, `marshal.loads` of edited bytes, a sourceless `.pyc` on
`sys.path`, `_imp._fix_co_filename(code, path)`. So nothing here trusts a name. A code object is
vouched for when the registry holds *that object*:

- everything that exists in the worker before any candidate code (every function's code and
  its nested code, the frames on the worker's stack), taken once by `scan()`;
- what the harness compiles itself (the tests, `add(code, TESTS)`);
- a module the import system executes before the candidate starts (the guard's hook sees the
  `exec` event and adds it);
- a module the import system executes while the candidate runs, *if* it equals the compiled
  form of the file its name points to on the read-only library tree (`verified`): the
  candidate can put any name on its code, not the library's bytes under the library's path;
- code a library generates from its own templates (dataclasses, namedtuple) while no frame of
  the candidate's is on the stack (the guard decides that and calls `add`).

Classes likewise: every class alive in the worker before any candidate code (the walk over
`object.__subclasses__()`), and the classes of modules imported before the candidate starts
(`add_module`). A class made later is nobody's the grader knows: the candidate's, the tests',
or a library's made on someone's request, and treated as the candidate's (stricter, never more
lenient).

The registry is a set of closures held by the guard's hook and the strict helpers only; this
module keeps no state of its own (its globals are reachable from candidate code).
"""

from __future__ import annotations

import os
from types import CodeType, FunctionType
from typing import Any, Callable, NamedTuple

LIBRARY, HARNESS, TESTS = 1, 2, 3
# Flags a code object gets when it is registered, from its (then genuine) file and name: later
# renaming (`_imp._fix_co_filename` on a library function's code) changes nothing here.
FRAME_API = 1 << 4  # hands frames to its caller: inspect, bdb, pdb, cgitb, pytest, pluggy, py
TEXT_STACK = 1 << 5  # traceback/logging functions that hand over frames (walk_stack, currentframe...)
TRAMPOLINE = 1 << 6  # weakref.finalize calling back whatever was registered
LOGGING_LAMBDA = 1 << 7  # logging.currentframe: `lambda: sys._getframe(1)`
SIGNATURE = 1 << 8  # inspect reading a callback's signature
GRADER = 1 << 9  # pytest's and pluggy's own code: its code and defaults are the grader's
CAPTURE = 1 << 10  # traceback's frame walk, which may render locals (capture_locals)
LATE = 1 << 11  # registered while the candidate runs (a module it imported): not what the tests hold

_FRAME_LIBS = tuple(os.sep + n for n in ("inspect.py", "bdb.py", "pdb.py", "cgitb.py"))
_FRAME_PKGS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "py" + os.sep)
_GRADER_PKGS = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep, os.sep + "pytest" + os.sep)
_STACK_FNS = frozenset(("print_stack", "format_stack", "extract_stack", "walk_stack", "walk_tb", "currentframe",
                        "formatStack"))
_TEXT_LIBS = (os.sep + "traceback.py", os.sep + os.path.join("logging", "__init__.py"))
# The harness and, beside it, the grader's package whose worker code runs the check (zygote):
# both sit in one folder (a checkout, site-packages, the bundle a remote runner unpacks).
_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_HARNESS_ROOT = tuple(os.path.join(_PARENT, name, "") for name in ("rlvr_harness", "rlvr_grade"))


class Registry(NamedTuple):
    """The registry's operations (closures over its tables; see make_registry)."""

    category: Callable[[Any], int]  # LIBRARY / HARNESS / TESTS, 0 for code nobody vouches for
    flags: Callable[[Any], int]  # the category and the flags above, 0 for unknown code
    add: Callable[..., None]  # add(code, category, extra flags) with every code object inside it
    library_class: Callable[[Any], bool]  # a class the grader vouches for (or a C type)
    add_class: Callable[[Any], None]
    add_module: Callable[[Any], None]  # a module's functions and classes (imported pre-candidate)
    names: Callable[[Any], frozenset]  # names a code object mentions (co_names, string constants)
    scan: Callable[[], None]  # everything alive in this process now (before any candidate code)
    verified: Callable[[Any, Callable[[str], bytes], Callable[[bytes], Any], Callable[..., Any]], bool]
    # the frame fence over its table (_dictver.fence_frames: once per process), or None where
    # the extension or the interpreter has none
    fence_frames: Callable[[], Any]


def _flags_for(code: CodeType, category: int) -> int:
    fn, name = code.co_filename, code.co_name
    flags = category
    if category == LIBRARY:
        if name != "<module>" and (fn.endswith(_FRAME_LIBS) or any(p in fn for p in _FRAME_PKGS)):
            flags |= FRAME_API
        if name in _STACK_FNS and fn.endswith(_TEXT_LIBS):
            flags |= TEXT_STACK
        if fn.endswith(os.sep + "weakref.py") and name in ("__call__", "_exitfunc"):
            flags |= TRAMPOLINE
        if name == "<lambda>" and fn.endswith(_TEXT_LIBS[1]):
            flags |= LOGGING_LAMBDA
        if fn.endswith(os.sep + "inspect.py") and name in ("_signature_from_function", "_signature_is_functionlike"):
            flags |= SIGNATURE
        if any(p in fn for p in _GRADER_PKGS):
            flags |= GRADER
        if fn.endswith(_TEXT_LIBS[0]) and name in ("_extract_from_extended_frame_gen", "extract"):
            flags |= CAPTURE
    return flags


def category_of_file(filename: str) -> int:
    """The category of code loaded from `filename` before any candidate code ran."""
    return HARNESS if filename.startswith(_HARNESS_ROOT) else LIBRARY


def make_registry() -> Registry:
    codes: dict[int, tuple[CodeType, int]] = {}
    classes: dict[int, type] = {}
    named: dict[int, tuple[CodeType, frozenset]] = {}
    code_type, function_type, _type, _id, _str = CodeType, FunctionType, type, id, str
    flags_of_type = type.__dict__["__flags__"].__get__
    mro_of = type.__dict__["__mro__"].__get__
    subclasses = type.__subclasses__
    heap, immutable = 1 << 9, 1 << 8

    def flags(code: Any) -> int:
        entry = codes.get(_id(code))
        return entry[1] if entry is not None and entry[0] is code else 0

    def category(code: Any) -> int:
        return flags(code) & 0xF

    def add(code: Any, cat: int, extra: int = 0) -> None:
        if _type(code) is not code_type:
            return
        stack = [code]
        while stack:
            c = stack.pop()
            if _id(c) in codes and codes[_id(c)][0] is c:
                continue
            codes[_id(c)] = (c, (_flags_for(c, cat) if cat == LIBRARY else cat) | extra)
            for k in c.co_consts:
                if _type(k) is code_type:
                    stack.append(k)

    def library_class(cls: Any) -> bool:
        if _type(cls) is not type and type not in mro_of(_type(cls)):
            return False  # not a class (a metaclass cannot answer this: mro_of is type's own getter)
        f = flags_of_type(cls)
        if not (f & heap) or (f & immutable):
            return True  # a C type: no class statement makes one
        return classes.get(_id(cls)) is cls

    def add_class(cls: Any) -> None:
        stack = [cls]
        while stack:
            c = stack.pop()
            if classes.get(_id(c)) is c:
                continue
            classes[_id(c)] = c
            try:
                stack.extend(subclasses(c))
            except TypeError:  # `type` itself wants an argument
                stack.extend(subclasses(type))

    def add_module(mod: Any) -> None:
        """A module imported before the candidate starts: its functions and classes (and the
        functions in those classes' dicts)."""
        try:
            items = list(vars(mod).values())
        except TypeError:
            return
        cat = category_of_file(_str(getattr(mod, "__file__", None) or ""))
        for value in items:
            if _type(value) is function_type:
                add(value.__code__, cat)
            elif isinstance(value, type) and classes.get(_id(value)) is not value:
                classes[_id(value)] = value
                for member in list(vars(value).values()):
                    fn = getattr(member, "__func__", member)
                    if _type(fn) is function_type:
                        add(fn.__code__, cat)

    def names(code: Any) -> frozenset:
        entry = named.get(_id(code))
        if entry is not None and entry[0] is code:
            return entry[1]
        found = set(code.co_names)
        stack = list(code.co_consts)
        while stack:
            k = stack.pop()
            if _type(k) is _str:
                found.add(k)
            elif _type(k) is tuple or _type(k) is frozenset:
                stack.extend(k)
        result = frozenset(found)
        named[_id(code)] = (code, result)
        return result

    def scan() -> None:
        """Register everything alive now: run in the worker before any candidate code."""
        import gc
        import sys

        for obj in gc.get_objects():
            if _type(obj) is function_type:
                code = obj.__code__
                add(code, category_of_file(code.co_filename))
        frame = sys._getframe()
        while frame is not None:
            add(frame.f_code, category_of_file(frame.f_code.co_filename))
            frame = frame.f_back
        add_class(object)

    def verified(code: Any, read: Callable[[str], bytes], loads: Callable[[bytes], Any],
                 compile_: Callable[..., Any]) -> bool:
        """Whether `code` is exactly the compiled form of the library file its name points to:
        the file's cached bytecode or, without one, the file compiled here. `code ==` compares
        bytecode, constants (nested code included) and names, never the file name. The caller
        has checked the name is a path on the library tree, which a check cannot write."""
        path = code.co_filename
        cached = _cache_path(path)
        if cached is not None:
            try:
                data = read(cached)
            except OSError:
                data = b""
            if len(data) > 16:
                try:
                    if loads(data[16:]) == code:
                        return True
                except (ValueError, EOFError, TypeError):
                    pass
        try:
            source = read(path)
        except OSError:
            return False
        try:
            return compile_(source, path, "exec", dont_inherit=True) == code
        except (SyntaxError, ValueError):
            return False

    def fence_frames() -> Any:
        try:
            from rlvr_harness import _dictver
        except ImportError:
            return None
        make = getattr(_dictver, "fence_frames", None)
        return make(codes) if make is not None else None

    return Registry(category, flags, add, library_class, add_class, add_module, names, scan, verified, fence_frames)


def _cache_path(source: str) -> str | None:
    """importlib.util.cache_from_source without importing importlib.util per call (and
    without its sys.flags/sys.implementation lookups, which the candidate can rebind)."""
    head, tail = os.path.split(source)
    base, ext = os.path.splitext(tail)
    if ext != ".py":
        return None
    return os.path.join(head, "__pycache__", f"{base}.{_TAG}.pyc")


_TAG = __import__("sys").implementation.cache_tag
